"""Which of trafilatura's readings a page gets, from what the page says of itself.

A page that declares itself an article (:func:`webrobot.extract.pagekind.declares_article`)
is one block of text with teasers and link lists around it: it is read favouring
precision, on a tree pruned of its chrome and of the nodes trafilatura deletes unread
(:func:`webrobot.extract.pagechrome.reading_tree`). Any other page (a product, listing,
collection, service, documentation or forum page, whose content is spread over several
blocks) gets trafilatura's default (broad) reading on a tree pruned of its chrome only:
trafilatura's own fallbacks (readability, jusText, its recall pass) then see the page's
buttons and option lists as it would unaided, which keeps the schedules, filters and
card grids that pass for a listing's content. On the development half of the unseen
sets (``python -m benchmarks.quality.unseen``) this took the listing set from 0.494 to
0.518 and the collection set from 0.489 to 0.499 F1.

An article's precise reading is kept as it is when it is :data:`TRUSTED_LENGTH`
characters or more and holds at least :data:`PARAGRAPH_SHARE` of the text of the page's
paragraphs (``<p>``); otherwise it is checked against the broad reading
(:func:`webrobot.extract.maintext.choose`). The paragraph test catches the precise
reading that kept one block of a long article (a listicle whose entries sit in
separate containers, a guide under a sidebar): 8 of the 85 dev articles on which the
two readings differ, all of them better read broadly.

Pure: no Scrapy, no I/O.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

#: A precise reading this long (characters) may be an article's worth of text...
TRUSTED_LENGTH = 1000
#: ...when it also holds at least this share of the text in the page's paragraphs.
PARAGRAPH_SHARE = 0.6


@dataclass(frozen=True, slots=True)
class PageSignals:
    """What the page says of itself: whether it declares itself an article or a product
    (:mod:`webrobot.extract.pagekind`), and whether it is large
    (:func:`webrobot.extract.largepage.is_large`)."""

    article: bool
    large: bool
    product: bool = False


@dataclass(frozen=True, slots=True)
class ReadingPlan:
    """How to read a page: precisely first (then broadly only when that falls short, see
    :func:`precise_suffices`) or broadly alone; with the nodes trafilatura deletes unread
    pruned before it reads (``prune_unread``); with trafilatura's fallback extractors."""

    precise_first: bool
    prune_unread: bool
    fallbacks: bool


def plan(signals: PageSignals) -> ReadingPlan:
    """The reading for a page with these ``signals`` (see the module doc)."""
    return ReadingPlan(
        precise_first=signals.article,
        prune_unread=signals.article or signals.product,
        fallbacks=not signals.large,
    )


def precise_suffices(precise: str | None, reading: ReadingPlan, tree: Any) -> bool:
    """Whether an article's ``precise`` reading is kept without a broad one to check it
    against: where the ``reading`` goes without fallbacks (a large page) whatever its
    length, else when it is :data:`TRUSTED_LENGTH`
    characters or more and at least :data:`PARAGRAPH_SHARE` of the text of the
    paragraphs under ``tree`` (the tree it was read from; counted only then)."""
    if not precise:
        return False
    if not reading.fallbacks:
        return True
    return len(precise) >= TRUSTED_LENGTH and len(precise) >= PARAGRAPH_SHARE * (
        paragraph_chars(tree)
    )


def paragraph_chars(tree: Any) -> int:
    """The length of the text in the paragraphs (``<p>``) under ``tree``, an lxml tree."""
    return sum(len(paragraph.text_content()) for paragraph in tree.iter("p"))
