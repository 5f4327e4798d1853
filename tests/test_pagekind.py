"""Whether a page declares itself an article or a product."""

from __future__ import annotations

import lxml.html
import pytest

from webrobot.extract.pagekind import declares_article, declares_product


def page(head: str) -> object:
    return lxml.html.document_fromstring(f"<html><head>{head}</head><body><p>x</p></body></html>")


@pytest.mark.parametrize(
    "head",
    [
        '<meta property="og:type" content="article">',
        '<meta name="og:type" content=" Article ">',
        '<script type="application/ld+json">{"@type": "NewsArticle", "headline": "x"}</script>',
        (
            '<script type="application/ld+json">{"@graph": [{"@type": ["WebPage"]}, '
            '{"@type": "BlogPosting"}]}</script>'
        ),
        '<script type="application/ld+json">{"@type": "http://schema.org/Article"}</script>',
    ],
)
def test_articles(head: str) -> None:
    assert declares_article(page(head))


@pytest.mark.parametrize(
    "head",
    [
        "",
        '<meta property="og:type" content="website">',
        '<meta property="og:type" content="product">',
        '<script type="application/ld+json">{"@type": "Product", "name": "Article 7 lamp"}</script>',
        '<script>var x = {"@type": "Article"};</script>',  # not JSON-LD
    ],
)
def test_other_pages(head: str) -> None:
    assert not declares_article(page(head))


def test_no_tree_is_no_article() -> None:
    assert not declares_article(None)


@pytest.mark.parametrize(
    "head",
    [
        '<meta property="og:type" content="product">',
        '<meta property="og:type" content="product.item">',
        '<meta property="og:type" content="og:product">',
        '<script type="application/ld+json">{"@type": "Product", "name": "Lamp"}</script>',
        (
            '<script type="application/ld+json">{"@graph": [{"@type": "WebPage"}, '
            '{"@type": ["ProductGroup"]}]}</script>'
        ),
    ],
)
def test_products(head: str) -> None:
    assert declares_product(page(head))


@pytest.mark.parametrize(
    "head",
    [
        "",
        '<meta property="og:type" content="article">',
        '<script type="application/ld+json">{"@type": "ItemList", "name": "Products"}</script>',
        '<script>var x = {"@type": "Product"};</script>',  # not JSON-LD
    ],
)
def test_pages_that_are_no_product(head: str) -> None:
    assert not declares_product(page(head))
    assert not declares_product(None)
