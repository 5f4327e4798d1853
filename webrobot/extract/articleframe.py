"""The block an article's paragraphs sit in, for a page whose markup names none.

trafilatura reads an article from a block it recognises by its tag or its class
(``<article>``, ``itemprop="articleBody"``, ``entry-content`` and the like). On a page
built without such a block (page builders that nest the post in ``<span>`` or in
numbered ``<div>`` wrappers: Oxygen, Webflow, hand-made templates), its reading that
favours precision finds none and falls back on gathering the page's loose paragraphs,
quotes, code and tables: the article's headings and lists are lost, and only the
paragraphs between them kept. :func:`mark_frame` names the element whose own
paragraphs hold the most text as the article's body (``itemprop="articleBody"``, on a
``<div>``), so that a second reading reads it as a block, headings and lists included.
:mod:`webrobot.extract.maintext` does this only when the first reading said it found no
block (:class:`webrobot.extract.trafilaturacompat.ReadReport`), and keeps the second
reading when it holds :data:`KEEP_SHARE` of the first one's text (the same article; it may
be shorter, without the teasers and letters the gathering took from around the article).

Pure: no Scrapy, no I/O.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from copy import copy
from typing import Any

from webrobot.extract.shingles import share_kept

logger = logging.getLogger(__name__)

#: The second reading is kept when it holds at least this share of the first one's
#: word shingles (it read the same article, with more of it).
KEEP_SHARE = 0.5
#: Tags trafilatura looks for an article's block in; any other frame is renamed ``div``.
_BLOCK_TAGS = frozenset({"article", "div", "main", "section"})
#: Elements that are the page itself, never its article's block.
_PAGE_TAGS = frozenset({"html", "body"})


def paragraph_frame(tree: Any) -> Any:
    """The element of ``tree`` whose child ``<p>`` elements hold the most text, or
    ``None`` when that is the page's ``<body>`` (or it has no paragraphs)."""
    chars: dict[Any, int] = {}
    for paragraph in tree.iter("p"):
        parent = paragraph.getparent()
        if parent is not None:
            chars[parent] = chars.get(parent, 0) + len(paragraph.text_content().strip())
    if not chars:
        return None
    frame = max(chars, key=chars.__getitem__)
    if not chars[frame] or not isinstance(frame.tag, str) or frame.tag in _PAGE_TAGS:
        return None
    return frame


def mark_frame(tree: Any) -> bool:
    """Names :func:`paragraph_frame` in ``tree`` (which it changes: give it a copy) as
    the article's body; whether there was one to name."""
    frame = paragraph_frame(tree)
    if frame is None:
        return False
    if frame.tag not in _BLOCK_TAGS:
        frame.tag = "div"
    frame.set("itemprop", "articleBody")
    return True


def framed_reading(
    read: Callable[[Any], tuple[str | None, Any]], tree: Any, precise: str, body: Any
) -> tuple[str, Any]:
    """``read`` (the precise reading) of a copy of ``tree`` with its paragraphs' block
    named (:func:`mark_frame`), with the body it read, when it holds :data:`KEEP_SHARE`
    of ``precise`` (read without a block); else ``precise`` and its ``body``."""
    framed = copy(tree)
    try:
        marked = mark_frame(framed)
    except Exception:  # a page must never break the crawl
        logger.debug("article block not named", exc_info=True)
        marked = False
    if not marked:
        return precise, body
    text, framed_body = read(framed)
    if text and share_kept(precise, text) >= KEEP_SHARE:
        return text, framed_body
    return precise, body
