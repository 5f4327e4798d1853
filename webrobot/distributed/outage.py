"""What a worker does while the shared crawl's Redis cannot be reached.

Every component of a shared crawl (frontier, politeness, robots.txt cache,
content index, budget) reports its Redis errors and successes to one
:class:`Outage` per worker. While Redis is away:

* no request starts: the shared politeness cannot reserve the site's next
  start, so the downloader waits and asks again with a growing delay
  (:meth:`Outage.retry_in`: 0.1 s doubling up to 5 s); no local fallback that
  would let two workers hit one site at once or break its Crawl-delay;
* links found meanwhile wait in the worker, and the leases of the pages that
  found them are not acknowledged until the links are in Redis;
* one WARNING when it starts, one INFO line when Redis is back (how long it
  was away); every failed command is counted (``webrobot/redis/error_count``);
* after ``WEBROBOT_REDIS_OUTAGE_TIMEOUT`` seconds without a successful command,
  the worker closes with finish reason ``redis_unavailable`` (exit status 1).

A Redis at ``maxmemory`` with policy ``noeviction`` answers every write
``OOM command not allowed``: the crawl can neither lease, nor acknowledge, nor
queue, so it is the same pause, said as such (``Redis ... is full``, counted in
``webrobot/redis/full``), and it ends when memory is freed (``maxmemory``
raised, keys deleted) or after the same timeout. Nothing is lost: a script is
refused whole (:mod:`webrobot.distributed.scripts`), and what a refused command
carried stays in the worker and is sent again.

This module is the bookkeeping; no Scrapy, no Redis. Clocks are passed in.
"""

from __future__ import annotations

import logging
from typing import Any

from webrobot.settingsmodel.parse import read
from webrobot.wiring import Key, per_crawler

logger = logging.getLogger(__name__)

#: Finish reason of a worker that gave up on Redis.
FINISH_REASON = "redis_unavailable"
RETRY_FIRST = 0.1
RETRY_MAX = 5.0
#: How Redis words a write refused at ``maxmemory`` (an error reply, or inside a
#: script's error: "command not allowed when used memory > 'maxmemory'").
_FULL_MARKERS = ("OOM command not allowed", "used memory > 'maxmemory'")


def is_full(exc: BaseException) -> bool:
    """Whether ``exc`` is Redis refusing a write because it is at ``maxmemory``."""
    text = str(exc)
    return any(marker in text for marker in _FULL_MARKERS)


class Outage:
    def __init__(self, timeout: float, where: str = "Redis", stats: Any = None) -> None:
        self.timeout = timeout
        self.where = where
        self.stats = stats
        self.since: float | None = None  # when the current outage began (monotonic)
        self.failures = 0  # failed commands in the current outage
        self.outages = 0
        self.full = False  # the current outage is Redis at maxmemory, not unreachable

    @property
    def down(self) -> bool:
        return self.since is not None

    def failed(self, exc: BaseException, now: float) -> None:
        """A Redis command failed."""
        if self.stats is not None:
            self.stats.inc_value("webrobot/redis/error_count")
        self.failures += 1
        full = is_full(exc)
        if full and self.stats is not None:
            self.stats.inc_value("webrobot/redis/full")
        if self.since is None:
            self.since = now
            self.outages += 1
            self.full = full
            if self.stats is not None:
                self.stats.inc_value("webrobot/redis/outages")
            if full:
                logger.warning(
                    "Redis at %s is full (maxmemory, writes refused: %s): no request starts "
                    "until memory is freed; retrying with backoff, giving up after %s s",
                    self.where, exc, f"{self.timeout:g}" if self.timeout > 0 else "never",
                )  # fmt: skip
                return
            logger.warning(
                "Redis at %s cannot be reached (%s): no request starts until it is back; "
                "retrying with backoff, giving up after %s s",
                self.where, exc, f"{self.timeout:g}" if self.timeout > 0 else "never",
            )  # fmt: skip

    def succeeded(self, now: float) -> None:
        """A Redis command succeeded."""
        if self.since is None:
            return
        away = now - self.since
        self.since, self.failures = None, 0
        if self.stats is not None:
            self.stats.max_value("webrobot/redis/outage_max_seconds", round(away, 3))
        if self.full:
            logger.info(
                "Redis at %s takes writes again after %.1f s full: the crawl goes on",
                self.where, away,
            )  # fmt: skip
        else:
            logger.info("Redis at %s is back after %.1f s: the crawl goes on", self.where, away)
        self.full = False

    def retry_in(self) -> float:
        """How long to wait before trying again (grows with the failures)."""
        return min(RETRY_MAX, RETRY_FIRST * 2 ** min(max(self.failures - 1, 0), 16))

    def given_up(self, now: float) -> bool:
        """Has Redis been away longer than the timeout (0: never give up)?"""
        return self.since is not None and self.timeout > 0 and now - self.since >= self.timeout

    def message(self, now: float) -> str:
        away = now - self.since if self.since is not None else 0.0
        state = "full (maxmemory)" if self.full else "unreachable"
        return (
            f"Redis at {self.where} {state} for {away:.0f} s "
            f"(WEBROBOT_REDIS_OUTAGE_TIMEOUT={self.timeout:g}): closing this worker"
        )


#: The worker's one :class:`Outage` (the live metrics, a floor below, find it by this name).
OUTAGE = Key[Outage]("webrobot.distributed.outage")


def outage_of(crawler: Any) -> Outage:
    """The worker's one :class:`Outage` (made on first use)."""
    return per_crawler(crawler, OUTAGE, _made)


def _made(crawler: Any) -> Outage:
    from webrobot.distributed.keys import safe_url  # no Scrapy there either

    settings = crawler.settings
    return Outage(
        read(settings, "WEBROBOT_REDIS_OUTAGE_TIMEOUT"),
        safe_url(read(settings, "WEBROBOT_REDIS_URL")),
        crawler.stats,
    )
