"""Per-site politeness shared by every worker: ``WEBROBOT_POLITENESS_CLASS`` in Redis mode.

A "site" here is the downloader's politeness unit (``WEBROBOT_POLITENESS_UNIT``:
a host by default, or an address, or a registered domain), so every worker
groups requests as one process does.

In one process, :class:`webrobot.politeness.clock.SitePoliteness` keeps each site's
last request start, 429/503 strikes and ``Retry-After`` penalty, and Scrapy's
download slot keeps requests to one site from overlapping
(``CONCURRENT_REQUESTS_PER_DOMAIN``). With several workers each has its own,
so a site would get one request per delay *per worker*, several at once.
Here both live in Redis and are decided in one Lua script per request start,
on one Redis server's clock (worker clocks, and the monotonic ``now`` the
downloader passes in, do not matter: only durations cross the wire):

* ``<prefix>:<site>`` (a hash): ``last`` start, ``strikes`` (consecutive
  429/503 answers, for the doubling backoff) and ``penalty`` (no start before
  it: ``Retry-After``); and each worker's *hold*: how many requests of the
  site it has in flight (``h:<worker>``) and until when the hold lasts
  (``u:<worker>``, Redis time). Another worker's start waits until no other
  hold is left, so requests to one site never overlap across workers; within
  the holding worker its slot's concurrency applies, as in one process. A
  hold ends on its own (``WEBROBOT_REDIS_LEASE_TTL``, renewed every third of
  it while it lasts) if its worker dies. The hash expires five to ten minutes
  after it stops mattering.
* **The clock.** Every time in the hash is on the clock of the Redis server
  that holds ``<prefix>:clock`` (one server for all sites, also on a
  cluster). Each worker reads it every few seconds (``TIME``) and carries it
  forward on its own monotonic clock, keeping the reading of the last four
  that arrived soonest: a reading is early by the time its answer took to
  arrive, never late, so the estimate is early by about one network delay
  (well under a millisecond on a LAN), and the drift of two clocks over a few
  seconds is microseconds. So a start needs no ``TIME`` of its own.
* **Keeping a hold for the next start.** When a download ends and this worker's
  slot for the site has more requests queued, the worker keeps its hold and
  lets it go with its next start, in the same script: no command at the end
  of the download. The site's next request then comes from this worker (no
  other worker would start before the interval anyway), and the others stop
  asking about a site that is busy. When nothing more of the site is queued,
  the end of the download lets the hold go (one ``HINCRBY``).

So a start is one script of three commands (``EVALSHA``, ``HGETALL``,
``HSET``; a ``PEXPIREAT`` every few minutes), the end of a download none or
one ``HINCRBY``, and a 200 answer to a site without strikes costs no command.

A start is decided just before the request goes out. A worker whose reactor
was busy in between (a blocking call, a slow callback: a cluster failover
makes Redis calls sleep) sends it late, and the site would see the next start
less than an interval after it. So the worker notes when each request left
(:meth:`SharedPoliteness.departed`, on the reactor's next turn); one that left
5 ms or more late moves ``last`` forward to that time when its download ends
(one script with the hold's release: ``EVALSHA``, ``HGET``, ``HSET``, ``HINCRBY``).
The lateness counts from when the worker read the time it asks with: a cluster
client retries a command through a failover, sleeping between tries, so the
script may run seconds after that time and record the start at it. A start
whose answer took more than a third of the hold's TTL is given back (no request,
the hold let go at once): its hold might end before the download. The downloader
frees a slot before it calls :meth:`SharedPoliteness.finished`, so the site's next
start by this worker may come first: the correction is then sent with it.

:meth:`SharedPoliteness.reserve` waits for the site's interval (the largest of
the slot's delay, robots.txt Crawl-delay/Request-rate, as this worker learnt
them from the ``robots_resolved`` signal, and the shared backoff) since the
*last start by any worker*, and for the shared penalty; :meth:`finished` (called
by :class:`webrobot.politeness.downloader.SiteDownloader` when a download ends) lets the
hold go or keeps it for the next start. A worker waiting for another's hold asks again after a quarter of
``WEBROBOT_REDIS_POLL_INTERVAL`` (at most 0.25 s), then twice as long each
time the site is still held, up to the polling interval: meanwhile the holder
crawls the site, and each question costs Redis two commands.

Keys live under ``webrobot:politeness`` (not under a crawl's prefix): two
crawls of one site share its politeness. On a Redis Cluster the site is a hash
tag (``webrobot:politeness:{<host>}``): in the slot of the robots.txt keys of its origins. While Redis cannot be reached no
request starts: :meth:`reserve` answers "wait" (source ``redis_unavailable``,
with the backoff of :class:`~webrobot.distributed.outage.Outage`), because a
start without the shared reservation could overlap another worker's request
or break the site's Crawl-delay. A hold whose release failed is released when
Redis is back.
"""

from __future__ import annotations

import logging
from collections import Counter, OrderedDict, deque
from time import monotonic
from typing import TYPE_CHECKING, Any

import redis
from scrapy import signals
from scrapy.utils.asyncio import create_looping_call

from webrobot.distributed import politenessscripts, scripts
from webrobot.distributed.frontier import new_worker_id
from webrobot.distributed.keys import cluster_enabled, redis_from_settings, site_tag
from webrobot.distributed.outage import Outage, outage_of
from webrobot.politeness.clock import DEFAULT_MAX_SITES, THROTTLE_STATUSES
from webrobot.settingsmodel.parse import read

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

#: A start whose answer took more than the hold's TTL over this is given back
#: (:meth:`SharedPoliteness._give_back`): its hold may not outlast the download.
SLOW_ANSWER = 3

#: Seconds between two readings of the Redis clock, and how many readings count.
CLOCK_REFRESH = 5.0
CLOCK_READINGS = 4
#: A reading that fails (the clock's server is failing over) is tried again a
#: second later; meanwhile the last one counts, for up to this many seconds.
CLOCK_STALE = 60.0
#: A reading whose answer took longer than this (seconds) is taken again, up to
#: CLOCK_TRIES times in all.
CLOCK_ROUND_TRIP = 0.002
CLOCK_TRIES = 3


def _ms(seconds: float) -> int:
    return max(0, round(seconds * 1000))


class SharedPoliteness:
    """:class:`webrobot.politeness.clock.Politeness` in Redis, plus :meth:`finished`."""

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
        # Ended downloads whose part of the hold this worker keeps for its next start.
        self._kept: Counter[str] = Counter()
        self._clock = scripts.register(server, politenessscripts.CLOCK, writes=False)
        self._clock_key = f"{prefix}:clock"
        # Redis ms minus this worker's monotonic ms, per reading (the largest counts).
        self._offsets: deque[float] = deque(maxlen=CLOCK_READINGS)
        self._clock_read_at = -float("inf")
        self._clock_due = -float("inf")
        self._reserve = scripts.register(server, politenessscripts.RESERVE)
        self._note = scripts.register(server, politenessscripts.NOTE)
        self._renew = scripts.register(server, politenessscripts.RENEW)
        self._late = scripts.register(server, politenessscripts.LATE)
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

    def redis_now(self) -> int:
        """The Redis clock now (ms), as this worker carries it (see the module doc):
        read again when the last reading is :data:`CLOCK_REFRESH` old. Raises
        ``redis.RedisError`` if a reading is due and fails with no recent one."""
        now = monotonic()
        if now >= self._clock_due:
            try:
                self._read_clock()
            except redis.RedisError:
                if not self._offsets or now - self._clock_read_at > CLOCK_STALE:
                    raise
                self._clock_due = now + 1.0
        return round(monotonic() * 1000 + max(self._offsets))

    def _read_clock(self) -> None:
        """One reading of the clock: the answer that came back soonest of up to
        :data:`CLOCK_TRIES` (a slow answer, one that waited for this process's
        turn, says the time too early by up to its round trip)."""
        best: tuple[float, float] | None = None  # (round trip, offset)
        for _ in range(CLOCK_TRIES):
            sent = monotonic()
            seconds, micros = self._clock(keys=[self._clock_key])
            arrived = monotonic()
            reading = (arrived - sent, int(seconds) * 1000 + int(micros) / 1000 - arrived * 1000)
            best = reading if best is None or reading < best else best
            if reading[0] <= CLOCK_ROUND_TRIP:
                break
        assert best is not None
        self._offsets.append(best[1])
        self._clock_read_at = monotonic()
        self._clock_due = self._clock_read_at + CLOCK_REFRESH

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
            args = [int(throttled), _ms(wait), KEEP_MS, self.redis_now()]
            self._note(keys=self._keys(site), args=args)
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
        # A request of the site that left late and whose download has not ended (the
        # downloader frees the slot before it says so): its correction comes first.
        late = self._late_start(site)
        if late is not None:
            try:
                self._release(site, late, 0)
            except redis.RedisError as exc:
                self._redis_error(exc)
                return self.outage.retry_in(), "redis_unavailable"
        args: list[str | int] = [self.worker_id, _ms(interval), _ms(self.backoff_base), _ms(self.backoff_max),
                max(1, _ms(self.hold_ttl)), max(1, _ms(self._busy.get(site, self.busy_poll))), KEEP_MS,
                self._kept.get(site, 0)]  # fmt: skip
        try:
            started = self.redis_now()
            asked = monotonic()  # when ``started`` was true
            wait_ms, code, struck = self._reserve(keys=self._keys(site), args=[*args, started])
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
        self._kept.pop(site, None)  # let go by this start
        self._in_flight[site] += 1
        # Lateness counts from ``asked``: the script may have run long after it (a
        # cluster client retries a command through a failover, sleeping between tries)
        # and recorded the start at ``started`` all the same.
        self._starts[site] = [started, asked, -1]
        if monotonic() - asked > self.hold_ttl / SLOW_ANSWER:
            self._give_back(site)
            return self.outage.retry_in(), "redis_unavailable"
        return 0.0, source

    def _give_back(self, site: str) -> None:
        """A start whose answer came too late to trust its hold: the hold lasts until
        the start's time plus its TTL, and may end before the download does, letting
        another worker start meanwhile. No request goes out and the hold is let go at
        once (``last`` stays: the site saw nothing at that time)."""
        self._starts[site][2] = 0  # nothing left late
        if self.stats is not None:
            self.stats.inc_value("webrobot/politeness/given_back")
        self.finished(site)

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

    def finished(self, site: str, more: bool = False) -> None:
        """A download of ``site`` that :meth:`reserve` let start has ended. With
        ``more`` (this worker has more requests of the site queued) its part of the
        hold is kept and let go by the next start; without, the whole hold this
        worker keeps for the site goes."""
        if self._in_flight[site] <= 0:
            return
        self._in_flight[site] -= 1
        late = self._late_start(site)
        if self._in_flight[site] == 0:
            del self._in_flight[site]
            self._starts.pop(site, None)
        count = 0 if more else 1 + self._kept.pop(site, 0)
        if more:
            self._kept[site] += 1
        try:
            self._release(site, late, count)
        except redis.RedisError as exc:
            self._redis_error(exc)
            self._unreleased[site] += count  # released when Redis is back

    def _late_start(self, site: str) -> int | None:
        """When this worker's latest request to ``site`` left (Redis ms), if it left
        late. :meth:`_release` moves ``last`` to it only if ``last`` is earlier (the
        worker may have been stalled past its hold, and another worker started since)."""
        entry = self._starts.get(site)
        if entry is None or entry[2] < LATE_MS:
            return None
        late = int(entry[0] + entry[2])
        entry[2] = 0
        if self.stats is not None:
            self.stats.inc_value("webrobot/politeness/left_late")
        return late

    def _release(self, site: str, late: int | None = None, count: int = 1) -> None:
        """``count`` requests of this worker's hold on ``site`` are over: one command,
        no script (a hold at zero, or past its ``u:`` time, holds nothing). A late
        start also moves ``last`` forward, in one script with the release."""
        key, field = self._keys(site)[0], f"h:{self.worker_id}"
        if late is None:
            if count:
                self.server.hincrby(key, field, -count)
            return
        self._late(keys=[key], args=[late, field, count])

    def _release_unreleased(self) -> bool:
        """Let go of the holds whose release failed; False if Redis still fails."""
        try:
            for site in list(self._unreleased):
                if self._unreleased[site] > 0:
                    self._release(site, count=self._unreleased[site])
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
        keys = [self._keys(site)[0] for site in {*self._in_flight, *self._kept}]
        if not keys:
            return
        try:
            args: list[str | int] = [self.worker_id, max(1, _ms(self.hold_ttl)), self.redis_now()]
            # On a cluster each site is a slot of its own: one script per site.
            for group in ([key] for key in keys) if self.cluster else [keys]:
                self._renew(keys=group, args=args)
        except redis.RedisError as exc:
            self._redis_error(exc)

    def close(self) -> None:
        if self._loop is not None and self._loop.running:
            self._loop.stop()
        self.release_holds()
        self.server.close()

    def release_holds(self) -> None:
        """Let go of every hold this worker has, in flight or kept (at close)."""
        for site in list(self._in_flight):
            while self._in_flight.get(site, 0) > 0:
                self.finished(site)
        for site in list(self._kept):
            try:
                self._release(site, count=self._kept.pop(site))
            except redis.RedisError as exc:
                self._redis_error(exc)  # the hold ends with its TTL

    def _redis_error(self, exc: Exception) -> None:
        self.outage.failed(exc, monotonic())
