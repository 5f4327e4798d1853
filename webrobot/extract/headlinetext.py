"""A post's headline and the text a reader sees right under it.

Themes print a post's byline and date in the few lines under its headline
(:func:`webrobot.extract.pagedates.headline_date` reads them there). Two things
make that place hard to find in the page's plain text:

- the text of elements that follow one another is glued together: a subtitle
  ending in a number and the date's paragraph after it ("…Trump su 222" and "06
  Dicembre 2020" give "22206 Dicembre 2020"), a source and a date parted by a
  ``<br>`` ("News24<br>13 Jan 2020"); :func:`text_after` reads the text that
  follows the headline's own element, parted where the page parts it (a block's
  edge, a line break), not the text after the first place the headline's words
  appear (the ``<title>`` or a breadcrumb often say them first);
- some themes set the headline in an ``<h2>``: :func:`headline` takes the first
  heading the page's ``<title>`` starts with when no ``<h1>`` is there.

Pure: no Scrapy, no I/O.
"""

from __future__ import annotations

from typing import Any

from lxml import etree

#: Shorter than this (characters), a heading is a section's label, not a headline.
MIN_HEADLINE = 10
#: Elements inside a line of text: their edges part no words.
_INLINE = frozenset(
    {
        "a", "abbr", "b", "bdi", "bdo", "cite", "code", "data", "dfn", "em", "font", "i",
        "kbd", "mark", "q", "s", "samp", "small", "span", "strong", "sub", "sup", "time",
        "u", "var", "wbr",
    }
)  # fmt: skip
#: Elements whose text no reader sees.
_UNSEEN = frozenset({"script", "style", "noscript", "template", "head"})


def headline(scope: Any, root: Any) -> Any:
    """The post's headline element in ``scope``: its first ``<h1>`` of
    :data:`MIN_HEADLINE` characters and more; without one, its first ``<h2>`` whose
    words start the page's ``<title>`` (in ``root``); else ``None``."""
    first = next(
        (h for h in scope.iter("h1") if _words(h) and len(_words(h)) >= MIN_HEADLINE), None
    )
    if first is not None:
        return first
    title = next(root.iter("title"), None)
    said = _words(title).lower() if title is not None else ""
    if not said:
        return None
    for heading in scope.iter("h2"):
        words = _words(heading).lower()
        if len(words) >= MIN_HEADLINE and said.startswith(words):
            return heading
    return None


def text_after(element: Any, limit: int) -> str:
    """About ``limit`` characters of the text that follows ``element`` in the page
    (its own text left out), its words as a reader sees them: one space where
    elements, blocks or lines part, none inside a line's inline markup."""
    parts: list[str] = []
    size = 0

    def add(text: str | None) -> None:
        nonlocal size
        if text:
            parts.append(text)
            size += len(" ".join(text.split())) + 1  # as the reader's text counts

    def subtree(top: Any) -> None:
        if not isinstance(top.tag, str) or top.tag in _UNSEEN:
            return  # its tail is the caller's
        walk = etree.iterwalk(top, events=("start", "end", "comment", "pi"))
        for event, node in walk:
            if size >= limit:
                return
            if event in ("comment", "pi"):
                add(node.tail)
                continue
            if node.tag in _UNSEEN:
                if event == "start":
                    walk.skip_subtree()
                    add(node.tail)
                continue
            if node.tag not in _INLINE:
                add(" ")
            add(node.text if event == "start" else node.tail if node is not top else None)

    node = element
    while node is not None and size < limit:
        add(node.tail)
        following = node.getnext()
        while following is None:
            node = node.getparent()
            if node is None:
                break
            add(" ")
            add(node.tail)
            following = node.getnext()
        if following is None:
            break
        subtree(following)
        node = following
    return " ".join("".join(parts).split())[:limit]


def _words(element: Any) -> str:
    return " ".join(element.text_content().split())
