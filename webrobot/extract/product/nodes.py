"""Which schema.org node is the page's product: every Product (ProductGroup, Vehicle...)
of its JSON-LD (references to other nodes resolved), microdata and RDFa (compacted to
JSON-LD's shape), and the one of them that is the page's own.

Pure: no Scrapy, no I/O. :func:`webrobot.extract.product.product` is the entry point.
"""

from __future__ import annotations

import re
from typing import Any

from webrobot.extract.headtags import absolute_url, as_list, jsonld_nodes, node_index, type_names
from webrobot.extract.product.codes import GTIN_KEYS, gtin_of
from webrobot.extract.product.context import ProductContext, comparable, node_text

PRODUCT_TYPES = frozenset({
    "Product", "ProductGroup", "ProductModel", "IndividualProduct", "SomeProducts",
    "Vehicle", "Car", "Motorcycle",
})  # fmt: skip
#: The same names as pages write them in any case ("@type": "product"): schema.org's names
#: are case-sensitive, but no other type shares these letters, and search engines take them.
_PRODUCT_TYPES_FOLDED = frozenset(t.casefold() for t in PRODUCT_TYPES)


def structured_products(structured: dict[str, Any]) -> list[dict[str, Any]]:
    """Top-level product nodes of every syntax, JSON-LD first (compacted to
    JSON-LD's shape for RDFa)."""
    found: list[dict[str, Any]] = []
    jsonld = [i for i in as_list(structured.get("json-ld")) if isinstance(i, dict)]
    nodes = jsonld_nodes(jsonld)
    index = node_index(nodes)
    for node in nodes:
        if _is_product(node):
            found.append(_resolve_refs(node, index, 0))
    for item in as_list(structured.get("microdata")):
        for node in jsonld_nodes([item]) if isinstance(item, dict) else []:
            if _is_product(node):
                found.append(node)
    found.extend(n for n in _compact_rdfa(as_list(structured.get("rdfa"))) if _is_product(n))
    return found


def _is_product(node: dict[str, Any]) -> bool:
    return any(t.casefold() in _PRODUCT_TYPES_FOLDED for t in type_names(node))


def _resolve_refs(value: Any, index: dict[str, dict[str, Any]], depth: int) -> Any:
    """``value`` with ``{"@id": ...}`` references to other nodes replaced by the nodes."""
    if depth > 5:
        return value
    if isinstance(value, list):
        return [_resolve_refs(v, index, depth + 1) for v in value]
    if isinstance(value, dict):
        ref = value.get("@id")
        if set(value) <= {"@id", "@type"} and isinstance(ref, str) and ref in index:
            target = index[value["@id"]]
            if target is not value:
                return _resolve_refs(target, index, depth + 1)
        return {
            k: _resolve_refs(v, index, depth + 1) if k != "@id" else v for k, v in value.items()
        }
    return value


def _compact_rdfa(items: list[Any]) -> list[dict[str, Any]]:
    """RDFa's expanded JSON-LD as plain nodes (``{"name": "X", "offers": {...}}``)."""
    by_id = {i["@id"]: i for i in items if isinstance(i, dict) and isinstance(i.get("@id"), str)}

    def compact(node: dict[str, Any], depth: int) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for key, values in node.items():
            if key == "@id":
                out[key] = values
                continue
            name = re.split(r"[/#:]", key.rstrip("/"))[-1] if key != "@type" else "@type"
            converted = []
            for value in as_list(values):
                if isinstance(value, dict) and "@value" in value:
                    converted.append(value["@value"])
                elif isinstance(value, dict) and isinstance(value.get("@id"), str):
                    target = by_id.get(value["@id"])
                    if target is not None and target is not node and depth < 4:
                        converted.append(compact(target, depth + 1))
                    else:
                        converted.append(value["@id"])
                else:
                    converted.append(value)
            out[name] = converted[0] if len(converted) == 1 else converted
        return out

    referenced = {
        v["@id"]
        for i in items if isinstance(i, dict)
        for vs in i.values() for v in as_list(vs)
        if isinstance(v, dict) and set(v) == {"@id"} and isinstance(v["@id"], str)
    }  # fmt: skip
    return [
        compact(i, 0)
        for i in items
        if isinstance(i, dict) and not (isinstance(i.get("@id"), str) and i["@id"] in referenced)
    ]


def main_product(candidates: list[dict[str, Any]], ctx: ProductContext) -> dict[str, Any] | None:
    """The page's own product: the only one (the same product told in several
    syntaxes counts once), or the one whose URL is the page's."""
    if not candidates:
        return None
    # A node with neither name nor sku (OpenGraph's product told in RDFa: a URL, an
    # image) cannot be told from the page's product: it is that product, not another.
    named = [c for c in candidates if node_text(c.get("name")) or node_text(c.get("sku"))]
    named = named or candidates
    keys = {_product_key(c) for c in named}
    if len(keys) == 1:
        return _variants_as_group(named) or _one_of_variants(named, _richest(candidates))
    own = [c for c in candidates if comparable(_first_str(c.get("url"), ctx.base)) in ctx.page_urls]
    if own:
        return _richest(own)
    groups = [c for c in candidates if "ProductGroup" in type_names(c)]
    if len(groups) == 1:
        return groups[0]
    with_offers = [c for c in candidates if c.get("offers")]
    if len(with_offers) == 1:
        return with_offers[0]
    return None


def _variants_as_group(candidates: list[dict[str, Any]]) -> dict[str, Any] | None:
    """Products of one name with different skus are the variants of one product (a
    shoe told once per size): one ProductGroup of them, its sku the stem they share
    (``84518927-040-35``, ``84518927-040-36`` -> ``84518927-040``)."""
    skus = [s for s in (node_text(c.get("sku")) for c in candidates) if s]
    if len(set(skus)) < 2:
        return None
    group = {k: v for k, v in _richest(candidates).items() if k not in ("offers", "sku", "@type")}
    group["@type"] = "ProductGroup"
    group["hasVariant"] = candidates
    stem = re.sub(r"[^-_/. ]*$", "", _common_prefix(skus)).rstrip("-_/. ")
    if len(stem) >= 4:
        group["sku"] = stem
    return group


def _one_of_variants(named: list[dict[str, Any]], richest: dict[str, Any]) -> dict[str, Any]:
    """The richest of one product's nodes; when they are variants told apart only by
    their GTINs (a size's EAN each), without its GTIN: none of them is the page's."""
    if len({gtin_of(c) for c in named} - {None}) < 2:
        return richest
    return {k: v for k, v in richest.items() if k not in GTIN_KEYS}


def _common_prefix(texts: list[str]) -> str:
    first, last = min(texts), max(texts)
    size = next(
        (i for i, (a, b) in enumerate(zip(first, last, strict=False)) if a != b), len(first)
    )
    return first[:size]


def _richest(candidates: list[dict[str, Any]]) -> dict[str, Any]:
    return max(candidates, key=lambda c: (bool(c.get("offers")), len(c)))


def _product_key(node: dict[str, Any]) -> str:
    name = node_text(node.get("name")) or ""
    return re.sub(r"\W+", " ", name).strip().lower() or str(node_text(node.get("sku")) or id(node))


def _first_str(value: Any, base: str) -> str | None:
    for member in as_list(value):
        if isinstance(member, str):
            return absolute_url(member, base)
        if isinstance(member, dict):
            inner = member.get("@id") or member.get("url")
            if isinstance(inner, str):
                return absolute_url(inner, base)
    return None
