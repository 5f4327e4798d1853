"""A product's identifiers: sku, GTIN (EAN, UPC, ISBN) and mpn, from schema.org values
and from the labels a product page prints (``SKU: NK-FJ-GR-M``, ``EAN: 4006381333931``).

Pure: no Scrapy, no I/O. :func:`webrobot.extract.product.product` is the entry point.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any
from urllib.parse import urlsplit

from webrobot.extract.headtags import clean_text
from webrobot.extract.product.codelabels import GTIN_WORDS, MPN_TEXT_WORDS, SKU_TEXT_WORDS
from webrobot.extract.product.context import node_text
from webrobot.extract.product.elements import element_text, in_aside

#: The keys of a schema.org node that hold a GTIN, the likeliest first.
GTIN_KEYS = ("gtin13", "gtin", "gtin12", "gtin14", "gtin8", "ean", "upc", "isbn")

#: A label the shop platforms print (:mod:`~webrobot.extract.product.codelabels`), read in
#: running text only as a word that a colon follows (``Referentie: 4711``), never as a
#: word of prose; tried before the general labels, as some begin with one (``SKU kodas``).
_PLATFORM = r"\b{}(?=\s*[:：])|"

#: A labelled sku (``SKU: NK-FJ-GR-M``, ``Art.-Nr. 4711``, ``品番``...), a GTIN, an mpn.
SKU_LABEL = re.compile(
    r"(?:" + _PLATFORM.format(SKU_TEXT_WORDS) + r"\bSKU|\bArt(?:ikel)?[.\s-]*(?:Nr|No)\.?|"
    r"Artikelnummer|Référence|R[ée]f\.|Item\s*(?:#|No\.?|number|code)|"
    r"Product\s*(?:code|ID|number)|Código|Cod\.\s*art\.?|Codice|Modelo?\s*#|Style\s*(?:#|No\.?)|"
    r"Kod\s+produktu|Nr\s+katalogowy|Vare(?:nummer|nr\.?)|Tuotenumero|Ürün\s+kodu|品番|商品番号|商品コード|货号|商品编号)"
    r"\s*[:#.：]?\s*(?P<v>[A-Z0-9][A-Z0-9._/-]{1,39})",
    re.IGNORECASE,
)
GTIN_LABEL = re.compile(
    r"(?:" + _PLATFORM.format(GTIN_WORDS) + r"\b(?:EAN(?:-?13|-?8)?|GTIN(?:-?1[234]|-?8)?|"
    r"UPC(?:-?A)?|ISBN(?:-?13)?|JAN))\s*[:#：]?\s*(?P<v>\d[\d -]{6,18}\d)",
    re.IGNORECASE,
)
MPN_LABEL = re.compile(
    r"(?:" + _PLATFORM.format(MPN_TEXT_WORDS) + r"\bMPN|Mfr\.?\s*Part\s*(?:#|No\.?|Number)|"
    r"Manufacturer\s+Part\s+(?:Number|No\.?)|"
    r"Herstellernummer|Hersteller[-\s]?Nr\.?|Hersteller-Artikelnummer|Réf(?:érence)?\s+fabricant|"
    r"Part\s*(?:#|Number|No\.?)|Model\s+(?:Number|No\.?))\s*[:#.]?\s*(?P<v>[A-Z0-9][A-Z0-9._/-]{1,39})",
    re.IGNORECASE,
)


def product_code(value: Any) -> str | None:
    """A sku or mpn from a schema.org value (``None`` when longer than a code is)."""
    text = node_text(value)
    if text is None or len(text) > 64:
        return None
    return text


def gtin_of(node: dict[str, Any]) -> str | None:
    """The first GTIN of a node's GTIN keys (``gtin13``, ``ean``, ``isbn``...)."""
    for key in GTIN_KEYS:
        gtin = gtin_digits(node_text(node.get(key)))
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


def looks_like_code(value: str) -> bool:
    """A product code, not a word: it has a digit, a separator, or is in capitals
    (``NK-FJ-GR-M``, ``SW10231``, ``ABC``; not ``Product``)."""
    value = value.strip()
    return bool(re.search(r"[\d._/-]", value)) or (len(value) >= 3 and value.isupper())


def labelled_code(
    marked: list[Any], pattern: re.Pattern[str], page_text: Callable[[], str]
) -> str | None:
    """The code one of the ``marked`` elements (those whose class names the code) holds,
    else the first one ``pattern`` finds labelled in the page's text (``page_text()``,
    read only when needed)."""
    for element in marked[:5]:
        if in_aside(element):
            continue
        text = clean_text(element_text(element))
        match = pattern.search(text)
        value = match["v"] if match else text
        if value and len(value) <= 40 and " " not in value.strip() and looks_like_code(value):
            return value.strip()
    for match in pattern.finditer(page_text()):
        if looks_like_code(match["v"]):
            return match["v"]
    return None


#: The code at the end of a product URL's last path segment: the whole segment
#: (``/itm/302474151804``, ``/dp/B07PXGQC1Q``) or the slug's tail
#: (``/lamp-desk-1589482272.html``, ``/joypad-MKI6IKW1N4.html``).
_URL_CODE = re.compile(
    r"(?:^|[-_])(?P<v>\d{5,20}|(?=[A-Z0-9]*\d)(?=[A-Z0-9]*[A-Z])[A-Z0-9]{6,20})"
    r"(?:\.(?:html?|php|aspx?|jsp|htm))?$"
)


#: Trailing path segments that name no product (Amazon's ``/ref=sr_1_1``, a tab).
_TAIL_SEGMENT = re.compile(r"^(?:ref=.*|reviews?|details?)$", re.IGNORECASE)


def url_code(url: str | None) -> str | None:
    """The product code a product page's URL ends with, or ``None`` (a slug of words,
    a short number, a date)."""
    if not url:
        return None
    try:
        path = urlsplit(url).path
    except ValueError:
        return None
    segments = [s for s in path.split("/") if s]
    while segments and _TAIL_SEGMENT.match(segments[-1]):
        segments.pop()
    if not segments:
        return None
    match = _URL_CODE.search(segments[-1])
    if match is None:
        return None
    code = match["v"]
    if re.fullmatch(r"(?:19|20)\d{6}", code):  # 20240131: a date
        return None
    return code


def labelled_gtin(text: str) -> str | None:
    """The first GTIN with a right check digit labelled in ``text`` (``EAN: ...``)."""
    for match in GTIN_LABEL.finditer(text):
        digits = gtin_digits(match["v"])
        if digits and valid_gtin(digits):
            return digits
    return None
