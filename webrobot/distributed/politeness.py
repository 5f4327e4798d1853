"""Per-site politeness shared by every worker: ``WEBROBOT_POLITENESS_CLASS`` in Redis mode.

In one process, :class:`webrobot.politeness.SitePoliteness` keeps each site's
last request start, 429/503 strikes and ``Retry-After`` penalty, and Scrapy's
download slot keeps requests to one site from overlapping
(``CONCURRENT_REQUESTS_PER_DOMAIN``). With several workers each has its own,
so a site would get one request per delay *per worker*, several at once.
Here both live in Redis and are decided in one Lua script per request start,
on the Redis server's clock (worker clocks, and the monotonic ``now`` the
downloader passes in, do not matter: only durations cross the wire):

* ``<prefix>:<site>`` (a hash): ``last`` start, ``strikes`` (consecutive
  429/503 answers, for the doubling backoff) and ``penalty`` (no start before
  it: ``Retry-After``). It expires ten minutes after it stops mattering.
* ``<prefix>:<site>:hold``: which worker has requests of the site in flight,
  and how many. Another worker's start waits until it is free, so requests to
  one site never overlap across workers; within the holding worker its slot's
  concurrency applies, as in one process. The hold expires on its own
  (``WEBROBOT_REDIS_LEASE_TTL``, renewed every third of it while requests are
  in flight) if its worker dies.

:meth:`SharedPoliteness.reserve` waits for the site's interval (the largest of
the slot's delay, robots.txt Crawl-delay/Request-rate, as this worker learnt
them from the ``robots_resolved`` signal, and the shared backoff) since the
*last start by any worker*, and for the shared penalty; :meth:`finished` (called
by :class:`webrobot.downloader.SiteDownloader` when a download ends) lets the
hold go. A worker waiting for another's hold asks again every quarter of
``WEBROBOT_REDIS_POLL_INTERVAL`` (at most 0.25 s).

Keys live under ``webrobot:politeness`` (not under a crawl's prefix): two
crawls of one site share its politeness. If Redis fails, the worker falls
back to in-process politeness (logged once, counted in
``webrobot/redis/error_count``).
"""

from __future__ import annotations

import logging
from collections import Counter, OrderedDict
from typing import TYPE_CHECKING, Any

import redis
from scrapy import signals
from scrapy.utils.asyncio import create_looping_call

from webrobot.distributed.errors import RedisErrorLog
from webrobot.distributed.frontier import new_worker_id
from webrobot.distributed.keys import redis_from_settings
from webrobot.politeness import DEFAULT_MAX_SITES, THROTTLE_STATUSES, SitePoliteness

if TYPE_CHECKING:
    from typing import Self

    from scrapy.crawler import Crawler

logger = logging.getLogger(__name__)

PREFIX = "webrobot:politeness"
#: Milliseconds a site's state outlives what it says (its interval, its penalty).
KEEP_MS = 600_000
#: What held a start back, by the code the reserve script returns (0: the caller's interval).
SOURCES = {1: "backoff", 2: "retry_after", 3: "other_worker"}

_NOW = "local t = redis.call('TIME')\nlocal now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)\n"

# KEYS: state, hold
# ARGV: worker, interval ms, backoff base ms, backoff max ms (0: none), hold ttl ms, busy ms, keep ms
# -> {ms to wait (0: started), source code}
_RESERVE = _NOW + """
local holder = redis.call('HGET', KEYS[2], 'w')
if holder and holder ~= ARGV[1] then return {tonumber(ARGV[6]), 3} end
local st = redis.call('HMGET', KEYS[1], 'last', 'penalty', 'strikes')
local interval, source = tonumber(ARGV[2]), 0
local strikes = tonumber(st[3] or '0')
if strikes > 0 then
  local backoff = tonumber(ARGV[3]) * 2 ^ math.min(strikes - 1, 62)
  local cap = tonumber(ARGV[4])
  if cap > 0 then backoff = math.min(backoff, cap) end
  if backoff > interval then interval, source = backoff, 1 end
end
local start = now
if st[1] then start = tonumber(st[1]) + interval end
local penalty = tonumber(st[2] or '0')
if penalty > start then start, source = penalty, 2 end
if start > now then return {start - now, source} end
redis.call('HSET', KEYS[1], 'last', now)
redis.call('PEXPIRE', KEYS[1], math.max(penalty - now, 0) + interval + tonumber(ARGV[7]))
redis.call('HSET', KEYS[2], 'w', ARGV[1])
redis.call('HINCRBY', KEYS[2], 'n', 1)
redis.call('PEXPIRE', KEYS[2], ARGV[5])
return {0, source}
"""

# KEYS: state   ARGV: throttled (1/0), wait ms (0: no Retry-After), keep ms
_NOTE = _NOW + """
if ARGV[1] == '0' then return redis.call('HDEL', KEYS[1], 'strikes') end
redis.call('HINCRBY', KEYS[1], 'strikes', 1)
local penalty = tonumber(redis.call('HGET', KEYS[1], 'penalty') or '0')
local wait = tonumber(ARGV[2])
if wait > 0 and now + wait > penalty then
  penalty = now + wait
  redis.call('HSET', KEYS[1], 'penalty', penalty)
end
redis.call('PEXPIRE', KEYS[1], math.max(penalty - now, 0) + tonumber(ARGV[3]))
return 1
"""

# KEYS: hold   ARGV: worker, hold ttl ms
_FINISHED = """
if redis.call('HGET', KEYS[1], 'w') ~= ARGV[1] then return 0 end
if redis.call('HINCRBY', KEYS[1], 'n', -1) <= 0 then
  redis.call('DEL', KEYS[1])
else
  redis.call('PEXPIRE', KEYS[1], ARGV[2])
end
return 1
"""

# KEYS: holds   ARGV: worker, hold ttl ms   -> how many were still this worker's
_RENEW = """
local n = 0
for i = 1, #KEYS do
  if redis.call('HGET', KEYS[i], 'w') == ARGV[1] then
    redis.call('PEXPIRE', KEYS[i], ARGV[2])
    n = n + 1
  end
end
return n
"""


def _ms(seconds: float) -> int:
    return max(0, round(seconds * 1000))


class SharedPoliteness:
    """:class:`webrobot.politeness.Politeness` in Redis, plus :meth:`finished`."""

    def __init__(
        self,
        server: redis.Redis,
        *,
        prefix: str = PREFIX,
        hold_ttl: float = 60.0,
        busy_poll: float = 0.25,
        retry_after_max: float = 600.0,
        backoff_base: float = 1.0,
        backoff_max: float = 60.0,
        max_sites: int = DEFAULT_MAX_SITES,
        worker_id: str | None = None,
        stats: Any = None,
    ) -> None:
        if hold_ttl <= 0:
            raise ValueError(f"the hold TTL must be positive, got {hold_ttl}")
        self.server = server
        self.prefix = prefix
        self.hold_ttl = hold_ttl
        self.busy_poll = busy_poll
        self.retry_after_max = retry_after_max
        self.backoff_base = backoff_base
        self.backoff_max = backoff_max
        self.max_sites = max_sites
        self.worker_id = worker_id or new_worker_id()
        self.stats = stats
        self._errors = RedisErrorLog(
            logger, "Redis error in the shared politeness (%s): this worker keeps its own per-site "
            "delays from now on, other workers' requests are no longer counted", stats,
        )  # fmt: skip
        self._robots: OrderedDict[str, tuple[float, str]] = OrderedDict()
        self._in_flight: Counter[str] = Counter()
        self._reserve = server.register_script(_RESERVE)
        self._note = server.register_script(_NOTE)
        self._finished = server.register_script(_FINISHED)
        self._renew = server.register_script(_RENEW)
        self._fallback: SitePoliteness | None = None
        self._loop: Any = None

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> Self:
        settings = crawler.settings
        poll = settings.getfloat("WEBROBOT_REDIS_POLL_INTERVAL")
        politeness = cls(
            redis_from_settings(settings),
            hold_ttl=settings.getfloat("WEBROBOT_REDIS_LEASE_TTL"),
            busy_poll=min(max(poll / 4, 0.01), 0.25),
            retry_after_max=settings.getfloat("WEBROBOT_POLITENESS_RETRY_AFTER_MAX", 600.0),
            backoff_base=settings.getfloat("WEBROBOT_POLITENESS_BACKOFF_BASE", 1.0),
            backoff_max=settings.getfloat("WEBROBOT_POLITENESS_BACKOFF_MAX", 60.0),
            max_sites=settings.getint("WEBROBOT_POLITENESS_SITES", DEFAULT_MAX_SITES),
            stats=crawler.stats,
        )
        crawler.signals.connect(politeness.start, signal=signals.spider_opened)
        crawler.signals.connect(politeness.close, signal=signals.spider_closed)
        return politeness

    def _keys(self, site: str) -> list[str]:
        return [f"{self.prefix}:{site}", f"{self.prefix}:{site}:hold"]

    # -- the Politeness interface ------------------------------------------------
    def set_robots_delay(self, site: str, seconds: float | None, source: str | None) -> None:
        self._robots[site] = (max(0.0, seconds or 0.0), source or "crawl_delay")
        self._robots.move_to_end(site)
        while self.max_sites > 0 and len(self._robots) > self.max_sites:
            self._robots.popitem(last=False)
        if self._fallback is not None:
            self._fallback.set_robots_delay(site, seconds, source)

    def note_response(self, site: str, status: int, retry_after: float | None, now: float) -> None:
        if self._fallback is not None:
            self._fallback.note_response(site, status, retry_after, now)
            return
        throttled = status in THROTTLE_STATUSES
        wait = 0.0
        if throttled and retry_after is not None and retry_after > 0:
            wait = min(retry_after, self.retry_after_max) if self.retry_after_max > 0 else retry_after
        try:
            self._note(keys=self._keys(site)[:1], args=[int(throttled), _ms(wait), KEEP_MS])
        except redis.RedisError as exc:
            self._redis_error(exc).note_response(site, status, retry_after, now)

    def reserve(self, site: str, base_delay: float, base_source: str, now: float) -> tuple[float, str]:
        """Start now (``(0, source)``, the site held by this worker until
        :meth:`finished`) or wait: ``now`` is not used, the Redis clock is."""
        if self._fallback is not None:
            return self._fallback.reserve(site, base_delay, base_source, now)
        interval, source = base_delay, base_source
        robots = self._robots.get(site)
        if robots is not None and robots[0] > interval:
            interval, source = robots
        args: list[str | int] = [self.worker_id, _ms(interval), _ms(self.backoff_base), _ms(self.backoff_max),
                max(1, _ms(self.hold_ttl)), max(1, _ms(self.busy_poll)), KEEP_MS]  # fmt: skip
        try:
            wait_ms, code = self._reserve(keys=self._keys(site), args=args)
        except redis.RedisError as exc:
            return self._redis_error(exc).reserve(site, base_delay, base_source, now)
        source = SOURCES.get(int(code), source)
        if int(wait_ms) > 0:
            return int(wait_ms) / 1000, source
        self._in_flight[site] += 1
        return 0.0, source

    def finished(self, site: str) -> None:
        """A download of ``site`` that :meth:`reserve` let start has ended."""
        if self._in_flight[site] <= 0:
            return
        self._in_flight[site] -= 1
        if self._in_flight[site] == 0:
            del self._in_flight[site]
        if self._fallback is not None:
            return
        try:
            self._finished(keys=self._keys(site)[1:], args=[self.worker_id, max(1, _ms(self.hold_ttl))])
        except redis.RedisError as exc:
            self._redis_error(exc)

    def __len__(self) -> int:
        return len(self._robots)

    # -- holds -------------------------------------------------------------------
    def start(self) -> None:
        """Renew this worker's holds every third of their TTL (from spider_opened)."""
        if self._loop is None:
            self._loop = create_looping_call(self._renew_holds)
            self._loop.start(self.hold_ttl / 3, now=False)

    def _renew_holds(self) -> None:
        if not self._in_flight or self._fallback is not None:
            return
        keys = [self._keys(site)[1] for site in self._in_flight]
        try:
            self._renew(keys=keys, args=[self.worker_id, max(1, _ms(self.hold_ttl))])
        except redis.RedisError as exc:
            self._redis_error(exc)

    def close(self) -> None:
        if self._loop is not None and self._loop.running:
            self._loop.stop()
        for site in list(self._in_flight):
            while self._in_flight.get(site, 0) > 0:
                self.finished(site)
        self.server.close()

    def _redis_error(self, exc: Exception) -> SitePoliteness:
        self._errors(exc)
        if self._fallback is None:
            self._fallback = SitePoliteness(
                retry_after_max=self.retry_after_max, backoff_base=self.backoff_base,
                backoff_max=self.backoff_max, max_sites=self.max_sites,
            )  # fmt: skip
            for site, (seconds, source) in self._robots.items():
                self._fallback.set_robots_delay(site, seconds, source)
        return self._fallback
