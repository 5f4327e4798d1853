from __future__ import annotations

import hashlib

import lxml.html
import pytest

from webrobot.seen.contentfingerprints import (
    body_fingerprint,
    fingerprint_key,
    text_fingerprint,
    visible_text,
)


def tree(html: str) -> object:
    return lxml.html.document_fromstring(html)


def test_body_fingerprint_is_the_md5_of_the_bytes() -> None:
    body = b"<html>\xff\x00</html>"
    assert body_fingerprint(body) == hashlib.md5(body).hexdigest()
    assert fingerprint_key(body_fingerprint(body)) == hashlib.md5(body).digest()


def test_visible_text_skips_scripts_styles_templates_and_comments() -> None:
    page = tree(
        "<html><head><title> The  page </title><style>p{color:red}</style>"
        "<script>var x = 'hidden';</script></head><body>"
        "<p>Hello <b>bold</b>\n\t world</p><!-- built 12:00 -->after comment"
        "<script>1</script>after script<template><p>tpl</p></template><div>end</div></body></html>"
    )
    assert visible_text(page) == "The page Hello bold world after comment after script end"
    assert visible_text(None) == ""


@pytest.mark.parametrize(
    "other",
    [
        "<html><head><title>T</title></head><body><div class='new'>Hello   world</div></body></html>",
        (
            "<html><head><title>T</title><script>var now = 1700000000;</script></head>"
            "<body><p>Hello world</p><!-- generated at 10:02 --></body></html>"
        ),
        "<title>T</title><p>Hello <a href='/elsewhere'>world</a></p>",
    ],
)
def test_text_fingerprint_ignores_markup(other: str) -> None:
    base = "<html><head><title>T</title></head><body><p>Hello world</p></body></html>"
    assert text_fingerprint(tree(base)) == text_fingerprint(tree(other))
    assert body_fingerprint(base.encode()) != body_fingerprint(other.encode())


@pytest.mark.parametrize(
    "other",
    [
        "<title>T</title><p>Hello world!</p>",
        "<title>U</title><p>Hello world</p>",
        "<title>T</title><p>Hello world</p><p>Today: 3 items</p>",
    ],
)
def test_text_fingerprint_sees_text_changes(other: str) -> None:
    base = "<title>T</title><p>Hello world</p>"
    assert text_fingerprint(tree(base)) != text_fingerprint(tree(other))


def test_pages_without_visible_text_have_no_text_fingerprint() -> None:
    """Framesets and image-only pages must not all collapse into one page."""
    frameset = "<html><frameset><frame src='a.html'><frame src='b.html'></frameset></html>"
    assert text_fingerprint(tree(frameset)) == ""
    assert text_fingerprint(tree("<html><body><img src='x.png'></body></html>")) == ""
    assert text_fingerprint(tree("<p>words</p>")) != ""
