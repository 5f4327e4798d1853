"""Product fields of a shop's product page: name, price, currency, availability,
sku, gtin, mpn, brand.

Structured data first: the page's schema.org Product (or ProductGroup, with its
variants' offers) in JSON-LD, microdata or RDFa, its Offer, AggregateOffer
(``lowPrice``) or price specification; then OpenGraph's product tags
(``product:price:amount``, ``og:price:amount``, ``product:availability``...).
What is still missing is read from the markup a shop page shows: ``itemprop``
attributes outside any item, the price element next to the buy button (the
sale price, never the crossed-out one), currency signs and codes, stock
messages in several languages, the state of the buy button, labelled
``SKU:``/``EAN:``/``MPN:`` values.

A page is a product page when it has one main schema.org product, OpenGraph
says ``og:type`` product, or it shows a price and one buy button; a listing
(several products, many buy buttons) is not: :func:`product` gives ``None``.

Pure: no Scrapy, no I/O. Needs the ``mining`` extra (extruct, price-parser)
unless ``structured`` is passed and no price text needs reading.
"""

from __future__ import annotations

import re
from itertools import islice
from typing import TYPE_CHECKING, Any
from urllib.parse import parse_qs, urlsplit

from webrobot.extract.headtags import (
    HeadTags,
    absolute_url,
    as_list,
    clean_text,
    head_tags,
    jsonld_nodes,
    node_index,
    type_names,
)
from webrobot.extract.htmltree import base_url, html_root
from webrobot.extract.metadata import language_tag
from webrobot.extract.prices import (
    availability,
    availability_in_text,
    currency_code,
    parse_price_text,
    price_amount,
)

if TYPE_CHECKING:
    from webrobot.extract.page import SourcePage

FIELDS = ("name", "price", "currency", "availability", "sku", "gtin", "mpn", "brand")
PRODUCT_TYPES = frozenset({
    "Product", "ProductGroup", "ProductModel", "IndividualProduct", "SomeProducts",
    "Vehicle", "Car", "Motorcycle",
})  # fmt: skip
OG_PRODUCT_TYPES = frozenset(
    {"product", "og:product", "product.item", "product.group", "books.book"}
)
#: More buy buttons than this, with no structured product, is a listing.
MAX_BUY_BUTTONS = 3
#: Item types whose ``itemprop`` values are the product's own.
_OWN_ITEM_TYPES = frozenset({
    *PRODUCT_TYPES, "Offer", "AggregateOffer", "Brand", "PriceSpecification",
    "UnitPriceSpecification", "Organization",
})  # fmt: skip
_BUYABLE = frozenset(
    {"InStock", "LimitedAvailability", "OnlineOnly", "InStoreOnly", "PreOrder", "PreSale"}
)
_GTIN_KEYS = ("gtin13", "gtin", "gtin12", "gtin14", "gtin8", "ean", "upc", "isbn")
_LIST_PRICE = re.compile(
    r"list|strikethrough|srp|msrp|rrp|was|regular|original|compare", re.IGNORECASE
)


_BUY = re.compile(
    r"add[\s_-]*to[\s_-]*(?:cart|bag|basket|trolley)|addtocart|buy[\s_-]*(?:it[\s_-]*)?now|"
    r"in\s+den\s+(?:warenkorb|einkaufswagen)|warenkorb|ajouter\s+au\s+panier|añadir\s+al\s+carrito|"
    r"agregar\s+al\s+carrito|adicionar\s+(?:ao|à)\s+(?:carrinho|sacola)|comprar(?:\s+agora)?|"
    r"aggiungi\s+al\s+carrello|in\s+(?:de\s+)?winkel(?:wagen|mand)|lägg\s+i\s+varukorg|"
    r"læg\s+i\s+kurv|legg\s+i\s+handlekurv|do\s+koszyka|カートに入れる|カートに追加|加入购物车|立即购买|"
    r"pre[\s-]?order\s+now|vorbestellen|précommander",
    re.IGNORECASE,
)
_BUY_CLASS = re.compile(
    r"add[-_]?to[-_]?(?:cart|bag|basket)|addtocart|single_add_to_cart|btn[-_]cart|"
    r"product-form__(?:submit|cart)|buy[-_]?button|tocart|add-to-cart|product-add",
    re.IGNORECASE,
)
_PRICE_CLASS = re.compile(
    r"price|preis|prix|precio|preco|prezzo|prijs|pris|cena|amount", re.IGNORECASE
)
#: Class words of a price that is not the one to pay: always, or (weak) only when a
#: sale price stands beside it (Shopify's ``price-item--regular`` is the price when
#: nothing is on sale).
_OLD_WORDS = frozenset({
    "old", "was", "compare", "compareat", "strike", "strikethrough", "crossed", "rrp", "msrp",
    "uvp", "before", "previous", "oldprice", "saving", "savings", "save", "discount", "percent",
    "unit", "perunit", "installment", "installments", "monthly", "shipping", "rating", "tax",
    "vat", "label", "excl", "excluding",
})  # fmt: skip
_WEAK_OLD_WORDS = frozenset(
    {"regular", "list", "listprice", "original", "retail", "regularprice", "reference"}
)
_SALE_WORDS = frozenset({
    "sale", "special", "final", "current", "now", "promo", "new", "offer", "actual", "finalprice",
    "saleprice", "specialprice", "pricenew", "ourprice", "last",
})  # fmt: skip
#: Class words of what is not the product's own (related products, mini cart, menus).
_ASIDE_WORDS = frozenset({
    "header", "footer", "nav", "navbar", "navigation", "menu", "breadcrumb", "breadcrumbs",
    "newsletter", "sidebar", "related", "upsell", "upsells", "crosssell", "crosssells",
    "recommendations", "recommended", "recommendation", "recently", "minicart", "drawer",
    "similar", "also",
})  # fmt: skip
_MAIN_WORDS = frozenset({"product", "main", "page", "pdp", "detail", "details", "info"})
_STOCK_CLASS = re.compile(r"stock|availab|inventory|lieferbar|verfuegbar|disponib", re.IGNORECASE)
_SKU_LABEL = re.compile(
    r"(?:\bSKU|\bArt(?:ikel)?[.\s-]*(?:Nr|No)\.?|Artikelnummer|Référence|R[ée]f\.|Item\s*(?:#|No\.?|number|code)|"
    r"Product\s*(?:code|ID|number)|Código|Cod\.\s*art\.?|Codice|Modelo?\s*#|Style\s*(?:#|No\.?)|"
    r"Kod\s+produktu|Nr\s+katalogowy|Vare(?:nummer|nr\.?)|Tuotenumero|Ürün\s+kodu|品番|商品番号|商品コード|货号|商品编号)"
    r"\s*[:#.：]?\s*(?P<v>[A-Z0-9][A-Z0-9._/-]{1,39})",
    re.IGNORECASE,
)
_GTIN_LABEL = re.compile(
    r"\b(?:EAN(?:-?13|-?8)?|GTIN(?:-?1[234]|-?8)?|UPC(?:-?A)?|ISBN(?:-?13)?|JAN)\s*[:#]?\s*"
    r"(?P<v>\d[\d -]{6,18}\d)",
    re.IGNORECASE,
)
_MPN_LABEL = re.compile(
    r"(?:\bMPN|Mfr\.?\s*Part\s*(?:#|No\.?|Number)|Manufacturer\s+Part\s+(?:Number|No\.?)|"
    r"Herstellernummer|Hersteller[-\s]?Nr\.?|Hersteller-Artikelnummer|Réf(?:érence)?\s+fabricant|"
    r"Part\s*(?:#|Number|No\.?)|Model\s+(?:Number|No\.?))\s*[:#.]?\s*(?P<v>[A-Z0-9][A-Z0-9._/-]{1,39})",
    re.IGNORECASE,
)
_BRAND_LABEL = re.compile(
    r"\b(?:Brand|Marke|Marque|Marca|Merk|Märke|Hersteller|Manufacturer|Fabricant|Fabricante)"
    r"[ \t]*(?::[ \t]*\n?|\n)[ \t]*(?P<v>[^\n|:]{1,60})",
    re.IGNORECASE,
)
_PRICE_TEXT_MAX = 80


def product(page: SourcePage, structured: dict[str, Any] | None = None) -> dict[str, Any] | None:
    """The product fields of a product page (every key of :data:`FIELDS`, ``None``
    where unknown), or ``None`` for a page that is not one."""
    root = html_root(page)
    base = base_url(page, root)
    if structured is None:
        from webrobot.extract.structured import structured_data

        structured = structured_data(page)
    tags = head_tags(root)
    ctx = _Context(page, root, base, tags)
    candidates = _structured_products(structured)
    main = _main_product(candidates, ctx)
    listing = main is None and len(candidates) > 1
    fields: dict[str, Any] = dict.fromkeys(FIELDS)
    if main is not None:
        _fill(fields, _from_node(main, ctx))
    og_product = (tags.first("og:type") or "").lower() in OG_PRODUCT_TYPES
    _fill(fields, _from_meta(tags, ctx, og_product))
    markup = _Markup(root, ctx) if root is not None else None
    if main is None and not og_product and (markup is None or listing or not markup.has_evidence()):
        return None  # most pages of the web: no product, no buy button, no price markup
    if markup is not None and not listing:
        _fill(fields, markup.fields())
    if (
        main is None
        and not og_product
        and (listing or markup is None or not markup.looks_like_product_page(fields))
    ):
        return None
    if fields["currency"] is None and fields["price"] is not None and markup is not None:
        fields["currency"] = markup.page_currency()
    if fields["name"] is None and markup is not None:
        fields["name"] = markup.heading()
    fields["name"] = _without_site_name(fields["name"], _site_names(structured, tags))
    if not any(fields[k] for k in ("name", "price", "sku", "gtin")):
        return None
    return fields


#: Words around an amount that make it something else than the price to pay.
_NOT_THE_PRICE = re.compile(
    r"tax|excl|inkl|incl|shipping|delivery|versand|livraison|envío|save|was\b|rrp|msrp|uvp|%|"
    r"item\(s\)|items?\b|total|/\s*(?:month|mo|kg|l|m)\b",
    re.IGNORECASE,
)
_SEPARATORS = (" | ", " - ", " – ", " — ", " :: ", " » ", " · ")


def _site_names(structured: dict[str, Any], tags: HeadTags) -> set[str]:
    """The shop's own names: OpenGraph's site name, the application name, JSON-LD's WebSite."""
    names = {tags.first("og:site_name"), tags.first("application-name")}
    for node in jsonld_nodes(
        [i for i in as_list(structured.get("json-ld")) if isinstance(i, dict)]
    ):
        if "WebSite" in type_names(node):
            names.add(_text(node.get("name")))
    return {n.casefold() for n in names if n}


def _without_site_name(name: str | None, sites: set[str]) -> str | None:
    """``Mug - Hollow Oak Pottery`` -> ``Mug`` when the tail is the shop's name (some
    platforms write it into the product's name)."""
    if not name:
        return name
    for separator in _SEPARATORS:
        head, found, tail = name.rpartition(separator)
        if found and head.strip() and tail.strip().casefold() in sites:
            return head.strip()
    return name


def _title_without_site(title: str) -> str:
    """A document title without a short trailing site part (``Pan 26cm | Kitchen Tokyo``)."""
    for separator in _SEPARATORS:
        head, found, tail = title.rpartition(separator)
        if found and head.strip() and len(tail) <= 40 and len(head) >= len(tail):
            return head.strip()
    return title


def _fill(fields: dict[str, Any], found: dict[str, Any]) -> None:
    for key, value in found.items():
        if fields.get(key) is None and value not in (None, ""):
            fields[key] = value


class _Context:
    def __init__(self, page: SourcePage, root: Any, base: str, tags: HeadTags) -> None:
        self.url = page.url or ""
        self.base = base
        try:
            host = urlsplit(self.url).hostname or ""
        except ValueError:
            host = ""
        self.tld = host.rsplit(".", 1)[-1] if "." in host else ""
        lang = None
        if root is not None:
            try:
                lang = root.getroottree().getroot().get("lang")
            except (AttributeError, ValueError):
                lang = None
        self.language = (
            language_tag(lang)
            or language_tag(tags.first("og:locale") or "")
            or language_tag(page.header("content-language") or "")
            or ""
        )
        self.page_urls = {_comparable(self.url)} | {
            _comparable(absolute_url(u, base)) for u in tags.links.get("canonical", [])
        }
        try:
            query = parse_qs(urlsplit(self.url).query)
        except ValueError:
            query = {}
        self.tags = tags
        self.variant = (query.get("variant") or query.get("sku") or query.get("v") or [""])[0]

    def currency(self, value: Any) -> str | None:
        return currency_code(value, tld=self.tld, language=self.language)


def _comparable(url: str | None) -> str | None:
    if not url:
        return None
    return (
        url.split("#")[0]
        .split("?")[0]
        .rstrip("/")
        .replace("://www.", "://")
        .replace("https://", "http://")
    )


# --- structured data ---------------------------------------------------------------------


def _structured_products(structured: dict[str, Any]) -> list[dict[str, Any]]:
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
    return any(t in PRODUCT_TYPES for t in type_names(node))


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


def _main_product(candidates: list[dict[str, Any]], ctx: _Context) -> dict[str, Any] | None:
    """The page's own product: the only one (the same product told in several
    syntaxes counts once), or the one whose URL is the page's."""
    if not candidates:
        return None
    keys = {_product_key(c) for c in candidates}
    if len(keys) == 1:
        return _richest(candidates)
    own = [
        c for c in candidates if _comparable(_first_str(c.get("url"), ctx.base)) in ctx.page_urls
    ]
    if own:
        return _richest(own)
    groups = [c for c in candidates if "ProductGroup" in type_names(c)]
    if len(groups) == 1:
        return groups[0]
    with_offers = [c for c in candidates if c.get("offers")]
    if len(with_offers) == 1:
        return with_offers[0]
    return None


def _richest(candidates: list[dict[str, Any]]) -> dict[str, Any]:
    return max(candidates, key=lambda c: (bool(c.get("offers")), len(c)))


def _product_key(node: dict[str, Any]) -> str:
    name = _text(node.get("name")) or ""
    return re.sub(r"\W+", " ", name).strip().lower() or str(_text(node.get("sku")) or id(node))


def _first_str(value: Any, base: str) -> str | None:
    for member in as_list(value):
        if isinstance(member, str):
            return absolute_url(member, base)
        if isinstance(member, dict):
            inner = member.get("@id") or member.get("url")
            if isinstance(inner, str):
                return absolute_url(inner, base)
    return None


def _text(value: Any) -> str | None:
    """The first non-empty text of a value (a string, a number, a ``name``d node, a list)."""
    for member in as_list(value):
        if isinstance(member, dict):
            member = member.get("name", member.get("@value"))
            if isinstance(member, list):
                member = member[0] if member else None
        if isinstance(member, str | int) and not isinstance(member, bool):
            text = clean_text(member)
            if text:
                return text
    return None


def _from_node(node: dict[str, Any], ctx: _Context) -> dict[str, Any]:
    fields: dict[str, Any] = {
        "name": _text(node.get("name")),
        "brand": _text(node.get("brand")) or _text(node.get("manufacturer")),
        "sku": _code(node.get("sku")),
        "gtin": _gtin_of(node),
        "mpn": _code(node.get("mpn")),
    }
    offers = _offers(node)
    chosen = _choose_offer(offers, ctx)
    if chosen is not None:
        price, currency = _offer_price(chosen, ctx)
        fields["price"] = price
        fields["currency"] = currency
        fields["availability"] = availability(_text(chosen.get("availability")) or "")
        _fill(
            fields,
            {
                "sku": _code(chosen.get("sku")),
                "gtin": _gtin_of(chosen),
                "mpn": _code(chosen.get("mpn")),
            },
        )
        if fields["availability"] is None:
            for offer in offers:
                found = availability(_text(offer.get("availability")) or "")
                if found:
                    fields["availability"] = found
                    break
    if fields["sku"] is None and "ProductGroup" not in type_names(node):
        fields["sku"] = _code(node.get("productID"))
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
                merged = {k: variant.get(k) for k in ("sku", "mpn", *_GTIN_KEYS) if variant.get(k)}
                offers.append({**merged, **offer, "_variant_url": variant.get("url")})
    return offers


def _choose_offer(offers: list[dict[str, Any]], ctx: _Context) -> dict[str, Any] | None:
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
        if availability(_text(offer.get("availability")) or "") in _BUYABLE:
            return offer
    return priced[0]


def _has_price(offer: dict[str, Any]) -> bool:
    return any(
        offer.get(k) not in (None, "", [])
        for k in ("price", "lowPrice", "priceSpecification", "highPrice")
    )


def _offer_price(offer: dict[str, Any], ctx: _Context) -> tuple[str | None, str | None]:
    currency = ctx.currency(_text(offer.get("priceCurrency")) or "")
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
                currency = currency or ctx.currency(_text(spec.get("priceCurrency")) or "")
                break
    if raw is None:
        raw = offer.get("highPrice")
    if isinstance(raw, dict):
        raw = raw.get("@value", raw.get("price"))
    price = price_amount(raw)
    if currency is None and isinstance(raw, str):
        currency = ctx.currency(parse_price_text(raw)[1] or "")
    return price, currency


def _code(value: Any) -> str | None:
    text = _text(value)
    if text is None or len(text) > 64:
        return None
    return text


def _gtin_of(node: dict[str, Any]) -> str | None:
    for key in _GTIN_KEYS:
        gtin = gtin_digits(_text(node.get(key)))
        if gtin:
            return gtin
    return None


def gtin_digits(value: str | None) -> str | None:
    """A GTIN (8, 12, 13 or 14 digits, an ISBN-13) from ``value``, spaces and dashes
    removed, or ``None`` when it is no GTIN."""
    if not value:
        return None
    digits = re.sub(r"[\s-]", "", value)
    digits = re.sub(r"^(?:gtin|ean|upc|isbn)\d*:?", "", digits, flags=re.IGNORECASE)
    if not digits.isdigit() or len(digits) not in (8, 12, 13, 14):
        return None
    return digits


def valid_gtin(digits: str) -> bool:
    """Whether the GTIN's check digit is right."""
    if not digits.isdigit() or len(digits) not in (8, 12, 13, 14):
        return False
    body, check = digits[:-1], int(digits[-1])
    total = sum(int(d) * (3 if i % 2 == 0 else 1) for i, d in enumerate(reversed(body)))
    return (10 - total % 10) % 10 == check


# --- OpenGraph and meta tags -------------------------------------------------------------


def _from_meta(tags: HeadTags, ctx: _Context, og_product: bool) -> dict[str, Any]:
    raw_price = tags.first(
        "product:sale_price:amount", "product:price:amount", "og:price:amount", "product:price"
    )
    currency = tags.first(
        "product:sale_price:currency", "product:price:currency", "og:price:currency"
    )
    fields: dict[str, Any] = {
        "price": price_amount(raw_price) if raw_price else None,
        "currency": ctx.currency(currency or ""),
        "availability": availability(tags.first("product:availability", "og:availability") or ""),
        "brand": tags.first("product:brand", "og:brand"),
        "sku": tags.first("product:retailer_item_id", "product:sku", "product:retailer_part_no"),
        "gtin": gtin_digits(
            tags.first("product:ean", "product:upc", "product:gtin", "product:isbn", "books:isbn")
        ),
        "mpn": tags.first("product:mfr_part_no"),
    }
    if og_product:
        fields["name"] = tags.first("og:title")
    if fields["price"] is None:
        # Shopify-style Twitter cards: twitter:label1 "Price", twitter:data1 "$1,299.00".
        for n in range(1, 5):
            label = (tags.first(f"twitter:label{n}") or "").lower()
            if label in ("price", "preis", "prix", "precio", "preço", "prezzo"):
                data = tags.first(f"twitter:data{n}") or ""
                amount, sign = parse_price_text(data)
                fields["price"] = price_amount(amount) if amount is not None else None
                fields["currency"] = fields["currency"] or ctx.currency(sign or "")
                break
    if fields["price"] is not None and fields["currency"] is None and raw_price:
        fields["currency"] = ctx.currency(parse_price_text(raw_price)[1] or "")
    return fields


# --- the markup the page shows -----------------------------------------------------------


class _Markup:
    """What the product page shows: price elements, buy buttons, stock messages, labels."""

    def __init__(self, root: Any, ctx: _Context) -> None:
        self.root = root
        self.ctx = ctx
        self.buttons = self._buy_buttons()
        #: The availability a stock message on the page states, if any.
        self.stock_message: str | None = None

    def _buy_buttons(self) -> list[Any]:
        found: list[Any] = []
        try:
            elements = self.root.xpath(
                "//button | //input[@type='submit' or @type='button' or @type='image']"
                " | //a[contains(@class, 'cart') or contains(@class, 'buy') or contains(@href, 'cart')]"
            )
        except (AttributeError, ValueError):
            return found
        for element in elements[:500]:
            if _in_aside(element):
                continue
            label = " ".join(
                filter(None, [_element_text(element)[:80], element.get("value"), element.get("title"),
                              element.get("aria-label"), element.get("name")])
            )  # fmt: skip
            classes = " ".join(
                filter(None, [element.get("class"), element.get("id"), element.get("name")])
            )
            if _BUY.search(label) or _BUY_CLASS.search(classes):
                found.append(element)
        return found

    def has_evidence(self) -> bool:
        """Whether the page may be a product page at all: a buy button (not a listing's
        many), an ``itemprop=price`` or a stock message's element."""
        if len(self.buttons) > MAX_BUY_BUTTONS:
            return False
        if self.buttons or self._itemprop("price"):
            return True
        try:
            return bool(
                self.root.xpath(
                    "boolean(//*[contains(@class, 'stock') or contains(@id, 'stock')"
                    " or contains(@class, 'availab') or contains(@id, 'availab')])"
                )
            )
        except (AttributeError, ValueError):
            return False

    def looks_like_product_page(self, fields: dict[str, Any]) -> bool:
        """A price, and one buy button, an ``itemprop=price`` or a stock message."""
        if len(self.buttons) > MAX_BUY_BUTTONS or fields["price"] is None:
            return False
        return bool(self.buttons or self._itemprop("price") or self.stock_message)

    def fields(self) -> dict[str, Any]:
        fields: dict[str, Any] = dict.fromkeys(FIELDS)
        fields["name"] = self._itemprop_text("name")
        price, currency = self._itemprop_price()
        if price is None:
            price, currency = self._shown_price()
        if price is None:
            price, currency = self._price_near_button()
        fields["price"], fields["currency"] = price, currency
        if fields["currency"] is None:
            fields["currency"] = self.ctx.currency(self._itemprop_text("priceCurrency") or "")
        fields["availability"] = self._availability()
        fields["sku"] = _code(self._itemprop_text("sku")) or self._labelled(_SKU_LABEL, "sku")
        gtin = None
        for key in _GTIN_KEYS:
            gtin = gtin_digits(self._itemprop_text(key))
            if gtin:
                break
        fields["gtin"] = gtin or self._labelled_gtin()
        fields["mpn"] = _code(self._itemprop_text("mpn")) or self._labelled(_MPN_LABEL, "mpn")
        fields["brand"] = self._itemprop_text("brand") or self._brand()
        return fields

    # itemprop outside any item (microdata inside an item is read as structured data)

    def _itemprop(self, name: str) -> list[Any]:
        """Elements with ``itemprop=name`` that belong to no item, or to a product or an
        offer (never a breadcrumb's, an organisation's or a review's)."""
        try:
            elements = self.root.xpath(f"//*[@itemprop='{name}']")[:40]
        except (AttributeError, ValueError):
            return []
        kept = []
        for element in elements:
            scope = next(
                (a for a in element.iterancestors() if a.get("itemscope") is not None), None
            )
            if scope is None or _OWN_ITEM_TYPES & set(
                type_names({"@type": (scope.get("itemtype") or "").split()})
            ):
                kept.append(element)
        return kept[:20]

    def _itemprop_text(self, name: str) -> str | None:
        for element in self._itemprop(name):
            if _in_aside(element):
                continue
            value = (
                element.get("content") or element.get("href") or element.get("datetime")
                or element.get("value") or ""
            )  # fmt: skip
            if not value:
                inner = element.xpath(".//*[@itemprop='name']")
                value = _element_text(inner[0] if inner else element)
            text = clean_text(value)
            if text:
                return text
        return None

    def _itemprop_price(self) -> tuple[str | None, str | None]:
        for element in self._itemprop("price"):
            if _in_aside(element) or _is_old_price(element):
                continue
            raw = element.get("content") or element.get("value")
            if raw:
                price = price_amount(raw)
                sign = (
                    parse_price_text(_element_text(element))[1] if not raw[:1].isdigit() else None
                )
            else:
                text = _element_text(element)[:_PRICE_TEXT_MAX]
                amount, sign = parse_price_text(text)
                price = price_amount(amount) if amount is not None else None
            if price is not None:
                return price, self.ctx.currency(sign or "")
        return None, None

    def _shown_price(self) -> tuple[str | None, str | None]:
        """The sale price shown nearest the buy button: Magento's ``data-price-amount``
        of the final price, an element whose class says price, not an old one."""
        try:
            elements = self.root.xpath(
                "//*[@data-price-type='finalPrice'][@data-price-amount]"
                " | //*[@data-product-price] | //*[@data-price]"
                " | //*[contains(translate(@class, 'PRICE', 'price'), 'price')"
                " or contains(translate(@id, 'PRICE', 'price'), 'price')"
                " or contains(@class, 'preis') or contains(@class, 'prix') or contains(@class, 'precio')"
                " or contains(@class, 'preco') or contains(@class, 'preço') or contains(@class, 'prezzo')"
                " or contains(@class, 'prijs') or contains(@class, 'pris') or contains(@class, 'cena')"
                " or contains(@class, 'fiyat') or contains(@class, 'hinta')"
                " or contains(@class, 'amount') or contains(@class, 'money')]"
            )[:300]
        except (AttributeError, ValueError):
            return None, None
        best: tuple[float, int] | None = None
        chosen: tuple[str | None, str | None] = (None, None)
        anchor = self.buttons[0] if self.buttons else self._heading_element()
        for order, element in enumerate(elements):
            if _in_aside(element) or _is_old_price(element):
                continue
            data = (
                element.get("data-price-amount")
                or element.get("data-product-price")
                or element.get("data-price")
            )
            sign = None
            if data and re.fullmatch(r"\s*\d+(?:\.\d+)?\s*", data):
                price = price_amount(data)
                text = _element_text(element)[:_PRICE_TEXT_MAX]
                sign = parse_price_text(text)[1]
            else:
                text = _own_price_text(element)
                if not text or len(text) > _PRICE_TEXT_MAX or not re.search(r"\d", text):
                    continue
                amount, sign = parse_price_text(text)
                if amount is None or amount == 0:
                    continue
                price = price_amount(amount)
            if price is None:
                continue
            score = 0.0
            parent = element.getparent()
            near = _words(element) | (_words(parent) if parent is not None else set())
            if (
                near & _SALE_WORDS
                or element.tag == "ins"
                or (parent is not None and parent.tag == "ins")
            ):
                score += 2
            if sign:
                score += 1
            if anchor is not None:
                score -= _distance(anchor, element) / 4
            if best is None or (score, -order) > best:
                best = (score, -order)
                chosen = (price, self.ctx.currency(sign or ""))
        return chosen

    def _price_near_button(self) -> tuple[str | None, str | None]:
        """A price with its currency standing alone in an element without a price class
        (``<h2>$110.00</h2>``), the nearest to the buy button, looking a little further
        out one level at a time."""
        if not self.buttons or len(self.buttons) > MAX_BUY_BUTTONS:
            return None, None
        anchor = self.buttons[0]
        region = anchor
        for _ in range(4):
            region = region.getparent()
            if region is None:
                return None, None
            best: tuple[int, str, str | None] | None = None
            for element in islice(region.iter(), 400):
                if not isinstance(element.tag, str) or element.tag in _HIDDEN_TEXT:
                    continue
                text = _element_text(element)
                if (
                    not 1 < len(text) <= 30
                    or not re.search(r"\d", text)
                    or _NOT_THE_PRICE.search(text)
                ):
                    continue
                amount, sign = parse_price_text(text)
                if amount is None or amount <= 0 or sign is None or _is_old_price(element):
                    continue
                price = price_amount(amount)
                if price is None:
                    continue
                distance = _distance(anchor, element)
                if best is None or distance < best[0]:
                    best = (distance, price, self.ctx.currency(sign))
            if best is not None:
                return best[1], best[2]
        return None, None

    def _heading_element(self) -> Any:
        """The page's first ``<h1>`` outside its header, menus and asides (a theme's
        logo is an ``<h1>`` in its header on some shops)."""
        try:
            found = self.root.xpath("//h1")[:10]
        except (AttributeError, ValueError):
            return None
        for element in found:
            if not _in_aside(element) and clean_text(_element_text(element)):
                return element
        return None

    def heading(self) -> str | None:
        """The product's name as the page heads it: its ``<h1>``, else OpenGraph's or
        Twitter's title, else the document's ``<title>``."""
        element = self._heading_element()
        if element is not None:
            text = clean_text(_element_text(element))
            if text and len(text) <= 300:
                return text
        try:
            named = self.root.xpath(
                "//*[contains(@class, 'product-name') or contains(@class, 'product_name')"
                " or contains(@class, 'productName') or contains(@class, 'product-title')"
                " or contains(@class, 'product_title') or contains(@class, 'productTitle')"
                " or contains(@class, 'item-name') or contains(@class, 'item_name')"
                " or contains(@class, 'itemName')]"
            )[:10]
        except (AttributeError, ValueError):
            named = []
        for element in named:
            text = clean_text(_element_text(element))
            if text and len(text) <= 300 and not _in_aside(element):
                return text
        social = self.ctx.tags.first("og:title", "twitter:title")
        if social:
            return _title_without_site(social)
        try:
            titles = self.root.xpath("//title/text()")
        except (AttributeError, ValueError):
            return None
        return _title_without_site(clean_text(titles[0])) if titles else None

    def _availability(self) -> str | None:
        linked = self._itemprop_text("availability")
        found = availability(linked) if linked else None
        if found:
            return found
        try:
            elements = self.root.xpath("//*[@class or @id]")[:5000]
        except (AttributeError, ValueError):
            elements = []
        for element in elements:
            marks = f"{element.get('class', '')} {element.get('id', '')}"
            if _STOCK_CLASS.search(marks) and not _in_aside(element):
                text = _element_text(element)
                if len(text) <= 200:
                    found = availability_in_text(text) or _availability_from_class(marks)
                    if found:
                        self.stock_message = found
                        return found
        for button in self.buttons:
            label = _element_text(button) + " " + (button.get("value") or "")
            said = availability_in_text(label)
            if said and said != "InStock":
                return said
            disabled = (
                button.get("disabled") is not None
                or "disabled" in (button.get("class") or "").lower()
            )
            if disabled:
                return "OutOfStock"
            if re.search(r"pre[\s-]?order|vorbestell|précommand", label, re.IGNORECASE):
                return "PreOrder"
        if self.buttons:
            return "InStock"
        return None

    def _text_near_product(self) -> str:
        """The page's visible text (no scripts, menus, header or footer), one line per
        text node, from a little before the product's heading, at most 30,000 characters."""
        try:
            texts = self.root.xpath(
                "//body//text()[not(ancestor::script or ancestor::style or ancestor::noscript"
                " or ancestor::nav or ancestor::header or ancestor::footer or ancestor::template)]"
            )
        except (AttributeError, ValueError):
            return ""
        text = "\n".join(" ".join(t.split()) for t in texts if t.strip())
        heading = self.heading()
        start = text.find(heading) if heading else -1
        return text[max(0, start - 500) : max(0, start - 500) + 30_000]

    def _labelled(self, pattern: re.Pattern[str], cls: str) -> str | None:
        try:
            marked = self.root.xpath(
                f"//*[contains(concat(' ', normalize-space(@class), ' '), ' {cls} ')]"
            )
        except (AttributeError, ValueError):
            marked = []
        for element in marked[:5]:
            if _in_aside(element):
                continue
            text = clean_text(_element_text(element))
            match = pattern.search(text)
            value = match["v"] if match else text
            if value and len(value) <= 40 and " " not in value.strip() and _looks_like_code(value):
                return value.strip()
        for match in pattern.finditer(self._text()):
            if _looks_like_code(match["v"]):
                return match["v"]
        return None

    def _labelled_gtin(self) -> str | None:
        for match in _GTIN_LABEL.finditer(self._text()):
            digits = gtin_digits(match["v"])
            if digits and valid_gtin(digits):
                return digits
        return None

    def _brand(self) -> str | None:
        try:
            marked = self.root.xpath(
                "//*[contains(@class, 'brand') or contains(@class, 'vendor')"
                " or contains(@class, 'manufacturer') or @id='bylineInfo']"
            )
        except (AttributeError, ValueError):
            marked = []
        for element in marked[:5]:
            if _in_aside(element):
                continue
            text = clean_text(_element_text(element))
            if not text:
                logo = element.xpath(".//img/@alt")
                text = clean_text(str(logo[0])) if logo else ""
            text = re.sub(
                r"^(?:Brand|Marke|Marque|Marca|Vendor|by)\s*:?\s+", "", text, flags=re.IGNORECASE
            )
            text = re.sub(r"^Visit the (.+?) Store$", r"\1", text)
            if text and len(text) <= 60:
                return text
        match = _BRAND_LABEL.search(self._text())
        return clean_text(match["v"]) if match else None

    _cached_text: str | None = None

    def _text(self) -> str:
        if self._cached_text is None:
            self._cached_text = self._text_near_product()
        return self._cached_text

    def page_currency(self) -> str | None:
        """A currency the page names for itself: ``data-currency``, a currency ``<select>``,
        a sign next to a price (``$``, ``€``)."""
        try:
            values = self.root.xpath(
                "//@data-currency | //@data-currency-code | //*[@itemprop='priceCurrency']/@content"
            )
        except (AttributeError, ValueError):
            values = []
        for value in values[:10]:
            code = self.ctx.currency(str(value))
            if code:
                return code
        return None


_HIDDEN_TEXT = frozenset({"script", "style", "noscript", "del", "s", "strike", "template"})


def _element_text(element: Any) -> str:
    """The text of an element as shown, without scripts and crossed-out prices."""
    try:
        parts = []
        for text in element.xpath(".//text()"):
            owner = text.getparent()
            if owner is not None and text.is_tail:
                owner = owner.getparent()
            if owner is not None and owner is not element and _hidden(owner, element):
                continue
            parts.append(str(text))
        return " ".join(" ".join(parts).split())
    except (AttributeError, ValueError, TypeError):
        return ""


def _looks_like_code(value: str) -> bool:
    """A product code, not a word: it has a digit, a separator, or is in capitals
    (``NK-FJ-GR-M``, ``SW10231``, ``ABC``; not ``Product``)."""
    value = value.strip()
    return bool(re.search(r"[\d._/-]", value)) or (len(value) >= 3 and value.isupper())


def _hidden(node: Any, top: Any) -> bool:
    """Inside a script, a style, or a crossed-out price (``<del>``, ``line-through``)."""
    while node is not None and node is not top:
        if node.tag in _HIDDEN_TEXT:
            return True
        if "line-through" in (node.get("style") or "").replace(" ", "").lower():
            return True
        node = node.getparent()
    return False


def _own_price_text(element: Any) -> str:
    """The price text of an element; for a WooCommerce-style ``<del>old</del><ins>new</ins>``
    the new one."""
    try:
        ins = element.xpath(".//ins")
    except (AttributeError, ValueError):
        ins = []
    if ins:
        return _element_text(ins[0])
    try:
        children_with_price = [
            c for c in element.iterchildren()
            if isinstance(c.tag, str) and _PRICE_CLASS.search(c.get("class") or "")
        ]  # fmt: skip
    except (AttributeError, ValueError):
        children_with_price = []
    if children_with_price:
        return ""  # its children are read on their own
    return _element_text(element)


def _words(element: Any) -> set[str]:
    """The words of an element's class and id (``price-item--sale`` -> price, item, sale;
    ``oldPrice`` -> oldprice, old, price)."""
    marks = f"{element.get('class') or ''} {element.get('id') or ''} {element.get('data-price-type') or ''}"
    words: set[str] = set()
    for token in marks.split():
        words.add(token.lower().replace("-", "").replace("_", ""))
        spaced = re.sub(r"([a-z])([A-Z])", r"\1 \2", token)
        words.update(w.lower() for w in re.split(r"[\s_-]+", spaced) if w)
    return words


def _is_old_price(element: Any) -> bool:
    """A crossed-out, was or compare-at price (or a saving, a unit price, a label); a
    regular or list price only when a sale price stands beside it."""
    node = element
    for level in range(3):
        if node is None or not isinstance(node.tag, str):
            return False
        if node.tag in ("del", "s", "strike"):
            return True
        words = _words(node)
        if words & _SALE_WORDS:
            return False
        if words & _OLD_WORDS:
            return True
        if words & _WEAK_OLD_WORDS and _has_sale_beside(node):
            return True
        if "line-through" in (node.get("style") or "").replace(" ", "").lower():
            return True
        if level == 0 and node.tag in ("body", "html"):
            return False
        node = node.getparent()
    return False


def _has_sale_beside(node: Any) -> bool:
    container = node.getparent()
    for _ in range(2):
        if container is None:
            return False
        for other in islice(container.iter(), 80):
            if (
                other is not node
                and isinstance(other.tag, str)
                and (other.tag == "ins" or _words(other) & _SALE_WORDS)
            ):
                return True
        container = container.getparent()
    return False


def _in_aside(element: Any) -> bool:
    """Inside related products, a mini cart, the header, footer or navigation."""
    for ancestor in element.iterancestors():
        tag = ancestor.tag if isinstance(ancestor.tag, str) else ""
        if tag in ("nav", "footer", "header", "aside"):
            return True
        words = _words(ancestor)
        if words & _ASIDE_WORDS and not words & _MAIN_WORDS:
            return True
    return False


def _availability_from_class(marks: str) -> str | None:
    lowered = marks.lower()
    if re.search(r"out[-_]?of[-_]?stock|outofstock|sold[-_]?out|unavailable", lowered):
        return "OutOfStock"
    if re.search(r"\bin[-_]?stock\b|instock|available", lowered):
        return "InStock"
    return None


def _distance(a: Any, b: Any) -> int:
    """Steps between two elements through their nearest common ancestor."""
    ancestors_a = [a, *a.iterancestors()]
    depth_a = {id(node): i for i, node in enumerate(ancestors_a)}
    for steps_b, node in enumerate([b, *b.iterancestors()]):
        if id(node) in depth_a:
            return depth_a[id(node)] + steps_b
    return 100
