"""An article built without a block trafilatura recognises: its paragraphs' block is
named, and the precise reading keeps the headings and lists between the paragraphs."""

from __future__ import annotations

import lxml.html
from parsel import Selector

from webrobot.extract import articleframe, maintext, trafilaturacompat
from webrobot.extract.page import SourcePage

PARAGRAPHS = [
    (
        "The harbour was rebuilt last spring after the old stone quay collapsed during the "
        "winter storms, and the village council paid for most of the work itself."
    ),
    (
        "Engineers measured the new walls twice a week for three months, and they recorded no "
        "movement at all in the foundations, which pleased everyone who had doubted them."
    ),
    (
        "Fishermen say the deeper berths now let larger boats unload at low tide, which used to "
        "be impossible, and the morning market has grown by a third since the reopening."
    ),
    (
        "The museum beside the lighthouse will open an exhibition about the quay's history in "
        "June, with photographs collected from families who have lived here for generations."
    ),
]


def _page(wrapper: str) -> str:
    """An article (``og:type`` article) whose post sits in ``wrapper`` tags with numbered
    ids, as page builders write it: no ``<article>``, no content class."""
    p = [f"<p>{text}</p>" for text in PARAGRAPHS]
    return (
        '<html><head><title>The quay</title><meta property="og:type" content="article">'
        "</head><body><div id='block-1'><div id='block-2'>"
        f"<{wrapper} class='builder-text'>{p[0]}<h2>How the quay was rebuilt</h2>{p[1]}"
        "<ul><li>Two new berths for the larger boats</li>"
        "<li>A wider quay for the morning market</li></ul>"
        f"<h3>What the fishermen say</h3>{p[2]}{p[3]}</{wrapper}>"
        "</div></div></body></html>"
    )


def test_the_block_of_the_most_paragraph_text_is_named() -> None:
    tree = lxml.html.fromstring(_page("span"))
    assert articleframe.mark_frame(tree)
    (frame,) = tree.xpath("//*[@itemprop='articleBody']")
    assert frame.tag == "div" and frame.get("class") == "builder-text"


def test_a_page_whose_paragraphs_are_the_body_has_no_block() -> None:
    tree = lxml.html.fromstring(f"<html><body><p>{PARAGRAPHS[0]}</p></body></html>")
    assert articleframe.paragraph_frame(tree) is None
    assert not articleframe.mark_frame(tree)
    assert not articleframe.mark_frame(lxml.html.fromstring("<html><body></body></html>"))


def test_a_reading_reports_when_it_found_no_block() -> None:
    options = maintext._options(fast=True, favor_precision=True)
    report = trafilaturacompat.ReadReport()
    trafilaturacompat.read(lxml.html.fromstring(_page("span")), options, report)
    assert report.frameless
    report = trafilaturacompat.ReadReport()
    trafilaturacompat.read(lxml.html.fromstring(_page("article")), options, report)
    assert not report.frameless


def test_an_article_without_a_block_keeps_its_headings_and_lists() -> None:
    for wrapper in ("span", "div"):
        html = _page(wrapper)
        text = maintext.main_text(SourcePage("", html, root=Selector(text=html).root)) or ""
        lines = text.splitlines()
        assert "How the quay was rebuilt" in lines, wrapper
        assert "What the fishermen say" in lines, wrapper
        assert "- Two new berths for the larger boats" in lines, wrapper
        assert all(paragraph in lines for paragraph in PARAGRAPHS), wrapper


def test_the_paragraphs_gathered_from_around_the_article_are_left_out() -> None:
    teasers = "".join(
        f"<p>Reader letter {i}: the new quay is far too expensive and nobody asked the "
        "people who live by the harbour what they wanted, which is a scandal.</p>"
        for i in range(2)
    )
    html = _page("span").replace("</div></div></body>", f"</div></div><div>{teasers}</div></body>")
    text = maintext.main_text(SourcePage("", html, root=Selector(text=html).root)) or ""
    assert "How the quay was rebuilt" in text.splitlines()
    assert all(paragraph in text for paragraph in PARAGRAPHS)
    assert "Reader letter" not in text
