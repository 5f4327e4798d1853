"""The pure robots.txt policy: status -> outcome, expiry, retry schedule, stale use."""

from __future__ import annotations

from email.utils import formatdate

import pytest

from webrobot.robots import policy
from webrobot.robots.policy import Deferral, RobotsDecision

NOW = 1_800_000_000.0


@pytest.mark.parametrize(
    ("status", "outcome"),
    [
        (200, policy.RULES), (203, policy.RULES), (206, policy.RULES),
        (301, policy.REDIRECT), (302, policy.REDIRECT), (307, policy.REDIRECT), (308, policy.REDIRECT),
        (400, policy.UNAVAILABLE), (404, policy.UNAVAILABLE), (410, policy.UNAVAILABLE), (418, policy.UNAVAILABLE),
        (401, policy.FORBIDDEN), (403, policy.FORBIDDEN),
        (429, policy.DEFER), (500, policy.DEFER), (502, policy.DEFER), (503, policy.DEFER), (599, policy.DEFER),
        (600, policy.DEFER), (100, policy.DEFER),
    ],
)  # fmt: skip
def test_status_table(status: int, outcome: str) -> None:
    assert policy.classify_status(status) == outcome


def test_auth_policy_allow_gives_rfc_unavailable() -> None:
    assert policy.classify_status(401, "allow") == policy.UNAVAILABLE
    assert policy.classify_status(403, "allow") == policy.UNAVAILABLE
    assert policy.classify_status(429, "allow") == policy.DEFER


@pytest.mark.parametrize(
    ("cache_control", "expires", "date", "lifetime"),
    [
        (None, None, None, None),
        ("max-age=600", None, None, 600.0),
        ("public, max-age=3600", None, None, 3600.0),
        ('max-age="120", must-revalidate', None, None, 120.0),
        ("s-maxage=10, max-age=20", None, None, 20.0),
        ("s-maxage=10", None, None, None),
        ("no-cache", None, None, 0.0),
        ("private, no-store", None, None, 0.0),
        ('no-cache="Set-Cookie", max-age=50', None, None, 50.0),
        ('no-cache="Set-Cookie"', None, None, None),
        ("max-age=60", formatdate(NOW + 9999, usegmt=True), None, 60.0),  # max-age wins
        (None, formatdate(NOW + 300, usegmt=True), None, 300.0),
        (None, formatdate(NOW + 300, usegmt=True), formatdate(NOW + 100, usegmt=True), 200.0),
        (None, formatdate(NOW - 300, usegmt=True), None, 0.0),
        (None, "0", None, 0.0),
        (None, "-1", None, 0.0),
        ("max-age=abc", None, None, None),
    ],
)
def test_freshness_lifetime(cache_control: str | None, expires: str | None, date: str | None,
                            lifetime: float | None) -> None:  # fmt: skip
    assert policy.freshness_lifetime(cache_control, expires, date, NOW) == lifetime


def test_expiry_is_capped_by_the_ttl_and_floored_by_the_minimum() -> None:
    assert policy.expires_at(NOW, None, 86400) == NOW + 86400
    assert policy.expires_at(NOW, 600, 86400) == NOW + 600, "the server may ask for less"
    assert policy.expires_at(NOW, 10 * 86400, 86400) == NOW + 86400, "but not for more"
    assert policy.expires_at(NOW, 0, 86400, min_ttl=60) == NOW + 60
    assert policy.expires_at(NOW, 0, 30, min_ttl=60) == NOW + 30, "the floor never exceeds the TTL"
    assert policy.expires_at(NOW, None, 0) == float("inf"), "TTL 0: no limit"
    assert policy.expires_at(NOW, 5, 0) == NOW + 5


@pytest.mark.parametrize(
    ("value", "seconds"),
    [
        ("120", 120.0), (" 3 ", 3.0), ("0", 0.0),
        (formatdate(NOW + 90, usegmt=True), 90.0), (formatdate(NOW - 90, usegmt=True), 0.0),
        ("Sunday, 06-Nov-94 08:49:37 GMT", 0.0), ("soon", None), ("-5", None), ("1.5", None), ("", None), (None, None),
    ],
)  # fmt: skip
def test_retry_after(value: str | None, seconds: float | None) -> None:
    assert policy.parse_retry_after(value, NOW) == seconds


def test_backoff_doubles_honours_retry_after_and_is_capped() -> None:
    assert [policy.backoff_delay(n, 2, 600) for n in range(1, 6)] == [2, 4, 8, 16, 32]
    assert policy.backoff_delay(20, 2, 600) == 600
    assert policy.backoff_delay(10_000, 2, 600) == 600, "no overflow"
    assert policy.backoff_delay(3, 2, 600, retry_after=1) == 1, "the server's Retry-After is obeyed"
    assert policy.backoff_delay(1, 2, 600, retry_after=86400) == 600, "capped"
    assert policy.backoff_delay(5, 2, 0) == 32, "0: no cap"


def test_a_retry_after_of_zero_or_in_the_past_does_not_retry_at_once() -> None:
    # "Retry-After: 0", or a date already past, would otherwise re-fetch robots.txt
    # in a tight loop until WEBROBOT_ROBOTS_DEFER_MAX: the backoff applies instead.
    past = policy.parse_retry_after(formatdate(NOW - 90, usegmt=True), NOW)
    assert [policy.backoff_delay(n, 2, 600, retry_after=past) for n in (1, 2, 3)] == [2, 4, 8]
    deferral = Deferral(first_failure=0.0)
    assert [
        deferral.failed(t, base=2, cap=600, defer_max=0, retry_after=0.0) for t in (0, 2, 6)
    ] == [2, 4, 8]


def test_deferral_schedule_ends_at_defer_max() -> None:
    deferral = Deferral(first_failure=100.0)
    schedule = []
    now = 100.0
    while (delay := deferral.failed(now, base=2, cap=600, defer_max=25)) is not None:
        schedule.append(delay)
        now += delay
    assert schedule == [2, 4, 8, 11], "the last retry lands on defer_max"
    assert now == 125.0 and deferral.attempts == 5


def test_deferral_with_retry_after_and_without_limit() -> None:
    deferral = Deferral(first_failure=0.0)
    assert deferral.failed(0.0, base=2, cap=600, defer_max=0, retry_after=1) == 1
    assert deferral.failed(10_000.0, base=2, cap=600, defer_max=0) == 4, "0: never gives up"
    assert Deferral(first_failure=0.0).failed(50.0, base=2, cap=600, defer_max=30) is None


def test_crawl_delay_from_crawl_delay_or_request_rate_capped() -> None:
    assert policy.effective_crawl_delay(None, None, 60) is None
    assert policy.effective_crawl_delay(0, None, 60) is None
    delay = policy.effective_crawl_delay(2.5, None, 60)
    assert delay is not None and (delay.seconds, delay.source, delay.capped) == (
        2.5,
        "crawl_delay",
        False,
    )
    delay = policy.effective_crawl_delay(1, (1, 10), 60)
    assert delay is not None and (delay.seconds, delay.source) == (10.0, "request_rate")
    delay = policy.effective_crawl_delay(3600, None, 60)
    assert delay is not None and (delay.seconds, delay.declared, delay.capped) == (60, 3600, True)
    delay = policy.effective_crawl_delay(3600, None, 0)
    assert delay is not None and delay.seconds == 3600, "0: no cap"
    assert policy.effective_crawl_delay(float("inf"), (0, 5), 60) is None


def test_decision_freshness_and_stale_use() -> None:
    rules = RobotsDecision("http://a:80", policy.RULES, 200, NOW, NOW + 100)
    assert rules.fresh(NOW + 99) and not rules.fresh(NOW + 100)
    assert rules.usable_stale(NOW + 150, stale_max=100) and not rules.usable_stale(
        NOW + 200, stale_max=100
    )
    assert rules.usable_stale(NOW + 1e9, stale_max=0), "0: no limit"
    unreachable = RobotsDecision("http://a:80", policy.UNREACHABLE, 503, NOW, NOW + 100)
    assert not unreachable.usable_stale(NOW + 150, stale_max=100), (
        "never stand in for a real answer"
    )
    assert unreachable.refuses_everything and not unreachable.allows_everything
    assert RobotsDecision("s", policy.FORBIDDEN, 403, NOW, NOW).refuses_everything
    assert RobotsDecision("s", policy.UNAVAILABLE, 404, NOW, NOW).allows_everything


@pytest.mark.parametrize(
    ("outcome", "rules_allow", "expected"),
    [
        (policy.UNAVAILABLE, False, None),
        (policy.RULES, True, None),
        (policy.RULES, False, policy.REFUSED_FORBIDDEN),
        (policy.FORBIDDEN, True, policy.REFUSED_FORBIDDEN),
        (policy.UNREACHABLE, True, policy.REFUSED_GAVE_UP),
    ],
)
def test_refusal_reason(outcome: str, rules_allow: bool, expected: str | None) -> None:
    asked: list[RobotsDecision] = []
    decision = RobotsDecision("http://a:80", outcome, 200, 0, 1, summary="rules", reason="why")

    def allowed(d: RobotsDecision) -> bool:
        asked.append(d)
        return rules_allow

    assert policy.refusal(decision, allowed) == expected
    assert asked == ([decision] if outcome == policy.RULES else []), "rules asked only if any"
    assert policy.refusal_detail(decision) == ("why" if decision.refuses_everything else "rules")


def test_robots_txt_urls() -> None:
    assert policy.is_robots_txt("http://a/robots.txt")
    assert policy.is_robots_txt("https://a:8080/robots.txt?x=1")
    assert not policy.is_robots_txt("http://a/robots.txt/x")
    assert not policy.is_robots_txt("http://a/dir/robots.txt")
