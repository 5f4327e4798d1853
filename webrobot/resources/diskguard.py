"""The disk guard: pause the crawl before a folder it writes fills up, and close it
cleanly when a write fails anyway.

:class:`DiskGuard` (an extension) reads the free space of every folder the crawl
writes (``JOBDIR``, ``WEBROBOT_WARC_DIR``, the full-text index, the local feeds'
folders, the report folder, ``WEBROBOT_MONITOR_DIR``) with ``os.statvfs`` every
``WEBROBOT_DISK_CHECK_INTERVAL`` seconds. Below the threshold
(``WEBROBOT_DISK_MIN_FREE_MB``, ``WEBROBOT_DISK_MIN_FREE_FRACTION``) it pauses
Scrapy's engine: no new request leaves the frontier (nothing is dropped: they
stay queued), what is in flight finishes and is acknowledged. One WARNING says
which folder, how much is free and the threshold; one INFO line when space is
back and the crawl goes on. After ``WEBROBOT_DISK_FULL_TIMEOUT`` seconds
paused it closes the crawl with finish reason ``disk_full`` (exit status 1).
The decisions are :mod:`webrobot.job.diskspace`'s; a write that fails
anyway is :mod:`webrobot.job.diskstate`'s.
"""

from __future__ import annotations

import logging
import os
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

from scrapy import signals
from scrapy.exceptions import NotConfigured
from scrapy.utils.asyncio import create_looping_call

from webrobot.job.diskspace import MB, DiskWatch, Reading, Threshold
from webrobot.job.diskstate import STATS, disk_of
from webrobot.settingsmodel.parse import read

if TYPE_CHECKING:
    from typing import Self

    from scrapy.crawler import Crawler

logger = logging.getLogger(__name__)


def statvfs_reading(folder: str) -> Reading:
    """Free and total bytes of the file system ``folder`` is on (or will be: the
    nearest folder above it that exists)."""
    path = Path(folder).absolute()
    while not path.exists() and path != path.parent:
        path = path.parent
    st = os.statvfs(path)
    return Reading(folder, st.f_bavail * st.f_frsize, st.f_blocks * st.f_frsize)


def crawl_folders(crawler: Crawler) -> list[str]:
    """Every folder the crawl writes: JOBDIR, the WARC folder, the full-text index,
    the local feeds' folders, the report folder, the monitor's folder (those that
    apply), one per file system."""
    from scrapy.utils.job import job_dir

    from webrobot.frontier.journal import local_feed_paths
    from webrobot.report.document import report_location

    settings = crawler.settings
    spider = crawler.spider
    job = str(getattr(spider, "_job", "") or "")
    feeds = [str(uri) for uri in settings.getdict("FEEDS")]
    folders: list[str] = []
    jobdir = job_dir(settings)
    if jobdir:
        folders.append(jobdir)
    warc = read(settings, "WEBROBOT_WARC_DIR")
    if warc:
        folders.append(warc)
    if read(settings, "WEBROBOT_INDEX_ENABLED"):
        from webrobot.search.extension import index_path

        folders.append(str(index_path(read(settings, "WEBROBOT_INDEX"), feeds, job)))
    folders += [os.path.dirname(path) for path in local_feed_paths(settings.getdict("FEEDS"))]
    if read(settings, "WEBROBOT_REPORT_ENABLED"):
        folders.append(report_location(read(settings, "WEBROBOT_REPORT_DIR") or "", feeds, job)[0])
    monitor = read(settings, "WEBROBOT_MONITOR_DIR")
    if monitor:
        folders.append(monitor)
    for name in read(settings, "WEBROBOT_DISK_PATHS"):
        folders.append(str(name))
    unique: dict[str, None] = {}
    for folder in folders:
        unique.setdefault(os.path.abspath(folder or "."), None)
    return list(unique)


class DiskGuard:
    """Pauses the crawl before a folder it writes fills up, and closes it cleanly when a write
    fails."""

    def __init__(self, crawler: Crawler) -> None:
        settings = crawler.settings
        if not read(settings, "WEBROBOT_DISK_GUARD_ENABLED"):
            raise NotConfigured("WEBROBOT_DISK_GUARD_ENABLED is off")
        self.crawler = crawler
        self.interval = max(read(settings, "WEBROBOT_DISK_CHECK_INTERVAL"), 0.05)
        self.watch = DiskWatch(
            Threshold(
                int(read(settings, "WEBROBOT_DISK_MIN_FREE_MB") * MB),
                read(settings, "WEBROBOT_DISK_MIN_FREE_FRACTION"),
            ),
            read(settings, "WEBROBOT_DISK_FULL_TIMEOUT"),
        )
        self.state = disk_of(crawler)
        self.folders: list[str] = []
        self.task: Any = None
        self._unreadable: set[str] = set()
        crawler.signals.connect(self.spider_opened, signal=signals.spider_opened)
        crawler.signals.connect(self.spider_closed, signal=signals.spider_closed)

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> Self:
        return cls(crawler)

    def spider_opened(self) -> None:
        self.folders = crawl_folders(self.crawler)
        assert self.crawler.stats is not None
        self.crawler.stats.set_value(STATS + "paused", 0)
        logger.debug("Disk guard watching %s", ", ".join(self.folders))
        self.check()
        self.task = create_looping_call(self.check)
        self.task.start(self.interval, now=False)

    def spider_closed(self) -> None:
        if self.task is not None and self.task.running:
            self.task.stop()
        now = time.monotonic()
        stats = self.crawler.stats
        assert stats is not None
        if self.watch.pauses:
            stats.set_value(STATS + "paused_seconds", round(self.watch.total_paused(now), 3))

    def readings(self) -> list[Reading]:
        out = []
        for folder in self.folders:
            try:
                out.append(statvfs_reading(folder))
            except OSError as exc:
                if folder not in self._unreadable:
                    self._unreadable.add(folder)
                    logger.warning("Disk guard cannot read the free space of %s: %s", folder, exc)
        return out

    def check(self) -> None:
        readings = self.readings()
        stats = self.crawler.stats
        assert stats is not None
        if readings:
            stats.set_value(STATS + "free_bytes", min(r.free for r in readings))
        now = time.monotonic()
        decision = self.watch.check(readings, now)
        engine = self.crawler.engine
        if decision.action == "pause" and decision.reading is not None:
            logger.warning(self.watch.pause_message(decision.reading))
            stats.set_value(STATS + "paused", 1)
            stats.inc_value(STATS + "pauses")
            if engine is not None and not engine.paused:
                engine.pause()
                self.state.paused_by_guard = True
        elif decision.action == "resume":
            logger.info(
                "Disk space is back (%s): the crawl goes on after %.1f s paused",
                ", ".join(f"{r.folder} {r.free // MB} MB free" for r in readings),
                decision.paused_for,
            )
            stats.set_value(STATS + "paused_seconds", round(self.watch.paused_seconds, 3))
            if self.state.failed:
                return  # closing: stays paused
            stats.set_value(STATS + "paused", 0)
            if engine is not None and self.state.paused_by_guard:
                self.state.paused_by_guard = False
                engine.unpause()
                slot = getattr(engine, "_slot", None)
                if slot is not None:
                    slot.nextcall.schedule()
        elif (
            decision.action == "give_up" and decision.reading is not None and not self.state.failed
        ):
            logger.error(self.watch.give_up_message(decision.reading, decision.paused_for))
            self.state.failed = f"low free space in {decision.reading.folder}"
            stats.set_value(STATS + "failed", self.state.failed)
            self.state.close_crawl()
        if self.watch.paused and engine is not None and not engine.paused:
            engine.pause()  # unpaused by another component while space is still low
            self.state.paused_by_guard = True
