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
        [  # a theme's hidden custom fields, some named as words, some as a feed's fields
            "SKU: 5001",
            "product-high-res-img: https://box.example/s/xycmx2rrcfuuv5lvrvwgfnizwwk0spvo",
            "product type: T-Shirts",
            "gender: Men",
            "origin-zip: 28273 90746",
        ],
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


def test_product_cards_whose_titles_hold_a_colon_are_no_specification() -> None:
    # a carousel of other products: each card one link, books' titles with a subtitle
    titles = [
        "Clear Quran : A Thematic English Translation (Hardcover)(19) $6.99 New",
        "Stripped Down : Unfiltered and Unapologetic (2026, Hardcover) $23.00 New",
        "You with the Sad Eyes : A Memoir (2026, Hardcover) $21.45 New",
    ]
    html = "<ul>" + "".join(f'<li><a href="/p/{n}">{t}</a></li>' for n, t in enumerate(titles))
    assert specification_lists(_root(html + "</ul>")) == []


def test_a_specification_the_text_holds_is_not_added_again() -> None:
    root = _root(BOOK)
    held = "ISBN: 9789724084985\nPages: 1204\nPublisher: Almedina"
    assert with_specifications(held, held, root) == (held, held)
    # the reading holds each label and its value as lines of their own
    apart = "- Publisher\n- Almedina\n- Category\n- Books > Law\n- ISBN\n- 9789724084985"
    assert with_specifications(apart, apart, root) == (apart, apart)
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


def test_the_cards_of_a_listing_give_no_specification() -> None:
    # a category page that declares its products: each card lists the same labels
    cards = "".join(
        f'<div class="card"><h2><a href="/p/{n}">Lamp {n}</a></h2><ul><li>Colour: red</li>'
        f"<li>Height: {30 + n} cm</li><li>Bulb: E27</li></ul></div>"
        for n in range(6)
    )
    root = _root(f"<html><body><main><h1>Desk lamps</h1>{cards}</main></body></html>")
    assert with_specifications("Desk lamps", "Desk lamps", root) == ("Desk lamps", "Desk lamps")


@pytest.mark.parametrize(
    "review",
    [
        # a review's header as label and value pairs, in a list of its own
        (
            "<ul><li>Reviewer: Jana Dvořák</li><li>Date: 4 March 2021</li>"
            "<li>Rating: 5/5</li><li>Verified purchase: yes</li></ul><p>Great lamp.</p>"
        ),
        # the same in a definition list
        (
            "<dl><dt>Reviewed by</dt><dd>Jana</dd><dt>Date</dt><dd>2021-03-04</dd>"
            "<dt>Rating</dt><dd>4 of 5</dd></dl><p>Bright.</p>"
        ),
        # in a block that marks itself a review, whatever its labels
        (
            '<div itemprop="review" itemscope itemtype="https://schema.org/Review"><ul>'
            "<li>Name: Jana</li><li>Posted: 4 March 2021</li><li>Stars: 5</li></ul></div>"
        ),
        (
            '<div class="review-item"><ul><li>Customer: Jana</li><li>Posted: 4 March 2021</li>'
            "<li>Size bought: M</li></ul></div>"
        ),
    ],
)
def test_a_reviews_header_is_no_specification(review: str) -> None:
    root = _root(f"<html><body><main><h1>Desk lamp</h1>{review}</main></body></html>")
    assert specification_lists(root) == []


def test_a_books_author_and_date_are_its_specification() -> None:
    items = ["Author: Jana Dvořák", "Publication date: 4 March 2021", "Pages: 310"]
    html = "<ul>" + "".join(f"<li>{item}</li>" for item in items) + "</ul>"
    assert specification_lists(_root(html)) == [items]


def test_a_page_wide_review_class_leaves_the_specification() -> None:
    items = ["Material: oak", "Height: 74 cm", "Finish: oiled"]
    spec = "<ul>" + "".join(f"<li>{item}</li>" for item in items) + "</ul>"
    html = (
        '<html><body class="reviews-enabled"><div class="page"><main><div class="product">'
        f'<div class="details"><div class="tab">{spec}</div></div></div></main></div></body></html>'
    )
    assert specification_lists(_root(html)) == [items]


def test_a_closed_tab_panels_specification_is_read_and_a_hidden_lists_is_not() -> None:
    """A "Specifications" tab closed with ``hidden`` is read, as a reader opens it; the
    same list hidden outside a tab panel is not."""
    items = ["Material: metal", "Weight: 2 kg", "Colour: black"]
    pairs = "".join(f"<li><b>{item.split(':')[0]}:</b>{item.split(':')[1]}</li>" for item in items)
    tab = f"<html><body><div role='tabpanel' hidden><ul>{pairs}</ul></div></body></html>"
    assert specification_lists(_root(tab)) == [items]
    hidden = f"<html><body><div hidden><ul>{pairs}</ul></div></body></html>"
    assert specification_lists(_root(hidden)) == []
