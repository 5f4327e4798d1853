"""Content fingerprints shared by every worker: ``WEBROBOT_CONTENT_INDEX_CLASS`` in Redis mode.

:class:`webrobot.seen.contentdupes.ContentDupes` keeps, per crawl, the contents
whose item was kept and those whose links were followed. In one process
that is memory; with several workers each would keep its own, and two workers
that fetch two copies of a page would both emit an item. Here both live in
Redis and each verdict is an ``HSETNX`` (plus an ``HGET`` when the content was
recorded already), so exactly one worker keeps the first copy of a content
(whichever asks first) and the others drop theirs.

Each content is recorded with the URL that first had it:
``<crawl>:content:kept:<bucket>`` and ``<crawl>:content:followed:<bucket>``
are hashes of *content digest -> URL digest*, both 64-bit integers (the
fingerprint cut as in :mod:`.digests`, ``WEBROBOT_REDIS_CONTENT_BUCKET_BITS``
buckets; the URL hashed with BLAKE2b). A page is a duplicate when its content
was recorded for *another* URL. The same URL fetched again is not a duplicate
of itself: that happens only when its worker died before acknowledging it,
and the worker that fetches it again must emit its item and follow its links,
or they would be lost with the dead worker (which may not have written its
item or queued its links). So an item is emitted once per page, or twice when
its first worker was killed with it in flight, like the download itself.

Near duplicates (``WEBROBOT_NEAR_DUPLICATES``) live in ``<crawl>:near:<band>:<block>``:
one hash per 16-bit block of a SimHash (:mod:`webrobot.seen.simhash`), of SimHash
-> URL digest. :data:`NEAR` looks for a near fingerprint in the page's four
buckets and, finding none, records the page in all four, in one script, so two
workers that fetch two near copies at once keep one of them.

The URLs themselves are not kept (messages say "an earlier page"); nothing is
saved to ``JOBDIR`` (Redis keeps it).
"""

from __future__ import annotations

import hashlib
import logging
from time import monotonic
from typing import TYPE_CHECKING, Any

import redis
from scrapy import signals

from webrobot.distributed import scripts
from webrobot.distributed.digests import RedisDigestSet
from webrobot.distributed.dupefilter import crawl_spider_name
from webrobot.distributed.keys import CrawlKeys, redis_from_settings
from webrobot.distributed.outage import outage_of
from webrobot.seen.contentdupes import ContentDupes, Verdict, fingerprint_mode, near_distance
from webrobot.seen.contentfingerprints import fingerprint_key
from webrobot.seen.simhash import bands, to_hex
from webrobot.seen.stores import Seen
from webrobot.settingsmodel.parse import read

if TYPE_CHECKING:
    from collections.abc import Callable

    from scrapy import Spider
    from scrapy.crawler import Crawler

logger = logging.getLogger(__name__)

#: Where a duplicate's first copy was, in messages ("same content as ...").
EARLIER_PAGE = "an earlier page (the shared content index keeps no URLs)"


#: KEYS: the page's four band buckets. ARGV: its SimHash (16 hex digits), its URL
#: digest, the largest distance. Returns {0} when the page is kept (recorded now, or
#: its own URL's), {1, SimHash} when a near one of another URL was kept. The distance
#: is counted on two 32-bit halves (Lua numbers are doubles; ``bit`` works on 32 bits).
NEAR = """
local function ones(x)
  local n = 0
  while x ~= 0 do
    x = bit.band(x, x - 1)
    n = n + 1
  end
  return n
end
local hi = tonumber(string.sub(ARGV[1], 1, 8), 16)
local lo = tonumber(string.sub(ARGV[1], 9, 16), 16)
local most = tonumber(ARGV[3])
local best, best_url, best_d = nil, nil, 65
for i = 1, #KEYS do
  local entries = redis.call('HGETALL', KEYS[i])
  for j = 1, #entries, 2 do
    local other = entries[j]
    local d = ones(bit.bxor(tonumber(string.sub(other, 1, 8), 16), hi))
      + ones(bit.bxor(tonumber(string.sub(other, 9, 16), 16), lo))
    if d <= most and d < best_d then
      best, best_url, best_d = other, entries[j + 1], d
    end
  end
end
if best then
  if best_url == ARGV[2] then return {0} end
  return {1, best}
end
for i = 1, #KEYS do
  redis.call('HSETNX', KEYS[i], ARGV[1], ARGV[2])
end
return {0}
"""


def url_member(url: str) -> int:
    """A URL as a signed 64-bit integer (the value stored with its content)."""
    return int.from_bytes(
        hashlib.blake2b(url.encode("utf-8", "surrogatepass"), digest_size=8).digest(),
        "big",
        signed=True,
    )


class RedisFirstSeen:
    """Contents and the URL that first had each, in Redis (see module doc)."""

    store = None  # no in-process store (ContentDupes looks for a Bloom store here)

    def __init__(
        self, server: redis.Redis, prefix: str, bucket_bits: int,
        on_error: Callable[[Exception], None] | None = None,
    ) -> None:  # fmt: skip
        self.server = server
        self.digests = RedisDigestSet(server, prefix, bucket_bits)
        self.on_error = on_error

    def first(self, key: bytes, url: str) -> bool:
        """True if ``key`` is new (recorded with ``url``) or was recorded with ``url``.
        If Redis fails (with ``on_error``): True, a copy kept beats a page lost."""
        bucket, member = self.digests.slot(key)
        mine = url_member(url)
        try:
            # One command for a new content; a content once recorded never changes
            # its URL, so reading it afterwards needs no script.
            if self.server.hsetnx(bucket, str(member), mine):
                return True
            first = self.server.hget(bucket, str(member))
            return first is not None and int(first) == mine
        except redis.RedisError as exc:
            if self.on_error is None:
                raise
            self.on_error(exc)
            return True

    def check(self, key: bytes, url: str) -> Seen | None:
        """:meth:`webrobot.seen.stores.FirstSeenIndex.check`'s interface; the first
        URL is not kept, so messages name it this way."""
        return None if self.first(key, url) else Seen(EARLIER_PAGE)

    def __len__(self) -> int:
        """Contents recorded (scans the buckets: for stats at close)."""
        buckets = self.digests.keys()
        if not buckets:
            return 0
        pipe = self.digests.server.pipeline(transaction=False)
        for bucket in buckets:
            pipe.hlen(bucket)
        return sum(pipe.execute())


class RedisContentDupes(ContentDupes):
    def __init__(self, crawler: Crawler) -> None:
        # Not ContentDupes.__init__: no in-process stores, no JOBDIR checkpoints.
        settings = crawler.settings
        self.crawler = crawler
        self.mode = fingerprint_mode(settings)
        keys = CrawlKeys.from_settings(settings, crawl_spider_name(crawler))
        self.server = redis_from_settings(settings)
        bits = read(settings, "WEBROBOT_REDIS_CONTENT_BUCKET_BITS")
        kept = RedisFirstSeen(self.server, f"{keys.content}:kept", bits, self._redis_error)
        self.index = kept  # type: ignore[assignment]
        self.shared_followed = RedisFirstSeen(
            self.server, f"{keys.content}:followed", bits, self._redis_error
        )
        self.near_bits = near_distance(settings)
        self.near_prefix = keys.near
        self._near = scripts.register(self.server, NEAR)
        self._announced_links = False
        self.pipeline_attached = False
        self._verdicts: dict[int, tuple[Any, Verdict]] = {}
        self._announced = False
        self._closed = False
        self._warned = False
        crawler.signals.connect(self.spider_closed, signal=signals.spider_closed)

    def _first_to_follow(self, fingerprint: str, url: str) -> bool:
        return self.shared_followed.first(fingerprint_key(fingerprint), url)

    def _first_near(self, fingerprint: int, url: str) -> tuple[int, str] | None:
        """The shared near-duplicate tables (see the module doc); if Redis fails, the page
        is kept (a copy kept beats a page lost)."""
        buckets = [
            f"{self.near_prefix}:{i}:{block:04x}" for i, block in enumerate(bands(fingerprint))
        ]
        try:
            answer = self._near(
                keys=buckets, args=[to_hex(fingerprint), str(url_member(url)), self.near_bits]
            )
        except redis.RedisError as exc:
            self._redis_error(exc)
            return None
        if not answer or int(answer[0]) == 0:
            return None
        other = answer[1].decode() if isinstance(answer[1], bytes) else str(answer[1])
        return int(other, 16), EARLIER_PAGE

    def spider_opened(self, spider: Spider) -> None:
        """No periodic JOBDIR checkpoints: the shared index lives in Redis."""

    def close(self) -> None:
        if self._closed:
            return
        self._closed = True
        self._verdicts.clear()
        self.server.close()

    def _redis_error(self, exc: Exception) -> None:
        """The page counts as new (a copy kept beats a page lost); logged once per outage."""
        outage_of(self.crawler).failed(exc, monotonic())
