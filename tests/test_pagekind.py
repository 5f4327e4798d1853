"""Whether a page declares itself an article or a product."""

from __future__ import annotations

import lxml.html
import pytest

from webrobot.extract.collectionpage import declares_collection, reading_kinds
from webrobot.extract.listingcards import lists_cards
from webrobot.extract.pagekind import (
    NOTHING,
    declarations,
    declares_article,
    declares_discussion,
    declares_product,
)
from webrobot.extract.sitepages import declares_site_page


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


def _ld(kind: str) -> str:
    return f'<script type="application/ld+json">{{"@type": {kind}}}</script>'


_OG_ARTICLE = '<meta property="og:type" content="article">'
HEADS = [
    "",
    _OG_ARTICLE,
    '<meta property="og:type" content="website">',
    '<meta property="og:type" content="product.item">',
    _ld('"CollectionPage"'),
    _ld('["WebPage", "CollectionPage"]') + _ld('"BlogPosting"'),
    _OG_ARTICLE + _ld('"WebPage"'),
    _OG_ARTICLE
    + '<meta property="article:published_time" content="2024-01-02">'
    + _ld('"WebPage"'),
    _OG_ARTICLE + _ld('"DiscussionForumPosting"'),
    _ld('"QAPage"') + _ld('"Product"'),
]


@pytest.mark.parametrize("head", HEADS)
def test_the_declarations_gathered_once_answer_as_the_tree_does(head: str) -> None:
    root = page(head)
    found = declarations(root)
    assert reading_kinds(root, found) == reading_kinds(root)
    assert declares_article(root, found) == declares_article(root)
    assert declares_product(root, found) == declares_product(root)
    assert declares_discussion(root, found=found) == declares_discussion(root)
    assert declares_site_page(root, found) == declares_site_page(root)
    assert declares_collection(root, found) == declares_collection(root)
    assert lists_cards(root, found) == lists_cards(root)


def test_the_tests_read_the_declarations_they_are_given() -> None:
    post = declarations(page('<meta property="og:type" content="article">'))
    assert declares_article(page(""), post)
    assert reading_kinds(page(""), post) == (True, False, False)
    assert declarations(None) == NOTHING and not declares_article(None, NOTHING)
