"""Rules of the main text for articles and forum threads: a heading's empty anchor keeps
the heading's words, a listicle's entry headings linking to other sites stay, and a
thread that calls itself an article as well is read as the discussion it is."""

from __future__ import annotations

import lxml.html
import pytest
from parsel import Selector

from webrobot.extract.maintext import main_text
from webrobot.extract.page import SourcePage
from webrobot.extract.pagechrome import headings
from webrobot.extract.pagekind import declares_discussion
from webrobot.extract.readingchoice import PageSignals, ReadingPlan, plan

pytest.importorskip("trafilatura")

ARTICLE_HEAD = (
    '<meta property="og:type" content="article">'
    '<link rel="canonical" href="https://www.example.org/best-publishers/">'
)


def text_of(html: str) -> str:
    return main_text(SourcePage("", html, root=Selector(text=html, type="html").root)) or ""


def sentence(subject: str, n: int = 6) -> str:
    return " ".join(
        f"{subject} is described here in sentence {i} with enough words." for i in range(n)
    )


def listicle(heading: str) -> str:
    entries = "".join(
        heading.format(i=i) + f"<p>{sentence(f'Publisher number {i}')}</p>" for i in range(1, 5)
    )
    return (
        f"<html><head>{ARTICLE_HEAD}<title>Best publishers</title></head><body>"
        "<nav><a href='/'>Home</a></nav><article><h1>The best publishers</h1>"
        f"<div class='entry-content'><p>{sentence('The introduction')}</p>{entries}</div>"
        "</article>"
        "<footer>Copyright</footer></body></html>"
    )


def test_a_headings_empty_anchor_keeps_the_headings_words() -> None:
    # a table-of-contents plugin puts an empty <span id> first in every heading; the
    # precise reading deleted it with the words after it
    html = listicle(
        '<h3><span class="ez-toc-section" id="p{i}"></span>{i}. Publisher {i}'
        '<span class="ez-toc-section-end"></span></h3>'
    )
    text = text_of(html)
    for i in range(1, 5):
        assert f"{i}. Publisher {i}" in text.splitlines()
    assert "Publisher number 4 is described" in text


def test_entry_headings_linking_to_other_sites_stay() -> None:
    html = listicle('<h3><a href="https://publisher{i}.example.com/">{i}. Publisher {i}</a></h3>')
    text = text_of(html)
    for i in range(1, 5):
        assert f"{i}. Publisher {i}" in text.splitlines()


def test_teaser_headings_linking_within_the_site_are_left_as_they_are() -> None:
    tree = lxml.html.document_fromstring(
        "<html><body><h3><a href='https://example.org/other-post/'>Other post</a></h3>"
        f"<p>{sentence('The other post')}</p>"
        "<h3><a href='/third-post/'>Third post</a></h3>"
        f"<p>{sentence('The third post')}</p></body></html>"
    )
    headings(tree, "example.org", entries=True)
    assert [a.get("href") for a in tree.iter("a")] == [
        "https://example.org/other-post/",
        "/third-post/",
    ]


@pytest.mark.parametrize(
    ("after", "unwrapped"),
    [
        (f"<p>{sentence('The entry')}</p>", True),
        # a picture between the heading and its paragraph
        (f"<p><img src='x.png'></p><p>{sentence('The entry')}</p>", True),
        # a short excerpt: a teaser
        ("<p>A short teaser of the entry.</p>", False),
        # words of another kind between: a date line, then the excerpt
        (f"<div>Dec 19, 2025</div><p>{sentence('The entry')}</p>", False),
        ("", False),
    ],
)
def test_an_entry_heading_introduces_a_paragraph(after: str, unwrapped: bool) -> None:
    tree = lxml.html.document_fromstring(
        f"<html><body><div><h2><a href='https://elsewhere.example.net/'>Entry</a></h2>{after}"
        "</div></body></html>"
    )
    headings(tree, "example.org", entries=True)
    assert (tree.find(".//h2/a") is None) is unwrapped
    assert tree.find(".//h2").text_content() == "Entry"


def test_without_entries_only_the_anchors_are_touched() -> None:
    tree = lxml.html.document_fromstring(
        "<html><body><h2><span id='a'></span>Heading<a href='https://elsewhere.example.net/'>"
        f"link</a></h2><p>{sentence('The entry')}</p></body></html>"
    )
    headings(tree)
    assert tree.find(".//h2/span").text == ""
    assert tree.find(".//h2/a") is not None


@pytest.mark.parametrize(
    ("script", "expected"),
    [
        ('{"@type": "DiscussionForumPosting", "headline": "x"}', True),
        ('{"@context": "https://schema.org", "@type": "QAPage", "mainEntity": {}}', True),
        ('{"@graph": [{"@type": ["WebPage"]}, {"@type": "DiscussionForumPosting"}]}', True),
        ('{"@type": "BlogPosting", "comment": [{"@type": "Comment"}]}', False),
    ],
)
def test_a_page_declares_a_discussion_in_its_json_ld(script: str, expected: bool) -> None:
    tree = lxml.html.document_fromstring(
        f'<html><head><script type="application/ld+json">{script}</script></head>'
        "<body><p>x</p></body></html>"
    )
    assert declares_discussion(tree) is expected


def test_a_discussion_declared_an_article_too_is_read_broadly() -> None:
    signals = PageSignals(article=True, large=False, discussion=True)
    assert plan(signals) == ReadingPlan(precise_first=False, prune_unread=False, fallbacks=True)


def thread(extra_head: str) -> str:
    posts = "".join(
        f"<div class='Comment'><div class='Author'>member{i}</div>"
        f"<div class='Message userContent'><p>{sentence(f'Reply {i} of the thread', 3)}</p></div></div>"
        for i in range(1, 5)
    )
    return (
        '<html><head><meta property="og:type" content="article">'
        f"{extra_head}<title>A thread</title></head><body><nav><a href='/'>Forum</a></nav>"
        "<main><h1>A thread</h1><div class='Discussion'><div class='Message userContent'>"
        f"<p>{sentence('The opening post of the thread', 20)}</p></div></div>"
        f"<h2>Comments</h2><ul class='MessageList DataList Comments'>{posts}</ul></main>"
        "</body></html>"
    )


def test_a_thread_declared_a_discussion_keeps_its_replies() -> None:
    declared = '<script type="application/ld+json">{"@type": "DiscussionForumPosting"}</script>'
    text = text_of(thread(declared))
    assert "The opening post of the thread is described" in text
    assert "Reply 4 of the thread is described" in text
