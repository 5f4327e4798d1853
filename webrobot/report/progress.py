"""One compact progress line every ``WEBROBOT_PROGRESS_INTERVAL`` seconds, for a
terminal or a Scrapyd job log alike (see :func:`webrobot.report.progressline.progress_line`),
and a last one, ``Progress at close:``, with the crawl's final counts."""

from __future__ import annotations

import logging
from collections import Counter
from typing import TYPE_CHECKING

from scrapy import signals
from scrapy.exceptions import NotConfigured
from scrapy.utils.asyncio import create_looping_call

from webrobot.report.collector import ReportCollector, waiting_requests
from webrobot.report.hosts import hosts_progress
from webrobot.report.progressline import ProgressPoint, held_line, progress_line
from webrobot.robots.held import duration
from webrobot.settingsmodel.parse import read
from webrobot.urls.sitekey import host_key
from webrobot.urls.upgrademiddleware import host_notes

if TYPE_CHECKING:
    from typing import Self

    from scrapy.crawler import Crawler
    from scrapy.utils.asyncio import AsyncioLoopingCall
    from twisted.internet.task import LoopingCall

logger = logging.getLogger(__name__)


class Progress:
    """Logs one compact progress line every WEBROBOT_PROGRESS_INTERVAL seconds."""

    def __init__(self, crawler: Crawler) -> None:
        self.interval = read(crawler.settings, "WEBROBOT_PROGRESS_INTERVAL")
        if self.interval <= 0:
            raise NotConfigured("WEBROBOT_PROGRESS_INTERVAL is 0")
        self.crawler = crawler
        self.collector = ReportCollector.of(crawler)
        self.notes = host_notes(crawler)
        self.task: AsyncioLoopingCall | LoopingCall | None = None
        self.last: ProgressPoint | None = None
        crawler.signals.connect(self.spider_opened, signal=signals.spider_opened)
        crawler.signals.connect(self.spider_closed, signal=signals.spider_closed)

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> Self:
        return cls(crawler)

    def spider_opened(self) -> None:
        self.last = self.point()
        self.task = create_looping_call(self.log)
        self.task.start(self.interval, now=False)

    def spider_closed(self) -> None:
        """Stop, and log the crawl's last counts (rates over the whole crawl)."""
        if self.task is not None and self.task.running:
            self.task.stop()
        current = self.point()
        tally = self.collector.tally
        start = ProgressPoint(0.0, 0, 0, Counter())
        line = progress_line(
            start, current, tally.frontier(), tally.in_downloader(), tally.states(current.at),
            label="Progress at close",
        )  # fmt: skip
        logger.info("%s", line)

    def point(self) -> ProgressPoint:
        tally = self.collector.tally
        pages, items, refused = tally.totals()
        return ProgressPoint(self.collector.now(), pages, items, refused, tally.received())

    def frontier(self) -> int:
        """Requests waiting in the scheduler (Scrapy's own count when it has one)."""
        return waiting_requests(self.crawler, self.collector.tally)

    def log(self) -> None:
        current = self.point()
        assert self.last is not None
        tally = self.collector.tally
        line = progress_line(
            self.last,
            current,
            self.frontier(),
            tally.in_downloader(),
            tally.states(current.at),
            tally.deferral_reasons(current.at),
        )
        closes_at = tally.held_only_closes_at
        held = held_line(
            tally.held(current.at),
            None if closes_at is None else max(0.0, closes_at - current.at),
            duration,
        )
        if held:
            line += f" | {held}"
        hosts = hosts_progress(len({host_key(s) for s in tally.sites}), self.notes)
        if hosts:
            line += f" | {hosts}"
        stats = self.crawler.stats
        if stats is not None and stats.get_value("webrobot/disk/paused"):
            line += " | PAUSED: low disk space"
        logger.info("%s", line)
        self.last = current
