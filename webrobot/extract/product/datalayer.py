"""A product's code as a shop's analytics tags are handed it in the page's inline scripts:
every platform tells its analytics which product the page shows, by a code of its own.
:mod:`~webrobot.extract.product.skus` uses it to tell a product's code from a variant's
(``MKI6IKW1N4`` in the tags, ``MKI6IKW1N4-1`` in structured data), never as the sku
alone: shops that show shoppers no code still name one to their analytics.

* Google Analytics (Universal) enhanced ecommerce: ``ecommerce.detail.products[0].id``
  (or ``.sku``);
* Google Analytics 4: the ``view_item`` event's ``items[0].item_id``;
* a tag manager's data layer: ``dataLayer.push({'productSku': ...})`` (``product_sku``);
* Google Ads remarketing: ``ecomm_prodid``;
* the Facebook (Meta) pixel's ``ViewContent`` event: ``content_ids: ['...']``;
* Criteo's ``viewItem`` event: ``{event: "viewItem", item: "..."}``;
* Shopify's ``ShopifyAnalytics.meta.product`` (``var meta = {"product": {...}}``): the
  first variant's ``sku``.

Each names the product the page is about, never a recommendation (those are
``impressions`` and ``view_item_list``). The first source that gives a code wins, in the
order above: the product-level code (``MKI6IKW1N4``) before a variant's
(``MKI6IKW1N4-1``). A value must look like a code (:func:`script_code`): one token of
letters, digits and ``-._/``, a digit in it, at most 40 characters, no price and no
hex token.

Pure: no Scrapy, no I/O. :func:`webrobot.extract.product.product` is the entry point.
"""

from __future__ import annotations

import re
from typing import Any

#: A quoted or bare key, then a quoted or bare value (``'id': 'AB-1'``, ``id:123``).
_Q = r"[\"']?"
_VALUE = r"\s*:\s*[\"']?(?P<v>[A-Za-z0-9][A-Za-z0-9._/-]{0,39})[\"']?\s*[,}\]]"

#: The sources, most trusted first: (name, pattern). Each pattern begins with a word
#: (``detail``, ``view_item``...) so that the search skips ahead to it: the scripts of a
#: shop's page run to hundreds of kilobytes.
SOURCES: tuple[tuple[str, re.Pattern[str]], ...] = (
    (
        "ga_detail",
        re.compile(
            rf"detail{_Q}\s*:\s*\{{(?:[^\[\]]{{0,300}}?){_Q}products{_Q}\s*:\s*\[\s*\{{"
            rf"(?:[^{{}}]{{0,600}}?[,\s])?{_Q}(?:id|sku){_Q}{_VALUE}"
        ),
    ),
    (
        "ga4_view_item",
        re.compile(
            rf"view_item[\"'](?:[^\[]{{0,300}}?){_Q}items{_Q}\s*:\s*\[\s*\{{"
            rf"(?:[^{{}}]{{0,600}}?[,\s])?{_Q}item_id{_Q}{_VALUE}"
        ),
    ),
    (
        "data_layer",
        re.compile(
            rf"product(?:Sku|_sku|SKU){_Q}"
            r"\s*:\s*\[?\s*[\"']?(?P<v>[A-Za-z0-9][A-Za-z0-9._/-]{0,39})[\"']?\s*[,}\]]"
        ),
    ),
    (
        "remarketing",
        re.compile(
            rf"ecomm_prodid{_Q}"
            r"\s*:\s*\[?\s*[\"']?(?P<v>[A-Za-z0-9][A-Za-z0-9._/-]{0,39})[\"']?\s*[,}\]]"
        ),
    ),
    (
        "fb_pixel",
        re.compile(
            r"ViewContent[\"']\s*,\s*\{(?:[^{}]{0,300}?)content_ids[\"']?\s*:\s*\[\s*"
            r"[\"'](?P<v>[A-Za-z0-9][A-Za-z0-9._/-]{0,39})[\"']"
        ),
    ),
    (
        "criteo",
        re.compile(
            rf"viewItem[\"']\s*,\s*{_Q}item{_Q}"
            r"\s*:\s*[\"'](?P<v>[A-Za-z0-9][A-Za-z0-9._/-]{0,39})[\"']"
        ),
    ),
    (
        "shopify_meta",
        re.compile(
            r"meta\s*=\s*\{\s*\"product\"\s*:\s*\{[^\[]{0,400}?\"variants\"\s*:\s*\[\s*\{"
            r"[^{}]{0,600}?\"sku\"\s*:\s*\"(?P<v>[A-Za-z0-9][A-Za-z0-9._/-]{0,39})\""
        ),
    ),
)

#: Script types that hold no analytics code (structured data, templates).
_NOT_CODE_TYPES = ("ld+json", "template", "html", "x-tmpl")
#: At most this much inline script is searched (a page's state blobs run to megabytes).
_MAX_SCRIPT = 600_000
_TOKEN = re.compile(r"^(?=[0-9a-f]*[a-f])(?=[0-9a-f]*\d)[0-9a-f]{16,}$")


def inline_scripts(root: Any) -> str:
    """The text of the page's inline scripts (no JSON-LD, no templates), joined, at most
    :data:`_MAX_SCRIPT` characters."""
    try:
        scripts = root.xpath("//script[not(@src)]")
    except (AttributeError, ValueError):
        return ""
    parts: list[str] = []
    size = 0
    for script in scripts:
        kind = (script.get("type") or "").lower()
        if any(t in kind for t in _NOT_CODE_TYPES):
            continue
        text = script.text
        if not text:
            continue
        parts.append(text[: _MAX_SCRIPT - size])
        size += len(parts[-1])
        if size >= _MAX_SCRIPT:
            break
    return "\n".join(parts)


def script_code(value: str) -> str | None:
    """``value`` when it looks like a product code: a digit in it, not a price
    (``24.99``), not a hex token, not a placeholder."""
    value = value.strip().strip("/.-")
    if not (2 <= len(value) <= 40) or not re.search(r"\d", value):
        return None
    if re.fullmatch(r"\d+[.,]\d{1,2}", value) or _TOKEN.match(value):
        return None
    if not value.strip("0"):
        return None
    return value


def data_layer_codes(scripts: str) -> dict[str, str]:
    """Source name -> the product code it gives, for every source of :data:`SOURCES`
    found in ``scripts`` (the text of the page's inline scripts)."""
    found: dict[str, str] = {}
    if not scripts:
        return found
    for name, pattern in SOURCES:
        for match in pattern.finditer(scripts):
            code = script_code(match["v"])
            if code:
                found[name] = code
                break
    return found


def data_layer_code(scripts: str) -> str | None:
    """The product code the most trusted analytics source in ``scripts`` gives."""
    codes = data_layer_codes(scripts)
    return next(iter(codes.values()), None)
