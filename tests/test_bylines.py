"""Authors from a page's bylines, and author names made clean."""

from __future__ import annotations

import pytest
from parsel import Selector

from webrobot.extract.bylines import author_name, byline_texts


def tree(body: str) -> object:
    return Selector(text=f"<html><body>{body}</body></html>", type="html").root


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("Jane Doe", "Jane Doe"),
        ("By Jane Doe", "Jane Doe"),
        ("by Jane Doe on March 4, 2021", "Jane Doe"),
        ("Posted by Jane Doe | 4 min read", "Jane Doe"),
        ("Written by Lena Park", "Lena Park"),
        ("Sam Lee, March 3, 2020", "Sam Lee"),
        ("Von Petra Hoffmann am 14. Mai 2020", "Petra Hoffmann"),
        ("Autorin: Anna Schmidt", "Anna Schmidt"),
        ("Par Marie Dupont le 12 mars", "Marie Dupont"),
        ("Por Carlos Ruiz", "Carlos Ruiz"),
        ("Door Pieter de Vries", "Pieter de Vries"),
        ("Jane Doe @janedoe", "Jane Doe"),
        ("Konstantin @ Four Years", "Konstantin"),
        ("Jane Doe (jane@example.com)", "Jane Doe"),
        ("Jean-Luc Picard", "Jean-Luc Picard"),
        ("@janedoe", None),
        ("https://example.com/author/jane", None),
        ("12.03.2020", None),
        ("", None),
        ("A very long sentence that is certainly not the name of anybody at all here", None),
    ],
)
def test_author_names_are_cleaned(value: str, expected: str | None) -> None:
    assert author_name(value) == expected


def test_explicit_markup_first_then_byline_classes_then_author_classes() -> None:
    html = (
        "<span class='author-card-title'>Editor's pick</span>"
        "<div class='byline'>By Kim Lo</div>"
        "<a rel='author' href='/u/ann'>Ann Lee</a>"
    )
    assert byline_texts(tree(html)) == ["Ann Lee"]
    assert byline_texts(tree("<div class='byline'>By Kim Lo</div>")) == ["By Kim Lo"]


def test_by_lines_without_markup() -> None:
    html = "<article><h1>T</h1><p>By <a href='/me'>Tom Ray</a></p><p>Body</p></article>"
    assert byline_texts(tree(html)) == ["By Tom Ray"]


def test_comments_sidebars_and_footers_are_not_bylines() -> None:
    html = (
        "<div id='comments'><span class='comment-author'>Reader One</span></div>"
        "<aside><span class='author'>Widget Person</span></aside>"
        "<footer><p>By Site Owner</p></footer>"
    )
    assert byline_texts(tree(html)) == []


def test_an_articles_own_footer_holds_its_byline() -> None:
    html = "<article><p>Text</p><footer class='entry-footer'><span class='byline'>By Ann Lee</span></footer></article>"
    assert byline_texts(tree(html)) == ["By Ann Lee"]


def test_screen_reader_labels_are_left_out() -> None:
    html = (
        "<header class='entry-header header-footer-group'><li class='post-author'>"
        "<span class='screen-reader-text'>Post author</span> By <a>Petra Hoffmann</a></li></header>"
    )
    assert byline_texts(tree(html)) == ["By Petra Hoffmann"]


def test_no_tree_no_bylines() -> None:
    assert byline_texts(None) == []
