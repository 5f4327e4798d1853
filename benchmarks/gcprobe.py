"""A diagnostic extension for benchmark crawls: the time the process spends in
the cyclic garbage collector, per generation, written to ``BENCH_GC_FILE``
(JSON, ``gc.json`` in the crawl's folder) when the spider closes.

``python -m benchmarks.run --probe`` adds it with :mod:`benchmarks.probe`.
"""

from __future__ import annotations

import gc
import json
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

from scrapy import signals
from scrapy.exceptions import NotConfigured

if TYPE_CHECKING:
    from typing import Self

    from scrapy.crawler import Crawler


class GcProbe:
    def __init__(self, crawler: Crawler) -> None:
        path = crawler.settings.get("BENCH_GC_FILE")
        if not path:
            raise NotConfigured("BENCH_GC_FILE is not set")
        self.path = Path(path)
        self.seconds = [0.0, 0.0, 0.0]
        self.collections = [0, 0, 0]
        self.collected = 0
        self._started = 0.0
        gc.callbacks.append(self._callback)
        crawler.signals.connect(self.spider_closed, signal=signals.spider_closed)

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> Self:
        return cls(crawler)

    def _callback(self, phase: str, info: dict[str, Any]) -> None:
        if phase == "start":
            self._started = time.process_time()
            return
        generation = info["generation"]
        self.seconds[generation] += time.process_time() - self._started
        self.collections[generation] += 1
        self.collected += info["collected"]

    def spider_closed(self) -> None:
        gc.callbacks.remove(self._callback)
        self.path.write_text(json.dumps({
            "gc_seconds": self.seconds, "collections": self.collections,
            "collected": self.collected, "thresholds": gc.get_threshold(),
            "frozen": gc.get_freeze_count(), "tracked": len(gc.get_objects()),
        }), "utf-8")  # fmt: skip
