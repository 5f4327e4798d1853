"""When a stored page is due for a re-crawl. Pure logic: no Scrapy, no I/O;
the clock is passed in.

Each page has a record: when it was last checked, its MD5, and its own
re-crawl interval. The interval adapts: a page found changed at a check gets a
shorter interval (divided by ``factor``), a page found unchanged a longer one
(multiplied by ``factor``), always within ``[min_interval, max_interval]``.
A new page starts at the site's default interval (or its sitemap
``changefreq``, bounded the same way).

A page is due when its interval has passed since its last check, or when its
sitemap ``lastmod`` is later than that check (the site says it changed), or
when its sitemap ``changefreq`` is shorter than the time since the check.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

NEW = "new"
CHANGED = "changed"
UNCHANGED = "unchanged"
NOT_DUE = "not_due"

DUE_INTERVAL = "interval"
DUE_LASTMOD = "lastmod"
DUE_CHANGEFREQ = "changefreq"


@dataclass(frozen=True)
class PageRecord:
    checked_at: float  # Unix time of the last check (fetch or revalidation)
    interval: float  # seconds until the next check is due
    md5: str = ""
    checks: int = 1
    changes: int = 0


@dataclass(frozen=True)
class FreshnessRules:
    """``interval`` 0 means every stored page is due at every re-crawl."""

    interval: float = 0.0
    min_interval: float = 3600.0
    max_interval: float = 30 * 86400.0
    factor: float = 2.0

    def __post_init__(self) -> None:
        if self.interval < 0 or self.min_interval < 0 or self.max_interval < self.min_interval:
            raise ValueError("freshness intervals: need 0 <= min <= max and interval >= 0")
        if self.factor < 1:
            raise ValueError(f"freshness factor must be >= 1, got {self.factor}")

    @property
    def enabled(self) -> bool:
        return self.interval > 0

    def bound(self, seconds: float) -> float:
        return min(self.max_interval, max(self.min_interval, seconds))

    def first_interval(self, changefreq: float | None = None) -> float:
        if changefreq is not None and math.isfinite(changefreq):
            return self.bound(changefreq)
        return self.bound(self.interval)

    def due(
        self,
        record: PageRecord | None,
        now: float,
        lastmod: float | None = None,
        changefreq: float | None = None,
    ) -> str | None:
        """Why the page must be checked now (``DUE_*``), or ``None`` if it is not due."""
        if not self.enabled or record is None:
            return DUE_INTERVAL
        since = now - record.checked_at
        if lastmod is not None and lastmod > record.checked_at:
            return DUE_LASTMOD
        if changefreq is not None and math.isfinite(changefreq) and since >= self.bound(changefreq):
            return DUE_CHANGEFREQ
        if since >= record.interval:
            return DUE_INTERVAL
        return None

    def checked(
        self,
        record: PageRecord | None,
        now: float,
        md5: str | None,
        changefreq: float | None = None,
    ) -> tuple[str, PageRecord]:
        """The outcome of a check (``NEW``, ``CHANGED``, ``UNCHANGED``) and the new record.

        ``md5`` is ``None`` when the server answered 304 Not Modified."""
        if record is None:
            return NEW, PageRecord(
                checked_at=now, interval=self.first_interval(changefreq), md5=md5 or ""
            )
        changed = md5 is not None and md5 != record.md5
        if changed:
            interval = self.bound(record.interval / self.factor)
        else:
            interval = self.bound(record.interval * self.factor)
        return (CHANGED if changed else UNCHANGED), replace(
            record,
            checked_at=now,
            interval=interval,
            md5=md5 if md5 is not None else record.md5,
            checks=record.checks + 1,
            changes=record.changes + (1 if changed else 0),
        )
