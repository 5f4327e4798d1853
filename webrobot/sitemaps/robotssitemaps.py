"""Crawl the sitemaps that robots.txt names (``Sitemap:`` lines).

Listens to Scrapy's ``robots_parsed`` signal and schedules each sitemap URL it
has not scheduled before, with the spider's ``parse_sitemap`` callback; the
sitemap fetch and its URLs then obey every rule (scope, robots.txt, traps).
Off with ``WEBROBOT_SITEMAPS_ENABLED = False``; a site config's ``sitemaps``
list is read by the spider itself.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any
from urllib.parse import urljoin

from scrapy import signals
from scrapy.exceptions import NotConfigured

from webrobot.settingsmodel.parse import read
from webrobot.sitemaps.follow import sitemap_request
from webrobot.urls.sitekey import site_key

if TYPE_CHECKING:
    from typing import Self

    from scrapy import Request
    from scrapy.crawler import Crawler

logger = logging.getLogger(__name__)

#: sitemap URLs remembered so that a robots.txt re-fetch does not schedule them again
REMEMBERED = 100_000


def robots_sitemaps(parser: Any) -> list[str]:
    """The ``Sitemap:`` URLs a robots.txt parser read (webrobot's, or Protego's)."""
    rules = getattr(parser, "rules", None)
    found = getattr(rules, "sitemaps", None)
    if found is None:
        protego = getattr(parser, "rp", None)
        found = getattr(protego, "sitemaps", None)
    try:
        return [str(url) for url in found or ()]
    except TypeError:
        return []


class RobotsSitemaps:
    """Crawls the sitemaps that robots.txt names."""

    def __init__(self, crawler: Crawler) -> None:
        if not read(crawler.settings, "WEBROBOT_SITEMAPS_ENABLED"):
            raise NotConfigured("WEBROBOT_SITEMAPS_ENABLED is off")
        self.crawler = crawler
        self.scheduled: set[str] = set()
        crawler.signals.connect(self.robots_parsed, signal=signals.robots_parsed)

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> Self:
        return cls(crawler)

    def robots_parsed(self, robotparser: Any, request: Request) -> None:
        spider = self.crawler.spider
        callback = getattr(spider, "parse_sitemap", None)
        if callback is None or self.crawler.engine is None:
            return
        base = site_key(request.url) + "/robots.txt"
        for found in robots_sitemaps(robotparser):
            url = urljoin(base, found.strip())
            if url in self.scheduled:
                continue
            if len(self.scheduled) >= REMEMBERED:
                self.scheduled.clear()
            self.scheduled.add(url)
            try:
                sitemap = sitemap_request(self.crawler, url, callback, "robots")
            except ValueError:
                assert self.crawler.stats is not None
                self.crawler.stats.inc_value("webrobot/sitemap/bad_url")
                continue
            logger.debug("Sitemap from the robots.txt of %s: %s", site_key(request.url), url)
            self.crawler.engine.crawl(sitemap)
