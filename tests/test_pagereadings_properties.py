"""The page readings' pure parsers (entry headings, card titles, linked cards, a shown
product, posts found by their shape) on any markup: broken, empty, binary, deeply nested
or with thousands of cards and posts, they answer without raising and keep their own
promises (the page's text is the same after a rename, a post's body lies in its post)."""

from __future__ import annotations

import re

import lxml.html
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from webrobot.extract import (
    cardtitles,
    entrysections,
    linkedcards,
    maintext,
    repeatedposts,
    shownproduct,
    sitepages,
    threadposts,
)

_TAGS = ("div", "p", "li", "span", "article", "section", "h2", "h3", "a", "tr", "td", "button")
_HREFS = (
    "/members/ann.12/",
    "user?id=bob",
    "index.php?action=profile;u=3",
    "https://other.example/",
    "/2026/03/06/story",
    "#msg4",
    "javascript:void(0)",
    "",
)
_WORDS = st.text(alphabet=st.characters(codec="utf-8"), max_size=120)
_CHUNK = st.one_of(
    _WORDS.map(lambda text: text.replace("<", " ").replace("&", " ")),
    st.sampled_from(_TAGS).map(lambda tag: f"<{tag}>"),
    st.sampled_from(_TAGS).map(lambda tag: f"</{tag}>"),
    st.sampled_from(_HREFS).map(lambda href: f'<a href="{href}">'),
    st.sampled_from(("Add to cart", "Buy now", "$19.99", "In stock", "2024-05-01 10:00")),
    st.just("<!-- a comment -->"),
    st.just('<div class="post">'),
    st.just('<meta property="og:type" content="article">'),
    st.just('<script type="application/ld+json">{"@type": "NewsArticle"}</script>'),
    st.binary(max_size=40).map(lambda raw: raw.decode("latin-1")),
)


def _root(chunks: list[str]) -> object | None:
    html = "<html><body>" + "".join(chunks) + "</body></html>"
    html = html.replace("\x00", "")
    try:
        return lxml.html.document_fromstring(html)
    except (ValueError, lxml.etree.ParserError):
        return None


def _text(root: object) -> str:
    return " ".join(root.text_content().split())  # type: ignore[attr-defined]


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(_CHUNK, max_size=60))
def test_any_markup_is_read_without_raising(chunks: list[str]) -> None:
    root = _root(chunks)
    if root is None:
        return
    for heading in list(root.iter("h2", "h3")):  # type: ignore[attr-defined]
        links = list(heading.iter("a"))
        unwrapped = entrysections.entry_links(heading, links, 100)
        assert all(link in links for link in unwrapped)
    assert isinstance(sitepages.calls_itself_a_post(root), bool)
    assert isinstance(shownproduct.shows_product(root), bool)
    found = repeatedposts.posts(root)
    assert not found or len(found) >= repeatedposts.MIN_POSTS
    for post, body, name in found:
        assert body is post or post in body.iterancestors()
        assert repeatedposts.MIN_NAME <= len(name) <= repeatedposts.MAX_NAME
        when = repeatedposts.shown_date(post, body)
        assert when is None or len(when) <= repeatedposts.MAX_DATE
    assert threadposts.in_place(root, None, None) is not None


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(_CHUNK, max_size=60))
def test_card_renames_keep_the_pages_text(chunks: list[str]) -> None:
    root = _root(chunks)
    if root is None:
        return
    before = _text(root)
    pairs = linkedcards.linked_pairs(root)
    changed = linkedcards.unlink_pairs(root)
    assert changed in (0, 2 * len(pairs))
    renamed = cardtitles.blurbed_titles(list(root.iter("a")))  # type: ignore[attr-defined]
    assert renamed >= 0
    assert _text(root) == before


def _slow_tidy(text: str | None) -> str | None:
    """What :func:`webrobot.extract.maintext.tidy` gave before its fast path."""
    if not text:
        return None
    control = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]+")
    spaces = re.compile(r"[^\S\n]+")
    lines = (spaces.sub(" ", control.sub("", line)).strip() for line in text.splitlines())
    return "\n".join(line for line in lines if line) or None


@settings(max_examples=300, deadline=None)
@given(
    st.text(
        alphabet=st.one_of(
            st.characters(codec="utf-8"),
            st.sampled_from(" \t\n\r\x0b\x0c\x1c\x1d\x1e\x1f\x85\xa0\u2028\u2029\u3000\u200b"),
        )
    )
)
def test_tidy_gives_the_same_lines_as_before_its_fast_path(text: str) -> None:
    assert maintext.tidy(text) == _slow_tidy(text)


def _thread(posts: int) -> str:
    rows = "".join(
        f'<div class="msg"><a href="/members/writer{i}/">writer {i}</a>'
        f"<span>12-05-2008, 10:23 PM</span><div class='body'><p>Post {i} says a few words "
        "about the ferry and the harbour.</p></div></div>"
        for i in range(posts)
    )
    return f"<html><body><div class='thread'>{rows}</div></body></html>"


def test_a_thread_of_thousands_of_posts_is_read_whole() -> None:
    root = lxml.html.document_fromstring(_thread(3000))
    found = repeatedposts.posts(root)
    assert len(found) == 3000
    assert all(
        body.text_content().startswith(f"Post {i} says") and name == f"writer {i}"
        for i, (_, body, name) in enumerate(found)
    )


def test_thousands_of_linked_cards_are_a_page_of_cards() -> None:
    cards = "".join(
        f'<h2><a href="/s/{i}">Story {i}</a></h2>'
        f'<p><a href="/s/{i}">The blurb of story {i}, long enough to be one, about the town.</a></p>'
        for i in range(3000)
    )
    root = lxml.html.document_fromstring(f"<html><body>{cards}</body></html>")
    assert linkedcards.lists_linked_cards(root)
    assert linkedcards.unlink_pairs(root) == 6000
    assert not list(root.iter("a"))


def test_deeply_nested_markup_is_read_without_raising() -> None:
    nested = "<div class='x'>" * 5000 + "<a href='/u/ann'>ann</a> words" + "</div>" * 5000
    root = lxml.html.document_fromstring(f"<html><body>{nested * 3}</body></html>")
    assert isinstance(repeatedposts.posts(root), list)
    assert isinstance(shownproduct.shows_product(root), bool)
    assert threadposts.in_place(root, "text", None) is not None
    for heading in root.iter("h2"):
        entrysections.entry_links(heading, [], 100)
