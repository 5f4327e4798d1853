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

This module puts the fields together and reads OpenGraph's tags; each reader has its
own module: which structured node is the product (:mod:`~webrobot.extract.product.nodes`),
its offers (:mod:`~webrobot.extract.product.offers`), the markup
(:mod:`~webrobot.extract.product.markup`, with :mod:`~webrobot.extract.product.shownprices`,
:mod:`~webrobot.extract.product.stock` and :mod:`~webrobot.extract.product.codes`), and
which of a page's codes is its sku (:mod:`~webrobot.extract.product.skus`).

Pure: no Scrapy, no I/O. Needs the ``mining`` extra (extruct, price-parser)
unless ``structured`` is passed and no price text needs reading.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from webrobot.extract.headtags import HeadTags, as_list, head_tags, jsonld_nodes, type_names
from webrobot.extract.htmltree import base_url, html_root
from webrobot.extract.product.codes import gtin_digits
from webrobot.extract.product.context import FIELDS, ProductContext, fill, node_text
from webrobot.extract.product.markup import SEPARATORS, Markup
from webrobot.extract.product.nodes import main_product, structured_products
from webrobot.extract.product.offers import node_fields
from webrobot.extract.product.prices import availability, parse_price_text, price_amount
from webrobot.extract.product.skus import page_sku
from webrobot.extract.product.stock import can_be_ordered

if TYPE_CHECKING:
    from webrobot.extract.page import SourcePage

__all__ = ["FIELDS", "product"]

OG_PRODUCT_TYPES = frozenset(
    {"product", "og:product", "product.item", "product.group", "books.book"}
)


def product(
    page: SourcePage, structured: dict[str, Any] | None = None, tags: HeadTags | None = None
) -> dict[str, Any] | None:
    """The product fields of a product page (every key of :data:`FIELDS`, ``None``
    where unknown), or ``None`` for a page that is not one; ``tags``: the page's
    :func:`~webrobot.extract.headtags.head_tags` when already gathered."""
    root = html_root(page)
    base = base_url(page, root)
    if structured is None:
        from webrobot.extract.structured import structured_data

        structured = structured_data(page)
    if tags is None:
        tags = head_tags(root)
    ctx = ProductContext(page, root, base, tags)
    candidates = structured_products(structured)
    main = main_product(candidates, ctx)
    listing = main is None and len(candidates) > 1
    fields: dict[str, Any] = dict.fromkeys(FIELDS)
    if main is not None:
        fill(fields, node_fields(main, ctx))
    # Any of the page's ``og:type`` tags: an SEO plugin may write "article" before the
    # shop's own "product" (WordPress shops).
    og_product = any(t.lower() in OG_PRODUCT_TYPES for t in tags.all("og:type"))
    fill(fields, _from_meta(tags, ctx, og_product))
    _no_zero_price(fields)
    markup = Markup(root, ctx) if root is not None else None
    if main is None and not og_product and (markup is None or listing or not markup.has_evidence()):
        return None  # most pages of the web: no product, no buy button, no price markup
    if markup is not None and not listing:
        fill(fields, markup.fields({k for k in FIELDS if fields[k] is None}))
        _no_zero_price(fields)
        if main is None and not og_product and markup.unavailable_without_buy_button():
            # A product that cannot be had shows no price; those read are other products'.
            fields["price"] = fields["currency"] = None
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
    fields["sku"] = page_sku(fields["sku"], ctx, markup)
    if (
        markup is not None
        and not listing
        and fields["availability"] in (None, "InStock")
        and (fields["availability"] or fields["price"] is not None)
    ):
        # Structured data saying in stock is overruled by a page that says the product
        # cannot be had and offers no buy button to press.
        fields["availability"] = markup.denies_stock() or fields["availability"]
    elif (
        markup is not None
        and not listing
        and fields["availability"] in ("BackOrder", "OutOfStock", "SoldOut")
        and markup.variant_in_stock()
    ):
        # A variable product's own status may lag its variants' (a stale parent record):
        # the variant the shopper picks is in stock.
        fields["availability"] = "InStock"
    if fields["availability"] is None and fields["price"] is not None:
        # A product page that shows a price and nowhere says the product cannot be had
        # sells it: shops state what is missing ("Sold out"), rarely what is there.
        fields["availability"] = "InStock"
    fields["availability_detail"] = fields["availability"]
    fields["availability"] = can_be_ordered(fields["availability"])
    return fields


def _no_zero_price(fields: dict[str, Any]) -> None:
    """A price of zero is no price: shops write 0 where they show none ("price on
    request", a placeholder); the page's shown price, if any, is read instead."""
    if fields["price"] is not None and not fields["price"].strip("0."):
        fields["price"] = None


def _site_names(structured: dict[str, Any], tags: HeadTags) -> set[str]:
    """The shop's own names: OpenGraph's site name, the application name, JSON-LD's WebSite."""
    names = {tags.first("og:site_name"), tags.first("application-name")}
    for node in jsonld_nodes(
        [i for i in as_list(structured.get("json-ld")) if isinstance(i, dict)]
    ):
        if "WebSite" in type_names(node):
            names.add(node_text(node.get("name")))
    return {n.casefold() for n in names if n}


def _without_site_name(name: str | None, sites: set[str]) -> str | None:
    """``Mug - Hollow Oak Pottery`` -> ``Mug`` when the tail is the shop's name (some
    platforms write it into the product's name)."""
    if not name:
        return name
    for separator in SEPARATORS:
        head, found, tail = name.rpartition(separator)
        if found and head.strip() and tail.strip().casefold() in sites:
            return head.strip()
    return name


def _from_meta(tags: HeadTags, ctx: ProductContext, og_product: bool) -> dict[str, Any]:
    """OpenGraph's product tags (``product:price:amount``, ``og:availability``...) and a
    Twitter card's price."""
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
                amount, sign = ctx.price_text(data)
                fields["price"] = price_amount(amount) if amount is not None else None
                fields["currency"] = fields["currency"] or ctx.currency(sign or "")
                break
    if fields["price"] is not None and fields["currency"] is None and raw_price:
        fields["currency"] = ctx.currency(parse_price_text(raw_price)[1] or "")
    return fields
