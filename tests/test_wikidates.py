"""A wiki's page is dated by its last edit, the revision a reader sees
(webrobot.extract.wikidates, through webrobot.extract.metadata)."""

from __future__ import annotations

import json
from datetime import date

from parsel import Selector

from webrobot.extract.metadata import metadata
from webrobot.extract.page import SourcePage
from webrobot.extract.wikidates import is_wiki

TODAY = date(2026, 12, 7)


def wiki(head: str = "", body: str = "", generator: str = "MediaWiki 1.23.17") -> str:
    return (
        f'<html><head><meta name="generator" content="{generator}"><title>Kassel/Stammtisch'
        f"</title>{head}</head><body><h1>Kassel/Stammtisch</h1>{body}<div id='footer'>"
        "<ul id='footer-info'><li id='footer-info-lastmod'> Diese Seite wurde zuletzt am "
        "29. Januar 2020 um 13:22 Uhr geändert.</li><li id='footer-info-viewcount'>Diese "
        "Seite wurde bisher 2.385 mal abgerufen.</li></ul></div></body></html>"
    )


def meta_of(html: str) -> dict:
    page = SourcePage("https://wiki.example/Kassel/Stammtisch", html, Selector(text=html).root)
    return metadata(page, today=TODAY)


def test_a_wiki_page_is_dated_by_its_footers_last_edit_not_by_a_day_its_text_names() -> None:
    body = "<p>Nächster Stammtisch: 5. Februar 2020, 19 Uhr, im Gasthaus am Markt.</p>"
    result = meta_of(wiki(body=body))
    assert result["published"] == result["modified"] == "2020-01-29"


def test_a_wiki_page_created_long_ago_is_dated_by_its_revision() -> None:
    """MediaWiki's JSON-LD: ``datePublished`` the page's creation, ``dateModified`` its
    last edit."""
    ld = {
        "@context": "https://schema.org",
        "@type": "Article",
        "name": "Park Ye Jin",
        "datePublished": "2005-07-26T16:22:26Z",
        "dateModified": "2020-04-07T12:33:32Z",
    }
    head = f'<script type="application/ld+json">{json.dumps(ld)}</script>'
    result = meta_of(wiki(head=head))
    assert result["published"] == result["modified"] == "2020-04-07T12:33:32+00:00"


def test_another_generator_keeps_the_publication_date() -> None:
    html = wiki(body="<p>Veröffentlicht am 5. Februar 2020</p>", generator="WordPress 6.4")
    assert meta_of(html)["published"] == "2020-02-05"


def test_is_wiki() -> None:
    assert is_wiki("MediaWiki 1.35.0-wmf.18")
    assert not is_wiki(None)
    assert not is_wiki("Hugo 0.78")
