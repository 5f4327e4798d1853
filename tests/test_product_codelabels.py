"""The labels shop platforms print before a product's codes (their translation files'
words), read where a shop prints them: a details table, a definition list, a "Label:
value" line, spans side by side, an element marked as the code; and never from prose."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from parsel import Selector

from webrobot.extract.page import SourcePage
from webrobot.extract.product import product
from webrobot.extract.product.codelabels import spellings, trie_pattern
from webrobot.extract.product.codes import GTIN_LABEL, MPN_LABEL, SKU_LABEL, labelled_code
from webrobot.extract.product.details import labelled_codes

#: (platform, language, field, the label as its translation file prints it).
PLATFORM_LABELS = [
    ("Shopware", "bg", "sku", "Номер на продукта:"),
    ("Shopware", "cs", "sku", "Číslo výrobku:"),
    ("Shopware", "el", "sku", "Αριθμός προϊόντος:"),
    ("Shopware", "hr", "sku", "Broj proizvoda:"),
    ("Shopware", "hu", "sku", "Termékszám:"),
    ("Shopware", "id", "sku", "Nomor produk:"),
    ("Shopware", "ko", "sku", "제품 번호:"),
    ("Shopware", "lv", "sku", "Produkta numurs:"),
    ("Shopware", "nl", "sku", "Productnummer:"),
    ("Shopware", "pt", "sku", "Número de produto:"),
    ("Shopware", "ro", "sku", "Numărul produsului:"),
    ("Shopware", "ru", "sku", "Номер продукта:"),
    ("Shopware", "sk", "sku", "Číslo produktu:"),
    ("Shopware", "sl", "sku", "Številka izdelka:"),
    ("Shopware", "tr", "sku", "Ürün numarası:"),
    ("Shopware", "uk", "sku", "Номер продукту:"),
    ("Shopware", "vi", "sku", "Số sản phẩm:"),
    ("Shopware", "fr", "sku", "Réf. produit\xa0:"),
    ("Shopware", "de", "sku", "Produktnummer:"),
    ("Shopware 5", "en", "sku", "Order number:"),
    ("Shopware", "bg", "mpn", "Номер на производителя:"),
    ("Shopware", "hr", "mpn", "Broj proizvođača:"),
    ("Shopware", "cs", "mpn", "Číslo výrobce:"),
    ("Shopware", "da", "mpn", "Fabrikantens nummer:"),
    ("Shopware", "el", "mpn", "Αριθμός κατασκευαστή:"),
    ("Shopware", "es", "mpn", "Número de fabricante:"),
    ("Shopware", "fi", "mpn", "Valmistajan numero:"),
    ("Shopware", "fr", "mpn", "Numéro du fabricant\xa0:"),
    ("Shopware", "hu", "mpn", "Gyártó száma:"),
    ("Shopware", "it", "mpn", "Numero del produttore:"),
    ("Shopware", "ko", "mpn", "제조업체 번호:"),
    ("Shopware", "nl", "mpn", "Nummer fabrikant:"),
    ("Shopware", "no", "mpn", "Produsentnummer:"),
    ("Shopware", "pt", "mpn", "Número do fabricante:"),
    ("Shopware", "ro", "mpn", "Numărul producătorului:"),
    ("Shopware", "ru", "mpn", "Номер производителя:"),
    ("Shopware", "sl", "mpn", "Številka proizvajalca:"),
    ("Shopware", "sv", "mpn", "Tillverkarens nummer:"),
    ("Shopware", "tr", "mpn", "Üretici numarası:"),
    ("Shopware", "uk", "mpn", "Номер виробника:"),
    ("Shopware", "vi", "mpn", "Số nhà sản xuất:"),
    ("Shopware", "en", "mpn", "Manufacturer number:"),
    ("Shopware", "all", "gtin", "GTIN/EAN:"),
    ("Shopware", "ru", "gtin", "ГТИН/ЕАН:"),
    ("Shopify Dawn", "fi", "sku", "SKU-koodi"),
    ("Shopify Dawn", "hr", "sku", "Inventarna šifra proizvoda (SKU)"),
    ("Shopify Dawn", "ko", "sku", "SKU(재고 관리 코드)"),
    ("Shopify Dawn", "lt", "sku", "SKU kodas"),
    ("Shopify Dawn", "sk", "sku", "Jednotka SKU"),
    ("Shopify Dawn", "sl", "sku", "Inventarna številka"),
    ("Shopify Dawn", "sv", "sku", "Lagerhållningsenhet"),
    ("Shopify Dawn", "zh-TW", "sku", "存貨單位 (SKU)"),
    ("BigCommerce Cornerstone", "fr", "gtin", "CUP\xa0:"),
    ("PrestaShop", "it", "sku", "Riferimento"),
    ("PrestaShop", "nl", "sku", "Referentie"),
    ("PrestaShop", "ro", "sku", "Referinta"),
    ("PrestaShop", "sv", "sku", "Referens"),
    ("PrestaShop", "en", "sku", "Reference"),
    ("PrestaShop", "pl", "sku", "Indeks"),
    ("PrestaShop", "ro", "gtin", "cod EAN13"),
    ("PrestaShop", "it", "gtin", "Codice a barre UPC"),
    ("Magento", "pt-BR", "sku", "Código de Produto:"),
    ("Magento", "fr", "sku", "REF :"),
    ("OpenCart", "fr", "sku", "Code produit:"),
    ("Spree", "be", "sku", "Артыкул"),
    ("Spree", "ca", "sku", "Codi de producte"),
    ("Spree", "es", "sku", "Número de referencia"),
    ("Spree", "fa", "sku", "کد کالا"),
    ("Spree", "nb", "sku", "PLU"),
    ("Spree", "ro", "sku", "Cod produs"),
    ("Sylius", "de", "sku", "Bestandseinheit"),
    ("Sylius", "el", "sku", "ΚΩΔΙΚΟΣ ΠΡΟΪΟΝΤΟΣ"),
    ("Sylius", "fa", "sku", "کد محصول"),
    ("Sylius", "he", "sku", "מק״ט"),
    ("Sylius", "hr", "sku", "KOD (SKU)"),
    ("Sylius", "is", "sku", "Vörunúmer"),
    ("Sylius", "ru", "sku", "Идентификатор товарной позиции"),
    ("Sylius", "sk", "sku", "Skladový kód (SKU)"),
    ("Sylius", "vi", "sku", "MÃ SẢN PHẨM"),
    ("Sylius", "no", "gtin", "Strekkode"),
    ("ShopXO", "zh", "sku", "商品编码"),
    ("ShopXO", "zh", "mpn", "商品型号"),
    ("Magento", "ja", "mpn", "モデル"),
]
_VALUE = {"sku": "AB-1234", "mpn": "MX-77/B", "gtin": "4006381333931"}
_RUNNING = {"sku": SKU_LABEL, "mpn": MPN_LABEL, "gtin": GTIN_LABEL}


@pytest.mark.parametrize(("platform", "lang", "field", "label"), PLATFORM_LABELS)
def test_a_platforms_label_is_read_in_every_label_position(
    platform: str, lang: str, field: str, label: str
) -> None:
    value = _VALUE[field]
    bare = label.rstrip(" \xa0:")
    # a cell or a term, then the value's cell
    assert labelled_codes([bare, value]) == {field: value}, platform
    # one "Label: value" line, as the platform prints it
    assert labelled_codes([f"{bare}: {value}"]) == {field: value}, platform
    # running text with a colon after the label
    match = _RUNNING[field].search(f"Details {bare}: {value} more")
    assert match is not None and match["v"] == value, (platform, lang)


def page(details: str, lang: str) -> SourcePage:
    html = f"""<html lang="{lang}"><body><header><a href="/cart">Cart</a></header>
    <main class="product"><h1>Desk lamp</h1><span class="price">24,99 €</span>
    <button class="add-to-cart">Add to cart</button>
    <section class="product-details">{details}</section></main></body></html>"""
    return SourcePage(
        url="https://shop.example.com/p/lamp",
        html=html,
        root=Selector(text=html, type="html").root,
    )


@pytest.mark.parametrize(
    ("lang", "details", "field", "value"),
    [
        # Shopware's buy box: a label span, then the number
        (
            "nl",
            (
                '<ul><li class="product-detail-ordernumber-container">'
                '<span class="product-detail-ordernumber-label">Productnummer:</span>'
                " <span>SW10042</span></li></ul>"
            ),
            "sku",
            "SW10042",
        ),
        # Shopware's properties table
        (
            "cs",
            "<table><tr><th>Číslo výrobce:</th><td>ZX-41</td></tr></table>",
            "mpn",
            "ZX-41",
        ),
        ("de", "<ul><li>GTIN/EAN: 4006381333931</li></ul>", "gtin", "4006381333931"),
        # Dawn's sku line: a hidden label in the marked element
        (
            "lt",
            ('<p class="product__sku"><span class="visually-hidden">SKU kodas:</span> LT-2201</p>'),
            "sku",
            "LT-2201",
        ),
        # PrestaShop's reference: a label element, then a span
        (
            "nl",
            (
                '<div class="product-reference"><label class="label">Referentie </label>'
                "<span>NL-4471</span></div>"
            ),
            "sku",
            "NL-4471",
        ),
        ("it", "<dl><dt>Riferimento</dt><dd>IT-3310</dd></dl>", "sku", "IT-3310"),
        ("he", '<dl><dt>מק"ט</dt><dd>778812</dd></dl>', "sku", "778812"),
        ("ca", "<table><tr><th>Codi de producte</th><td>CB-301</td></tr></table>", "sku", "CB-301"),
        ("zh", "<ul><li>商品编码：SX-9981</li></ul>", "sku", "SX-9981"),
        (
            "el",
            "<li><span>Κωδικός προϊόντος:</span> <span>GR-5521</span></li>",
            "sku",
            "GR-5521",
        ),
        ("sv", "<dl><dt>Tillverkarens nummer</dt><dd>TX-900</dd></dl>", "mpn", "TX-900"),
        (
            "pt",
            "<p><span>Número do fabricante:</span> <span>PT-88</span></p>",
            "mpn",
            "PT-88",
        ),
        ("ja", "<table><tr><th>モデル</th><td>JP-33</td></tr></table>", "mpn", "JP-33"),
        ("ru", "<dl><dt>Номер производителя</dt><dd>RU-4410</dd></dl>", "mpn", "RU-4410"),
        ("fr", "<dl><dt>CUP :</dt><dd>036000291452</dd></dl>", "gtin", "036000291452"),
    ],
)
def test_platform_markup_in_many_languages_is_read(
    lang: str, details: str, field: str, value: str
) -> None:
    result = product(page(details, lang))
    assert result is not None and result[field] == value


@pytest.mark.parametrize(
    "lines",
    [
        ["Zie referentie 2023 voor de details van de garantie"],
        ["Riferimento normativo per la garanzia legale di 24 mesi"],
        ["Referens", "Se våra villkor"],
        ["Order number 12345 will ship within two days"],
        ["PLU de la commune", "Zone UA"],
        ["Productnummer", "Bekijk alle varianten"],
        ["Nummer fabrikant onbekend"],
        ["Mã", "SALE-50"],
        ["Termékváltozat", "128GB"],
        ["Model", "180 cm"],
    ],
)
def test_the_words_in_prose_or_without_a_code_are_no_label(lines: list[str]) -> None:
    assert labelled_codes(lines) == {}


def test_running_text_reads_a_platforms_label_only_with_a_colon_after_it() -> None:
    def text(t: str) -> str:
        return t

    assert labelled_code([], SKU_LABEL, lambda: text("Zie referentie 2023 voor details")) is None
    assert labelled_code([], SKU_LABEL, lambda: text("Referentie: zie hieronder")) is None
    assert labelled_code([], SKU_LABEL, lambda: text("Merk: Acme Referentie: NL-41")) == "NL-41"
    # a fashion model's height is no maker's code
    assert labelled_code([], MPN_LABEL, lambda: text("Model: 180 cm, wears size M")) is None


_LABEL_WORDS = [label for _, _, _, label in PLATFORM_LABELS] + ["SKU", "EAN", "Model", ":", "\n"]
_TEXT = st.lists(st.one_of(st.sampled_from(_LABEL_WORDS), st.text(max_size=60)), max_size=12).map(
    " ".join
)


@settings(max_examples=200, deadline=2000)
@given(_TEXT)
def test_arbitrary_text_never_breaks_the_label_readers(text: str) -> None:
    found = labelled_codes(text.split("\n"))
    assert all(len(v) <= 40 for v in found.values())
    for pattern in (SKU_LABEL, MPN_LABEL, GTIN_LABEL):
        for match in pattern.finditer(text):
            assert len(match["v"]) <= 40
    for pattern in (SKU_LABEL, MPN_LABEL):
        code = labelled_code([], pattern, lambda: text)
        assert code is None or len(code) <= 40


def test_a_label_is_read_in_the_spellings_pages_print_it_in() -> None:
    forms = spellings("Número de produto")
    assert {"Número de produto", "NÚMERO DE PRODUTO", "número de produto"} <= forms
    assert {"Numero de produto", "Número De Produto", "Número de Produto"} <= forms
    # other scripts' marks are letters of their own, never dropped
    assert spellings("モデル") == {"モデル"}
    assert "Referinta" in spellings("Referință")


_WORD = st.text(alphabet="abcXYZéüЖж品-.", min_size=1, max_size=6)


@settings(max_examples=150, deadline=2000)
@given(st.lists(st.lists(_WORD, min_size=1, max_size=3).map(" ".join), min_size=1, max_size=8))
def test_the_trie_reads_every_spelling_of_its_labels_and_nothing_else(labels: list[str]) -> None:
    pattern = re.compile(trie_pattern(labels), re.IGNORECASE)
    every = set().union(*(spellings(label) for label in labels))
    for form in every:
        assert pattern.fullmatch(form), form
        assert pattern.fullmatch(form.replace(" ", " \u00a0 ")), form
    for label in labels:
        for other in (label + "q", "q" + label, label.swapcase() + "q"):
            assert (pattern.fullmatch(other) is not None) == (other in every)
