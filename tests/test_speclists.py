"""A product page's specification lists, which the reading of its description leaves out."""

from __future__ import annotations

import lxml.html
import pytest
from parsel import Selector

from webrobot.extract.maintext import main_reading, main_text
from webrobot.extract.page import SourcePage
from webrobot.extract.speclists import specification_lists, with_specifications

SYNOPSIS = (
    "The thirteenth edition of the annotated labour code keeps the model of the earlier"
    " ones and weighs the questions the courts have raised since the last one. "
)
#: A bookshop's product page: the synopsis in one column, the book's details (their
#: values links to the shop's publisher and category pages) in a list beside it.
BOOK = f"""<html><head><title>Labour Code, Annotated | Bookshop</title>
<script type="application/ld+json">{{"@type": "Product", "name": "Labour Code, Annotated"}}</script>
</head><body><nav><a href="/">Home</a> <a href="/law">Law</a></nav>
<div class="row"><div class="col"><h3>Product details</h3><ul>
<li><b>Publisher:</b> <a href="/publisher/almedina">Almedina</a></li>
<li><b>Category:</b> <a href="/books">Books</a> &gt; <a href="/books/law">Law</a></li>
<li><b>ISBN:</b> 9789724084985</li>
<li><b>Pages:</b> 1204</li></ul></div>
<div class="col"><h1>Labour Code, Annotated</h1><h3>Synopsis</h3><p>{SYNOPSIS * 4}</p>
<p>{SYNOPSIS * 3}</p></div></div>
<footer><ul><li><b>Phone:</b> 555 0100</li><li><b>Mail:</b> shop@example.org</li>
<li><b>Hours:</b> 9 to 5</li></ul></footer></body></html>"""


def _root(html: str) -> object:
    return lxml.html.fromstring(html)


def _page(html: str) -> SourcePage:
    return SourcePage("https://books.example/p", html, root=Selector(text=html, type="html").root)


def test_a_list_of_label_and_value_pairs_is_a_specification_and_a_footers_is_not() -> None:
    assert specification_lists(_root(BOOK)) == [
        ["Publisher: Almedina", "Category: Books > Law", "ISBN: 9789724084985", "Pages: 1204"]
    ]


def test_definition_lists_one_pair_each_make_one_specification() -> None:
    html = (
        "<div>"
        + "".join(
            f"<dl><dt>{k}:</dt><dd>{v}</dd></dl>"
            for k, v in (("Type", "Cheese tools"), ("Material", "metal"), ("Brand Name", "YONGLI"))
        )
        + "</div>"
    )
    assert specification_lists(_root(html)) == [
        ["Type: Cheese tools", "Material: metal", "Brand Name: YONGLI"]
    ]


@pytest.mark.parametrize(
    "items",
    [
        ["Size: 1", "Colour: red"],  # too few pairs
        [f"field_{n}: {n}" for n in range(5)],  # a feed's field names
        [f"Row {n}: {n}" for n in range(70)],  # a data dump
        [
            "We ship every order within two working days of payment: always",
            "Returns: free",
            "Help: here",
        ],
    ],
)
def test_what_is_no_specification(items: list[str]) -> None:
    html = "<ul>" + "".join(f"<li>{item}</li>" for item in items) + "</ul>"
    assert specification_lists(_root(html)) == []


def test_a_specification_the_text_holds_is_not_added_again() -> None:
    root = _root(BOOK)
    held = "ISBN: 9789724084985\nPages: 1204\nPublisher: Almedina"
    assert with_specifications(held, held, root) == (held, held)
    text, markdown = with_specifications("Synopsis", "Synopsis", root)
    assert text == (
        "Synopsis\nPublisher: Almedina\nCategory: Books > Law\nISBN: 9789724084985\nPages: 1204"
    )
    assert markdown is not None and markdown.endswith(
        "\n\n- Publisher: Almedina\n- Category: Books > Law\n- ISBN: 9789724084985\n- Pages: 1204"
    )


def test_a_product_pages_text_holds_its_specification_once() -> None:
    pytest.importorskip("trafilatura")
    text = main_text(_page(BOOK))
    assert text is not None
    assert "ISBN: 9789724084985" in text and "Pages: 1204" in text
    assert text.count("ISBN: 9789724084985") == 1
    assert "Phone:" not in text
    reading = main_reading(_page(BOOK))
    assert reading.markdown is not None and "- ISBN: 9789724084985" in reading.markdown


def test_an_article_gets_no_specification() -> None:
    pytest.importorskip("trafilatura")
    text = main_text(_page(BOOK.replace('"@type": "Product"', '"@type": "Article"')))
    assert text is not None and "Pages: 1204" not in text
