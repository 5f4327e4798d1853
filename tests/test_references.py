"""A post's closing references, added back to the text and Markdown the reading cut
them from (webrobot.extract.references)."""

from __future__ import annotations

import pytest
from lxml.html import fromstring

from webrobot.extract.references import with_references

TEXT = "Intro.\nThe last paragraph of the post."
MARKDOWN = "Intro.\n\nThe last paragraph of the post."


def page(after: str, heading: str = "<h2>References</h2>", listing: str = "") -> str:
    listing = listing or (
        '<ul><li><a href="https://a.example/">The manual</a></li>'
        '<li><a href="https://b.example/x">A guide</a>, chapter 2</li></ul>'
    )
    return (
        "<html><body><nav><a href='/'>Home</a></nav><article><p>Intro.</p>"
        f"<p>The last paragraph of the post.</p>{heading}{listing}{after}</article>"
        "<footer>Powered by a generator</footer></body></html>"
    )


def test_the_closing_references_are_added_to_text_and_markdown() -> None:
    text, markdown = with_references(TEXT, MARKDOWN, fromstring(page("")))
    assert text == TEXT + "\nReferences\n- The manual\n- A guide, chapter 2"
    assert markdown == MARKDOWN + "\n\n## References\n\n- The manual\n- A guide, chapter 2"


def test_a_numbered_list_is_numbered_in_the_markdown() -> None:
    html = page("", heading="<h3>Further reading</h3>", listing=(
        "<ol><li><a href='https://a.example/'>One</a></li><li><a href='https://b.example/'>Two</a>"
        "</li></ol>"
    ))  # fmt: skip
    text, markdown = with_references(TEXT, MARKDOWN, fromstring(html))
    assert text.endswith("\nFurther reading\n- One\n- Two")
    assert markdown is not None and markdown.endswith("### Further reading\n\n1. One\n2. Two")


def test_a_box_of_links_after_the_posts_container_is_the_sites() -> None:
    html = (
        "<html><body><article><div class='content'><p>Intro.</p>"
        "<p>The last paragraph of the post.</p></div><section class='article-links'>"
        "<h3>Sources</h3><ul><li><a href='/dossier'>Our dossier</a></li></ul></section>"
        "</article></body></html>"
    )
    assert with_references(TEXT, MARKDOWN, fromstring(html)) == (TEXT, MARKDOWN)


@pytest.mark.parametrize(
    "html",
    [
        page("", heading="<h2>Related posts</h2>"),  # the site's, not the post's
        page("", heading="<h2>Follow me</h2>"),
        page("", listing="<ul><li>A book I read</li><li>Another one</li></ul>"),  # no links
        page("<p>Thanks for reading, and see you next week.</p>"),  # not the post's end
        page("", heading="<p>References</p>"),  # not a heading
    ],
)
def test_other_closing_lists_are_left_out(html: str) -> None:
    assert with_references(TEXT, MARKDOWN, fromstring(html)) == (TEXT, MARKDOWN)


def test_references_the_text_already_holds_are_not_added_twice() -> None:
    text = TEXT + "\nReferences\n- The manual\n- A guide, chapter 2"
    assert with_references(text, None, fromstring(page("")))[0] == text


def test_a_text_that_ends_elsewhere_is_left_as_it_is() -> None:
    text = "Intro.\nSomething the page says in its sidebar."
    assert with_references(text, None, fromstring(page("")))[0] == text
