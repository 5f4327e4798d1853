"""An article's lead (standfirst), set apart in its header and given as the page's
description, is the text's first line."""

from __future__ import annotations

import lxml.html
from parsel import Selector

from webrobot.extract import articlelead, maintext
from webrobot.extract.page import SourcePage

LEAD = (
    "The harbour reopened on Monday after two years of work, and the council says the "
    "new quay will carry twice the traffic of the old one."
)
PARAGRAPHS = [
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


def _page(lead_html: str, description: str = LEAD, lang: str = ' lang="de-CH"') -> str:
    """An article (in a language whose press writes the lead as its opening paragraph,
    unless ``lang`` says otherwise) with ``lead_html`` in its header."""
    paragraphs = "".join(f"<p>{text}</p>" for text in PARAGRAPHS)
    return (
        f"<html{lang}><head><title>The harbour reopens</title>"
        '<meta property="og:type" content="article">'
        f'<meta property="og:description" content="{description}"></head><body>'
        '<article><header class="post-header"><h1>The harbour reopens</h1>'
        f"{lead_html}<div class='byline'>By A. Writer</div></header>"
        f"<div class='entry-content'>{paragraphs}</div></article>"
        "<aside><h3>More news</h3><ul><li><a href='/a'>Other story</a></li></ul></aside>"
        "</body></html>"
    )


def _text(html: str) -> list[str]:
    page = SourcePage("", html, root=Selector(text=html).root)
    return (maintext.main_text(page) or "").splitlines()


def test_the_lead_in_the_articles_header_opens_the_text() -> None:
    for lead_html in (
        f"<div class='lead'>{LEAD}</div>",
        f"<h2><span>KICKER</span> {LEAD}</h2>",
        f"<p class='intro'><strong>{LEAD[:50]}</strong>{LEAD[50:]}</p>",
    ):
        lines = _text(_page(lead_html))
        assert lines[0].endswith(LEAD), lead_html
        assert lines[1:] == PARAGRAPHS, lead_html


def test_no_lead_is_added_where_the_page_does_not_show_it() -> None:
    assert _text(_page("")) == PARAGRAPHS  # only in the head
    assert _text(_page(f"<a href='/story'><div>{LEAD}</div></a>")) == PARAGRAPHS  # a teaser link
    # a short description is a tagline, not a lead
    assert _text(_page("<div class='lead'>News from the port</div>", "News from the port")) == (
        PARAGRAPHS
    )


def test_an_english_dek_or_a_page_of_no_declared_language_is_left_as_it_is() -> None:
    for lang in (' lang="en-GB"', ""):
        assert _text(_page(f"<div class='lead'>{LEAD}</div>", lang=lang)) == PARAGRAPHS, lang
    og_locale = _page(f"<div class='lead'>{LEAD}</div>", lang="").replace(
        "<title>", '<meta property="og:locale" content="fr_FR"><title>'
    )
    assert _text(og_locale)[0] == LEAD


def test_a_lead_already_in_the_text_is_not_repeated() -> None:
    root = lxml.html.fromstring(_page(f"<div class='lead'>{LEAD}</div>"))
    assert articlelead.lead(root, LEAD + "\n" + PARAGRAPHS[0]) is None
    assert articlelead.lead(root, PARAGRAPHS[0]) == LEAD


def test_the_description_is_read_from_the_head() -> None:
    root = lxml.html.fromstring(
        '<html><head><meta name="description" content="  two   words "></head></html>'
    )
    assert articlelead.description(root) == "two words"
    assert articlelead.description(lxml.html.fromstring("<html><body></body></html>")) is None


def test_the_markdown_opens_with_the_lead_too() -> None:
    html = _page(f"<div class='lead'>{LEAD}</div>")
    reading = maintext.main_reading(SourcePage("", html, root=Selector(text=html).root))
    assert reading.markdown is not None and reading.markdown.startswith(LEAD + "\n\n")
