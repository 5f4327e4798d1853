"""``scrapy crawl`` with clear failures: an unknown or broken site, or a bad
spider argument, prints one line and exits with status 2 instead of a traceback."""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING

from scrapy.commands.crawl import Command as ScrapyCrawlCommand

if TYPE_CHECKING:
    import argparse

    from scrapy import Spider
    from scrapy.crawler import Crawler


class Command(ScrapyCrawlCommand):
    _crawler: Crawler | None = None

    def _create_crawler(self, spidercls: type[Spider] | str) -> Crawler:
        self._crawler = super()._create_crawler(spidercls)
        return self._crawler

    def run(self, args: list[str], opts: argparse.Namespace) -> None:
        if len(args) == 1 and self.crawler_process is not None:
            loader = self.crawler_process.spider_loader
            try:
                loader.load(args[0])
            except KeyError as exc:
                known = ", ".join(sorted(loader.list()))
                print(f"webrobot: {exc.args[0]} (known spiders: {known})", file=sys.stderr)
                self.exitcode = 2
                return
        super().run(args, opts)
        spider = getattr(self._crawler, "spider", None)
        if getattr(spider, "config_error", None) is not None:
            self.exitcode = 2
        stats = getattr(self._crawler, "stats", None)
        if stats is not None and stats.get_value("finish_reason") == "redis_unavailable":
            self.exitcode = 1  # the shared crawl's Redis could not be used
