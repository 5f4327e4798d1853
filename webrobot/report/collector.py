"""Scrapy glue that feeds a crawl's :class:`~webrobot.report.model.CrawlTally`.

One collector per crawler (:meth:`ReportCollector.of`), shared by the progress
and report extensions and the two downloader-middleware taps. It listens to:

* Scrapy's signals: ``request_scheduled``, ``request_dropped``,
  ``request_reached_downloader``, ``request_left_downloader``,
  ``response_downloaded`` (raw status and size, 304s), ``response_received``
  (what the engine hands on, as ``CLOSESPIDER_PAGECOUNT`` counts), ``robots_parsed``,
  ``item_scraped``, ``item_dropped``, ``spider_error``;
* webrobot's (:mod:`webrobot.signals`): ``request_refused``,
  ``robots_resolved``, ``site_deferred``, ``held_sites_only``, ``page_flagged``,
  ``request_shared``;
* the crawl's dead hosts (:meth:`webrobot.urls.deadhosts.DeadHosts.listen`): a host
  given up, or failed once, as dead (:mod:`webrobot.report.givenup`);
* :class:`webrobot.report.taps.FrontierTapMiddleware` (first downloader
  middleware: a request left the scheduler; an ``IgnoreRequest`` that did not go
  through the Refuser) and :class:`~webrobot.report.taps.DownloadErrorTapMiddleware`
  (last one: every download exception, retried or not).

What it knows of robots.txt comes from the robots.txt middleware: its
decisions (``robots_resolved``, ``site_deferred``) and the mark it puts on each
robots.txt request it sends (:data:`webrobot.signals.ROBOTS_FETCH_META`, the
site whose robots.txt it is, redirect hops included). Nothing is read from the
bodies downloaded (but the first bytes of one whose declared type says nothing,
for a PDF's signature), and no URL is taken for a robots.txt by its path.

Each fetch is counted by kind (page, image, document, other requisite, sitemap,
robots.txt: :func:`webrobot.report.kinds.fetch_kind`), in the tally and in the
stats (``webrobot/requests/<kind>``: sent, each retry and redirect hop, what a
server sees; ``webrobot/responses/<kind>``: handed on by the engine).

Every handler here runs once or more per request, so each is a few
dictionary look-ups: the site key of a request is computed once
(:func:`webrobot.urls.sitekey.request_site`).
"""

from __future__ import annotations

import logging
import time
from collections import Counter
from functools import partial
from typing import TYPE_CHECKING, Any
from weakref import WeakKeyDictionary, WeakSet

from itemadapter import ItemAdapter
from scrapy import signals as scrapy_signals
from scrapy.exceptions import IgnoreRequest

from webrobot import compat, signals
from webrobot.report.budget import LimitReached
from webrobot.report.kinds import fetch_kind
from webrobot.report.model import CrawlTally, ignored_reason
from webrobot.settingsmodel.parse import read
from webrobot.urls.deadhosts import DeadHosts
from webrobot.urls.sitekey import request_site, site_key
from webrobot.wiring import per_crawler

if TYPE_CHECKING:
    from scrapy import Request
    from scrapy.crawler import Crawler
    from scrapy.http import Response
    from scrapy.settings import BaseSettings
    from twisted.python.failure import Failure

logger = logging.getLogger(__name__)

#: request meta: set while a request waits in this worker's scheduler
FRONTIER_KEY = signals.REPORT_FRONTIER_META
ROBOTS_FETCH = signals.ROBOTS_FETCH_META
#: Stats keys of the fetches of each kind (webrobot.report.kinds), the kind last.
REQUESTS_STAT = "webrobot/requests/"
RESPONSES_STAT = "webrobot/responses/"


def waiting_requests(crawler: Crawler, tally: CrawlTally) -> int:
    """Requests waiting in the scheduler: Scrapy's own count when the scheduler has
    one, else the report's. The progress line and the live status page say the same."""
    scheduler = compat.engine_scheduler(crawler.engine)
    try:
        return len(scheduler)  # type: ignore[arg-type]
    except TypeError:
        return tally.frontier()


def collector_wanted(settings: BaseSettings) -> bool:
    return bool(
        read(settings, "WEBROBOT_REPORT_ENABLED")
        or read(settings, "WEBROBOT_PROGRESS_INTERVAL") > 0
    )


def _site_of(request: Request) -> tuple[str, bool]:
    """(site, is a robots.txt fetch): a robots.txt request counts for the site
    whose robots.txt it is, wherever a redirect took it."""
    robots_site = request.meta.get(ROBOTS_FETCH)
    if robots_site:
        return str(robots_site), True
    return request_site(request), False


def _kind(request: Request, response: Response | None = None) -> str:
    """The fetch's kind; a response's declared type tells a document."""
    if response is None:
        return fetch_kind(request.meta, request.url)
    return fetch_kind(
        request.meta, request.url, response.headers.get(b"Content-Type") or b"", response.body
    )


def _signal_site(site: str | None, info: dict[str, Any]) -> str | None:
    """The site a webrobot signal is about: its ``site``, else its request's."""
    if site:
        return site
    request = info.get("request")
    return request_site(request) if request is not None else None


class ReportCollector:
    @classmethod
    def of(cls, crawler: Crawler) -> ReportCollector:
        """The crawl's one collector, shared by the report's extensions."""
        return per_crawler(crawler, ReportCollector, cls)

    def __init__(self, crawler: Crawler) -> None:
        self.crawler = crawler
        self.tally = CrawlTally()
        self.started_mono = time.monotonic()
        self.started_wall = time.time()
        self._refused: WeakSet[Request] = WeakSet()
        # the kind of a request that answered, known from its response's type
        self._kinds: WeakKeyDictionary[Request, str] = WeakKeyDictionary()
        #: responses handed on by the engine, by kind (what CLOSESPIDER_PAGECOUNT counts)
        self.handed: Counter[str] = Counter()
        #: CLOSESPIDER_PAGECOUNT, when it was reached, and what was handed on after it
        self.pagecount = crawler.settings.getint("CLOSESPIDER_PAGECOUNT")
        self.pagecount_reached: LimitReached | None = None
        self.after_pagecount: Counter[str] = Counter()
        self.stats = crawler.stats
        # Held strongly: the dispatcher then calls each handler without first
        # resolving a weak reference (several times per request).
        connect = partial(crawler.signals.connect, weak=False)
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
        connect(self.held_sites_only, signal=signals.held_sites_only)
        connect(self.page_flagged, signal=signals.page_flagged)
        connect(self.left_scheduler, signal=signals.request_shared)
        dead = DeadHosts.of(crawler)
        dead.listen(lambda url, kind: self.tally.host_dead(dead.label(kind, url)))

    def now(self) -> float:
        """Seconds since the spider opened."""
        return time.monotonic() - self.started_mono

    # -- Scrapy's signals ----------------------------------------------------
    def spider_opened(self) -> None:
        self.started_mono = time.monotonic()
        self.started_wall = time.time()

    def request_scheduled(self, request: Request) -> None:
        meta = request.meta
        if meta.get(FRONTIER_KEY):
            return  # scheduled again without leaving the frontier: held for robots.txt, released
        self.tally.scheduled(request_site(request))
        meta[FRONTIER_KEY] = True

    def request_dropped(self, request: Request) -> None:
        request.meta.pop(FRONTIER_KEY, None)
        self.tally.filtered(request_site(request))

    def request_reached_downloader(self, request: Request) -> None:
        self.tally.reached_downloader(*_site_of(request))

    def request_left_downloader(self, request: Request) -> None:
        site, _ = _site_of(request)
        kind = self._kinds.pop(request, None) or _kind(request)
        self.tally.left_downloader(site, kind, self.now())
        if self.stats is not None:
            self.stats.inc_value(REQUESTS_STAT + kind)

    def response_downloaded(self, response: Response, request: Request) -> None:
        site, _ = _site_of(request)
        kind = self._kinds[request] = _kind(request, response)
        self.tally.downloaded(
            site, response.status, len(response.body), kind, self.now(), self._slot_delay(request)
        )

    def response_received(self, response: Response, request: Request) -> None:
        kind = _kind(request, response)
        self.handed[kind] += 1
        if self.pagecount:
            handed = self.handed.total()
            if handed == self.pagecount:
                self.pagecount_reached = LimitReached(self.now(), self.tally.in_downloader())
            elif handed > self.pagecount:
                self.after_pagecount[kind] += 1
        if self.stats is not None:
            self.stats.inc_value(RESPONSES_STAT + kind)

    def robots_parsed(self, request: Request) -> None:
        self.tally.robots_parsed(request_site(request), self.now())

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
        """``delay`` seconds from now (``seconds`` or an epoch ``until`` also understood);
        the failed attempt's ``status``, if it got an answer."""
        key = _signal_site(site, info)
        if key is None:
            return
        delay = info.get("delay", info.get("seconds"))
        if delay is None and info.get("until") is not None:
            delay = float(info["until"]) - time.time()
        if info.get("status") is not None:
            self.tally.robots_response(key, int(info["status"]), time.time())
        gives_up_in = info.get("gives_up_in")
        self.tally.deferred(
            key, self.now(), float(delay or 0.0), str(info.get("reason") or ""),
            None if gives_up_in is None else float(gives_up_in),
        )  # fmt: skip

    def held_sites_only(
        self, closes_in: float | None = None, active: bool = True, **info: Any
    ) -> None:
        self.tally.held_sites_only(self.now(), closes_in, active)

    def page_flagged(self, flag: str, site: str | None = None, **info: Any) -> None:
        key = _signal_site(site, info)
        if key is not None:
            self.tally.page_flagged(key, flag)

    # -- the taps --------------------------------------------------------------
    def left_scheduler(self, request: Request) -> None:
        """The request left this worker's frontier: to the downloader, or to a
        frontier shared with other workers (``request_shared``)."""
        if request.meta.pop(FRONTIER_KEY, False):
            self.tally.dequeued(request_site(request))

    def page_failed(self, url: str, reason: str) -> None:
        """A page request failed for good (:mod:`webrobot.report.failures`)."""
        self.tally.page_failed(site_key(url), url, reason)

    def ignored(self, request: Request, exception: IgnoreRequest) -> None:
        """An IgnoreRequest came out of the downloader middlewares."""
        if request in self._refused or request.meta.get(ROBOTS_FETCH):
            return
        self.tally.refused(request_site(request), ignored_reason(str(exception)))

    def download_error(self, request: Request, exception: BaseException) -> None:
        if isinstance(exception, IgnoreRequest):
            return
        site, robots = _site_of(request)
        self.tally.download_error(site, type(exception).__name__, robots)

    # -- helpers ---------------------------------------------------------------
    def _slot_delay(self, request: Request) -> float | None:
        key = request.meta.get("download_slot")
        if key is None:
            return None
        slot = self.crawler.engine.downloader.slots.get(key)
        return None if slot is None else float(slot.delay)
