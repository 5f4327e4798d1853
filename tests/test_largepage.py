"""Whether a page is large (webrobot.extract.largepage)."""

from __future__ import annotations

import lxml.html
import pytest

from webrobot.extract import largepage
from webrobot.extract.largepage import LARGE_PAGE_ELEMENTS, LARGE_PRODUCT_ELEMENTS, is_large


def tree(nodes: int) -> lxml.html.HtmlElement:
    """A tree of exactly ``nodes`` nodes: a div holding paragraphs and comments."""
    children = "".join("<p>x</p>" if i % 2 else "<!-- c -->" for i in range(nodes - 1))
    root = lxml.html.fragment_fromstring(f"<div>{children}</div>")
    assert sum(1 for _ in root.iter()) == nodes
    return root


def test_more_nodes_than_the_bound_is_large(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(largepage, "LARGE_PAGE_ELEMENTS", 10)
    assert not is_large(tree(1))
    assert not is_large(tree(10))
    assert is_large(tree(11))
    assert is_large(tree(500))


def test_the_bound_is_far_above_a_real_page() -> None:
    # The largest real page of the evaluation sets has 4,901 nodes.
    assert not is_large(tree(5_000))
    assert is_large(tree(LARGE_PAGE_ELEMENTS + 1))


def test_a_product_page_is_large_from_a_lower_bound(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(largepage, "LARGE_PRODUCT_ELEMENTS", 10)
    assert is_large(tree(11), product=True)
    assert not is_large(tree(11))
    assert not is_large(tree(10), product=True)


def test_the_product_bound_is_above_the_product_pages_of_the_unseen_sets() -> None:
    # 95 of their 100 product pages have at most 5,000 nodes.
    assert not is_large(tree(5_000), product=True)
    assert is_large(tree(LARGE_PRODUCT_ELEMENTS + 1), product=True)
    assert LARGE_PRODUCT_ELEMENTS < LARGE_PAGE_ELEMENTS


def test_nodes_that_cannot_be_counted_are_none() -> None:
    assert largepage.node_count(object()) == 0
    assert not is_large(object(), product=True)


def _inputs(html: str) -> object:
    from parsel import Selector

    from webrobot.extract.inputs import PageInputs
    from webrobot.extract.page import SourcePage

    return PageInputs(SourcePage("https://shop.example/p", html, Selector(text=html).root))


def test_a_large_product_page_is_counted(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(largepage, "LARGE_PRODUCT_ELEMENTS", 20)
    items = "".join(f"<li><a href='/c/{i}'>Category {i}</a></li>" for i in range(30))
    body = f"<body><ul>{items}</ul><p>The product.</p></body></html>"
    product = f'<html><head><meta property="og:type" content="product"></head>{body}'
    website = f'<html><head><meta property="og:type" content="website"></head>{body}'
    article = f'<html><head><meta property="og:type" content="article"></head>{body}'
    assert largepage.large_page_notes(_inputs(product), "text") == ["large_page"]  # type: ignore[arg-type]
    assert largepage.large_page_notes(_inputs(website), "text") == []  # type: ignore[arg-type]
    assert largepage.large_page_notes(_inputs(article), "text") == []  # type: ignore[arg-type]
    assert largepage.large_page_notes(_inputs(product), None) == []  # type: ignore[arg-type]


def test_a_product_page_is_counted_as_the_main_text_reads_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The main text reads a shop's product page that calls itself an article by its
    ``og:type`` and a web page in its JSON-LD as a product (webrobot.extract.sitepages),
    under the product's bound; a catalogue that declares a collection as no product."""
    monkeypatch.setattr(largepage, "LARGE_PRODUCT_ELEMENTS", 20)
    items = "".join(f"<li><a href='/c/{i}'>Category {i}</a></li>" for i in range(30))
    body = f"<body><ul>{items}</ul><p>The product.</p></body></html>"
    jsonld = '<script type="application/ld+json">{{"@type": "{}"}}</script>'
    og = '<meta property="og:type" content="{}">'
    site_product = (
        f"<html><head>{og.format('article')}{jsonld.format('WebPage')}"
        f"{jsonld.format('Product')}</head>{body}"
    )
    catalogue = f"<html><head>{og.format('product')}{jsonld.format('CollectionPage')}</head>{body}"
    assert largepage.large_page_notes(_inputs(site_product), "text") == ["large_page"]  # type: ignore[arg-type]
    assert largepage.large_page_notes(_inputs(catalogue), "text") == []  # type: ignore[arg-type]
