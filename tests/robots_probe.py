"""A test extension that writes webrobot's robots signals as JSON lines.

Enabled in end-to-end crawls with ``EXTENSIONS={"tests.robots_probe.RobotsProbe": 0}``
and ``ROBOTS_PROBE_FILE=path``; the test reads the file after the crawl.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Any

from scrapy import signals as scrapy_signals
from scrapy.exceptions import NotConfigured

from webrobot import signals

if TYPE_CHECKING:
    from typing import Self

    from scrapy.crawler import Crawler


class RobotsProbe:
    def __init__(self, crawler: Crawler) -> None:
        path = crawler.settings.get("ROBOTS_PROBE_FILE")
        if not path:
            raise NotConfigured("ROBOTS_PROBE_FILE is not set")
        self.file = Path(path).open("a", encoding="utf-8")  # noqa: SIM115 - closed at spider_closed
        crawler.signals.connect(self.resolved, signal=signals.robots_resolved)
        crawler.signals.connect(self.deferred, signal=signals.site_deferred)
        crawler.signals.connect(self.parsed, signal=scrapy_signals.robots_parsed)
        crawler.signals.connect(self.closed, signal=scrapy_signals.spider_closed)

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> Self:
        return cls(crawler)

    def _write(self, event: str, **fields: Any) -> None:
        self.file.write(json.dumps({"event": event, **fields}) + "\n")
        self.file.flush()

    def resolved(self, **kwargs: Any) -> None:
        self._write(
            "robots_resolved", **{k: v for k, v in kwargs.items() if k not in ("signal", "sender")}
        )

    def deferred(self, **kwargs: Any) -> None:
        self._write(
            "site_deferred", **{k: v for k, v in kwargs.items() if k not in ("signal", "sender")}
        )

    def parsed(self, robotparser: Any, request: Any) -> None:
        self._write(
            "robots_parsed",
            parser=type(robotparser).__name__,
            request=getattr(request, "url", None),
        )

    def closed(self) -> None:
        self.file.close()


def read_events(path: Path) -> list[dict[str, Any]]:
    if not path.exists():
        return []
    return [json.loads(line) for line in path.read_text("utf-8").splitlines() if line]
