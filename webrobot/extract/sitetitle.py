"""A page's title without the site's name around it.

``<title>`` (and often ``og:title``) adds the site to the post's title: "Post
title | Site", "Site - Post title", "Post title :: Section :: Site". The part
that is the site is told by the names the page gives itself (``og:site_name``,
``application-name``, its schema.org WebSite or publisher, its host name); and
when the page names no site, by its ``<h1>``: the part the headline repeats is
the title. A part that starts the post's longer headline is the post's title
shortened, never the site's name, even where ``og:site_name`` says it is (a theme
that writes the post's title there); so is a part that ends it ("Author / Post
title"), unless the headline holds the title's other part too (the site's name and
a section's: "Podcasts | Harvard Business Review" headed "Harvard Business Review
Podcasts"). A title that neither decides is kept whole. A byline among the parts
("Title | by Jane Doe | Publication | Medium") ends the title: it and the
parts after it (the author's publication) go.

Pure: no Scrapy, no I/O.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from urllib.parse import urlsplit

from webrobot.extract.bylines import BY_WORDS

_MARKS = r"(?:[|\-–—·•»«:/~]|::|\\)"
_SEPARATOR = re.compile(rf"\s+{_MARKS}\s+")
#: A separator at the start or the end of a title, with only spaces beyond it
#: (guillemets there are the title's quotes: "« Les matériaux »").
_END_MARKS = r"(?:[|\-–—·•:/~]|::|\\)"
_DANGLING = re.compile(rf"^\s*{_END_MARKS}\s+|\s+{_END_MARKS}\s*$")
_WORD = re.compile(r"\W+")
#: A title's part that is a byline: "by" (in a few languages) and a name of at most six
#: words, written with a capital; "By the numbers", "By a landslide" are a phrase, not a
#: byline.
_BYLINE_PART = re.compile(
    rf"^{BY_WORDS}\s+"
    r"(?!(?:the|a|an|this|that|our|your|my|its|their|der|die|das|le|la|les|el|los)\b)"
    r"[^\W\d_][^\s]*(?:\s+\S+){0,5}$",
    re.IGNORECASE,
)
_BY_WORD = re.compile(r"^\S+\s+")
#: A site name at least this long (characters) that starts the page's headline is the
#: post's title shortened, not the site's name.
MIN_OPENING = 16


def title_parts(title: str) -> list[str]:
    """The parts of ``title`` between its separators ("Post | News | Site")."""
    return [part for part in _SEPARATOR.split(without_dangling(title)) if part.strip()]


def swapped(card: str, site: str | None, title: str) -> bool:
    """Whether ``card`` (an ``og:title``) names the site, not the page: ``title`` (the
    ``<title>``) ends with ``card`` and starts with ``site`` (its ``og:site_name``; the
    two tags swapped), or ``card`` is ``site`` itself and ``title`` says more."""
    parts = [_norm(part) for part in title_parts(title)]
    if len(parts) < 2 or parts[-1] != _norm(card) or parts[0] == parts[-1]:
        return False
    return _norm(site or "") in (parts[0], parts[-1])


def without_dangling(title: str) -> str:
    """``title`` without a separator it starts or ends with ("Post title ·" ->
    "Post title"); a title that is nothing but a separator is kept."""
    bare = _DANGLING.sub("", title).strip()
    return bare or title


def without_site(title: str, site_names: Iterable[str], headlines: Iterable[str], url: str) -> str:
    """``title`` without a leading or trailing part that names the site."""
    return _before_byline(_without_site(without_dangling(title), site_names, headlines, url))


def _before_byline(title: str) -> str:
    """``title`` up to a part that is a byline ("Title | by Jane Doe | Publication")."""
    parts = _SEPARATOR.split(title)
    separators = _SEPARATOR.findall(title)
    for at in range(1, len(parts)):
        part = parts[at].strip()
        # a name starts with a capital ("by owner" is a classified ad's category)
        if _BYLINE_PART.match(part) and not _BY_WORD.sub("", part)[:1].islower():
            return _joined(parts[:at], separators[: at - 1])
    return title


def _without_site(title: str, site_names: Iterable[str], headlines: Iterable[str], url: str) -> str:
    parts = _SEPARATOR.split(title)
    if len(parts) < 2:
        return title
    separators = _SEPARATOR.findall(title)

    def joined(start: int, end: int) -> str:
        return _joined(parts[start:end], separators[start : end - 1])

    names = [n for n in site_names if n]
    sites = {_norm(n) for n in names} | {_squashed(n) for n in names} | _host_names(url)
    sites.discard("")
    heads = {_norm(h) for h in headlines if h} - {""}
    count = len(parts)

    def named(part: str) -> bool:
        return _norm(part) in sites or _squashed(part) in sites

    def is_site(part: str, rest: str) -> bool:
        return named(part) and not _opens(part, heads, rest)

    # The site's name at either end (its own separators included), perhaps after a
    # section ("Post | News | Site"): the longest such end goes.
    for size in range(count - 1, 0, -1):
        tail, head = joined(count - size, count), joined(0, size)
        if is_site(tail, joined(0, count - size)):
            return joined(0, count - size)
        if is_site(head, joined(size, count)):
            return joined(size, count)
    # No site named: the part the headline repeats.
    for cut in range(1, count):
        head, tail = joined(0, cut), joined(cut, count)
        if _norm(head) in heads or (named(head) and _opens(head, heads, tail)):
            return head
        if _norm(tail) in heads or (named(tail) and _opens(tail, heads, head)):
            return tail
    return title


def _opens(part: str, heads: set[str], rest: str) -> bool:
    """Whether ``part`` starts or ends a longer headline of the page ("Author / Post
    title"): the post's title (a theme that gives the post's title as
    ``og:site_name``), not the site's name; a name shorter than :data:`MIN_OPENING` may
    start a headline by chance, and a headline that holds the title's ``rest`` too is
    the site's name and the section's ("Harvard Business Review Podcasts")."""
    text, others = _norm(part), _norm(rest)
    return len(text) >= MIN_OPENING and any(
        h != text and (h.startswith(text) or h.endswith(text)) and not (others and others in h)
        for h in heads
    )


def _joined(parts: list[str], separators: list[str]) -> str:
    out = parts[0]
    for separator, part in zip(separators, parts[1:], strict=False):
        out += separator + part
    return out.strip()


def _norm(text: str) -> str:
    return " ".join(text.split()).casefold()


def _squashed(text: str) -> str:
    return _WORD.sub("", text).casefold()


def home_link(link: str, url: str) -> bool:
    """Whether ``link`` (absolute) goes to the home page of the site of the page at
    ``url``: a word of a headline that links to another site's home page makes no logo
    of this one."""
    parts = urlsplit(link)
    host = urlsplit(url).netloc.casefold().removeprefix("www.")
    return parts.path in ("", "/") and (
        not host or parts.netloc.casefold().removeprefix("www.") == host
    )


def _host_names(url: str) -> set[str]:
    """The ways a title may name the site by its host: ``blog.example.com``,
    ``example.com``, ``example``."""
    host = (urlsplit(url).hostname or "").casefold().removeprefix("www.")
    if not host:
        return set()
    labels = host.split(".")
    names = {host, ".".join(labels[-2:])}
    if len(labels) >= 2:
        names |= {labels[-2], _squashed(labels[-2])}
    return names
