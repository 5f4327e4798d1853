"""A diagnostic extension for benchmark crawls: every ``BENCH_PROBE_INTERVAL``
seconds it appends one JSON line to ``BENCH_PROBE_FILE`` with the process's RSS
and what the engine holds (requests in the scheduler, responses in the
scraper, requests in the downloader), to see where memory goes.

``python -m benchmarks.run --probe`` adds it to both crawlers through
``EXTENSIONS_BASE`` (so the project's own ``EXTENSIONS`` stay as they are).
"""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

from scrapy import signals
from scrapy.exceptions import NotConfigured
from scrapy.utils.asyncio import AsyncioLoopingCall

if TYPE_CHECKING:
    from typing import Self

    from scrapy.crawler import Crawler


def rss_kb() -> int:
    try:
        with open("/proc/self/statm") as handle:
            pages = int(handle.read().split()[1])
    except OSError:
        return 0
    import resource

    return pages * resource.getpagesize() // 1024


class EngineProbe:
    def __init__(self, crawler: Crawler) -> None:
        path = crawler.settings.get("BENCH_PROBE_FILE")
        if not path:
            raise NotConfigured("BENCH_PROBE_FILE is not set")
        self.crawler = crawler
        self.path = Path(path)
        self.interval = crawler.settings.getfloat("BENCH_PROBE_INTERVAL", 1.0)
        self.started = time.monotonic()
        self.handle: Any = None
        self.task = AsyncioLoopingCall(self.sample)
        crawler.signals.connect(self.opened, signal=signals.spider_opened)
        crawler.signals.connect(self.closed, signal=signals.spider_closed)

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> Self:
        return cls(crawler)

    def opened(self) -> None:
        self.handle = open(self.path, "w", encoding="utf-8")  # noqa: SIM115 (closed in closed())
        self.task.start(self.interval)

    def closed(self) -> None:
        if self.task.running:
            self.task.stop()
        self.sample()
        self.handle.close()

    def sample(self) -> None:
        engine = self.crawler.engine
        row: dict[str, Any] = {"t": round(time.monotonic() - self.started, 2), "rss_kb": rss_kb()}
        if engine is not None:
            slot = getattr(engine, "_slot", None)
            scheduler = getattr(slot, "scheduler", None)
            try:
                row["scheduled"] = len(scheduler) if scheduler is not None else None
            except TypeError:
                row["scheduled"] = None
            scraper = engine.scraper.slot
            if scraper is not None:
                row["scraper_queue"] = len(scraper.queue)
                row["scraper_active"] = len(scraper.active)
                row["scraper_bytes"] = scraper.active_size
            row["downloading"] = len(engine.downloader.active)
            assert self.crawler.stats is not None
            row["pages"] = self.crawler.stats.get_value("response_received_count", 0)
        self.handle.write(json.dumps(row) + "\n")
        self.handle.flush()
