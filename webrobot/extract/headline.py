"""The headline a page's main text starts with, which the page already states as its title.

An extractor often keeps an article's ``<h1>`` as the first line of the text. The
headline is the page's title, not its body (schema.org keeps ``headline`` and
``articleBody`` apart, and the metadata extractor reports the title): a first
line that repeats the ``<title>``, an ``<h1>``, ``og:title`` or
``twitter:title`` is dropped when text follows it.

Pure: no Scrapy, no I/O.
"""

from __future__ import annotations

import re
from typing import Any

_SPACES = re.compile(r"\s+")
_TITLE_META = frozenset({"og:title", "twitter:title"})
#: A first line this short must equal a headline; a longer one may be part of one
#: (``<title>`` often adds the site's name).
MIN_PART = 16


def headlines(root: Any) -> set[str]:
    """The page's headlines, whitespace made one space and lower case."""
    found = set()
    for element in root.iter("title", "h1", "meta"):
        if element.tag == "meta":
            key = (element.get("property") or element.get("name") or "").strip().lower()
            value = element.get("content") if key in _TITLE_META else None
        else:
            value = element.text_content()
        if value and (text := _norm(value)):
            found.add(text)
    return found


def without_headline(text: str, root: Any) -> str:
    """``text`` without its first line when that line repeats one of the page's
    headlines and more lines follow."""
    first, newline, rest = text.partition("\n")
    if not newline or not rest.strip():
        return text
    line = _norm(first)
    if not line:
        return text
    for headline in headlines(root):
        if line == headline or (len(line) >= MIN_PART and line in headline):
            return rest
    return text


def _norm(text: str) -> str:
    return _SPACES.sub(" ", text).strip().lower()
