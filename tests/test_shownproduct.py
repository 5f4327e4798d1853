"""A page that declares no product but shows one (one buy button beside a price) is read
as a product page: the main text's product rules apply to it, as to a page whose JSON-LD
or ``og:type`` says product."""

from __future__ import annotations

import lxml.html
from parsel import Selector

from webrobot.extract.collectionpage import reading_kinds
from webrobot.extract.maintext import main_text
from webrobot.extract.page import SourcePage
from webrobot.extract.shownproduct import shows_product

NAME = "Stoneware kettle Aurora, 1.7 litres, matte sage"
DESCRIPTION = (
    "<p>Aurora boils a full jug in under four minutes and keeps it warm for an hour, its "
    "stoneware body glazed by hand in our workshop so that no two kettles look quite the "
    "same.</p><p>The base turns freely on its stand, the lid opens with one finger, and "
    "the filter lifts out for rinsing under the tap whenever the water leaves its lime.</p>"
)
SPECS = (
    "<ul class='specs'><li>Capacity: 1.7 litres</li><li>Power: 2200 watts</li>"
    "<li>Weight: 1.4 kilograms</li><li>Cord length: 75 centimetres</li></ul>"
)
BUY = (
    "<div class='buy'><span class='price'>$ 89.00</span>"
    "<form action='/cart/add' method='post'><input type='hidden' name='id' value='4411'>"
    "<button type='submit'>{label}</button></form></div>"
)


def item_page(label: str = "Add to Cart", head: str = "") -> str:
    """A marketplace's item page: no JSON-LD, no ``og:type``; the name, a price and one
    buy button, a description."""
    return (
        f"<html><head><title>{NAME} | Market</title>{head}</head><body>"
        "<header><nav><a href='/'>Home</a> <a href='/kitchen'>Kitchen</a></nav></header>"
        f"<main><h1>{NAME}</h1>{BUY.format(label=label)}"
        f"<h2>Description</h2><div class='description'>{DESCRIPTION}</div>{SPECS}</main>"
        "<footer><p>Market Inc.</p></footer></body></html>"
    )


def grid_page() -> str:
    """A listing: many products, each with its price and buy button."""
    cards = "".join(
        f"<div class='card'><a href='/p/{i}'>Kettle number {i}</a>{BUY.format(label='Add to Cart')}</div>"
        for i in range(8)
    )
    return f"<html><head><title>Kettles</title></head><body><h1>Kettles</h1>{cards}</body></html>"


def tree(html: str) -> lxml.html.HtmlElement:
    return lxml.html.fromstring(html)


def read(html: str) -> str:
    return main_text(SourcePage("", html, root=Selector(text=html, type="html").root)) or ""


def test_a_buy_button_beside_a_price_shows_a_product() -> None:
    assert shows_product(tree(item_page()))
    assert shows_product(tree(item_page("In den Warenkorb")))
    assert reading_kinds(tree(item_page())) == (False, True, False)


def test_a_page_without_a_buy_button_or_with_a_listings_many_shows_none() -> None:
    assert not shows_product(tree(item_page("Subscribe")))
    assert reading_kinds(tree(item_page("Subscribe")))[1] is False
    assert not shows_product(tree(grid_page()))
    assert reading_kinds(tree(grid_page()))[1] is False


def test_an_article_with_a_buy_button_stays_an_article() -> None:
    head = "<meta property='og:type' content='article'>"
    assert reading_kinds(tree(item_page(head=head))) == (True, False, False)


def test_a_shown_product_is_read_as_a_product_page() -> None:
    """Read as a product page, the page's ``<main>`` of one ``<h2>`` section is read whole
    (:mod:`webrobot.extract.sectionedpage`): the product's name and price beside the
    description; a page of no kind keeps the description block alone."""
    text = read(item_page())
    assert NAME in text
    assert "$ 89.00" in text
    assert "stoneware body glazed by hand" in text
    plain = read(item_page("Subscribe"))
    assert "stoneware body glazed by hand" in plain
    assert NAME not in plain


def test_a_broken_tree_shows_no_product() -> None:
    assert not shows_product(None)


def test_a_price_without_a_buy_button_is_not_asked_further() -> None:
    """A price marked as such and a stock line, with no buy button (a news page's
    classes, an item shown without its button), is no shown product: the buy button is
    asked for first, so most pages cost one walk by tag name."""
    html = item_page("Subscribe").replace(
        "<span class='price'>$ 89.00</span>",
        "<span itemprop='price' content='89.00'>$ 89.00</span><p class='stock'>In stock</p>",
    )
    assert not shows_product(tree(html))
