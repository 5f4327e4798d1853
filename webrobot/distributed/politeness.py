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
  it: ``Retry-After``); and each worker's *hold*: how many requests of the
  site it has in flight (``h:<worker>``) and until when the hold lasts
  (``u:<worker>``, Redis time). Another worker's start waits until no other
  hold is left, so requests to one site never overlap across workers; within
  the holding worker its slot's concurrency applies, as in one process. A
  hold ends on its own (``WEBROBOT_REDIS_LEASE_TTL``, renewed every third of
  it while requests are in flight) if its worker dies. The hash expires five
  to ten minutes after it stops mattering. One hash, so a start is one script
  of four commands (``EVALSHA``, ``TIME``, ``HGETALL``, ``HSET``; a
  ``PEXPIREAT`` every few minutes), the end of a download one ``HINCRBY``,
  and a 200 answer to a site without strikes costs no command.

A start is decided on the Redis clock just before the request goes out. A
worker whose reactor was busy in between (a blocking call, a slow callback: a
cluster failover makes Redis calls sleep) sends it late, and the site would see
the next start less than an interval after it. So the worker notes when each
request left (:meth:`SharedPoliteness.departed`, on the reactor's next turn);
one that left 5 ms or more late moves ``last`` to that time when its download
ends, in the same round trip as the hold's release (one ``HSET`` more).

:meth:`SharedPoliteness.reserve` waits for the site's interval (the largest of
the slot's delay, robots.txt Crawl-delay/Request-rate, as this worker learnt
them from the ``robots_resolved`` signal, and the shared backoff) since the
*last start by any worker*, and for the shared penalty; :meth:`finished` (called
by :class:`webrobot.downloader.SiteDownloader` when a download ends) lets the
hold go. A worker waiting for another's hold asks again after a quarter of
``WEBROBOT_REDIS_POLL_INTERVAL`` (at most 0.25 s), then twice as long each
time the site is still held, up to the polling interval: meanwhile the holder
crawls the site, and each question costs Redis three commands.

Keys live under ``webrobot:politeness`` (not under a crawl's prefix): two
crawls of one site share its politeness. On a Redis Cluster the site is a hash
tag (``webrobot:politeness:{<site>}``): in the slot of its robots.txt keys. While Redis cannot be reached no
request starts: :meth:`reserve` answers "wait" (source ``redis_unavailable``,
with the backoff of :class:`~webrobot.distributed.outage.Outage`), because a
start without the shared reservation could overlap another worker's request
or break the site's Crawl-delay. A hold whose release failed is released when
Redis is back.
"""

from __future__ import annotations

import logging
from collections import Counter, OrderedDict
from time import monotonic
from typing import TYPE_CHECKING, Any

import redis
from scrapy import signals
from scrapy.utils.asyncio import create_looping_call

from webrobot.distributed.frontier import new_worker_id
from webrobot.distributed.keys import cluster_enabled, redis_from_settings, site_tag
from webrobot.distributed.outage import Outage, outage_of
from webrobot.politeness import DEFAULT_MAX_SITES, THROTTLE_STATUSES
from webrobot.settings_model import read

if TYPE_CHECKING:
    from typing import Self

    from scrapy.crawler import Crawler

logger = logging.getLogger(__name__)

PREFIX = "webrobot:politeness"
#: Milliseconds a site's state outlives what it says (its interval, its penalty).
KEEP_MS = 600_000
#: What held a start back, by the code the reserve script returns (0: the caller's interval).
SOURCES = {1: "backoff", 2: "retry_after", 3: "other_worker"}
OTHER_WORKER = 3
#: A site held by another worker is asked again after the polling wait, then twice
#: as long each time, up to this many times the polling wait.
BUSY_BACKOFF = 4
#: A request that left this many ms or more after its start was reserved moves the
#: site's ``last`` start to when it left (see :meth:`SharedPoliteness.departed`).
LATE_MS = 5

_NOW = "local t = redis.call('TIME')\nlocal now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)\n"

# KEYS: state
# ARGV: worker, interval ms, backoff base ms, backoff max ms (0: none), hold ttl ms, busy ms, keep ms
# -> {ms to wait (0: started), source code, 1 if the site has throttle strikes[, now if started]}
# A worker's hold is two fields, ``h:<worker>`` (requests in flight) and
# ``u:<worker>`` (until when), so that letting a request go is one HINCRBY
# without a script. A start is EVALSHA, TIME, HGETALL and HSET; the key's
# expiry is pushed only when it would come less than half a keep time after the
# state stops mattering (``exp``: the expiry set last).
_RESERVE = (
    _NOW
    + """
local st = redis.call('HGETALL', KEYS[1])
local f = {}
for i = 1, #st, 2 do f[st[i]] = st[i + 1] end
local strikes = tonumber(f['strikes'] or '0')
local struck = 0
if strikes > 0 then struck = 1 end
local mine, stale = 0, {}
local keep = tonumber(ARGV[7])
for k, v in pairs(f) do
  if string.sub(k, 1, 2) == 'h:' then
    local w = string.sub(k, 3)
    local held_until = tonumber(f['u:' .. w] or '0')
    if tonumber(v) > 0 and held_until > now then
      if w == ARGV[1] then mine = tonumber(v) else return {tonumber(ARGV[6]), 3, struck} end
    elseif w ~= ARGV[1] and held_until < now - keep then
      table.insert(stale, k)
      table.insert(stale, 'u:' .. w)
    end
  end
end
local interval, source = tonumber(ARGV[2]), 0
if strikes > 0 then
  local backoff = tonumber(ARGV[3]) * 2 ^ math.min(strikes - 1, 62)
  local cap = tonumber(ARGV[4])
  if cap > 0 then backoff = math.min(backoff, cap) end
  if backoff > interval then interval, source = backoff, 1 end
end
local start = now
if f['last'] then start = tonumber(f['last']) + interval end
local penalty = tonumber(f['penalty'] or '0')
if penalty > start then start, source = penalty, 2 end
if start > now then return {start - now, source, struck} end
if #stale > 0 then redis.call('HDEL', KEYS[1], unpack(stale)) end
local ttl = tonumber(ARGV[5])
local matters = math.max(penalty - now, 0) + interval
local exp = tonumber(f['exp'] or '0')
if exp < now + math.max(matters + keep / 2, ttl) then
  exp = now + math.max(matters + keep, ttl)
  redis.call('HSET', KEYS[1], 'last', now, 'h:' .. ARGV[1], mine + 1, 'u:' .. ARGV[1], now + ttl, 'exp', exp)
  redis.call('PEXPIREAT', KEYS[1], exp)
else
  redis.call('HSET', KEYS[1], 'last', now, 'h:' .. ARGV[1], mine + 1, 'u:' .. ARGV[1], now + ttl)
end
return {0, source, struck, now}
"""
)

# KEYS: state   ARGV: throttled (1/0), wait ms (0: no Retry-After), keep ms
_NOTE = (
    _NOW
    + """
if ARGV[1] == '0' then return redis.call('HDEL', KEYS[1], 'strikes') end
redis.call('HINCRBY', KEYS[1], 'strikes', 1)
local penalty = tonumber(redis.call('HGET', KEYS[1], 'penalty') or '0')
local wait = tonumber(ARGV[2])
if wait > 0 and now + wait > penalty then
  penalty = now + wait
  redis.call('HSET', KEYS[1], 'penalty', penalty)
end
local ttl = redis.call('PTTL', KEYS[1])
redis.call('PEXPIRE', KEYS[1], math.max(math.max(penalty - now, 0) + tonumber(ARGV[3]), ttl))
return 1
"""
)

# KEYS: states   ARGV: worker, hold ttl ms   -> how many were still this worker's
# The key outlives the hold it renews, so letting the hold go (HINCRBY) never
# recreates an expired key.
_RENEW = (
    _NOW
    + """
local n = 0
local ttl = tonumber(ARGV[2])
for i = 1, #KEYS do
  if tonumber(redis.call('HGET', KEYS[i], 'h:' .. ARGV[1]) or '0') > 0 then
    redis.call('HSET', KEYS[i], 'u:' .. ARGV[1], now + ttl)
    if redis.call('PTTL', KEYS[i]) < ttl then redis.call('PEXPIRE', KEYS[i], ttl) end
    n = n + 1
  end
end
return n
"""
)


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
        outage: Outage | None = None,
        cluster: bool = False,
    ) -> None:
        if hold_ttl <= 0:
            raise ValueError(f"the hold TTL must be positive, got {hold_ttl}")
        self.server = server
        self.prefix = prefix
        self.cluster = cluster
        self.hold_ttl = hold_ttl
        self.busy_poll = busy_poll
        self.retry_after_max = retry_after_max
        self.backoff_base = backoff_base
        self.backoff_max = backoff_max
        self.max_sites = max_sites
        self.worker_id = worker_id or new_worker_id()
        self.stats = stats
        self._robots: OrderedDict[str, tuple[float, str]] = OrderedDict()
        self._in_flight: Counter[str] = Counter()
        self._reserve = server.register_script(_RESERVE)
        self._note = server.register_script(_NOTE)
        self._renew = server.register_script(_RENEW)
        self.outage = outage or Outage(0.0, stats=stats)
        self._unreleased: Counter[str] = Counter()  # holds whose release failed
        self._struck: set[str] = set()  # sites with throttle strikes at their last start
        self._busy: dict[str, float] = {}  # next wait for a site another worker holds
        # A site's latest start by this worker: [Redis ms then, monotonic then, ms it
        # left late (-1: not left yet, 0: nothing to correct)].
        self._starts: dict[str, list[float]] = {}
        self._loop: Any = None

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> Self:
        settings = crawler.settings
        poll = read(settings, "WEBROBOT_REDIS_POLL_INTERVAL")
        politeness = cls(
            redis_from_settings(settings),
            hold_ttl=read(settings, "WEBROBOT_REDIS_LEASE_TTL"),
            busy_poll=min(max(poll / 4, 0.01), 0.25),
            retry_after_max=read(settings, "WEBROBOT_POLITENESS_RETRY_AFTER_MAX"),
            backoff_base=read(settings, "WEBROBOT_POLITENESS_BACKOFF_BASE"),
            backoff_max=read(settings, "WEBROBOT_POLITENESS_BACKOFF_MAX"),
            max_sites=read(settings, "WEBROBOT_POLITENESS_SITES"),
            stats=crawler.stats,
            outage=outage_of(crawler),
            cluster=cluster_enabled(settings),
        )
        crawler.signals.connect(politeness.start, signal=signals.spider_opened)
        crawler.signals.connect(politeness.close, signal=signals.spider_closed)
        return politeness

    def _keys(self, site: str) -> list[str]:
        return [f"{self.prefix}:{site_tag(site, self.cluster)}"]

    # -- the Politeness interface ------------------------------------------------
    def set_robots_delay(self, site: str, seconds: float | None, source: str | None) -> None:
        self._robots[site] = (max(0.0, seconds or 0.0), source or "crawl_delay")
        self._robots.move_to_end(site)
        while self.max_sites > 0 and len(self._robots) > self.max_sites:
            self._robots.popitem(last=False)

    def note_response(self, site: str, status: int, retry_after: float | None, now: float) -> None:
        throttled = status in THROTTLE_STATUSES
        if not throttled and site not in self._struck:
            return  # no strikes to clear (as of this worker's last start): no round trip
        self._struck.discard(site)
        wait = 0.0
        if throttled and retry_after is not None and retry_after > 0:
            wait = (
                min(retry_after, self.retry_after_max) if self.retry_after_max > 0 else retry_after
            )
        try:
            self._note(keys=self._keys(site), args=[int(throttled), _ms(wait), KEEP_MS])
        except redis.RedisError as exc:
            self._redis_error(exc)  # a backoff note lost; the next answer is noted again

    def reserve(
        self, site: str, base_delay: float, base_source: str, now: float
    ) -> tuple[float, str]:
        """Start now (``(0, source)``, the site held by this worker until
        :meth:`finished`) or wait: ``now`` is not used, the Redis clock is.
        Without Redis: wait (``redis_unavailable``), never start."""
        if self._unreleased and not self._release_unreleased():
            return self.outage.retry_in(), "redis_unavailable"
        interval, source = base_delay, base_source
        robots = self._robots.get(site)
        if robots is not None and robots[0] > interval:
            interval, source = robots
        args: list[str | int] = [self.worker_id, _ms(interval), _ms(self.backoff_base), _ms(self.backoff_max),
                max(1, _ms(self.hold_ttl)), max(1, _ms(self._busy.get(site, self.busy_poll))), KEEP_MS]  # fmt: skip
        try:
            wait_ms, code, struck, *started = self._reserve(keys=self._keys(site), args=args)
        except redis.RedisError as exc:
            self._redis_error(exc)
            return self.outage.retry_in(), "redis_unavailable"
        self.outage.succeeded(monotonic())
        if int(struck):
            self._struck.add(site)
        source = SOURCES.get(int(code), source)
        if int(code) == OTHER_WORKER:
            # Asked again later each time (up to BUSY_BACKOFF polls): a site another
            # worker keeps busy is crawled by that worker meanwhile.
            if 0 < self.max_sites <= len(self._busy) and site not in self._busy:
                self._busy.clear()
            self._busy[site] = min(int(wait_ms) / 500, self.busy_poll * BUSY_BACKOFF)
        if int(wait_ms) > 0:
            return int(wait_ms) / 1000, source
        self._busy.pop(site, None)
        self._in_flight[site] += 1
        self._starts[site] = [int(started[0]), monotonic(), -1]
        return 0.0, source

    def departed(self, site: str, now: float) -> None:
        """The request last started for ``site`` has left (the downloader calls this
        on the reactor's next turn after a start). The start was reserved on the
        Redis clock before the request went out (``now``: the downloader's
        monotonic clock, as :meth:`reserve` read it); if the worker was busy in between
        (a blocking call, a slow callback), it left late, and the next start by any
        worker would come that much less than an interval after the request the site
        saw. :meth:`finished` then moves ``last`` to when it left."""
        entry = self._starts.get(site)
        if entry is not None and entry[2] < 0:
            entry[2] = _ms(now - entry[1])

    def finished(self, site: str) -> None:
        """A download of ``site`` that :meth:`reserve` let start has ended."""
        if self._in_flight[site] <= 0:
            return
        self._in_flight[site] -= 1
        late = self._late_start(site)
        if self._in_flight[site] == 0:
            del self._in_flight[site]
            self._starts.pop(site, None)
        try:
            self._release(site, late)
        except redis.RedisError as exc:
            self._redis_error(exc)
            self._unreleased[site] += 1  # released when Redis is back

    def _late_start(self, site: str) -> int | None:
        """When this worker's latest request to ``site`` left (Redis ms), if it left
        late and ``last`` is still that start: this worker's hold kept every other
        worker from starting since (the hold is younger than half its TTL), and its
        own later starts would have replaced the entry."""
        entry = self._starts.get(site)
        if entry is None or entry[2] < LATE_MS or monotonic() - entry[1] >= self.hold_ttl / 2:
            return None
        late = int(entry[0] + entry[2])
        entry[2] = 0
        if self.stats is not None:
            self.stats.inc_value("webrobot/politeness/left_late")
        return late

    def _release(self, site: str, late: int | None = None) -> None:
        """One request of this worker's hold on ``site`` is over: one command, no script
        (a hold at zero, or past its ``u:`` time, holds nothing). A late start moves
        ``last`` first, in the same round trip, while the hold still keeps other
        workers out."""
        key, field = self._keys(site)[0], f"h:{self.worker_id}"
        if late is None:
            self.server.hincrby(key, field, -1)
            return
        pipe = self.server.pipeline(transaction=False)
        pipe.hset(key, "last", late)
        pipe.hincrby(key, field, -1)
        pipe.execute()

    def _release_unreleased(self) -> bool:
        """Let go of the holds whose release failed; False if Redis still fails."""
        try:
            for site in list(self._unreleased):
                while self._unreleased[site] > 0:
                    self._release(site)
                    self._unreleased[site] -= 1
                del self._unreleased[site]
        except redis.RedisError as exc:
            self._redis_error(exc)
            return False
        return True

    def __len__(self) -> int:
        return len(self._robots)

    # -- holds -------------------------------------------------------------------
    def start(self) -> None:
        """Renew this worker's holds every third of their TTL (from spider_opened)."""
        if self._loop is None:
            self._loop = create_looping_call(self._renew_holds)
            self._loop.start(self.hold_ttl / 3, now=False)

    def _renew_holds(self) -> None:
        if self._unreleased:
            self._release_unreleased()
        if not self._in_flight:
            return
        keys = [self._keys(site)[0] for site in self._in_flight]
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

    def _redis_error(self, exc: Exception) -> None:
        self.outage.failed(exc, monotonic())
