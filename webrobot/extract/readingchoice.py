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

A page that declares a discussion as well as an article (a forum thread whose software
sets ``og:type`` ``article``, with a JSON-LD ``DiscussionForumPosting`` or ``QAPage``:
:func:`webrobot.extract.pagekind.declares_discussion`) is read as any other page: the
precise reading keeps the opening post and drops the replies as comments. This rule
concerns forum threads only; on the development half of the forum set it took one
thread of 71 from 0.67 to 0.97 F1, the article pages staying as they were.

An article's precise reading is kept as it is when it is :data:`TRUSTED_LENGTH`
characters or more, or the page is large; otherwise it is checked against the broad
reading (:func:`webrobot.extract.maintext.choose`). Checking a long precise reading too
when it holds under 0.6 of the text of the page's paragraphs (a listicle whose entries
sit in separate containers) took the dev articles from 0.929 to 0.930 F1 but cost about
10% more CPU on the article benchmark, which the main text's CPU goal cannot spare: it
is not done.

Pure: no Scrapy, no I/O.
"""

from __future__ import annotations

from dataclasses import dataclass

#: A precise reading this long (characters) is an article's worth of text, kept as it is.
TRUSTED_LENGTH = 1000


@dataclass(frozen=True, slots=True)
class PageSignals:
    """What the page says of itself: whether it declares itself an article, a product or
    a discussion (:mod:`webrobot.extract.pagekind`; ``discussion`` is only looked for on
    an article), and whether it is large (:func:`webrobot.extract.largepage.is_large`)."""

    article: bool
    large: bool
    product: bool = False
    discussion: bool = False


@dataclass(frozen=True, slots=True)
class ReadingPlan:
    """How to read a page: precisely first (then broadly only when that falls short, see
    :func:`precise_suffices`) or broadly alone; with the nodes trafilatura deletes unread
    pruned before it reads (``prune_unread``); with trafilatura's fallback extractors;
    with trafilatura's retry of a short reading decided on the page as it came
    (``page_measure``, :mod:`webrobot.extract.pagemeasure`: a page that declares neither
    an article nor a product)."""

    precise_first: bool
    prune_unread: bool
    fallbacks: bool
    page_measure: bool = False


def plan(signals: PageSignals) -> ReadingPlan:
    """The reading for a page with these ``signals`` (see the module doc)."""
    article = signals.article and not signals.discussion
    return ReadingPlan(
        precise_first=article,
        prune_unread=article or signals.product,
        fallbacks=not signals.large,
        page_measure=not signals.article and not signals.product,
    )


def precise_suffices(precise: str | None, reading: ReadingPlan) -> bool:
    """Whether an article's ``precise`` reading is kept without a broad one to check it
    against: when it is :data:`TRUSTED_LENGTH` characters or more, or whatever its length
    where the ``reading`` goes without fallbacks (a large page)."""
    if not precise:
        return False
    return not reading.fallbacks or len(precise) >= TRUSTED_LENGTH
