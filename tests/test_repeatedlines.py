"""A shop page's long lines read once."""

from __future__ import annotations

from parsel import Selector

from webrobot.extract.maintext import main_reading
from webrobot.extract.page import SourcePage
from webrobot.extract.repeatedlines import MIN_CHARS, without_repeats

DESCRIPTION = (
    "The Staple Tee: enduring comfort in a regular fit, crafted from mid weight combed"
    " cotton, with neck ribbing and double needle hems."
)


def test_a_long_line_is_read_once_and_short_lines_as_often_as_they_stand() -> None:
    text = f"{DESCRIPTION}\nAdd to cart\n$25.00\n{DESCRIPTION}\nAdd to cart\n$25.00"
    markdown = f"# Staple Tee\n\n{DESCRIPTION}\n\n- Add to cart\n\n- {DESCRIPTION}"
    plain, marked = without_repeats(text, markdown)
    assert plain == f"{DESCRIPTION}\nAdd to cart\n$25.00\nAdd to cart\n$25.00"
    assert marked is not None
    assert marked.count(DESCRIPTION) == 1
    assert "- Add to cart" in marked


def test_lines_that_differ_are_kept_and_case_and_spaces_do_not_make_a_difference() -> None:
    other = DESCRIPTION.replace("Staple", "Classic")
    spaced = "  " + DESCRIPTION.upper().replace(" ", "   ")
    plain, _ = without_repeats(f"{DESCRIPTION}\n{other}\n{spaced}", None)
    assert plain == f"{DESCRIPTION}\n{other}"
    short = "x" * (MIN_CHARS - 1)
    assert without_repeats(f"{short}\n{short}", None) == (f"{short}\n{short}", None)
    assert without_repeats(None, "") == (None, "")


def _page(declared: str) -> SourcePage:
    html = f"""<html><head><title>Staple Tee | Shop</title>{declared}</head><body>
<main><h1>Staple Tee</h1><div class="desktop"><p>{DESCRIPTION}</p>
<p>Made in a fair-trade certified factory from cotton grown without pesticides, and dyed
with low-impact dyes that keep their colour wash after wash.</p></div>
<div class="mobile"><p>{DESCRIPTION}</p></div>
<div class="tabs"><h2>Care</h2><p>Machine wash cold with like colours, do not bleach and
line dry in shade to keep the fabric soft.</p><p>{DESCRIPTION}</p></div></main>
<footer><p>Shop Ltd</p></footer></body></html>"""
    return SourcePage("https://shop.example/tee", html, root=Selector(text=html, type="html").root)


def test_a_product_pages_description_stands_once_in_its_text() -> None:
    declared = (
        '<script type="application/ld+json">{"@type": "Product", "name": "Staple Tee"}</script>'
    )
    reading = main_reading(_page(declared))
    assert reading.text is not None and reading.markdown is not None
    assert reading.text.count(DESCRIPTION) == 1
    assert reading.markdown.count(DESCRIPTION) == 1
    assert "Machine wash cold" in reading.text


def test_a_page_that_declares_no_product_keeps_its_repeats() -> None:
    reading = main_reading(_page(""))
    assert reading.text is not None
    assert reading.text.count(DESCRIPTION) == 3
