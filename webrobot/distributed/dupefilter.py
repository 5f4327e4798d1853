"""The visited-URL set of a shared crawl: scrapy-redis's dupefilter on compact digests.

What differs from ``scrapy_redis.dupefilter.RFPDupeFilter`` 0.9.1, and why:

* It hashes its own JSON of method, canonical URL and body, and ignores
  ``REQUEST_FINGERPRINTER_CLASS``; here the fingerprint is
  ``crawler.request_fingerprinter.fingerprint(request)``, as in Scrapy's own
  dupefilter, so a custom fingerprinter (URL canonicalisation) applies.
* It stores 40-character hex strings in one big set (~70 bytes per URL);
  here 64-bit digests in bucketed intsets (:mod:`.digests`, ~10 bytes).
* Its ``close()`` deletes the set: with several workers, the first one to
  finish would wipe the crawl's memory. Here nothing is deleted on close
  (``webrobot-seed --reset`` starts a crawl over).
* Its ``log()`` does not count ``dupefilter/filtered``; here it does, as
  Scrapy's does (without Scrapy 2.19's deprecated ``spider=`` stats argument).
* Its ``from_settings`` (used without a crawler) keys the set by a timestamp,
  which cannot be shared; here a crawler is required.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Protocol, runtime_checkable

import redis
from scrapy.utils.request import referer_str
from scrapy_redis.dupefilter import RFPDupeFilter

from webrobot.distributed.digests import RedisDigestSet
from webrobot.distributed.keys import CrawlKeys, redis_from_settings
from webrobot.seen.dupefilter import register_visited_filter
from webrobot.settingsmodel.parse import read

if TYPE_CHECKING:
    from typing import Self

    from scrapy import Request, Spider
    from scrapy.crawler import Crawler
    from scrapy.settings import BaseSettings

logger = logging.getLogger(__name__)


def crawl_spider_name(crawler: Crawler) -> str:
    spider = getattr(crawler, "spider", None)
    return str(spider.name if spider is not None else crawler.spidercls.name)


@runtime_checkable
class SharedVisitedFilter(Protocol):
    """A ``DUPEFILTER_CLASS`` whose visited marks the shared crawl's scheduler adds
    itself, in the same script that queues the request (:class:`RedisVisitedFilter`;
    with any other dupefilter the scheduler asks ``request_seen``, then queues)."""

    #: Visited slots this worker knows are in the shared set: a link seen again costs
    #: no Redis command.
    known: set[tuple[str, int]]

    def visited_slot(self, request: Request) -> tuple[str, int]:
        """The digest key and member that mark ``request`` as visited."""
        ...

    def remember(self, slot: tuple[str, int]) -> None:
        """``slot`` is in the shared set now (the scheduler marked it): add it to :attr:`known`."""
        ...


class RedisVisitedFilter(RFPDupeFilter):
    logger = logger

    def __init__(self, crawler: Crawler) -> None:
        settings = crawler.settings
        keys = CrawlKeys.from_settings(settings, crawl_spider_name(crawler))
        server = redis_from_settings(settings)
        super().__init__(server, key=keys.visited, debug=settings.getbool("DUPEFILTER_DEBUG"))
        self.logdupes: bool = True
        self.crawler = crawler
        register_visited_filter(crawler, self)
        self.meta_key = keys.meta
        # Visited slots this worker knows are in the shared set; the scheduler shares it.
        self.known: set[tuple[str, int]] = set()
        self.known_max = read(settings, "WEBROBOT_REDIS_VISITED_CACHE")
        self.fingerprinter = crawler.request_fingerprinter
        self.digests = RedisDigestSet(
            server, keys.visited, read(settings, "WEBROBOT_REDIS_VISITED_BUCKET_BITS")
        )

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> Self:
        return cls(crawler)

    @classmethod
    def from_spider(cls, spider: Spider) -> Self:
        return cls(spider.crawler)

    @classmethod
    def from_settings(cls, settings: BaseSettings) -> Self:
        raise TypeError("RedisVisitedFilter needs a crawler: build it with from_crawler()")

    def request_fingerprint(self, request: Request) -> str:
        return self.fingerprinter.fingerprint(request).hex()

    def visited_slot(self, request: Request) -> tuple[str, int]:
        """The digest key and member that mark ``request`` as visited (the
        scheduler adds them and queues the request in one atomic step)."""
        return self.digests.slot(self.fingerprinter.fingerprint(request))

    def request_seen(self, request: Request) -> bool:
        return not self.digests.add(self.fingerprinter.fingerprint(request))

    def mark_visited(self, request: Request) -> bool | None:
        """Like :meth:`request_seen`, remembered in :attr:`known` (a request seen again
        costs no Redis command); None when Redis cannot be reached (the scheduler,
        which queues the request instead, reports it)."""
        slot = self.visited_slot(request)
        if slot in self.known:
            return True
        key, member = slot
        try:
            added = self.server.sadd(key, member)
        except redis.RedisError:
            return None
        self.remember(slot)
        return not added

    def remember(self, slot: tuple[str, int]) -> None:
        """Add ``slot`` to :attr:`known`, emptied first when it holds
        ``WEBROBOT_REDIS_VISITED_CACHE`` slots (0: no bound)."""
        if 0 < self.known_max <= len(self.known):
            self.known.clear()
        self.known.add(slot)

    def open(self) -> None:
        """Check that every worker cuts digests the same way (the first one decides)."""
        bits = str(self.digests.bucket_bits)
        self.server.hsetnx(self.meta_key, "visited_bucket_bits", bits)
        stored = self.server.hget(self.meta_key, "visited_bucket_bits")
        if stored is not None and stored.decode() != bits:
            raise ValueError(
                f"this crawl's visited set uses WEBROBOT_REDIS_VISITED_BUCKET_BITS="
                f"{stored.decode()}, this worker {bits}: give every worker the same "
                f"settings (or start over with webrobot-seed --reset)"
            )

    def close(self, reason: str = "") -> None:
        """Keep the set (other workers are still using it); close the connection."""
        self.server.close()

    def clear(self) -> None:
        self.digests.clear()

    def log(self, request: Request, spider: Spider) -> None:
        if self.debug:
            self.logger.debug(
                "Filtered duplicate request: %(request)s (referer: %(referer)s)",
                {"request": request, "referer": referer_str(request)},
                extra={"spider": spider},
            )
        elif self.logdupes:
            self.logger.debug(
                "Filtered duplicate request: %(request)s - no more duplicates will be shown"
                " (see DUPEFILTER_DEBUG to show all duplicates)",
                {"request": request},
                extra={"spider": spider},
            )
            self.logdupes = False
        if self.crawler.stats is not None:
            self.crawler.stats.inc_value("dupefilter/filtered")
