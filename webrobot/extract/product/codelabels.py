"""The labels shop platforms print before a product's codes, in the words of their own
translation files: what a shop built on them shows in its "product details" block.

Each platform's storefront names the shop's code (sku), the maker's part number (mpn) and
the barcode (GTIN, EAN, UPC) in one catalogue per language; a shop that runs it prints
those words, whatever language it sells in. The labels below are the ones those
catalogues give, grouped by where they came from, and only those the general readers
(:mod:`~webrobot.extract.product.details` and :mod:`~webrobot.extract.product.codes`) did
not already know. Each label is read as the catalogue spells it, in small letters, in
capitals, with a capital first, and without its accents (``Referinta`` for
``Referință``), with any run of spaces between its words.

Words that are labels only in some places are left out: a label alone that means
"code" (Vietnamese ``Mã``, Lithuanian ``Kodas``, Khmer), which also names a discount or
postal code, and Shopify's Hungarian "product variant", which labels the variant picker.
The readers bind every label to a label position (a cell, a term, the start of a line)
and to a value that looks like a code, so a word in prose is no label.

The labels are many, so their pattern is a tree of their letters (a trie) that the
regular expression engine walks by comparing one character at each step: an
alternation of a hundred case-blind words tried at every character of a page would
cost more than the rest of reading a page's codes.

Pure: no Scrapy, no I/O.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable
from typing import Any

#: The shop's own code: sku, product number, reference, article number.
SKU_LABELS = (
    # Shopware 6 storefront, "Product number" (language pack: bg, bs/hr/sr, cs, el, hi,
    # hu, id, ko, lv, nl, pt, ro, ru, sk, sl, tr, uk, vi); Shopware 5, "Order number".
    "Номер на продукта",
    "Broj proizvoda",
    "Číslo výrobku",
    "Αριθμός προϊόντος",
    "उत्पाद संख्या",
    "Termékszám",
    "Nomor produk",
    "제품 번호",
    "Produkta numurs",
    "Productnummer",
    "Número de produto",
    "Numărul produsului",
    "Номер продукта",
    "Číslo produktu",
    "Številka izdelka",
    "Ürün numarası",
    "Номер продукту",
    "Số sản phẩm",
    "Order number",
    # Shopify's Dawn theme, "SKU" (fi, hr, ko, lt, sk, sl, sv, zh-TW).
    "SKU-koodi",
    "SKU kodas",
    "Jednotka SKU",
    "Inventarna šifra proizvoda (SKU)",
    "Inventarna šifra proizvoda",
    "Inventarna številka",
    "Lagerhållningsenhet",
    "SKU(재고 관리 코드)",
    "存貨單位 (SKU)",
    "存貨單位",
    # PrestaShop's theme catalogue, "Reference" (it, nl, ro, sv).
    "Riferimento",
    "Referentie",
    "Referință",
    "Referinţă",
    "Referens",
    # Spree and Solidus (spree_i18n, solidus_i18n), "SKU" (be, ca, es, fa, nb, ro).
    "Артыкул",
    "Codi de producte",
    "Número de referencia",
    "کد کالا",
    "PLU",
    "Cod produs",
    # Sylius, "SKU" (de, el, fa, he, hr, is, ru, sk, sr, vi).
    "Bestandseinheit",
    "ΚΩΔΙΚΟΣ ΠΡΟΪΟΝΤΟΣ",
    "Κωδικός προϊόντος",
    "کد محصول",
    'מק"ט',
    "מק״ט",
    "מק''ט",
    "KOD (SKU)",
    "Vörunúmer",
    "Идентификатор товарной позиции",
    "Skladový kód (SKU)",
    "Skladový kód",
    "СКУ",
    "Mã sản phẩm",
    # ShopXO (zh), "goods code" and "specification code".
    "商品编码",
    "规格编码",
)

#: The platforms' sku labels the label positions were read with before, that running
#: text (``Réf. produit : 4711`` in one line or one marked element) reads too: Shopware
#: (de, es, fr, it, pl, sv), PrestaShop (en, cs, es, pl, pt, ru), Magento (cs, fr,
#: pt-BR, ru), OpenCart (fr), Spree (hu).
SKU_IN_TEXT = (
    "Produktnummer",
    "Número de producto",
    "Réf. produit",
    "Réf produit",
    "Code produit",
    "Codice prodotto",
    "Numer produktu",
    "Referencia",
    "Referência",
    "Reference",
    "Indeks",
    "Código de produto",
    "Kód",
    "Код",
    "Артикул",
    "Réf",
    "REF",
    "Cikkszám",
)

#: The maker's code: manufacturer number, part number, model.
MPN_LABELS = (
    # Shopware 6 storefront, "Manufacturer number" (language pack: bg, bs/hr/sr, cs, da,
    # el, es, fi, fr, hi, hu, id, it, ko, lv, nl, no, pt, ro, ru, sk, sl, sv, tr, uk, vi).
    "Номер на производителя",
    "Broj proizvođača",
    "Broj proizvodjaca",
    "Číslo výrobce",
    "Číslo výrobcu",
    "Fabrikantens nummer",
    "Αριθμός κατασκευαστή",
    "Número de fabricante",
    "Valmistajan numero",
    "Numéro du fabricant",
    "निर्माता संख्या",
    "Gyártó száma",
    "Nomor produsen",
    "Numero del produttore",
    "제조업체 번호",
    "Ražotāja numurs",
    "Nummer fabrikant",
    "Produsentnummer",
    "Número do fabricante",
    "Numărul producătorului",
    "Номер производителя",
    "Številka proizvajalca",
    "Tillverkarens nummer",
    "Üretici numarası",
    "Номер виробника",
    "Số nhà sản xuất",
    # Magento's language packs, "Model" (ja); ShopXO (zh), "goods model".
    "モデル",
    "商品型号",
)

#: The same for the maker's code: Shopware (en, pl). The platforms' "Model" (OpenCart,
#: Magento) is read in label positions only: in running text it is a fashion model's
#: height as often as a code.
MPN_IN_TEXT = ("Manufacturer number", "Numer producenta")

#: The barcode: GTIN, EAN, UPC, ISBN.
GTIN_LABELS = (
    # Shopware 6 storefront, "GTIN/EAN" (every language; ru, sk, tr spell it their way).
    "GTIN/EAN",
    "ГТИН/ЕАН",
    "ГТИН/EAN",
    "GTİN/EAN",
    "GTÍN/EAN",
    # BigCommerce's Cornerstone theme, "UPC" (fr); PrestaShop's theme catalogue, "upc"
    # and "ean13" (it, ro); ShopXO (zh), "specification barcode".
    "CUP",
    "Codice a barre UPC",
    "Codice a barre EAN",
    "Codice a barre",
    "cod EAN13",
    "cod EAN",
    "cod UPC",
    "cod ISBN",
    "规格条码",
    "条形码",
    # Sylius, "SKU" (no: the word means barcode, so it labels one)
    "Strekkode",
)


def spellings(label: str) -> set[str]:
    """The ways a page prints ``label``: as written, in small letters, in capitals, with
    a capital first, each word (or each word but the short ones: ``Código de Produto``)
    with a capital first, and each of those without accents."""
    forms = {label, label.lower(), label.upper(), label[:1].upper() + label[1:].lower()}
    words = label.split(" ")
    forms.add(" ".join(w[:1].upper() + w[1:] for w in words))
    forms.add(" ".join(w[:1].upper() + w[1:] if len(w) > 3 else w for w in words))
    forms |= {_unaccented(f) for f in forms}
    return {f for f in forms if f}


def _unaccented(text: str) -> str:
    """``text`` without the accents of its Latin, Greek and Cyrillic letters (other
    scripts' marks are letters of their own: Japanese ``デ`` is no accented ``テ``)."""
    decomposed = unicodedata.normalize("NFD", text)
    if any(_other_script(c) for c in decomposed):
        return text
    return "".join(c for c in decomposed if not unicodedata.combining(c))


def _other_script(char: str) -> bool:
    code = ord(char)
    return not (code < 0x0530 or 0x1E00 <= code < 0x2000)


def trie_pattern(labels: Iterable[str]) -> str:
    """A case-sensitive pattern that matches any spelling of ``labels``
    (:func:`spellings`), longest first, with ``\\s+`` for each space: a tree of the
    letters, so that the engine compares one character to choose a branch."""
    trie: dict[str, Any] = {}
    for label in labels:
        for form in spellings(label):
            node = trie
            for char in form:
                node = node.setdefault(char, {})
            node[""] = {}
    return f"(?-i:{_emit(trie)})"


def _emit(node: dict[str, Any]) -> str:
    ends = "" in node
    branches = [
        (r"\s+" if char == " " else re.escape(char)) + _emit(child)
        for char, child in sorted(node.items())
        if char
    ]
    if not branches:
        return ""
    body = branches[0] if len(branches) == 1 else "(?:" + "|".join(branches) + ")"
    if ends:
        return f"(?:{body})?" if len(branches) == 1 else f"{body}?"
    return body


#: The patterns, each an alternation-free tree (see the module's doc).
SKU_WORDS = trie_pattern(SKU_LABELS)
MPN_WORDS = trie_pattern(MPN_LABELS)
GTIN_WORDS = trie_pattern(GTIN_LABELS)
SKU_TEXT_WORDS = trie_pattern(SKU_LABELS + SKU_IN_TEXT)
MPN_TEXT_WORDS = trie_pattern(MPN_LABELS + MPN_IN_TEXT)
