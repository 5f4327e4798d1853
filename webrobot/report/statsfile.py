"""Write the crawl's final stats as JSON (``WEBROBOT_STATS_FILE``), for the demo
summary, tests and any tool that wants numbers rather than a log to scrape."""

from __future__ import annotations

import json
import logging
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from scrapy import signals
from scrapy.exceptions import NotConfigured

from webrobot.settingsmodel.parse import read
from webrobot.settingsmodel.startup import FINISH_REASON, startup_refused

if TYPE_CHECKING:
    from typing import Self

    from scrapy import Spider
    from scrapy.crawler import Crawler

logger = logging.getLogger(__name__)


def _jsonable(value: Any) -> Any:
    if isinstance(value, datetime):
        return value.isoformat()
    if isinstance(value, int | float | str | bool) or value is None:
        return value
    return str(value)


class StatsFile:
    """Writes the crawl's final stats as JSON."""

    def __init__(self, crawler: Crawler) -> None:
        path = read(crawler.settings, "WEBROBOT_STATS_FILE")
        if not path:
            raise NotConfigured("WEBROBOT_STATS_FILE is not set")
        self.path = Path(path)
        self.crawler = crawler
        self.reason = "unknown"
        crawler.signals.connect(self.spider_closed, signal=signals.spider_closed)
        # Written at spider_closed (some failed starts never stop an engine) and
        # again when the engine stops: other components (the robots middleware's
        # held_at_close count) still add stats while the spider closes.
        crawler.signals.connect(self.engine_stopped, signal=signals.engine_stopped)
        # A crawl refused before its spider opened: no spider_closed, no engine_stopped.
        crawler.signals.connect(self.startup_refused, signal=startup_refused)

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> Self:
        return cls(crawler)

    def spider_closed(self, spider: Spider, reason: str) -> None:
        self.reason = reason
        self.engine_stopped()

    def startup_refused(self) -> None:
        self.reason = FINISH_REASON
        self.engine_stopped()

    def engine_stopped(self) -> None:
        assert self.crawler.stats is not None
        stats = {k: _jsonable(v) for k, v in self.crawler.stats.get_stats().items()}
        stats.setdefault("finish_reason", self.reason)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self.path.write_text(json.dumps(stats, indent=1, sort_keys=True), encoding="utf-8")
        logger.info("Stats written to %s", self.path)
