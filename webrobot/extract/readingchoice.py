"""Which of trafilatura's readings a page gets, from what the page says of itself.

A page that declares itself an article (:func:`webrobot.extract.pagekind.declares_article`)
is one block of text with teasers and link lists around it: it is read favouring
precision, on a tree pruned of its chrome and of the nodes trafilatura deletes unread
(:func:`webrobot.extract.pagechrome.reading_tree`). Any other page (a listing,
collection, service, documentation or forum page, whose content is spread over several
blocks) gets trafilatura's default (broad) reading on a tree pruned of its chrome only:
trafilatura's own fallbacks (readability, jusText, its recall pass) then see the page's
buttons and option lists as it would unaided, which keeps the schedules, filters and
card grids that pass for a listing's content. A product page (``og:type`` ``product``, a
JSON-LD ``Product``) gets the same broad reading on a tree pruned as an article's is: its
buttons and option lists are variant pickers and quantity boxes. On the development half of the unseen sets (``python -m
benchmarks.quality.unseen``) this took the listing set from 0.494 to 0.518 and the
collection set from 0.489 to 0.498 F1, the product set staying at 0.587.

An article's precise reading is kept as it is when it is :data:`TRUSTED_LENGTH`
characters or more and holds at least :data:`PARAGRAPH_SHARE` of the text of the page's
paragraphs (``<p>``); otherwise it is checked against the broad reading
(:func:`webrobot.extract.maintext.choose`). The paragraph test catches
the precise reading that kept one block of a long article (a listicle whose entries sit
in separate containers, a guide beside a sidebar): of the dev pages declaring an article
whose two readings differ, the 8 whose precise reading held under 0.6 of the paragraph
text were read better broadly (seven) or as well (one).

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


def check_with_fallbacks(precise: str | None, reading: ReadingPlan) -> bool:
    """Whether the broad reading an article's ``precise`` one is checked against runs with
    trafilatura's fallback extractors: when the ``reading`` has them and the precise text
    is short (under :data:`TRUSTED_LENGTH`); a long one that missed the paragraphs is
    checked against the broad reading alone, at half the cost."""
    return reading.fallbacks and len(precise or "") < TRUSTED_LENGTH
