"""The choice of reading from a page's signals, on its own."""

from __future__ import annotations

import pytest

from webrobot.extract.readingchoice import (
    TRUSTED_LENGTH,
    PageSignals,
    ReadingPlan,
    plan,
    precise_suffices,
)

ARTICLE = PageSignals(article=True, large=False)
READ = plan(ARTICLE)


@pytest.mark.parametrize(
    ("signals", "expected"),
    [
        # an article: precise first, on a tree without the nodes trafilatura deletes unread
        (ARTICLE, ReadingPlan(precise_first=True, prune_unread=True, fallbacks=True)),
        # a product: broad, but without buttons and option lists (variant pickers)
        (
            PageSignals(article=False, large=False, product=True),
            ReadingPlan(precise_first=False, prune_unread=True, fallbacks=True),
        ),
        # any other page: broad, trafilatura's fallbacks seeing the page as it is, and its
        # retry favouring recall decided on the page as it came
        (
            PageSignals(article=False, large=False),
            ReadingPlan(precise_first=False, prune_unread=False, fallbacks=True, page_measure=True),
        ),
        # a large page: no fallbacks
        (
            PageSignals(article=False, large=True),
            ReadingPlan(
                precise_first=False, prune_unread=False, fallbacks=False, page_measure=True
            ),
        ),
        (
            PageSignals(article=True, large=True),
            ReadingPlan(precise_first=True, prune_unread=True, fallbacks=False),
        ),
    ],
)
def test_the_plan_follows_the_page_kind(signals: PageSignals, expected: ReadingPlan) -> None:
    assert plan(signals) == expected


def test_a_long_precise_reading_suffices() -> None:
    assert precise_suffices("x" * TRUSTED_LENGTH, READ)


def test_a_short_or_missing_precise_reading_is_checked() -> None:
    assert not precise_suffices("x" * (TRUSTED_LENGTH - 1), READ)
    assert not precise_suffices(None, READ)
    assert not precise_suffices("", plan(PageSignals(article=True, large=True)))


def test_on_a_large_page_any_precise_reading_suffices() -> None:
    # the broad reading without fallbacks is not worth its cost there
    assert precise_suffices("x", plan(PageSignals(article=True, large=True)))
