"""A page's declared language, read cheaply from its bytes (no parse, no Scrapy).

The full-text index stores it beside each page's text: ``<html lang>`` in the first
4 KiB of the body, else the first ``Content-Language`` of the response, reduced to
its primary subtag (``en-GB`` -> ``en``). The mining's ``metadata`` part reads a
fuller answer from the parsed page (JSON-LD ``inLanguage``, ``og:locale``, the whole
BCP 47 tag: :func:`webrobot.extract.metadata.language_tag`); this one costs a regular
expression over 4 KiB, for a process that never parses the page.

Pure: no Scrapy, no I/O.
"""

from __future__ import annotations

import re

_LANG_RE = re.compile(
    rb"<html\b[^>]*?\blang\s*=\s*[\"']?([A-Za-z]{2,3})(?:[-_][A-Za-z0-9]+)?", re.IGNORECASE
)
#: How much of the body is searched for ``<html lang>``.
HEAD_BYTES = 4096


def page_language(body: bytes, content_language: str | None = None) -> str | None:
    """The page's declared language: ``<html lang>``, else the first
    ``Content-Language``; just the primary subtag, lower case (``en-GB`` -> ``en``)."""
    found = _LANG_RE.search(body[:HEAD_BYTES])
    if found:
        return found.group(1).decode("ascii").lower()
    if content_language:
        first = content_language.split(",")[0].strip().split("-")[0].split("_")[0]
        if first.isalpha() and 2 <= len(first) <= 3:
            return first.lower()
    return None
