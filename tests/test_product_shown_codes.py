"""A product's code as pages show it: a value with a direction mark before it, the
breadcrumb's last crumb that names the page by its code, a marketplace's listing number
beside the catalogue's code its URL carries, and pages with more buy buttons than a
product page has (other products' strips) that still label one code of their own."""

from __future__ import annotations

from typing import Any

from parsel import Selector

from webrobot.extract.page import SourcePage
from webrobot.extract.product import product
from webrobot.extract.product.details import crumb_code, labelled_codes, labels_one_sku
from webrobot.extract.product.walk import PageWalk


def page(html: str, url: str = "https://shop.example.com/p/desk-lamp") -> SourcePage:
    return SourcePage(url=url, html=html, root=Selector(text=html, type="html").root)


def crumbs(html: str) -> list[Any]:
    """The breadcrumb elements the product's one walk of the tree gathers."""
    return PageWalk(Selector(text=html, type="html").root).crumbs


# --- direction marks -----------------------------------------------------------------


def test_a_direction_mark_before_a_value_is_no_part_of_the_code() -> None:
    lines = ["Item model number", "\u200e101-70-101", "ASIN", "\u200eB0057OC5O8"]
    assert labelled_codes(lines) == {"mpn": "101-70-101", "sku": "B0057OC5O8"}
    assert labelled_codes(["SKU: \u200fLMP-204\u200e"]) == {"sku": "LMP-204"}
    # A mark alone is no value.
    assert labelled_codes(["SKU", "\u200e", "Colour"]) == {}


# --- many buy buttons, one labelled code ---------------------------------------------


def _tile(n: int) -> str:
    return f'<div class="a-card"><p>Relay {n}</p><input type="submit" name="submit.addToCart" value="Add to Cart"></div>'


def _amazon_like(details: str, tiles: int = 6) -> str:
    strip = "".join(_tile(n) for n in range(tiles))
    return f"""<html><body><div id="dp"><h1>Relay module</h1>
    <span class="a-price">$8.99</span>
    <input type="submit" id="add-to-cart-button" value="Add to Cart">
    <div class="sims">{strip}</div>
    <table class="prodDetTable">{details}</table></div></body></html>"""


def test_a_page_with_other_products_buy_buttons_that_labels_one_code_is_a_product_page() -> None:
    rows = "<tr><th>ASIN</th><td>\u200eB0057OC5O8</td></tr>"
    result = product(page(_amazon_like(rows)))
    assert result is not None
    assert (result["sku"], result["price"]) == ("B0057OC5O8", "8.99")
    # Without a labelled code, so many buy buttons are a listing's.
    assert product(page(_amazon_like("<tr><th>Colour</th><td>Blue</td></tr>"))) is None


def test_a_listing_labels_a_code_for_each_product_and_stays_a_listing() -> None:
    assert labels_one_sku(["Lamp", "SKU: L-1", "$20"])
    assert not labels_one_sku(["Lamp", "SKU: L-1", "$20", "Chair", "SKU: C-2", "$40"])
    rows = "<tr><th>SKU</th><td>L-1</td></tr><tr><th>SKU</th><td>C-2</td></tr>"
    assert product(page(_amazon_like(rows))) is None


# --- carousels -----------------------------------------------------------------------


def _with_strip(strip_class: str) -> str:
    tiles = "".join(
        f'<div class="tile"><p>Chair {n}</p><button>Add to Cart</button></div>' for n in range(8)
    )
    return f"""<html><body><main><h1>Executive chair</h1><span class="price">$659.99</span>
    <button class="add-to-cart">Add to Cart</button></main>
    <section><div class="{strip_class}">{tiles}</div></section></body></html>"""


def test_buy_buttons_in_a_carousel_are_other_products() -> None:
    result = product(page(_with_strip("carousel-track")))
    assert result is not None and result["price"] == "659.99"
    # The same strip unmarked: the page has a listing's many buy buttons.
    assert product(page(_with_strip("strip-track"))) is None


# --- the breadcrumb's last crumb -----------------------------------------------------


def test_the_breadcrumbs_last_crumb_that_labels_a_code_is_read() -> None:
    trail = """<html><body><div class="breadcrumbs"><ol><li><a href="/">Home</a></li>
    <li><a href="/gpu">GPUs</a></li><li class="is-active"><h2>Item#: <em>9SIBP4YKGJ0447</em></h2>
    </li></ol></div></body></html>"""
    assert crumb_code(crumbs(trail)) == "9SIBP4YKGJ0447"
    current = """<html><body><nav aria-label="Breadcrumbs"><ol><li><a href="/">Home</a></li>
    <li><span aria-current="page">SKU: BOP1026</span></li></ol></nav></body></html>"""
    assert crumb_code(crumbs(current)) == "BOP1026"
    # A crumb that names the product, not a code, gives none.
    plain = trail.replace("Item#: <em>9SIBP4YKGJ0447</em>", "RTX 4080 Super")
    assert crumb_code(crumbs(plain)) is None
    assert crumb_code(crumbs("<html><body><p>Item#: 12345</p></body></html>")) is None
    # A crumb marked as such on its own (``breadcrumb-item``) is read too.
    item = '<ol><li class="breadcrumb-item"><a href="/">Home</a></li><li class="breadcrumb-item active">Ref. ZX-99</li></ol>'
    assert crumb_code(crumbs(f"<html><body>{item}</body></html>")) == "ZX-99"


def _listing_page(sku_text: str) -> str:
    return f"""<html><head><script type="application/ld+json">{{"@type": "Product",
    "name": "RTX 4080", "sku": "N82E16814126712",
    "offers": {{"price": "1646.00", "priceCurrency": "USD"}}}}</script></head><body>
    <div class="page-bar"><div class="breadcrumbs"><ol><li><a href="/">Home</a></li>
    <li class="is-active"><h2>Item#: <em>9SIBP4YKGJ0447</em></h2></li></ol></div></div>
    <div class="intro">{"Free shipping on orders over $50. " * 20}</div>
    <main class="product"><h1>RTX 4080</h1><span class="price">$1,646.00</span>
    <button class="add-to-cart">Add to cart</button><p>{sku_text}</p></main></body></html>"""


def test_the_code_the_page_labels_beats_a_structured_sku_only_its_url_carries() -> None:
    url = "https://www.example.com/rtx-4080/p/N82E16814126712"
    result = product(page(_listing_page("Sold by a marketplace seller"), url))
    assert result is not None and result["sku"] == "9SIBP4YKGJ0447"
    # The structured sku shown on the page stays the product's.
    result = product(page(_listing_page("Catalogue code N82E16814126712"), url))
    assert result is not None and result["sku"] == "N82E16814126712"


def test_one_buy_button_and_a_crumb_naming_the_code_make_a_product_page_without_a_price() -> None:
    html = """<html><body><nav aria-label="Breadcrumbs"><ol><li><a href="/">Home</a></li>
    <li><span aria-current="page">SKU: BOP1026</span></li></ol></nav>
    <div><h1>Beaded chandelier</h1><span data-test-id="PriceDisplay">$659.99</span>
    <div class="b"><div class="c"><div class="d"><div class="e"><div class="f">
    <form><button>Add to Cart</button></form></div></div></div></div></div></div></body></html>"""
    result = product(page(html))
    assert result is not None and result["sku"] == "BOP1026"
    # Without the crumb's code nothing says it is one product's page.
    assert product(page(html.replace("SKU: BOP1026", "Chandeliers"))) is None
