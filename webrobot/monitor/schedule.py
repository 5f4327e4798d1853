"""When the monitor checks a known page again, and when ``events.jsonl`` is rotated.

Pure: no Scrapy, no I/O; the clock is passed in. Re-checks follow the re-crawl
model of :mod:`webrobot.frontier.freshness` (an interval per page, bounded, a
factor of 2): a page found unchanged waits twice as long before its next check, up
to the longest interval; a page found changed (or new) starts again at the
shortest, so pages that change often are checked at every crawl and pages that
never change about once per longest interval. A page is due a little early
(:data:`SLACK` of its interval) so a weekly crawl that starts a few minutes
earlier than last week's still finds a one-week page due.
"""

from __future__ import annotations

from dataclasses import dataclass

from webrobot.frontier.freshness import FreshnessRules

#: Share of its interval by which a page is due early.
SLACK = 0.1


@dataclass(frozen=True)
class Check:
    """A page's last check (Unix time) and the seconds until its next."""

    checked: float
    interval: float

    def due(self, now: float) -> bool:
        return now >= self.checked + self.interval * (1 - SLACK)


def rules(interval: float, max_interval: float) -> FreshnessRules:
    """The re-check rules of ``WEBROBOT_MONITOR_RECHECK_INTERVAL`` (the shortest and first
    interval) and ``..._MAX_INTERVAL`` (0 in the first: every page at every crawl)."""
    return FreshnessRules(
        interval=interval, min_interval=interval, max_interval=max(interval, max_interval)
    )


def next_check(rules: FreshnessRules, last: Check | None, now: float, changed: bool) -> Check:
    """The page's check after one at ``now``: back to the shortest interval when it
    changed or is new, twice as long (bounded) when it is unchanged."""
    if last is None or changed:
        return Check(now, rules.first_interval())
    return Check(now, rules.bound(last.interval * rules.factor))


def should_rotate(
    size: int, first_time: float | None, now: float, max_bytes: int, max_age: float
) -> bool:
    """Whether ``events.jsonl`` (``size`` bytes, its first event at ``first_time``) is
    rotated: bigger than ``max_bytes`` or older than ``max_age`` seconds (0: no limit)."""
    if size <= 0:
        return False
    if max_bytes and size > max_bytes:
        return True
    return bool(max_age and first_time is not None and now - first_time > max_age)
