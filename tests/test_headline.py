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
        "harbour reopens after storm",  # the <title>'s parts
        "the gazette",
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


#: A post written in Markdown whose sections are ``<h1 id>`` (as kramdown and goldmark
#: write them), after the theme's own headline.
SECTIONS = (
    '<article><header><h1 class="page__title">Common commands (2020)</h1></header>'
    '<section class="page__content">'
    '<h1 id="general-shell-commands">General shell commands</h1><p>One.</p>'
    '<h1 id="ssh-commands">SSH commands</h1><p>Two.</p></section></article>'
)


def test_a_posts_h1_sections_are_not_headlines() -> None:
    found = headlines(tree(SECTIONS))
    assert "common commands (2020)" in found
    assert "general shell commands" not in found
    assert "ssh commands" not in found
    text = "General shell commands\nOne.\nSSH commands\nTwo."
    assert without_headline(text, tree(SECTIONS)) == text


def test_sections_without_a_headline_h1_stay_in_the_text() -> None:
    # The theme shows the title in an <h3>; every <h1> is a section of the post.
    body = (
        '<div class="post-title"><h3>Dev Env Setup</h3></div>'
        '<h1 id="unix-shell">Unix Shell</h1><ul><li>zsh</li></ul>'
        '<h1 id="python-envs">Python environments</h1><p>pyenv</p>'
    )
    assert headlines(tree(body)) & {"unix shell", "python environments"} == set()
    assert without_headline("Unix Shell\n- zsh", tree(body)) == "Unix Shell\n- zsh"


def test_only_the_first_h1_of_the_page_and_of_the_post_is_a_headline() -> None:
    body = (
        '<h1 class="logo">The Gazette</h1><article><h1>Storm damage repaired</h1>'
        "<p>Text.</p><h1>A later heading</h1></article>"
    )
    found = headlines(tree(body))
    assert {"the gazette", "storm damage repaired"} <= found
    assert "a later heading" not in found


def test_a_short_title_part_is_the_headline() -> None:
    root = lxml.html.document_fromstring(
        "<html><head><title>Dev Env Setup | Derek Chang</title></head><body></body></html>"
    )
    assert without_headline("Dev Env Setup\nThe body.", root) == "The body."
    assert without_headline("Dev Env\nThe body.", root) == "Dev Env\nThe body."
