"""The dead-host rule: a name that does not exist after two tries, a refused port
after a short backoff, anything else left to the caller's own policy."""

from __future__ import annotations

import pytest

from webrobot.urls.deadpolicy import (
    NO_SUCH_NAME,
    REFUSED,
    DeadBook,
    DeadHost,
    DeadHostPolicy,
    Streak,
    host_label,
)

POLICY = DeadHostPolicy(name_retry=3.0, refused_max=6.0)


@pytest.mark.parametrize(
    ("kind", "tries", "elapsed", "usual", "expected"),
    [
        # a name that does not exist: tried again once, name_retry later, then given up
        (NO_SUCH_NAME, 1, 0.0, 2.0, 3.0),
        (NO_SUCH_NAME, 2, 3.0, 4.0, None),
        (NO_SUCH_NAME, 5, 30.0, 4.0, None),
        # a refused port: the usual backoff, cut at the limit, then given up
        (REFUSED, 1, 0.0, 2.0, 2.0),
        (REFUSED, 2, 2.0, 4.0, 4.0),
        (REFUSED, 3, 5.0, 8.0, 1.0),
        (REFUSED, 4, 6.0, 16.0, None),
        # anything else (a resolver that cannot be reached, a timeout): the caller's policy
        ("resolver_failed", 9, 500.0, 60.0, 60.0),
        ("", 1, 0.0, 2.0, 2.0),
    ],
)
def test_next_try(
    kind: str, tries: int, elapsed: float, usual: float, expected: float | None
) -> None:
    assert POLICY.next_try(kind, tries, elapsed, usual) == expected


def test_the_settings_shorten_the_waits() -> None:
    fast = DeadHostPolicy(name_retry=0.1, refused_max=0.5)
    assert fast.next_try(NO_SUCH_NAME, 1, 0.0, 2.0) == 0.1
    assert fast.next_try(REFUSED, 1, 0.0, 2.0) == 0.5
    assert fast.next_try(REFUSED, 2, 0.5, 2.0) is None


def test_a_streak_counts_failures_of_one_kind_in_a_row() -> None:
    streak = Streak()
    assert streak.failed(NO_SUCH_NAME, 10.0) == (1, 0.0)
    # the resolver could not be reached: says nothing about the name, the count starts again
    assert streak.failed(None, 12.0) == (1, 0.0)
    assert streak.failed(NO_SUCH_NAME, 15.0) == (1, 0.0)
    assert streak.failed(NO_SUCH_NAME, 18.0) == (2, 3.0)
    assert streak.failed(REFUSED, 20.0) == (1, 0.0)
    assert streak.failed(REFUSED, 22.5) == (2, 2.5)


def test_a_name_is_dead_whatever_the_port_a_refusal_only_on_its_port() -> None:
    assert host_label(NO_SUCH_NAME, "gone.example", 443) == "gone.example"
    assert host_label(REFUSED, "127.0.0.1", 9) == "127.0.0.1:9"
    assert host_label(REFUSED, "::1", 9) == "[::1]:9"
    assert host_label(REFUSED, "h", None) == "h"


def test_the_book_names_each_host_once_with_its_reason() -> None:
    book = DeadBook()
    first = DeadHost("no-such-host.invalid", NO_SUCH_NAME, 2, 3.0)
    assert book.give_up(first)
    assert not book.give_up(DeadHost("no-such-host.invalid", NO_SUCH_NAME, 2, 9.0))
    assert book.give_up(DeadHost("127.0.0.1:9", REFUSED, 3, 6.0, "Connection refused"))
    assert book.lines() == [
        "no-such-host.invalid: the name does not resolve",
        "127.0.0.1:9: the connection was refused",
    ]
    assert book.kinds() == [NO_SUCH_NAME, REFUSED]
    assert book.get("no-such-host.invalid") is first
    assert book.get("live.example") is None
    assert first.row() == {
        "host": "no-such-host.invalid", "kind": NO_SUCH_NAME,
        "reason": "the name does not resolve", "tries": 2, "seconds": 3.0, "detail": "",
    }  # fmt: skip


def test_a_name_given_up_already_is_given_up_at_its_first_failure() -> None:
    """Asked again on another port or scheme (``https://`` after ``http://``)."""
    assert POLICY.next_try(NO_SUCH_NAME, 1, 0.0, 2.0, known=True) is None
    assert POLICY.next_try(REFUSED, 1, 0.0, 2.0, known=True) == 2.0  # a refusal is per port
