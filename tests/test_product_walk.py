"""The product walk's cheap first look: a page that sells nothing is let go on its
attribute values, and what that look says never contradicts the walk of every element."""

from __future__ import annotations

import pytest
from parsel import Selector

from webrobot.extract.page import SourcePage
from webrobot.extract.product import product
from webrobot.extract.product.walk import PageWalk

ARTICLE = """<html><head><title>Markets</title></head><body><header class="top">Site</header>
<article id="story"><h1>Stocks fall</h1><p>Stock markets fell; shares were available at a
lower price.</p><a href="/about">About</a><button class="share">Share</button></article>
<div itemscope itemtype="https://schema.org/Person"><span itemprop="name">Ann</span></div>
</body></html>"""


def walk_of(html: str) -> PageWalk:
    return PageWalk(Selector(text=html, type="html").root)


def marked_by_the_walk(walk: PageWalk) -> bool:
    return bool(walk.stock_marked) or "price" in walk.itemprops


@pytest.mark.parametrize(
    ("attribute", "expected"),
    [
        ('class="in-stock"', True),
        ('id="Availability"', True),
        ('class="LIEFERBAR-info"', True),
        ('itemprop="price"', True),
        ('itemprop="lowPrice price"', True),
        ('class="price"', True),  # a class named price: looked at, found nothing
        ('class="\u017ftock"', True),  # long s: STOCK_MARKS matches it ignoring case
        ('class="\u0131nventory"', True),  # dotless i, the same
        ('id="STOC\u212a"', True),  # a Kelvin sign as the k of "stock", the same
        ('class="caf\u00e9 men\u00fc"', False),
        ('class="teaser"', False),
        ('itemprop="pricey"', False),
    ],
)
def test_the_first_look_never_misses_what_the_walk_finds(attribute: str, expected: bool) -> None:
    walk = walk_of(f"<html><body><p>Price: 3</p><div {attribute}>x</div></body></html>")
    assert walk.may_mark() is expected
    if not expected:
        assert not marked_by_the_walk(walk)
    walked = marked_by_the_walk(walk)
    assert walk.may_mark() is walked  # after the walk, the answer is the walk's own


def test_a_news_page_with_stock_words_in_its_text_is_let_go_without_the_walk() -> None:
    walk = walk_of(ARTICLE)
    assert [e.tag for e in walk.button_candidates] == ["button"]
    assert walk.may_mark() is False
    assert walk._walked is False  # what the first look spares
    assert not marked_by_the_walk(walk)
    page = SourcePage(url="https://news.example.com/a", html=ARTICLE,
                      root=Selector(text=ARTICLE, type="html").root)  # fmt: skip
    assert product(page, {"json-ld": [], "microdata": [], "rdfa": [], "opengraph": []}) is None


def test_a_stock_line_still_makes_a_page_a_product_page() -> None:
    html = """<html lang="en"><head><title>Lamp | Shop</title></head><body><h1>Oak lamp</h1>
    <span class="price">$24.99</span><p class="stock-status">In stock</p></body></html>"""
    page = SourcePage(url="https://shop.example.com/lamp", html=html,
                      root=Selector(text=html, type="html").root)  # fmt: skip
    found = product(page, {"json-ld": [], "microdata": [], "rdfa": [], "opengraph": []})
    assert found is not None
    assert (found["name"], found["price"], found["availability"]) == (
        "Oak lamp",
        "24.99",
        "InStock",
    )


SHOP = """<html><head><title>Lamp</title><script>var s = "in-stock";</script></head><body>
<header class="stock-ticker">Menu</header><h1 itemprop="name">Oak lamp</h1>
<span class="sku">L-1</span><!-- c -->tail<p id="availability">In stock</p>
<footer>Imprint</footer></body></html>"""


@pytest.mark.parametrize("first", ["lines", "itemprops"])
def test_one_walk_gives_the_marked_elements_and_the_text_whichever_is_read_first(
    first: str,
) -> None:
    walk = walk_of(SHOP)
    getattr(walk, first)
    assert walk._walked is True  # both from the one walk
    assert [e.text for e in walk.itemprops["name"]] == ["Oak lamp"]
    assert [e.text for e in walk.coded["sku"]] == ["L-1"]
    assert [e.tag for e in walk.stock_marked] == ["header", "p"]
    assert walk.lines == ["Oak lamp", "L-1", "tail", "In stock"]
