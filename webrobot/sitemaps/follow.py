"""Scrapy glue for sitemaps: the request that fetches one, and the requests
made from its entries.

A sitemap's URLs are plain requests to the spider's page callback, so they go
through every rule a link goes through (scope, blocklist, trap and template
rules, robots.txt, budgets, duplicates). An entry's ``lastmod``,
``changefreq`` and ``priority`` travel in the request's meta
(``sitemap_lastmod``, ``sitemap_changefreq``, ``sitemap_priority``) for the
priority and freshness rules. A sitemap index's entries are fetched as
sitemaps in turn.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any

from scrapy import Request

from webrobot import signals
from webrobot.settingsmodel.parse import read
from webrobot.sitemaps.reader import INDEX, read_sitemap

if TYPE_CHECKING:
    from scrapy.crawler import Crawler
    from scrapy.http import Response

logger = logging.getLogger(__name__)

SITEMAP_KEY = signals.SITEMAP_META


def _limits(crawler: Crawler) -> tuple[int, int]:
    settings = crawler.settings
    return read(settings, "WEBROBOT_SITEMAP_MAX_URLS"), read(settings, "WEBROBOT_SITEMAP_MAX_BYTES")


def sitemap_request(
    crawler: Crawler, url: str, callback: Callable[..., Any], source: str
) -> Request:
    """The request for a sitemap found in ``source`` ("robots", "config" or "index")."""
    assert crawler.stats is not None
    crawler.stats.inc_value(f"webrobot/sitemap/found/{source}")
    _, max_bytes = _limits(crawler)
    meta: dict[str, Any] = {SITEMAP_KEY: source}
    if max_bytes:
        meta["download_maxsize"] = max_bytes  # the protocol's 50 MB, above DOWNLOAD_MAXSIZE
    return Request(url, callback=callback, meta=meta)


def sitemap_links(
    crawler: Crawler,
    response: Response,
    page_callback: Callable[..., Any],
    sitemap_callback: Callable[..., Any],
) -> Iterator[Request]:
    stats = crawler.stats
    assert stats is not None
    max_urls, max_bytes = _limits(crawler)
    read = read_sitemap(response.body, max_urls, max_bytes)
    if read.problem:
        stats.inc_value(f"webrobot/sitemap/bad/{read.problem}")
        logger.warning("Sitemap %s skipped: %s", response.url, read.problem.replace("_", " "))
        return
    stats.inc_value(f"webrobot/sitemap/read/{read.kind}")
    if read.xml_errors:
        stats.inc_value("webrobot/sitemap/xml_recovered")
        logger.info("Sitemap %s has XML errors; read what could be read", response.url)
    if read.skipped:
        stats.inc_value("webrobot/sitemap/entry_without_loc", read.skipped)
    if read.truncated:
        stats.inc_value("webrobot/sitemap/truncated")
        logger.warning(
            "Sitemap %s lists more than %d URLs (WEBROBOT_SITEMAP_MAX_URLS); the rest is ignored",
            response.url, max_urls,
        )  # fmt: skip
    for entry in read.entries:
        try:
            url = response.urljoin(entry.url)
            if read.kind == INDEX:
                yield sitemap_request(crawler, url, sitemap_callback, "index")
            else:
                stats.inc_value("webrobot/sitemap/urls")
                yield Request(url, callback=page_callback, meta=entry.meta())
        except ValueError:
            stats.inc_value("webrobot/sitemap/bad_url")
