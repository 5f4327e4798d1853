"""A page's main text, boilerplate removed, for the full-text index (no Scrapy).

resiliparse's main-content extraction does it: a maintained C++ extractor made
for web-archive text. Measured against trafilatura, jusText and readability-lxml
on the same pages (``python -m benchmarks.extractors``, numbers in
docs/search.md) it was as accurate as the best of them and about eight times
faster than trafilatura's fast mode, which matters because the index's CPU
comes out of the crawl's. It depends on nothing that conflicts with Scrapy's
stack. Installed with the ``search`` extra; :func:`available` says whether it
is there.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from webrobot.optional import check, require

_LANG_RE = re.compile(
    rb"<html\b[^>]*?\blang\s*=\s*[\"']?([A-Za-z]{2,3})(?:[-_][A-Za-z0-9]+)?", re.IGNORECASE
)
#: Text kept per page: enough for any snippet and for ranking; a 10 MiB text
#: dump must not become a 10 MiB index row.
MAX_TEXT = 200_000


@dataclass(frozen=True, slots=True)
class MainText:
    text: str
    lang: str | None  # ISO 639 code from <html lang> or Content-Language, lower case


#: What the search extra serves, as its missing-package message names it.
FEATURE = "The full-text index (WEBROBOT_INDEX_ENABLED)"


def check_installed() -> None:
    """:class:`~webrobot.optional.MissingExtra` unless the search extra is installed:
    resiliparse and the index's engine, tantivy (found, not imported: the crawl's own
    process never extracts text)."""
    for name in ("resiliparse", "tantivy"):
        check(name, "search", FEATURE)


def page_language(body: bytes, content_language: str | None = None) -> str | None:
    """The page's declared language: ``<html lang>``, else the first
    ``Content-Language``; just the primary subtag (``en-GB`` -> ``en``)."""
    found = _LANG_RE.search(body[:4096])
    if found:
        return found.group(1).decode("ascii").lower()
    if content_language:
        first = content_language.split(",")[0].strip().split("-")[0].split("_")[0]
        if first.isalpha() and 2 <= len(first) <= 3:
            return first.lower()
    return None


def main_text(html: str) -> str:
    """The main text of ``html`` (paragraphs separated by newlines), or ``""``.

    Menus, headers, footers, sidebars, cookie banners, forms and link-only lists
    are dropped; so are reader comments, image alt texts and ``<noscript>``
    fallbacks, which are not the page's own text."""
    html2text = require("resiliparse.extract.html2text", "search", FEATURE)
    text = html2text.extract_plain_text(
        html, main_content=True, preserve_formatting=True, list_bullets=False,
        alt_texts=False, links=False, form_fields=False, noscript=False, comments=False,
    )  # fmt: skip
    lines = (line.strip() for line in text.splitlines())
    return "\n".join(line for line in lines if line)[:MAX_TEXT]


def extract(html: str, body: bytes, content_language: str | None = None) -> MainText:
    return MainText(main_text(html), page_language(body, content_language))
