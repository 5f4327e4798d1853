"""The headline a page's main text starts with, which the page already states as its title.

An extractor often keeps an article's ``<h1>`` as the first line of the text. The
headline is the page's title, not its body (schema.org keeps ``headline`` and
``articleBody`` apart, and the metadata extractor reports the title): a first
line that repeats the ``<title>`` (or one of its parts: "Post | Site"), the
page's headline ``<h1>``, ``og:title`` or ``twitter:title`` is dropped when
text follows it.

The headline ``<h1>`` is the page's first and its post's first. A post written
in Markdown often uses ``<h1>`` for its own sections, each with the ``id`` its
anchor links to; when a page has several such, they are the post's outline, not
its headline, and its first section stays in the text.

Pure: no Scrapy, no I/O.
"""

from __future__ import annotations

import re
from typing import Any

from webrobot.extract.bylines import post_scope
from webrobot.extract.sitetitle import title_parts

_SPACES = re.compile(r"\s+")
_TITLE_META = frozenset({"og:title", "twitter:title"})
#: A first line this short must equal a headline; a longer one may be part of one
#: (``<title>`` often adds the site's name).
MIN_PART = 16


def headlines(root: Any) -> set[str]:
    """The page's headlines, whitespace made one space and lower case."""
    found = set()
    for element in root.iter("title", "meta"):
        if element.tag == "meta":
            key = (element.get("property") or element.get("name") or "").strip().lower()
            value = element.get("content") if key in _TITLE_META else None
        else:
            value = element.text_content()
        if value and (text := _norm(value)):
            found.add(text)
            found.update(p for part in title_parts(value) if (p := _norm(part)))
    for element in headline_h1s(root):
        if text := _norm(element.text_content()):
            found.add(text)
    return found


def headline_h1s(root: Any) -> list[Any]:
    """The ``<h1>`` that may be the page's headline: the page's first and its
    post's first, leaving out the sections of a post that uses ``<h1>`` for
    them (several ``<h1 id>``)."""
    chosen: list[Any] = []
    for scope in (root, post_scope(root)):
        h1s = list(scope.iter("h1"))
        sections = [h for h in h1s if h.get("id")]
        if len(sections) >= 2:
            h1s = [h for h in h1s if not h.get("id")]
        if h1s and h1s[0] not in chosen:
            chosen.append(h1s[0])
    return chosen


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
