"""The choice of reading from a page's signals, on its own."""

from __future__ import annotations

import lxml.html
import pytest

from webrobot.extract.readingchoice import (
    PARAGRAPH_SHARE,
    TRUSTED_LENGTH,
    PageSignals,
    ReadingPlan,
    check_with_fallbacks,
    paragraph_chars,
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
        # any other page: broad, trafilatura's fallbacks seeing the page as it is
        (
            PageSignals(article=False, large=False),
            ReadingPlan(precise_first=False, prune_unread=False, fallbacks=True),
        ),
        # a large page: no fallbacks
        (
            PageSignals(article=False, large=True),
            ReadingPlan(precise_first=False, prune_unread=False, fallbacks=False),
        ),
        (
            PageSignals(article=True, large=True),
            ReadingPlan(precise_first=True, prune_unread=True, fallbacks=False),
        ),
    ],
)
def test_the_plan_follows_the_page_kind(signals: PageSignals, expected: ReadingPlan) -> None:
    assert plan(signals) == expected


def paragraphs(chars: int) -> object:
    """A tree whose paragraphs hold ``chars`` characters of text, in two paragraphs."""
    half = chars // 2
    return lxml.html.fromstring(f"<div><p>{'y' * half}</p><p>{'y' * (chars - half)}</p></div>")


def test_a_long_precise_reading_that_holds_the_paragraphs_suffices() -> None:
    precise = "x" * TRUSTED_LENGTH
    assert precise_suffices(precise, READ, paragraphs(len(precise)))
    assert precise_suffices(precise, READ, paragraphs(int(len(precise) / PARAGRAPH_SHARE)))


def test_a_precise_reading_with_a_small_share_of_the_paragraphs_is_checked() -> None:
    precise = "x" * 2 * TRUSTED_LENGTH
    assert not precise_suffices(precise, READ, paragraphs(20 * len(precise)))
    assert not precise_suffices(precise, READ, paragraphs(int(len(precise) / PARAGRAPH_SHARE) + 2))
    # unless the page is large: then the broad reading is not worth its cost
    large = plan(PageSignals(article=True, large=True))
    assert precise_suffices(precise, large, paragraphs(20 * len(precise)))


def test_a_short_or_missing_precise_reading_is_checked() -> None:
    assert not precise_suffices("x" * (TRUSTED_LENGTH - 1), READ, paragraphs(0))
    assert not precise_suffices(None, READ, paragraphs(0))
    assert not precise_suffices("", plan(PageSignals(article=True, large=True)), paragraphs(0))


def test_paragraph_chars_counts_the_text_of_paragraphs_only() -> None:
    tree = lxml.html.fromstring(
        "<div><p>abc <b>de</b></p><ul><li>not counted</li></ul><p>fgh</p></div>"
    )
    assert paragraph_chars(tree) == len("abc de") + len("fgh")


def test_only_a_short_precise_reading_is_checked_with_fallbacks() -> None:
    assert check_with_fallbacks("x" * (TRUSTED_LENGTH - 1), READ)
    assert check_with_fallbacks(None, READ)
    # a long reading that missed the paragraphs: the broad reading alone, at half the cost
    assert not check_with_fallbacks("x" * TRUSTED_LENGTH, READ)
    # a large page never gets the fallbacks
    assert not check_with_fallbacks("x", plan(PageSignals(article=True, large=True)))
