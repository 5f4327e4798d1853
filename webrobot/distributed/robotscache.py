"""robots.txt decisions shared by every worker of a crawl, and who fetches them.

``WEBROBOT_ROBOTS_CACHE_CLASS`` in Redis mode: the cache of
:mod:`webrobot.robots.cache` plus its shared-cache methods (``claim``,
``release``, ``poll_interval``), so one worker fetches a site's robots.txt and
the others wait for its decision and obey it, with the expiry the fetching
worker computed (the same rules as in one process: ``WEBROBOT_ROBOTS_TTL``,
``..._MIN_TTL``, ``Cache-Control``/``Expires``, ``..._STALE_MAX``).

* A decision is a hash ``<crawl>:robots:<site>`` (``decision``: JSON of the
  :class:`~webrobot.robots.policy.RobotsDecision` fields but ``body`` and
  ``parser``; ``body``: the parsed bytes). It expires from Redis when even its
  stale use is over (``expires_at + WEBROBOT_ROBOTS_STALE_MAX``).
* A claim is ``<crawl>:robots:<site>:claim`` = this worker's id, with an
  expiry of ``WEBROBOT_REDIS_LEASE_TTL`` that the worker renews every third
  of it while it fetches (or retries a failing fetch). A worker that dies
  stops renewing; the others then claim the site themselves. While the
  claiming worker retries a failed re-fetch and obeys the expired decision
  meanwhile (stale use), its claim says so (``|stale``), and the waiting
  workers obey the expired decision too (:meth:`stale_in_use`).
* A site whose robots.txt fails is *deferred*: its deferral
  (``<crawl>:robots:<site>:deferral``, a hash: ``first`` failure, ``attempts``,
  ``next`` attempt, Unix times) is shared, so a worker that takes the claim
  over from a dead one goes on with the same backoff and the same
  ``WEBROBOT_ROBOTS_DEFER_MAX`` deadline, and waits for the next attempt's time.
* ``put`` stores the decision, ends the deferral and this worker's claim in one script, so
  a worker that claims after it finds the decision (and the middleware
  checks once more after claiming).
* Each worker keeps the decisions it used (up to ``WEBROBOT_ROBOTS_CACHE_SITES``)
  with their parsed rules, and asks Redis again only when its copy expired:
  no Redis round trip per request, no robots.txt parsed per request.

Times in decisions are Unix times of the worker that fetched (as in one
process); workers on several machines need clocks kept in step (NTP).
If Redis fails, the cache answers from its own copies, and a site without one
waits (no claim is given without Redis: the site's robots.txt is fetched by one
worker, when Redis is back). A decision that could not be stored is stored
again with the next renewal, so the other workers need not fetch it too.
"""

from __future__ import annotations

import json
import logging
import time
from collections import OrderedDict
from time import monotonic
from typing import TYPE_CHECKING, Any

import redis
from scrapy import signals
from scrapy.utils.asyncio import create_looping_call

from webrobot.distributed import scripts
from webrobot.distributed.dupefilter import crawl_spider_name
from webrobot.distributed.frontier import new_worker_id
from webrobot.distributed.keys import CrawlKeys, redis_from_settings
from webrobot.distributed.outage import outage_of
from webrobot.robots.policy import RobotsDecision
from webrobot.settingsmodel.parse import read

if TYPE_CHECKING:
    from typing import Self

    from scrapy.crawler import Crawler

logger = logging.getLogger(__name__)

# A claim's value is the worker id, plus STALE while that worker obeys the expired decision.
STALE = "|stale"
_MINE = (
    "local holder = redis.call('GET', KEYS[#KEYS])\n"
    "local mine = holder == ARGV[1] or holder == ARGV[1] .. '" + STALE + "'\n"
)

# KEYS: decision, deferral, claim   ARGV: worker id, decision JSON, body, expire-at ms (0: none)
_PUT = (
    _MINE
    + """
redis.call('HSET', KEYS[1], 'decision', ARGV[2], 'body', ARGV[3])
if tonumber(ARGV[4]) > 0 then redis.call('PEXPIREAT', KEYS[1], ARGV[4]) else redis.call('PERSIST', KEYS[1]) end
redis.call('DEL', KEYS[2])
if mine then redis.call('DEL', KEYS[3]) end
return 1
"""
)

# KEYS: claim   ARGV: worker id, ttl ms, flag ('': keep, '0': fetching, '1': obeying the stale
# decision)   -> 1 if this worker holds the claim now
_CLAIM = (
    _MINE
    + """
if holder and not mine then return 0 end
local value = ARGV[1]
if ARGV[3] == '1' or (ARGV[3] == '' and holder == ARGV[1] .. '"""
    + STALE
    + """') then
  value = value .. '"""
    + STALE
    + """'
end
redis.call('SET', KEYS[1], value, 'PX', ARGV[2])
return 1
"""
)

# KEYS: claim   ARGV: worker id, ttl ms   -> 1 if still this worker's (renewed)
_RENEW = (
    _MINE
    + """
if not mine then return 0 end
return redis.call('PEXPIRE', KEYS[1], ARGV[2])
"""
)

# KEYS: claim   ARGV: worker id
_RELEASE = (
    _MINE
    + """
if mine then return redis.call('DEL', KEYS[1]) end
return 0
"""
)

_FIELDS = ("site", "outcome", "status", "fetched_at", "expires_at", "url",
           "crawl_delay", "crawl_delay_source", "summary", "reason")  # fmt: skip


def encode_decision(decision: RobotsDecision) -> tuple[str, bytes]:
    """The stored form: JSON of the fields but ``body`` and ``parser``, and the body."""
    fields = {name: getattr(decision, name) for name in _FIELDS}
    return json.dumps(fields, separators=(",", ":")), bytes(decision.body)


def decode_decision(data: bytes | str, body: bytes | str) -> RobotsDecision:
    fields: dict[str, Any] = json.loads(data)
    return RobotsDecision(
        site=str(fields["site"]), outcome=str(fields["outcome"]), status=fields.get("status"),
        fetched_at=float(fields["fetched_at"]), expires_at=float(fields["expires_at"]),
        url=str(fields.get("url") or ""), body=body if isinstance(body, bytes) else body.encode(), crawl_delay=fields.get("crawl_delay"),
        crawl_delay_source=fields.get("crawl_delay_source"), summary=str(fields.get("summary") or ""),
        reason=str(fields.get("reason") or ""),
    )  # fmt: skip


class RedisRobotsCache:
    def __init__(self, crawler: Crawler) -> None:
        settings = crawler.settings
        self.crawler = crawler
        self.server = redis_from_settings(settings)
        self.keys = CrawlKeys.from_settings(settings, crawl_spider_name(crawler))
        self.prefix = self.keys.robots
        self.max_sites = read(settings, "WEBROBOT_ROBOTS_CACHE_SITES")
        self.stale_max = read(settings, "WEBROBOT_ROBOTS_STALE_MAX")
        self.claim_ttl = read(settings, "WEBROBOT_REDIS_LEASE_TTL")
        if self.claim_ttl <= 0:
            raise ValueError(f"WEBROBOT_REDIS_LEASE_TTL must be positive, got {self.claim_ttl}")
        self.poll_interval = min(
            max(read(settings, "WEBROBOT_REDIS_POLL_INTERVAL"), 0.01), self.claim_ttl / 3
        )
        self.worker_id = new_worker_id()
        self._local: OrderedDict[str, RobotsDecision] = OrderedDict()
        self._claims: set[str] = set()
        self._unsaved: dict[str, RobotsDecision] = {}  # decisions Redis did not take yet
        self._put = scripts.register(self.server, _PUT)
        self._claim = scripts.register(self.server, _CLAIM)
        self._renew_claim = scripts.register(self.server, _RENEW)
        self._release = scripts.register(self.server, _RELEASE)
        self._loop: Any = None
        crawler.signals.connect(self._spider_closed, signal=signals.spider_closed)

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> Self:
        return cls(crawler)

    def _keys(self, site: str) -> tuple[str, str]:
        key = self.keys.robots_key(site)
        return key, f"{key}:claim"

    # -- the cache interface ------------------------------------------------
    def get(self, site: str) -> RobotsDecision | None:
        local = self._local.get(site)
        if local is not None:
            self._local.move_to_end(site)
            if local.fresh(time.time()):
                return local
        try:
            data, body = self.server.hmget(self._keys(site)[0], ["decision", "body"])
        except redis.RedisError as exc:
            self._redis_error(exc)
            return local
        if data is None:
            return local
        try:
            stored = decode_decision(data, body or b"")
        except (ValueError, TypeError, KeyError) as exc:
            logger.error("Ignoring an unreadable robots.txt decision of %s in Redis: %s", site, exc)
            return local
        if local is not None and local.fetched_at == stored.fetched_at:
            return local  # the same decision: keep the parsed rules
        self._remember(site, stored)
        return stored

    def peek(self, site: str) -> RobotsDecision | None:
        """This worker's copy of the site's decision (no Redis command)."""
        return self._local.get(site)

    def put(self, site: str, decision: RobotsDecision) -> None:
        self._remember(site, decision)
        self._claims.discard(site)
        self._unsaved[site] = decision
        self._save()

    def _save(self) -> bool:
        """Store the decisions not stored yet (ending this worker's claims)."""
        for site, decision in list(self._unsaved.items()):
            data, body = encode_decision(decision)
            expire_at = decision.expires_at + self.stale_max if self.stale_max > 0 else 0
            keys = [self._keys(site)[0], self._deferral_key(site), self._keys(site)[1]]
            try:
                self._put(keys=keys, args=[self.worker_id, data, body, round(expire_at * 1000)])
            except redis.RedisError as exc:
                self._redis_error(exc)
                self._start_renewing()  # tries again every third of the claim TTL
                return False
            del self._unsaved[site]
        return True

    def __len__(self) -> int:
        return len(self._local)

    # -- who fetches ----------------------------------------------------------
    def claim(self, site: str, *, stale: bool | None = None) -> bool:
        """Claim (or renew) the site's fetch; ``stale=True`` tells the other workers
        that this one obeys the expired decision while it retries, ``False`` that
        it no longer does, ``None`` keeps what was said."""
        flag = "" if stale is None else str(int(stale))
        try:
            mine = bool(
                self._claim(keys=self._keys(site)[1:], args=[self.worker_id, self._ttl_ms(), flag])
            )
        except redis.RedisError as exc:
            self._redis_error(exc)
            return False  # wait and ask again: no fetch without the claim
        if mine:
            self._claims.add(site)
            self._start_renewing()
        return mine

    def stale_in_use(self, site: str) -> bool:
        """Does the worker that holds the site's claim obey its expired decision?"""
        try:
            holder = self.server.get(self._keys(site)[1])
        except redis.RedisError as exc:
            self._redis_error(exc)
            return False
        return isinstance(holder, bytes) and holder.endswith(STALE.encode())

    def release(self, site: str) -> None:
        self._claims.discard(site)
        try:
            self._release(keys=self._keys(site)[1:], args=[self.worker_id])
        except redis.RedisError as exc:
            self._redis_error(exc)

    # -- deferrals -------------------------------------------------------------
    def _deferral_key(self, site: str) -> str:
        return f"{self.keys.robots_key(site)}:deferral"

    def deferral(self, site: str) -> tuple[float, int, float] | None:
        try:
            first, attempts, later = self.server.hmget(
                self._deferral_key(site), ["first", "attempts", "next"]
            )
        except redis.RedisError as exc:
            self._redis_error(exc)
            return None
        if first is None:
            return None
        try:
            return float(first), int(attempts or 0), float(later or 0)
        except ValueError:
            return None

    def note_deferral(
        self, site: str, first_failure: float, attempts: int, next_attempt: float
    ) -> None:
        """Share the deferral; it outlives the next attempt by a claim TTL and a day
        at most (``put`` ends it sooner)."""
        key = self._deferral_key(site)
        keep = max(0.0, next_attempt - time.time()) + self.claim_ttl + 86_400
        try:
            pipe = self.server.pipeline(transaction=True)
            pipe.hset(
                key,
                mapping={
                    "first": repr(first_failure),
                    "attempts": attempts,
                    "next": repr(next_attempt),
                },
            )
            pipe.pexpire(key, round(keep * 1000))
            pipe.execute()
        except redis.RedisError as exc:
            self._redis_error(exc)

    # -- helpers --------------------------------------------------------------
    def _ttl_ms(self) -> int:
        return max(1, round(self.claim_ttl * 1000))

    def _remember(self, site: str, decision: RobotsDecision) -> None:
        self._local[site] = decision
        self._local.move_to_end(site)
        while self.max_sites > 0 and len(self._local) > self.max_sites:
            self._local.popitem(last=False)

    def _start_renewing(self) -> None:
        if self._loop is None:
            self._loop = create_looping_call(self._renew)
            self._loop.start(self.claim_ttl / 3, now=False)

    def _renew(self) -> None:
        if self._unsaved and not self._save():
            return
        for site in list(self._claims):
            try:
                if not self._renew_claim(
                    keys=self._keys(site)[1:], args=[self.worker_id, self._ttl_ms()]
                ):
                    self._claims.discard(site)  # expired and taken: that worker fetches too
            except redis.RedisError as exc:
                self._redis_error(exc)
                return

    def _spider_closed(self) -> None:
        if self._loop is not None and self._loop.running:
            self._loop.stop()
        for site in list(self._claims):
            self.release(site)
        self.server.close()

    def _redis_error(self, exc: Exception) -> None:
        outage_of(self.crawler).failed(exc, monotonic())
