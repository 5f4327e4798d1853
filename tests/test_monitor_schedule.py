"""Re-checks by how often a page changes, and the rotation rule of events.jsonl."""

from __future__ import annotations

import pytest

from webrobot.monitor.schedule import Check, next_check, rules, should_rotate

WEEK = 7 * 86400.0


def test_an_unchanged_page_waits_twice_as_long_up_to_the_ceiling_and_a_change_resets_it() -> None:
    weekly = rules(WEEK, 8 * WEEK)
    check = next_check(weekly, None, 0.0, changed=True)
    assert check == Check(0.0, WEEK)
    waits = []
    for n in range(1, 6):
        check = next_check(weekly, check, n * WEEK, changed=False)
        waits.append(check.interval / WEEK)
    assert waits == [2, 4, 8, 8, 8]
    assert next_check(weekly, check, 10 * WEEK, changed=True).interval == WEEK


def test_a_page_is_due_a_little_early_so_a_weekly_crawl_that_starts_sooner_finds_it() -> None:
    check = Check(checked=0.0, interval=WEEK)
    assert check.due(WEEK - 3600)  # an hour early: still due
    assert not check.due(WEEK / 2)
    assert not Check(0.0, 2 * WEEK).due(WEEK)


def test_the_longest_interval_is_never_below_the_shortest() -> None:
    assert rules(WEEK, 0).max_interval == WEEK


@pytest.mark.parametrize(
    ("size", "first", "now", "max_bytes", "max_age", "rotate"),
    [
        (0, None, 100.0, 10, 0.0, False),  # empty: never
        (11, None, 100.0, 10, 0.0, True),  # too big
        (10, None, 100.0, 10, 0.0, False),
        (5, 0.0, 100.0, 0, 50.0, True),  # too old
        (5, 60.0, 100.0, 0, 50.0, False),
        (5, None, 100.0, 0, 50.0, False),  # no readable first event: not by age
        (10**9, 0.0, 10**9, 0, 0.0, False),  # no limits
    ],
)
def test_events_are_rotated_by_size_or_age(
    size: int, first: float | None, now: float, max_bytes: int, max_age: float, rotate: bool
) -> None:
    assert should_rotate(size, first, now, max_bytes, max_age) is rotate
