"""The name a product page gives itself, first in its main text."""

from __future__ import annotations

import lxml.html
import pytest
from parsel import Selector

from webrobot.extract.maintext import main_reading, main_text
from webrobot.extract.page import SourcePage
from webrobot.extract.pagename import page_name, with_name

DESCRIPTION = (
    "The crib mattress combines a firm soy-enhanced foam core with a soft organic cotton"
    " cover, and keeps its shape through years of nightly use. "
)
#: A shop's product page: its name in the buy box's header, its description and
#: specification in a block of their own below, which trafilatura reads alone.
PRODUCT = f"""<html><head><title>Nature Couture Crib Mattress | Boscovs</title>
<script type="application/ld+json">{{"@type": "Product", "name": "Nature Couture Crib Mattress"}}</script>
</head><body>
<header><h1 class="logo"><a href="/">Boscovs</a></h1><nav><a href="/">Home</a></nav></header>
<div class="buybox"><div class="head"><h1>Nature Couture Crib Mattress</h1></div>
<span>$169.99</span></div>
<div class="desc"><h2>Product Description</h2><p>{DESCRIPTION * 3}</p>
<ul><li>Made in the USA with imported parts</li><li>Product weight: 10 lbs.</li></ul>
<p>{DESCRIPTION * 2}</p></div>
<footer><p>Shopper services, every day of the week.</p></footer>
</body></html>"""


def _root(html: str) -> object:
    return lxml.html.fromstring(html)


def _page(html: str) -> SourcePage:
    return SourcePage("https://shop.example/p", html, root=Selector(text=html, type="html").root)


def test_the_name_is_the_h1_the_title_states_not_a_logo() -> None:
    assert page_name(_root(PRODUCT)) == "Nature Couture Crib Mattress"


def test_a_page_whose_title_names_no_h1_has_no_name() -> None:
    html = PRODUCT.replace("Nature Couture Crib Mattress | Boscovs", "Boscovs").replace(
        '"name": "Nature Couture Crib Mattress"', '"name": "x"'
    )
    assert page_name(_root(html)) is None


@pytest.mark.parametrize(
    "wrapper",
    [
        "<nav>{}</nav>",
        "<div hidden>{}</div>",
        '<div aria-hidden="true">{}</div>',
        '<a href="/">{}</a>',
    ],
)
def test_a_hidden_or_navigation_h1_is_no_name(wrapper: str) -> None:
    html = ("<html><head><title>Blue boots for winter | Shop</title></head><body>"
            + wrapper.format("<h1>Blue boots for winter</h1>") + "</body></html>")  # fmt: skip
    assert page_name(_root(html)) is None


def test_the_name_goes_first_once() -> None:
    root = _root(PRODUCT)
    assert with_name("Made in the USA", "Made in the USA", root) == (
        "Nature Couture Crib Mattress\nMade in the USA",
        "# Nature Couture Crib Mattress\n\nMade in the USA",
    )
    held = "Nature Couture Crib Mattress\nMade in the USA"
    assert with_name(held, held, root) == (held, held)
    assert with_name(None, None, root) == (None, None)


def test_a_product_pages_text_starts_with_its_name() -> None:
    pytest.importorskip("trafilatura")
    text = main_text(_page(PRODUCT))
    assert text is not None
    assert text.splitlines()[0] == "Nature Couture Crib Mattress"
    assert "Boscovs" not in text
    reading = main_reading(_page(PRODUCT))
    assert reading.markdown is not None
    assert reading.markdown.startswith("# Nature Couture Crib Mattress\n")


def test_an_article_keeps_its_headline_out() -> None:
    pytest.importorskip("trafilatura")
    html = PRODUCT.replace('"@type": "Product"', '"@type": "NewsArticle"')
    text = main_text(_page(html))
    assert text is not None
    assert not text.startswith("Nature Couture Crib Mattress")
