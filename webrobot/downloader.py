"""A Scrapy downloader whose slots are sites (scheme + host + port) and whose
per-site concurrency limit holds.

* Scrapy keys download slots by host name only, so two sites on one host share
  one politeness slot, and a redirect to another host keeps the old slot in
  ``request.meta["download_slot"]``. Here every slot is keyed by
  :func:`webrobot.sitekey.site_key` of the request URL, so per-site concurrency,
  delays and ``DOWNLOAD_SLOTS`` entries mean one robots.txt site each.
* Scrapy 2.19 marks a request as transferring only when its download coroutine
  starts running, so with no download delay one pass over a slot's queue sees
  a free transfer slot for every queued request and starts them all at once
  (``CONCURRENT_REQUESTS_PER_DOMAIN = 1`` let 6 of 8 requests overlap). Here the
  transfer slot is taken before the coroutine is scheduled.
* ``WEBROBOT_MAX_REQUESTS_PER_SITE_PER_MINUTE = N`` (0: off) puts a floor of
  60/N seconds under every slot's delay, whatever DOWNLOAD_DELAY, AutoThrottle
  or Crawl-delay say, so no 60-second window sees more than N requests start
  for one site. A throttled request waits in its slot's queue on the slot's
  timer (the reactor is never blocked) and is never dropped.
"""

from __future__ import annotations

from time import monotonic
from typing import TYPE_CHECKING

from scrapy.core.downloader import Downloader, Slot
from scrapy.core.downloader import _schedule_coro  # type: ignore[attr-defined]
from scrapy.core.downloader import call_later  # type: ignore[attr-defined]
from scrapy.utils.httpobj import urlparse_cached

from webrobot.config import ConfigError
from webrobot.sitekey import site_key_from_parts
from webrobot.startup import non_negative_setting, setting_error

if TYPE_CHECKING:
    from scrapy import Request
    from scrapy.crawler import Crawler


class SiteDownloader(Downloader):
    def __init__(self, crawler: Crawler) -> None:
        super().__init__(crawler)
        try:
            per_minute = non_negative_setting(crawler, "WEBROBOT_MAX_REQUESTS_PER_SITE_PER_MINUTE")
        except ConfigError as exc:
            setting_error(crawler, exc)  # the crawl stops at start with this error
            per_minute = 0
        self.min_interval = 60.0 / per_minute if per_minute else 0.0

    def get_slot_key(self, request: Request) -> str:
        return site_key_from_parts(urlparse_cached(request))

    def _process_queue(self, slot: Slot) -> None:
        if slot.latercall:
            return  # a timer will run this again
        now = monotonic()
        delay = max(slot.download_delay(), self.min_interval)
        if delay:
            wait = slot.lastseen + delay - now
            if wait > 0:
                slot.latercall = call_later(wait, self._latercall, slot)
                return
        while slot.queue and slot.free_transfer_slots() > 0:
            slot.lastseen = now
            request, queue_dfd = slot.queue.popleft()
            slot.transferring.add(request)  # taken now, not when the coroutine runs
            _schedule_coro(self._wait_for_download(slot, request, queue_dfd))
            if delay:
                self._process_queue(slot)  # arms the timer for the next one
                break
