"""A Scrapy downloader whose slots are politeness units (hosts by default), whose
per-unit concurrency limit holds, and which decides each unit's next request
time in one place.

* Scrapy keys download slots by host name only, so two services on two ports
  of one host share one politeness slot, and a redirect to another host keeps
  the old slot in ``request.meta["download_slot"]``. Here every slot is keyed
  by the request URL's politeness unit (``WEBROBOT_POLITENESS_UNIT``,
  :mod:`webrobot.politeness.unit`): by default its host
  (:func:`webrobot.urls.sitekey.host_key`: ``http://h/`` and ``https://h/``
  are one slot, ``h:8701`` and ``h:8702`` two), or its IP address or
  registered domain; per-unit concurrency, delays and ``DOWNLOAD_SLOTS``
  entries (keyed by the unit) mean one server each. A unit's robots.txt
  delay is the longest of its origins' robots.txt files.
* Scrapy 2.19 marks a request as transferring only when its download coroutine
  starts running, so with no download delay one pass over a slot's queue sees
  a free transfer slot for every queued request and starts them all at once
  (``CONCURRENT_REQUESTS_PER_DOMAIN = 1`` let 6 of 8 requests overlap). Here the
  transfer slot is taken before the coroutine is scheduled.
* Before each request starts, the site's politeness object
  (``WEBROBOT_POLITENESS_CLASS``, :mod:`webrobot.politeness.clock`) reserves the
  start: the slot's delay (``DOWNLOAD_DELAY`` or AutoThrottle), robots.txt
  ``Crawl-delay``/``Request-rate`` (from the ``robots_resolved`` signal), the
  ``Retry-After`` of failing answers and exponential backoff while they last
  (429, 5xx, and downloads that got no response at all).
  Which source held a request back is counted
  (``webrobot/politeness/delay_source/<source>``) and logged at DEBUG when it
  changes for a site.
* ``WEBROBOT_MAX_REQUESTS_PER_SITE_PER_MINUTE = N`` (0: off) puts a floor of
  60/N seconds under every slot's delay (source ``per_minute_cap``), so no
  60-second window sees more than N requests start for one site. A throttled
  request waits in its slot's queue on the slot's timer and is never dropped.
* A politeness object that also has ``finished(site)`` (the shared one of a
  distributed crawl, which holds a site while this worker has requests to it
  in flight) is told when each download ends; if it takes ``more``, also
  whether the site's slot has more requests queued (the shared one then keeps
  its hold for the next start). One that has ``departed(site, now)``
  is told about when each request left (on the reactor's next turn), so that a
  request sent late counts from when it left.
* ``CONCURRENT_REQUESTS`` is lowered, with one warning, when the process's
  open-file limit leaves too little room for it
  (:func:`webrobot.politeness.connections.descriptor_plan`).
"""

from __future__ import annotations

import inspect
import logging
import time
from time import monotonic
from typing import TYPE_CHECKING, Any

from scrapy import signals as scrapy_signals
from scrapy.core.downloader import Downloader, Slot
from scrapy.exceptions import IgnoreRequest
from scrapy.utils.misc import build_from_crawler, load_object

from webrobot import signals
from webrobot.compat import call_later, schedule_coro, slot_randomness
from webrobot.politeness.clock import NO_RESPONSE, THROTTLE_STATUSES
from webrobot.politeness.connections import descriptor_plan
from webrobot.politeness.letgo import LetGo
from webrobot.politeness.unit import DOMAIN, HOST, PolitenessUnit, RobotsDelays
from webrobot.robots.policy import parse_retry_after
from webrobot.settingsmodel.parse import ConfigError, read
from webrobot.settingsmodel.startup import non_negative_setting, setting_error
from webrobot.urls.networkmiddleware import RESOLVED_ADDRESS
from webrobot.urls.sitekey import host_key, request_host, site_host

if TYPE_CHECKING:
    from collections.abc import Callable

    from scrapy import Request, Spider
    from scrapy.crawler import Crawler
    from scrapy.http import Response

    from webrobot.politeness.clock import Politeness

logger = logging.getLogger(__name__)
_SOURCES_REMEMBERED = 10_000  # sites whose last delay source is remembered for the log


#: Private request meta key: the slot key this downloader derived from the URL.
AUTO_SLOT_KEY = "_webrobot_slot"


def slot_key_of(url: str, settings: Any) -> str:
    """The slot a site config's ``download_delay``/``concurrency`` entry of ``DOWNLOAD_SLOTS``
    is for: the URL's politeness unit (its host under the ``ip`` unit, whose address is
    known only when a request goes out)."""
    host = host_key(url)
    if read(settings, "WEBROBOT_POLITENESS_UNIT") == DOMAIN:
        from webrobot.urls.domains import registered_domain

        return PolitenessUnit(DOMAIN, registered_domain).key(host)
    return host


def _highest(slot: Slot) -> int:
    """The index of the slot's first queued request of the highest priority: the
    scheduler's order (priorities, breadth-first within one) also holds for the
    requests that wait in a site's queue, not only for those still in the scheduler."""
    best, best_priority = 0, None
    for i, (request, _) in enumerate(slot.queue):
        if best_priority is None or request.priority > best_priority:
            best, best_priority = i, request.priority
    return best


def _pop(slot: Slot, index: int) -> tuple[Request, Any]:
    queue = slot.queue
    if index == 0:
        return queue.popleft()
    entry = queue[index]
    del queue[index]
    return entry


class SiteSlot(Slot):
    """A download slot that knows its site key (empty for a ``download_slot`` slot)."""

    __slots__ = ("key",)

    def __init__(
        self, concurrency: int, delay: float, randomness: Any = None, *, key: str = ""
    ) -> None:
        super().__init__(
            concurrency, delay, randomness
        )  # jitter (Scrapy >= 2.19) or randomize_delay
        self.key = key


class SiteDownloader(Downloader):
    def __init__(self, crawler: Crawler) -> None:
        super().__init__(crawler)
        path = read(self.settings, "WEBROBOT_POLITENESS_CLASS")
        politeness_class = load_object(path)
        self.politeness: Politeness = build_from_crawler(politeness_class, crawler)
        self._finished: Callable[..., None] | None = getattr(self.politeness, "finished", None)
        self._finished_takes_more = self._finished is not None and (
            "more" in inspect.signature(self._finished).parameters
        )
        self._departed: Callable[[str, float], None] | None = getattr(
            self.politeness, "departed", None
        )
        unit = read(self.settings, "WEBROBOT_POLITENESS_UNIT")
        domain_of = None
        if unit == DOMAIN:
            from webrobot.urls.domains import registered_domain

            domain_of = registered_domain
        self.unit = PolitenessUnit(unit, domain_of)
        self._by_host = unit == HOST
        self._addresses: dict[str, str] = {}  # host -> the address it resolved to (ip unit)
        self._robots_delays = RobotsDelays(read(self.settings, "WEBROBOT_POLITENESS_SITES"))
        throttled = read(self.settings, "AUTOTHROTTLE_ENABLED")
        self._base_source = "autothrottle" if throttled else "download_delay"
        self._last_source: dict[str, str] = {}
        try:
            per_minute = non_negative_setting(crawler, "WEBROBOT_MAX_REQUESTS_PER_SITE_PER_MINUTE")
        except ConfigError as exc:
            setting_error(crawler, exc)  # the crawl stops at start with this error
            per_minute = 0
        self.min_interval = 60.0 / per_minute if per_minute else 0.0
        #: When the crawl stops, queued requests are let go at once, those in flight soon.
        self.letgo = LetGo(crawler)
        # Connections in flight fit the open-file limit (one warning if lowered).
        descriptors = descriptor_plan(crawler)
        if descriptors.limit and 0 < descriptors.concurrency < self.total_concurrency:
            self.total_concurrency = descriptors.concurrency
        # A strong reference: called for every response, without resolving a weak one first.
        crawler.signals.connect(
            self._response_downloaded, signal=scrapy_signals.response_downloaded, weak=False
        )
        crawler.signals.connect(self._robots_resolved, signal=signals.robots_resolved)

    def unit_key(self, request: Request) -> str:
        """The politeness unit of ``request``: its host, address or registered domain."""
        if self._by_host:
            return request_host(request)
        host, address = request_host(request), request.meta.get(RESOLVED_ADDRESS)
        if address:
            if len(self._addresses) >= _SOURCES_REMEMBERED:
                self._addresses.clear()
            self._addresses[host] = address
        return self.unit.key(host, address or self._addresses.get(host))

    def get_slot_key(self, request: Request) -> str:
        """The request's politeness unit, or the ``download_slot`` meta key a spider set.

        Scrapy writes every request's slot into ``download_slot`` and redirects
        copy it, so a value equal to the one this downloader derived (kept in
        ``_webrobot_slot``) is not the spider's choice: the URL decides again."""
        meta = request.meta
        chosen = meta.get(self.DOWNLOAD_SLOT)
        if chosen is not None and chosen != meta.get(AUTO_SLOT_KEY):
            return str(chosen)
        return self.unit_key(request)

    def _get_slot(self, request: Request, spider: Spider | None = None) -> tuple[str, Slot]:
        key = self.get_slot_key(request)
        site = self.unit_key(request)
        if key == site:
            request.meta[AUTO_SLOT_KEY] = key
        if key not in self.slots:
            slot_settings = self.per_slot_settings.get(key, {})
            concurrency = slot_settings.get(
                "concurrency", self.ip_concurrency or self.domain_concurrency
            )
            delay = slot_settings.get("delay", self._delay)
            randomness = slot_randomness(self, slot_settings)
            self.slots[key] = SiteSlot(
                concurrency, delay, randomness, key=key if key == site else ""
            )
            self._start_slot_gc()
        return key, self.slots[key]

    def _process_queue(self, slot: Slot) -> None:
        if self.letgo.stopping:  # nothing more starts: what reaches a slot now is let go
            self.letgo.fail_queued()
            return
        if slot.latercall:
            return  # a timer will run this again
        slot_key = getattr(slot, "key", "")
        while slot.queue and slot.free_transfer_slots() > 0:
            # A download_slot slot may hold several sites: each still gets its
            # own politeness (robots.txt Crawl-delay, Retry-After, backoff).
            index = _highest(slot)
            key = slot_key or self.unit_key(slot.queue[index][0])
            now = monotonic()
            delay, base_source = slot.download_delay(), self._base_source
            if self.min_interval > delay:
                delay, base_source = self.min_interval, "per_minute_cap"
            wait, source = self.politeness.reserve(key, delay, base_source, now)
            if wait > 0:
                self._held_back(key, wait, source)
                slot.latercall = call_later(wait, self._latercall, slot)
                return
            slot.lastseen = now
            request, queue_dfd = _pop(slot, index)
            slot.transferring.add(request)  # taken now, not when the coroutine runs
            schedule_coro(self._wait_for_download(slot, request, queue_dfd))
            if self._departed is not None:
                call_later(0, self._request_left, key)  # about when the request is written

    async def _download(self, slot: Slot, request: Request) -> Response:
        try:
            return await self.letgo.download(super()._download(slot, request), request)
        except Exception as exc:  # any download error, noted and re-raised
            if not isinstance(exc, IgnoreRequest):  # no answer at all: the site slows down too
                key = getattr(slot, "key", "") or self.unit_key(request)
                assert self.crawler.stats is not None
                self.crawler.stats.inc_value("webrobot/politeness/throttled/no_response")
                self.politeness.note_response(key, NO_RESPONSE, None, monotonic())
            raise
        finally:
            if self._finished is not None:
                site = getattr(slot, "key", "")
                if not site:
                    self._finished(self.unit_key(request))
                elif self._finished_takes_more:
                    # A site's own slot: anything queued is more of the same site.
                    self._finished(site, bool(slot.queue))
                else:
                    self._finished(site)

    def _request_left(self, key: str) -> None:
        assert self._departed is not None
        self._departed(key, monotonic())

    def _held_back(self, key: str, wait: float, source: str) -> None:
        assert self.crawler.stats is not None
        self.crawler.stats.inc_value(f"webrobot/politeness/delay_source/{source}")
        if self._last_source.get(key) != source:
            if len(self._last_source) >= _SOURCES_REMEMBERED:
                self._last_source.clear()
            self._last_source[key] = source
            logger.debug("Next request to %s in %.2f s, set by %s", key, wait, source)

    # -- what the politeness object learns ----------------------------------
    def _response_downloaded(self, response: Response, request: Request) -> None:
        key = self.unit_key(request)
        retry_after = None
        if response.status in THROTTLE_STATUSES:
            assert self.crawler.stats is not None
            self.crawler.stats.inc_value(f"webrobot/politeness/throttled/{response.status}")
            value = response.headers.get(b"Retry-After")
            if value is not None:
                retry_after = parse_retry_after(value.decode("latin-1"), time.time())
        self.politeness.note_response(key, response.status, retry_after, monotonic())

    def _robots_resolved(
        self,
        site: str,
        crawl_delay: float | None = None,
        crawl_delay_source: str | None = None,
        **kwargs: Any,
    ) -> None:
        # ``site`` is the robots.txt's origin; its unit keeps the longest delay of its origins.
        # (The ip unit: the address the robots.txt request of that host went to.)
        unit = host = site_host(site)
        if not self._by_host:
            unit = self.unit.key(host, self._addresses.get(host))
        delay, source = self._robots_delays.set(unit, site, crawl_delay, crawl_delay_source)
        self.politeness.set_robots_delay(unit, delay, source)
