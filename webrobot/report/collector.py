"""Scrapy glue that feeds a crawl's :class:`~webrobot.report.model.CrawlTally`.

One collector per crawler (:meth:`ReportCollector.of`), shared by the progress
and report extensions and the two downloader-middleware taps. It listens to:

* Scrapy's signals: ``request_scheduled``, ``request_dropped``,
  ``request_reached_downloader``, ``request_left_downloader``,
  ``response_downloaded`` (raw status and size, 304s), ``response_received``
  (robots.txt outcome), ``robots_parsed``, ``item_scraped``, ``item_dropped``,
  ``spider_error``;
* webrobot's (:mod:`webrobot.signals`): ``request_refused``,
  ``robots_resolved``, ``site_deferred``, ``page_flagged``;
* :class:`webrobot.middlewares.report.FrontierTapMiddleware` (first downloader
  middleware: a request left the scheduler; an ``IgnoreRequest`` that did not go
  through the Refuser) and :class:`~webrobot.middlewares.report.DownloadErrorTapMiddleware`
  (last one: every download exception, retried or not).
"""

from __future__ import annotations

import logging
import time
from typing import TYPE_CHECKING, Any, ClassVar
from weakref import WeakKeyDictionary, WeakSet

from itemadapter import ItemAdapter
from scrapy import signals as scrapy_signals
from scrapy.exceptions import IgnoreRequest
from scrapy.utils.httpobj import urlparse_cached

from webrobot import compat, signals
from webrobot.report.model import (
    CrawlTally,
    ignored_reason,
    is_robots_fetch,
    summarise_robots,
)
from webrobot.settings_model import read
from webrobot.sitekey import site_key

if TYPE_CHECKING:
    from scrapy import Request
    from scrapy.crawler import Crawler
    from scrapy.http import Response
    from scrapy.settings import BaseSettings
    from twisted.python.failure import Failure

logger = logging.getLogger(__name__)

#: request meta: set while a request waits in the scheduler
FRONTIER_KEY = "_report_frontier"


def collector_wanted(settings: BaseSettings) -> bool:
    return bool(read(settings, "WEBROBOT_REPORT_ENABLED") or read(settings, "WEBROBOT_PROGRESS_INTERVAL") > 0)


def _is_robots(request: Request) -> bool:
    return is_robots_fetch(urlparse_cached(request).path, request.meta)


def _signal_site(site: str | None, info: dict[str, Any]) -> str | None:
    """The site a webrobot signal is about: its ``site``, else its request's."""
    if site:
        return site
    request = info.get("request")
    return site_key(request.url) if request is not None else None


def _robots_site(request: Request) -> str:
    """The site whose robots.txt this is (before any redirect)."""
    first = (request.meta.get("redirect_urls") or [request.url])[0]
    return site_key(first)


class ReportCollector:
    _by_crawler: ClassVar[WeakKeyDictionary[Crawler, ReportCollector]] = WeakKeyDictionary()

    @classmethod
    def of(cls, crawler: Crawler) -> ReportCollector:
        collector = cls._by_crawler.get(crawler)
        if collector is None:
            collector = cls._by_crawler[crawler] = cls(crawler)
        return collector

    def __init__(self, crawler: Crawler) -> None:
        self.crawler = crawler
        self.tally = CrawlTally()
        self.started_mono = time.monotonic()
        self.started_wall = time.time()
        self._refused: WeakSet[Request] = WeakSet()
        connect = crawler.signals.connect
        connect(self.spider_opened, signal=scrapy_signals.spider_opened)
        connect(self.request_scheduled, signal=scrapy_signals.request_scheduled)
        connect(self.request_dropped, signal=scrapy_signals.request_dropped)
        connect(self.request_reached_downloader, signal=scrapy_signals.request_reached_downloader)
        connect(self.request_left_downloader, signal=scrapy_signals.request_left_downloader)
        connect(self.response_downloaded, signal=scrapy_signals.response_downloaded)
        connect(self.response_received, signal=scrapy_signals.response_received)
        connect(self.robots_parsed, signal=compat.robots_parsed)
        connect(self.item_scraped, signal=scrapy_signals.item_scraped)
        connect(self.item_dropped, signal=scrapy_signals.item_dropped)
        connect(self.spider_error, signal=scrapy_signals.spider_error)
        connect(self.request_refused, signal=signals.request_refused)
        connect(self.robots_resolved, signal=signals.robots_resolved)
        connect(self.site_deferred, signal=signals.site_deferred)
        connect(self.page_flagged, signal=signals.page_flagged)

    def now(self) -> float:
        """Seconds since the spider opened."""
        return time.monotonic() - self.started_mono

    # -- Scrapy's signals ----------------------------------------------------
    def spider_opened(self) -> None:
        self.started_mono = time.monotonic()
        self.started_wall = time.time()

    def request_scheduled(self, request: Request) -> None:
        if request.meta.get(FRONTIER_KEY):
            return  # scheduled again without leaving the frontier: held for robots.txt, released
        self.tally.scheduled(site_key(request.url))
        request.meta[FRONTIER_KEY] = True

    def request_dropped(self, request: Request) -> None:
        request.meta.pop(FRONTIER_KEY, None)
        self.tally.filtered(site_key(request.url))

    def request_reached_downloader(self, request: Request) -> None:
        self.tally.reached_downloader(site_key(request.url), _is_robots(request))

    def request_left_downloader(self, request: Request) -> None:
        self.tally.left_downloader(site_key(request.url), _is_robots(request), self.now())

    def response_downloaded(self, response: Response, request: Request) -> None:
        self.tally.downloaded(
            site_key(request.url), response.status, len(response.body),
            _is_robots(request), self.now(), self._slot_delay(request),
        )  # fmt: skip

    def response_received(self, response: Response, request: Request) -> None:
        if not _is_robots(request) or "cached" in response.flags:
            return
        rules = delay = None
        if 200 <= response.status < 300:
            rules, delay = summarise_robots(response.body.decode("utf-8", errors="replace"))
        self.tally.robots_response(_robots_site(request), response.status, time.time(), rules, delay)

    def robots_parsed(self, request: Request) -> None:
        self.tally.robots_parsed(site_key(request.url), self.now())

    def item_scraped(self, item: Any, response: Response | None) -> None:
        adapter = ItemAdapter(item)
        url = response.url if response is not None else str(adapter.get("url") or "")
        meta_robots = adapter.get("meta_robots") or ()
        self.tally.item_scraped(site_key(url), [str(d).lower() for d in meta_robots])

    def item_dropped(self, item: Any, response: Response | None, exception: BaseException) -> None:
        url = response.url if response is not None else str(ItemAdapter(item).get("url") or "")
        self.tally.item_dropped(site_key(url), str(exception))

    def spider_error(self, failure: Failure, response: Response | None) -> None:
        url = response.url if response is not None else ""
        self.tally.spider_error(site_key(url), type(failure.value).__name__)

    # -- webrobot's signals --------------------------------------------------
    def request_refused(self, request: Request, reason: str, site: str) -> None:
        self._refused.add(request)
        self.tally.refused(site, reason)
        self.left_scheduler(request)  # a request held for robots.txt, refused there

    def robots_resolved(self, site: str | None = None, **info: Any) -> None:
        key = _signal_site(site, info)
        if key is not None:
            self.tally.robots_resolved(key, self.now(), info)

    def site_deferred(self, site: str | None = None, **info: Any) -> None:
        """``delay`` seconds from now (``seconds`` or an epoch ``until`` also understood)."""
        key = _signal_site(site, info)
        if key is None:
            return
        delay = info.get("delay", info.get("seconds"))
        if delay is None and info.get("until") is not None:
            delay = float(info["until"]) - time.time()
        self.tally.deferred(key, self.now(), float(delay or 0.0))

    def page_flagged(self, flag: str, site: str | None = None, **info: Any) -> None:
        key = _signal_site(site, info)
        if key is not None:
            self.tally.page_flagged(key, flag)

    # -- the taps --------------------------------------------------------------
    def left_scheduler(self, request: Request) -> None:
        if request.meta.pop(FRONTIER_KEY, False):
            self.tally.dequeued(site_key(request.url))

    def page_failed(self, url: str, reason: str) -> None:
        """A page request failed for good (:mod:`webrobot.middlewares.failures`)."""
        self.tally.page_failed(site_key(url), url, reason)

    def ignored(self, request: Request, exception: IgnoreRequest) -> None:
        """An IgnoreRequest came out of the downloader middlewares."""
        if request in self._refused or _is_robots(request):
            return
        self.tally.refused(site_key(request.url), ignored_reason(str(exception)))

    def download_error(self, request: Request, exception: BaseException) -> None:
        if isinstance(exception, IgnoreRequest):
            return
        self.tally.download_error(
            site_key(request.url), type(exception).__name__, _is_robots(request)
        )

    # -- helpers ---------------------------------------------------------------
    def _slot_delay(self, request: Request) -> float | None:
        key = request.meta.get("download_slot")
        if key is None:
            return None
        slot = self.crawler.engine.downloader.slots.get(key)
        return None if slot is None else float(slot.delay)
