"""The headline a page's main text starts with."""

from __future__ import annotations

import lxml.html
import pytest

from webrobot.extract.headline import headlines, without_headline

HEAD = (
    "<title>Harbour reopens after storm | The Gazette</title>"
    '<meta property="og:title" content="The harbour is open again">'
    '<meta name="twitter:title" content="Harbour:  open">'
    '<meta name="description" content="A description, not a title">'
)


def tree(body: str = "<h1>Storm damage repaired</h1>") -> lxml.html.HtmlElement:
    return lxml.html.document_fromstring(f"<html><head>{HEAD}</head><body>{body}</body></html>")


def test_headlines() -> None:
    assert headlines(tree()) == {
        "harbour reopens after storm | the gazette",
        "the harbour is open again",
        "harbour: open",
        "storm damage repaired",
    }


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Storm damage repaired\nThe body.", "The body."),  # the h1
        ("  STORM damage\trepaired \nThe body.", "The body."),
        ("Harbour reopens after storm\nThe body.", "The body."),  # part of <title>
        ("The harbour is open again\nThe body.", "The body."),  # og:title
        ("Harbour: open\nThe body.", "The body."),
        ("Harbour\nThe body.", "Harbour\nThe body."),  # too short to be a part
        ("Storm damage repaired", "Storm damage repaired"),  # nothing follows
        ("Storm damage repaired\n \n", "Storm damage repaired\n \n"),
        ("A description, not a title\nThe body.", "A description, not a title\nThe body."),
        ("The body.\nStorm damage repaired", "The body.\nStorm damage repaired"),  # first only
        ("\nThe body.", "\nThe body."),
    ],
)
def test_without_headline(text: str, expected: str) -> None:
    assert without_headline(text, tree()) == expected


def test_a_page_without_headlines() -> None:
    root = lxml.html.document_fromstring("<html><body><p>x</p></body></html>")
    assert headlines(root) == set()
    assert without_headline("Title\nBody", root) == "Title\nBody"
