"""A product's codes as its "product details" or specification block prints them: a label
and a value, in a table row (``<th>SKU</th><td>NK-FJ-GR-M</td>``), a definition list, a
list item (``Art.-Nr.: 4711``), or two elements side by side (``<span>Item #</span>
<span>1234</span>``). Read from the page's visible text, one line per text node: a line
that is a known label (in English, German, French, Spanish, Portuguese, Italian, Dutch,
Polish, Czech, Slovak, Russian, the Nordic languages, Chinese and Japanese) with the value
after it on the same line or as the next line.

* ``sku``: the shop's own code (SKU, item number, article number, reference, a
  marketplace's item number, product code);
* ``mpn``: the maker's code (MPN, part number, model number, manufacturer's reference);
* ``gtin``: EAN, UPC, GTIN, ISBN, JAN (digits with a right check digit).

A label that the shop's own name begins (``iFixit Part Number``, ``Costco Item #``) names
the shop's code, whatever the label says after the name: it is the ``sku``.

A label stands alone on its line, or begins it with a separator: a label inside prose
(``... the model we sell ...``) is no label, and a value must look like a code (one
token, a digit or capitals in it, at most 40 characters).

Pure: no Scrapy, no I/O. :func:`webrobot.extract.product.product` is the entry point.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

from lxml import etree

from webrobot.extract.product.codelabels import GTIN_WORDS, MPN_WORDS, SKU_WORDS
from webrobot.extract.product.codes import gtin_digits, looks_like_code, valid_gtin

_SKU = (
    r"SKU|ASIN|Item\s*(?:#|No\.?|number|code|ID)|Article\s*(?:#|No\.?|number|code)|"
    r"Art(?:ikel)?[.\s-]*(?:Nr|No)\.?|Artikel[-\s]?(?:nummer|nr\.?|code)|Bestell[-\s]?(?:nummer|nr\.?)|"
    r"Best\.[-\s]?Nr\.?|"
    r"Produkt[-\s]?(?:nummer|nr\.?|code)|Product\s*(?:#|code|ID|number|No\.?)|Stock\s*(?:code|number)|"
    r"Catalog(?:ue)?\s*(?:#|number|No\.?)|"
    r"R[ée]f(?:[ée]rence)?\.?(?:\s+(?:produit|article))?|Num[ée]ro\s+(?:de\s+l['’]objet|d['’]article)|Code\s+(?:article|produit)|"
    r"C[óo]digo(?:\s+(?:de(?:l)?\s+)?(?:producto|art[íi]culo|produto|item))?|"
    r"Cod(?:ice)?\.?\s*(?:art(?:icolo)?\.?|prod(?:otto)?\.?)|N[°ºo]\.?\s*(?:d['’])?article|"
    r"Referencia|Refer[êe]ncia|N[úu]mero\s+de\s+(?:art[íi]culo|producto|item|art[íi]culo)|"
    r"Codice(?:\s+(?:articolo|prodotto))?|Numero\s+(?:oggetto|articolo)|"
    r"Artikel(?:nummer|nr\.?)|Productcode|Artikelcode|"
    r"Kod(?:\s+produktu|\s+towaru)?|Numer\s+(?:przedmiotu|produktu|katalogowy)|Nr\s+katalogowy|Indeks|"
    r"K[óo]d(?:\s+(?:produktu|tovaru|zboží))?|Katalogov[éeé]\s+[čc][íi]slo|Obj\.?\s*[čc][íi]slo|"
    r"Vare(?:nummer|nr\.?)|Varunummer|Artikelnr\.?|Tuotenumero|Tuotekoodi|[ÜU]r[üu]n\s+kodu|Stok\s+kodu|"
    r"Anzeigen?(?:[-\s]?(?:nummer|nr\.?|ID))?|Inserat(?:s?nummer|[-\s]?nr\.?)|Ad\s*(?:ID|#|No\.?|number)|"
    r"Annonce\s*(?:n[°o]\.?|ID)|N[°o]\s+d['’]annonce|Anuncio\s*(?:n[°º]\.?|ID)|"
    r"Cikksz[áa]m|Артикул|Код(?:\s+товара)?|Номер\s+товара|"
    r"品番|商品番号|商品コード|型番|货号|商品编号|商品編號|商品货号|產品編號"
)
_MPN = (
    r"MPN|Mfr\.?\s*(?:Part\s*)?(?:#|No\.?|Number)|Manufacturer\s*(?:Part\s*)?(?:#|No\.?|Number|code)|"
    r"Part\s*(?:#|Number|No\.?)|Item\s+model\s+(?:number|No\.?)|Model(?:\s*(?:#|No\.?|Number|code))?|"
    r"Hersteller(?:[-\s]?(?:nummer|nr\.?|artikelnummer|teilenummer))|Modell(?:nummer)?|Typ(?:enbezeichnung)?|"
    r"R[ée]f(?:[ée]rence)?\.?\s+(?:fabricant|constructeur)|Mod[èe]le|"
    r"Modelo|N[úu]mero\s+de\s+(?:pieza|parte|modelo)|Referencia\s+del\s+fabricante|"
    r"Modello|Codice\s+produttore|Numer\s+(?:producenta|części)|Kod\s+producenta|Model\s+producenta|"
    r"K[óo]d\s+v[ýy]robcu|Katalogov[ée]\s+[čc][íi]slo\s+v[ýy]robcu|Part\s*(?:#|No)|"
    r"Модель|Код\s+производителя|型号|型號|メーカー型番"
)
_GTIN = (
    r"EAN(?:[-\s]?(?:13|8|code|kód|kod))?|GTIN(?:[-\s]?(?:1[234]|8))?|UPC(?:[-\s]?A)?|ISBN(?:[-\s]?1[03])?|"
    r"JAN(?:\s*(?:code|コード))?|Bar\s*code|Barcode|C[óo]digo\s+de\s+barras|Code[-\s]barre|Strichcode|"
    r"[ČC]iarov[ýy]\s+k[óo]d|Kod\s+kreskowy|Штрих[-\s]?код|条码|條碼"
)
#: A label line: the label, then (with a separator) the value or nothing.
_LABEL_LINE = re.compile(
    # the platforms' labels first: some begin with a shorter label (``SKU kodas``)
    rf"^(?:(?P<sku>{SKU_WORDS}|{_SKU})|(?P<mpn>{MPN_WORDS}|{_MPN})|(?P<gtin>{GTIN_WORDS}|{_GTIN}))"
    r"(?:\s+(?:eBay|Amazon|Allegro|Etsy|Walmart))?"
    r"\s*(?:[:#：.\-–]\s*|\s+(?=[\w-]*\d)|$)(?P<rest>.*)$",
    re.IGNORECASE,
)
_CODE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._/\-]{1,39}$")
#: A request's or session's token (``0f1e2d3c4b5a69788796a5b4``): hex of 16 and more,
#: letters and digits; a reference that changes at every fetch, never a product's code.
_TOKEN = re.compile(r"^(?=[0-9a-f]*[a-f])(?=[0-9a-f]*\d)[0-9a-f]{16,}$")
#: The longest line a label line is (label, separator and value).
_MAX_LINE = 70
#: Marks a page writes around a value to set its direction, never part of it
#: (``\u200eB0057OC5O8``: a left-to-right mark before a code in a details table), and
#: the separators around a label's value.
_MARKS = (
    "\u200b\u200c\u200d\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\ufeff"
)
_AROUND = " \u00a0:#：" + _MARKS


def labelled_codes(lines: list[str], shops: tuple[str, ...] = ()) -> dict[str, str]:
    """``sku``, ``mpn`` and ``gtin`` (each the first found) from the page's text lines;
    ``shops``: the shop's own names, folded (``ifixit``), whose label names its sku."""
    found: dict[str, str] = {}
    for i, line in _label_lines(lines):
        own = _shop_label(line, shops)
        match = _LABEL_LINE.match(own) if own else None
        if match is None:
            own, match = None, _LABEL_LINE.match(line)
        if match is None:
            continue
        field = next((f for f in ("sku", "mpn", "gtin") if match[f]), None)
        if own is not None and field == "mpn":
            field = "sku"  # the shop's own part number is its code for the product
        if field is None or field in found:
            continue
        rest = match["rest"].strip(_AROUND)
        value = rest or _next_value(lines, i)
        code = code_value(field, value)
        if code:
            found[field] = code
            if len(found) == 3:
                break
    return found


#: In a breadcrumb trail: the crumb of the page itself.
_LAST_CRUMB = etree.XPath(".//*[@aria-current='page'] | .//li[last()]")


def crumb_code(crumbs: list[Any]) -> str | None:
    """The shop's code the breadcrumb trail's last crumb labels (``Item#: 9SIB1PG``,
    ``SKU: BOP1026``); ``crumbs``: the trails and crumbs whose class (or a menu's
    ``aria-label``) says breadcrumb. The trail ends at the page itself, and some shops
    name it there by its code, in a menu the page's text leaves out."""
    for crumb in crumbs[:10]:
        try:
            found = [crumb, *_LAST_CRUMB(crumb)[:10]]
        except (TypeError, ValueError, etree.XPathError):
            continue
        for element in found:
            text = " ".join(element.xpath("string()").split())
            if 0 < len(text) <= _MAX_LINE:
                code = labelled_codes([text]).get("sku")
                if code:
                    return code
    return None


def labels_one_sku(lines: list[str]) -> bool:
    """Whether the lines label exactly one shop's code (``SKU: LMP-1``, ``ASIN``): a
    product's details do, a listing labels one for each product it shows."""
    count = 0
    for _, line in _label_lines(lines):
        match = _LABEL_LINE.match(line)
        if match is not None and match["sku"]:
            count += 1
            if count > 1:
                return False
    return count == 1


def _label_lines(lines: list[str]) -> Iterator[tuple[int, str]]:
    """The lines that may be label lines (short, beginning with a letter), numbered."""
    for i, line in enumerate(lines):
        if len(line) <= _MAX_LINE and line[:1].isalpha():
            yield i, line


def _shop_label(line: str, shops: tuple[str, ...]) -> str | None:
    """``line`` without the shop's name that begins it (``iFixit Part Number`` ->
    ``Part Number``), or ``None`` when no shop's name begins it."""
    folded = line.casefold()
    for shop in shops:
        if len(shop) < 3 or not folded.startswith(shop):
            continue
        # where the name ends in ``line`` itself: folding may lengthen it ("ß" -> "ss")
        end = next((n for n in range(len(shop), 0, -1) if line[:n].casefold() == shop), None)
        if end is not None and line[end : end + 1] == " ":
            return line[end + 1 :].lstrip()
    return None


def _next_value(lines: list[str], i: int) -> str:
    """The value cell after a label cell: the next line, unless it is a label itself."""
    for line in lines[i + 1 : i + 3]:
        stripped = line.strip(_AROUND)
        if not stripped:
            continue
        if _LABEL_LINE.match(stripped):
            return ""
        return stripped
    return ""


def is_label(text: str) -> bool:
    """Whether ``text`` is a code's label alone (``SKU``, ``Ref.``, ``Item #``)."""
    match = _LABEL_LINE.match(text.strip())
    return match is not None and not match["rest"].strip(" \u00a0:#：")


def unlabelled(text: str) -> str:
    """``text`` without a code's label before it (``Reference LMP-1`` -> ``LMP-1``)."""
    match = _LABEL_LINE.match(text.strip())
    return match["rest"].strip(" \u00a0:#：") if match else text


def code_value(field: str, value: str) -> str | None:
    """The ``field`` code (``sku``, ``mpn``, ``gtin``) ``value`` holds: one token that
    looks like a code (a GTIN with a right check digit), else ``None``."""
    value = value.strip().strip(_MARKS)
    if not value:
        return None
    if field == "gtin":
        digits = gtin_digits(value)
        return digits if digits and valid_gtin(digits) else None
    token = value.split()[0] if " " in value else value
    if len(value.split()) > 1 and not re.fullmatch(r"[\w./-]+(?:\s+\([^)]*\))?", value):
        return None
    token = token.rstrip(".,;")
    if not _CODE.match(token) or not looks_like_code(token) or _TOKEN.match(token):
        return None
    return token
