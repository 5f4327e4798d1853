"""Where every writer of the crawl reports a write that failed for want of space.

:class:`DiskState` (one per crawler, :func:`disk_of`) hears of each write that
failed with ``ENOSPC``, ``EDQUOT`` or ``EIO``: from the frontier database, the
job journal's feed flush, the feed exporter, the WARC writer, the index spool
and the index process, the spider state. The first report logs one ERROR line,
*freezes* the crash-safe frontier (nothing more is committed: a page whose
item, archive record or index record may not have been written stays pending,
and a resumed job fetches it again), pauses the engine and closes the crawl
with ``disk_full`` (exit status 1). Every report is counted
(``webrobot/disk/write_error``, ``webrobot/disk/write_error/<what>``).
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

from webrobot.compat import schedule_coro
from webrobot.job.diskspace import FINISH_REASON, describe_error, is_disk_error
from webrobot.wiring import per_crawler

if TYPE_CHECKING:
    from collections.abc import Callable

    from scrapy.crawler import Crawler

logger = logging.getLogger(__name__)

STATS = "webrobot/disk/"


class DiskState:
    """The crawl's disk trouble: reports of failed writes, and who to tell."""

    def __init__(self, crawler: Crawler) -> None:
        self.crawler = crawler
        self.failed: str = ""  # what failed first ("" while every write succeeded)
        self._on_failure: list[Callable[[], None]] = []
        self.paused_by_guard = False

    def on_failure(self, callback: Callable[[], None]) -> None:
        """Call ``callback`` (once) when a write fails for want of space."""
        self._on_failure.append(callback)
        if self.failed:
            callback()

    def write_failed(
        self, what: str, where: Any, exc: BaseException, *, close: bool = True
    ) -> bool:
        """A write of ``what`` to ``where`` failed with ``exc``. True when it is a
        disk error (handled: logged once, counted, the crawl closes unless
        ``close`` is false: the caller closes it); False for any other error,
        which the caller handles as before."""
        if not is_disk_error(exc):
            return False
        stats = self.crawler.stats
        if stats is not None:
            stats.inc_value(STATS + "write_error")
            stats.inc_value(f"{STATS}write_error/{what.replace(' ', '_')}")
        if self.failed:
            return True
        self.failed = what
        if stats is not None:
            stats.set_value(STATS + "failed", what)
        logger.error(
            "Cannot write the %s to %s: %s. Nothing that was not written is acknowledged; "
            "closing the crawl (%s). Free some space and run the same command to resume",
            what, where, describe_error(exc), FINISH_REASON,
        )  # fmt: skip
        for callback in self._on_failure:
            try:
                callback()
            except Exception:  # a component's callback: the others must run too
                logger.exception("Error while stopping the writes of the crawl")
        if close:
            self.close_crawl()
        return True

    def close_crawl(self) -> None:
        engine = self.crawler.engine
        if engine is None or getattr(engine, "spider", None) is None:
            return
        engine.pause()  # nothing new starts while the crawl closes
        slot = getattr(engine, "_slot", None)
        if slot is not None and getattr(slot, "closing", None):
            return
        if self.crawler.stats is not None:
            self.crawler.stats.set_value(STATS + "paused", 1)
        schedule_coro(engine.close_spider_async(reason=FINISH_REASON))


def disk_of(crawler: Crawler) -> DiskState:
    """The crawl's one :class:`DiskState`."""
    return per_crawler(crawler, DiskState, DiskState)
