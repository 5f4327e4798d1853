"""The fields of a schema.org product node: its name, brand and codes, and from the
offer a shopper gets (the variant the URL selects, else the first that can be bought)
its price (``price``, an AggregateOffer's ``lowPrice``, the sale price of a price
specification), currency and availability.

Pure: no Scrapy, no I/O. :func:`webrobot.extract.product.product` is the entry point.
"""

from __future__ import annotations

import re
from typing import Any

from webrobot.extract.headtags import as_list, type_names
from webrobot.extract.product.codes import GTIN_KEYS, gtin_of, product_code
from webrobot.extract.product.context import ProductContext, fill, node_text
from webrobot.extract.product.prices import availability, parse_price_text, price_amount

#: Availabilities of an offer that can be bought now or ordered.
_BUYABLE = frozenset(
    {"InStock", "LimitedAvailability", "OnlineOnly", "InStoreOnly", "PreOrder", "PreSale"}
)

_LIST_PRICE = re.compile(
    r"list|strikethrough|srp|msrp|rrp|was|regular|original|compare", re.IGNORECASE
)


def node_fields(node: dict[str, Any], ctx: ProductContext) -> dict[str, Any]:
    """A product node's fields (a ProductGroup's from its variants' offers)."""
    fields: dict[str, Any] = {
        "name": node_text(node.get("name")),
        "brand": node_text(node.get("brand")) or node_text(node.get("manufacturer")),
        "sku": product_code(node.get("sku")),
        "gtin": gtin_of(node),
        "mpn": product_code(node.get("mpn")),
    }
    offers = _offers(node)
    chosen = _choose_offer(offers, ctx)
    if chosen is not None:
        price, currency = _offer_price(chosen, ctx)
        fields["price"] = price
        fields["currency"] = currency
        fields["availability"] = availability(node_text(chosen.get("availability")) or "")
        fill(
            fields,
            {
                "sku": product_code(chosen.get("sku")),
                "gtin": gtin_of(chosen),
                "mpn": product_code(chosen.get("mpn")),
            },
        )
        if fields["availability"] is None:
            for offer in offers:
                found = availability(node_text(offer.get("availability")) or "")
                if found:
                    fields["availability"] = found
                    break
    if fields["sku"] is None and "ProductGroup" not in type_names(node):
        fields["sku"] = product_code(node.get("productID"))
    return fields


def _offers(node: dict[str, Any]) -> list[dict[str, Any]]:
    """The product's offers, an AggregateOffer's own ones after it; a ProductGroup's
    variants' offers (each with the variant's sku, gtin and mpn)."""
    offers: list[dict[str, Any]] = []
    for offer in as_list(node.get("offers")):
        if isinstance(offer, dict):
            offers.append(offer)
            offers.extend(o for o in as_list(offer.get("offers")) if isinstance(o, dict))
    for variant in as_list(node.get("hasVariant")):
        if not isinstance(variant, dict):
            continue
        for offer in as_list(variant.get("offers")):
            if isinstance(offer, dict):
                merged = {k: variant.get(k) for k in ("sku", "mpn", *GTIN_KEYS) if variant.get(k)}
                offers.append({**merged, **offer, "_variant_url": variant.get("url")})
    return offers


def _choose_offer(offers: list[dict[str, Any]], ctx: ProductContext) -> dict[str, Any] | None:
    priced = [o for o in offers if _has_price(o)]
    if not priced:
        return offers[0] if offers else None
    if ctx.variant:
        for offer in priced:
            urls = " ".join(
                str(u) for u in (offer.get("url"), offer.get("_variant_url"), offer.get("sku")) if u
            )
            if ctx.variant in urls:
                return offer
    # The variant a shop shows first is its first one that can be bought (Shopify's
    # selected_or_first_available_variant), so its price and availability are the page's.
    for offer in priced:
        if availability(node_text(offer.get("availability")) or "") in _BUYABLE:
            return offer
    return priced[0]


def _has_price(offer: dict[str, Any]) -> bool:
    return any(
        offer.get(k) not in (None, "", [])
        for k in ("price", "lowPrice", "priceSpecification", "highPrice")
    )


def _offer_price(offer: dict[str, Any], ctx: ProductContext) -> tuple[str | None, str | None]:
    currency = ctx.currency(node_text(offer.get("priceCurrency")) or "")
    raw: Any = None
    for key in ("price", "lowPrice"):
        value = offer.get(key)
        if isinstance(value, list):
            value = value[0] if value else None
        if value not in (None, ""):
            raw = value
            break
    if raw is None:
        specs = [s for s in as_list(offer.get("priceSpecification")) if isinstance(s, dict)]
        specs.sort(key=lambda s: bool(_LIST_PRICE.search(str(s.get("priceType", "")))))
        for spec in specs:
            if spec.get("price") not in (None, ""):
                raw = spec["price"]
                currency = currency or ctx.currency(node_text(spec.get("priceCurrency")) or "")
                break
    if raw is None:
        raw = offer.get("highPrice")
    if isinstance(raw, dict):
        raw = raw.get("@value", raw.get("price"))
    price = price_amount(raw)
    if currency is None and isinstance(raw, str):
        currency = ctx.currency(parse_price_text(raw)[1] or "")
    return price, currency
