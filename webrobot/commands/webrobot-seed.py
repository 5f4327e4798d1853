# ruff: noqa: N999 - the module name is the command name
"""``scrapy webrobot-seed SPIDER [URL ...] [--reset]``: seed, inspect or reset a
shared crawl in Redis (``WEBROBOT_REDIS_URL``).

The module name is the command name (Scrapy's rule), hence the hyphen.
"""

from __future__ import annotations

import sys
from types import SimpleNamespace
from typing import TYPE_CHECKING, Any, ClassVar

from scrapy.commands import ScrapyCommand
from scrapy.crawler import Crawler
from scrapy.exceptions import UsageError
from scrapy.spiderloader import get_spider_loader
from scrapy.utils.misc import build_from_crawler, load_object

from webrobot.commands import load_spider_class, shared_crawl_problem
from webrobot.optional import REDIS_FEATURE, require
from webrobot.sites.config import ConfigError
from webrobot.sites.values import check_url

if TYPE_CHECKING:
    import argparse


def _fail(message: str, code: int) -> int:
    print(f"webrobot-seed: {message}", file=sys.stderr)
    return code


class Command(ScrapyCommand):
    requires_project = True
    requires_crawler_process = False
    default_settings: ClassVar[dict[str, Any]] = {"LOG_ENABLED": False}

    def syntax(self) -> str:
        return "SPIDER [URL ...] [--reset]"

    def short_desc(self) -> str:
        return "Seed, inspect or reset a shared crawl in Redis (WEBROBOT_REDIS_URL)"

    def long_desc(self) -> str:
        return (
            "Queue URLs (depth 0, unless already visited) in the shared frontier of SPIDER's "
            "crawl in Redis, after deleting the whole crawl with --reset; then print what the "
            "crawl holds. Without URLs it only prints (or resets). Workers: "
            "scrapy crawl SPIDER -s WEBROBOT_REDIS_URL=... with the same settings."
        )

    def add_options(self, parser: argparse.ArgumentParser) -> None:
        super().add_options(parser)
        parser.add_argument(
            "--reset", action="store_true",
            help="delete the crawl's frontier, leases and visited set first",
        )  # fmt: skip
        parser.add_argument(
            "--forget-monitor", action="store_true",
            help="with --reset: also delete the monitor's snapshots, events, outbox and dead letters",
        )  # fmt: skip

    def run(self, args: list[str], opts: argparse.Namespace) -> None:
        if not args:
            raise UsageError("name the spider whose crawl to seed")
        if opts.forget_monitor and not opts.reset:
            raise UsageError("--forget-monitor goes with --reset")
        self.exitcode = self._run(args[0], args[1:], opts.reset, opts.forget_monitor)

    def _run(
        self, spider_name: str, raw_urls: list[str], reset: bool, forget_monitor: bool = False
    ) -> int:
        assert self.settings is not None
        spidercls, problem = load_spider_class(get_spider_loader(self.settings), spider_name)
        if spidercls is None:
            return _fail(problem, 2)
        try:
            urls = [check_url(url, "command line", "URL") for url in raw_urls]
        except ConfigError as exc:
            return _fail(str(exc), 2)
        crawler = Crawler(spidercls, self.settings)  # applies the spider's (site config's) settings
        settings = crawler.settings
        redis_problem = shared_crawl_problem(settings)
        if redis_problem:
            return _fail(redis_problem, 2)
        crawler.addons.load_settings(
            settings
        )  # webrobot.Addon's defaults, as the workers have them
        redis = require("redis", "redis", REDIS_FEATURE)  # shared_crawl_problem looked
        from webrobot.distributed.crawlstate import crawl_status, reset_crawl, seed_crawl
        from webrobot.distributed.dupefilter import RedisVisitedFilter
        from webrobot.distributed.frontier import LeasedFrontier
        from webrobot.distributed.keys import CrawlKeys, explain, redis_from_settings, safe_url

        crawler.request_fingerprinter = build_from_crawler(
            load_object(settings["REQUEST_FINGERPRINTER_CLASS"]), crawler
        )
        keys = CrawlKeys.from_settings(settings, spidercls.name)
        where = f"{keys.prefix} at {safe_url(settings['WEBROBOT_REDIS_URL'])}"
        server = redis_from_settings(settings)
        try:
            server.ping()
            if reset:
                print(
                    f"Reset {where}: deleted {reset_crawl(server, keys, monitor=forget_monitor)} keys"
                )
            visited = RedisVisitedFilter(crawler)
            visited.open()
            # Seeds have no callback (the spider's parse), so no spider instance is needed.
            frontier = LeasedFrontier(server, SimpleNamespace(name=spidercls.name), keys)  # type: ignore[arg-type]
            if urls:
                queued = seed_crawl(frontier, visited, urls)
                print(
                    f"Seeded {where}: {queued} of {len(urls)} URLs queued (the others were visited or queued already)"
                )
            print(f"Crawl {where}: {crawl_status(frontier, visited)}")
            visited.close()
        except (redis.RedisError, ValueError) as exc:
            return _fail(f"cannot use {where}: {explain(exc)}", 1)
        finally:
            server.close()
        return 0
