"""An article's entry headings: a heading that links within the site and opens a section
of paragraphs keeps its line; a teaser's heading, a pointer to another article and a
heading followed by a short excerpt do not."""

from __future__ import annotations

import lxml.html
import pytest
from parsel import Selector

from webrobot.extract.entrysections import entry_links, first_paragraph, opens_section
from webrobot.extract.maintext import main_text
from webrobot.extract.page import SourcePage
from webrobot.extract.pagechrome import headings

pytest.importorskip("trafilatura")


def sentence(subject: str, n: int = 3) -> str:
    return " ".join(
        f"{subject} is described here in sentence {i} with enough words." for i in range(n)
    )


def heading_before(after: str, href: str = "/story-1/") -> lxml.html.HtmlElement:
    tree = lxml.html.document_fromstring(
        f"<html><body><div><h2><a href='{href}'>At 17, a student solved it</a></h2>{after}"
        "</div></body></html>"
    )
    return tree.find(".//h2")


@pytest.mark.parametrize(
    ("after", "section"),
    [
        # two paragraphs of words: a section of the article
        (f"<p>{sentence('The story')}</p><p>{sentence('Its proof')}</p>", True),
        # a picture with a short caption between the heading and its paragraphs
        (
            (
                "<div class='wp-block-image'><figure><img src='a.png'><figcaption>AWS"
                f"</figcaption></figure></div><p></p><p>{sentence('The story')}</p>"
                f"<p>{sentence('Its proof')}</p>"
            ),
            True,
        ),
        # one excerpt: a teaser
        (f"<p>{sentence('The story', 4)}</p>", False),
        # one excerpt, then the next teaser
        (f"<p>{sentence('The story', 4)}</p><h2>Next</h2><p>{sentence('Next')}</p>", False),
        # a date line first
        (f"<div>Dec 19, 2025</div><p>{sentence('The story')}</p><p>{sentence('More')}</p>", False),
        # paragraphs that are links
        (
            f"<p><a href='/a/'>{sentence('A')}</a></p><p><a href='/b/'>{sentence('B')}</a></p>",
            False,
        ),
        # two short paragraphs (a byline, a read-more line)
        ("<p>By Jane Doe, staff writer of the site</p><p>Read more of this story</p>", False),
    ],
)
def test_a_heading_opens_a_section(after: str, section: bool) -> None:
    assert opens_section(heading_before(after)) is section


def test_the_first_paragraph_is_read_past_a_captioned_picture() -> None:
    after = (
        "<div class='wp-block-image'><figure><img src='a.png'><figcaption>A caption"
        f"</figcaption></figure></div><p>{sentence('The entry', 4)}</p>"
    )
    assert first_paragraph(heading_before(after), 200)
    assert not first_paragraph(heading_before(f"<p>{sentence('The entry', 1)}</p>"), 200)


def test_a_pointer_to_another_article_is_no_entry() -> None:
    tree = lxml.html.document_fromstring(
        "<html><body><h3>Read: <a href='/other/'>Mother detained after asking about her son"
        f"</a></h3><p>{sentence('The story')}</p><p>{sentence('Its end')}</p></body></html>"
    )
    assert entry_links(tree.find(".//h3"), [], 200) == []


def test_the_links_of_an_entry_heading_within_the_site_are_unwrapped() -> None:
    after = f"<p>{sentence('The story')}</p><p>{sentence('Its proof')}</p>"
    heading = heading_before(after)
    tree = heading.getroottree().getroot()
    headings(tree, "example.org", entries=True)
    assert tree.find(".//h2/a") is None
    assert tree.find(".//h2").text_content() == "At 17, a student solved it"


def test_a_review_of_stories_keeps_their_headings() -> None:
    stories = "".join(
        f"<h2><a href='https://www.example.org/story-{i}/'>Story number {i} of the year</a>"
        f"</h2><p>{sentence(f'Story {i}', 3)}</p><p>{sentence(f'Proof {i}', 3)}</p>"
        for i in range(1, 5)
    )
    html = (
        "<html><head><meta property='og:type' content='article'>"
        "<link rel='canonical' href='https://www.example.org/the-year/'></head><body>"
        "<nav><a href='/'>Home</a></nav><article><h1>The year</h1>"
        f"<div class='entry-content'><p>{sentence('The year', 4)}</p>{stories}</div>"
        "</article><footer>Copyright</footer></body></html>"
    )
    text = main_text(SourcePage("", html, root=Selector(text=html, type="html").root)) or ""
    for i in range(1, 5):
        assert f"Story number {i} of the year" in text.splitlines()
