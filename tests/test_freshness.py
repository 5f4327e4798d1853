"""When a stored page is due, and how its interval adapts (pure logic), and the store."""

from __future__ import annotations

from pathlib import Path

import pytest

from webrobot.frontier.freshness import (
    CHANGED,
    DUE_CHANGEFREQ,
    DUE_INTERVAL,
    DUE_LASTMOD,
    NEW,
    UNCHANGED,
    FreshnessRules,
    PageRecord,
)
from webrobot.frontier.freshnessstore import FreshnessStore

DAY = 86400.0
RULES = FreshnessRules(interval=DAY, min_interval=3600.0, max_interval=8 * DAY, factor=2.0)


def test_interval_zero_makes_every_page_due() -> None:
    rules = FreshnessRules()
    assert not rules.enabled
    assert rules.due(PageRecord(checked_at=100.0, interval=DAY), now=101.0) == DUE_INTERVAL


def test_new_page_starts_at_the_default_or_its_changefreq() -> None:
    assert RULES.due(None, now=0.0) == DUE_INTERVAL
    outcome, record = RULES.checked(None, 1000.0, "a")
    assert outcome == NEW and record == PageRecord(checked_at=1000.0, interval=DAY, md5="a")
    assert RULES.checked(None, 0.0, "a", changefreq=60.0)[1].interval == 3600.0, "bounded below"
    assert RULES.checked(None, 0.0, "a", changefreq=float("inf"))[1].interval == DAY, (
        "'never' is no interval"
    )


def test_due_after_its_interval() -> None:
    record = PageRecord(checked_at=0.0, interval=DAY, md5="a")
    assert RULES.due(record, now=DAY - 1) is None
    assert RULES.due(record, now=DAY) == DUE_INTERVAL


def test_sitemap_hints_make_a_page_due_early() -> None:
    record = PageRecord(checked_at=1000.0, interval=DAY, md5="a")
    assert RULES.due(record, now=2000.0, lastmod=1500.0) == DUE_LASTMOD
    assert RULES.due(record, now=2000.0, lastmod=900.0) is None, "not modified since the check"
    assert RULES.due(record, now=1000.0 + 3600.0, changefreq=3600.0) == DUE_CHANGEFREQ
    assert RULES.due(record, now=1000.0 + 3600.0, changefreq=7 * DAY) is None


@pytest.mark.parametrize(
    ("checks", "intervals"),
    [
        ("CCCCCC", [DAY / 2, DAY / 4, DAY / 8, DAY / 16, DAY / 24, DAY / 24]),  # floor of 1 h
        ("UUUUU", [2 * DAY, 4 * DAY, 8 * DAY, 8 * DAY, 8 * DAY]),  # ceiling of 8 days
        ("UUCU", [2 * DAY, 4 * DAY, 2 * DAY, 4 * DAY]),
    ],
)
def test_interval_adapts_within_bounds(checks: str, intervals: list[float]) -> None:
    _, record = RULES.checked(None, 0.0, "v0")
    seen = []
    for i, kind in enumerate(checks, start=1):
        md5 = f"v{i}" if kind == "C" else record.md5
        outcome, record = RULES.checked(record, float(i), md5)
        assert outcome == (CHANGED if kind == "C" else UNCHANGED)
        seen.append(record.interval)
    assert seen == intervals
    assert record.checks == len(checks) + 1 and record.changes == checks.count("C")


def test_not_modified_is_unchanged() -> None:
    _, record = RULES.checked(None, 0.0, "a")
    outcome, after = RULES.checked(record, 5.0, None)
    assert outcome == UNCHANGED and after.md5 == "a" and after.interval == 2 * DAY


def test_bad_rules_are_refused() -> None:
    with pytest.raises(ValueError, match="min <= max"):
        FreshnessRules(interval=1.0, min_interval=10.0, max_interval=5.0)
    with pytest.raises(ValueError, match="factor"):
        FreshnessRules(factor=0.5)


def test_store_round_trip(tmp_path: Path) -> None:
    store = FreshnessStore(tmp_path / "sub" / "f.sqlite")
    assert store.get("http://a/") is None
    store.put("http://a/", PageRecord(1.0, 2.0, "m", 3, 1))
    store.put("http://a/", PageRecord(5.0, 6.0, "n", 4, 2))
    store.close()
    again = FreshnessStore(tmp_path / "sub" / "f.sqlite")
    assert again.all() == {"http://a/": PageRecord(5.0, 6.0, "n", 4, 2)}
