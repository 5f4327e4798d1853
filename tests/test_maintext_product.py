"""The main text of a page that declares a product: its name opens the text."""

from __future__ import annotations

from parsel import Selector

from webrobot.extract.maintext import main_reading, main_text
from webrobot.extract.page import SourcePage

DESCRIPTION = (
    "This version of the warrior design has the signature industrial gold bar, wrapped in"
    " yellow and silver toned half rings, on a fine chain that sits close to the neck. "
)


def _page(declared: str) -> SourcePage:
    html = f"""<html><head><title>Warrior Drop Necklace | Jewellery Shop</title>
<meta property="og:title" content="Warrior Drop Necklace">{declared}</head><body>
<nav><a href="/">Home</a> <a href="/jewelry">Jewellery</a></nav>
<main><div class="product"><h1>Warrior Drop Necklace</h1>
<p>{DESCRIPTION * 3}</p><p>{DESCRIPTION * 2}</p><ul><li>18K gold</li>
<li>Diamonds, .07 TCW</li></ul></div></main>
<footer><p>Jewellery Shop, 1 Main Street</p></footer></body></html>"""
    return SourcePage("https://shop.example/p/1", html, root=Selector(text=html, type="html").root)


PRODUCT = '<script type="application/ld+json">{"@type": "Product", "name": "Warrior Drop Necklace"}</script>'
ARTICLE = '<meta property="og:type" content="article">'


def test_a_products_name_opens_its_text() -> None:
    text = main_text(_page(PRODUCT))
    assert text is not None
    assert text.splitlines()[0] == "Warrior Drop Necklace"
    assert "18K gold" in text


def test_the_markdown_keeps_the_name_as_its_heading() -> None:
    reading = main_reading(_page(PRODUCT))
    assert reading.markdown is not None
    assert reading.markdown.splitlines()[0] == "# Warrior Drop Necklace"


def test_a_page_that_declares_no_product_drops_the_headline_its_title_states() -> None:
    for declared in ("", ARTICLE):
        text = main_text(_page(declared))
        assert text is not None
        assert text.splitlines()[0].startswith("This version of the warrior design")
