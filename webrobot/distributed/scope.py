"""The scope a crawl's start URLs gained by their redirects, shared by every worker.

A start URL that redirects to another host brings that host into the crawl's
scope (:mod:`webrobot.urls.scopemiddleware`), on the worker that followed the
redirect. The other workers then meet links to that host on the pages it
serves; they ask here before refusing them: ``<crawl>:scope`` is a set of the
scope keys (hosts, origins or registered domains) added, written once per key
(``SADD``) and read with ``SISMEMBER`` when a URL would be refused as off-site.
A key found is remembered for good; one not found is asked again after a second
(so a page of links to one other site costs one question a second). If Redis
fails, the URL counts as off-site (logged once, ``webrobot/redis/error_count``), and
a key whose write failed is written again with the worker's next question, or after
a response it receives (at most once a second): each key is added once, so a lost write
would leave the other workers refusing its links for the rest of the crawl.

The share is made when the crawl's scope is first judged, which may be in the
middle of a crawl, while Redis is failing over. A client that cannot be made
then (on a cluster, the node named in ``WEBROBOT_REDIS_URL`` is down) is a
Redis error like any other, and is made again at the next question, at most
once a second: the request being judged goes on.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from time import monotonic
from typing import TYPE_CHECKING

import redis
from scrapy import signals

from webrobot.distributed.dupefilter import crawl_spider_name
from webrobot.distributed.keys import CrawlKeys, redis_from_settings

if TYPE_CHECKING:
    from typing import Self

    from scrapy.crawler import Crawler

logger = logging.getLogger(__name__)
#: Seconds a key not found is not asked about again.
NOT_FOUND_FOR = 1.0
_NOT_FOUND_REMEMBERED = 10_000


class RedisScopeShare:
    def __init__(
        self,
        server: redis.Redis | None,
        key: str,
        stats: object = None,
        connect: Callable[[], redis.Redis] | None = None,
    ) -> None:
        self.server = server
        self.key = key
        self.stats = stats
        self._connect = connect  # makes ``server`` when it is None
        self._connect_after = 0.0
        self._known: set[str] = set()
        self._unwritten: set[str] = set()  # added while Redis failed: written when it answers
        self._write_after = 0.0
        self._not_found: dict[str, float] = {}
        self._warned = False

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> Self:
        keys = CrawlKeys.from_settings(crawler.settings, crawl_spider_name(crawler))
        share = cls(None, f"{keys.crawl}:scope", crawler.stats,
                    connect=lambda: redis_from_settings(crawler.settings))  # fmt: skip
        try:
            share._redis()
        except redis.RedisError as exc:
            share._error(exc)
        crawler.signals.connect(share.write_unwritten, signal=signals.response_received)
        return share

    def write_unwritten(self) -> None:
        """The keys whose write failed, written again (at most once a second; from
        ``response_received``): a worker that asks nothing would keep them otherwise."""
        now = monotonic()
        if not self._unwritten or now < self._write_after:
            return
        self._write_after = now + NOT_FOUND_FOR
        try:
            self._write()
        except redis.RedisError as exc:
            self._error(exc)

    def _redis(self) -> redis.Redis:
        """The client, made now if it could not be made before (at most once a
        second); raises ``redis.RedisError`` if it cannot."""
        if self.server is None:
            now = monotonic()
            if self._connect is None or now < self._connect_after:
                raise redis.ConnectionError("no client for the shared scope yet")
            self._connect_after = now + NOT_FOUND_FOR
            self.server = self._connect()
        return self.server

    def add(self, key: str) -> None:
        self._known.add(key)
        self._not_found.pop(key, None)
        self._unwritten.add(key)
        try:
            self._write()
        except redis.RedisError as exc:
            self._error(exc)

    def _write(self) -> None:
        """The keys whose write failed, written now (one ``SADD``); raises
        ``redis.RedisError`` if Redis still fails."""
        if self._unwritten:
            self._redis().sadd(self.key, *self._unwritten)
            self._unwritten.clear()

    def has(self, key: str) -> bool:
        if key in self._known:
            return True
        now = monotonic()
        if self._not_found.get(key, -1.0) > now:
            return False
        try:
            self._write()
            found = bool(self._redis().sismember(self.key, key))
        except redis.RedisError as exc:
            self._error(exc)
            return False
        if found:
            self._known.add(key)
        else:
            if len(self._not_found) >= _NOT_FOUND_REMEMBERED:
                self._not_found.clear()
            self._not_found[key] = now + NOT_FOUND_FOR
        return found

    def _error(self, exc: Exception) -> None:
        inc = getattr(self.stats, "inc_value", None)
        if inc is not None:
            inc("webrobot/redis/error_count")
        log = logger.debug if self._warned else logger.warning
        self._warned = True
        log("Redis error in the shared scope (the URL counts as off-site): %s", exc)
