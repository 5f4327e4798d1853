"""A wiki's page is dated by its last edit.

A wiki's page is a text many people write and rewrite: what a reader sees is its
latest revision, and its date is that revision's, not the day someone first created
the page (MediaWiki's JSON-LD gives that as ``datePublished``: a page begun in 2005
and rewritten last week is not a page of 2005), nor a date its text mentions (the
day of a meeting the page announces). A page built by MediaWiki says so in its
``<meta name="generator">``; its footer's last-modified line
(``#footer-info-lastmod``: "This page was last edited on 4 November 2020",
"Diese Seite wurde zuletzt am 29. Januar 2020 um 13:22 Uhr geändert") and the
markup's ``dateModified`` give the revision's date. :func:`wiki_revision` returns
it, and :func:`~webrobot.extract.metadata.metadata` gives it as both ``published``
and ``modified``.

Pure: no Scrapy, no I/O.
"""

from __future__ import annotations

from datetime import date
from typing import Any

from webrobot.extract.dates import iso_date
from webrobot.extract.pagedates import ANY_DATE, ORDINAL, plausible

#: MediaWiki's footer line of the last edit.
_LASTMOD = "footer-info-lastmod"


def is_wiki(generator: str | None) -> bool:
    """Whether the page's ``<meta name="generator">`` names a wiki's software."""
    return (generator or "").strip().lower().startswith("mediawiki")


def wiki_revision(root: Any, modified: str | None, today: date | None) -> str | None:
    """The date of the wiki page's revision: the markup's ``modified`` (already read
    and checked), else the date of its footer's last-modified line."""
    if modified:
        return modified
    if root is None:
        return None
    try:
        lines = root.xpath(f"//*[@id='{_LASTMOD}']")
        text = " ".join(lines[0].text_content().split()).lower() if lines else ""
    except (AttributeError, ValueError, TypeError):
        return None
    for match in ANY_DATE.finditer(text):
        day = iso_date(ORDINAL.sub(r"\1", match[1]))
        if day and plausible(date.fromisoformat(day[:10]), today):
            return day
    return None
