"""The upkeep of a shared-crawl worker's leases, at every poll (Scrapy glue).

Part of :class:`~webrobot.distributed.scheduler.RedisLeaseScheduler`, which sets
the state below: every ``WEBROBOT_REDIS_POLL_INTERVAL`` it sends the worker's
heartbeat when due (one ``ZADD`` every third of ``WEBROBOT_REDIS_LEASE_TTL``),
acknowledges the leases of the requests Scrapy's engine is done with (with their
items and the links their pages found, in one script), takes back its leases
after being declared dead, puts back leases it no longer holds after a Redis
error, re-queues the leases of workers that stopped (every quarter of the lease
TTL) and wakes the engine. When Redis stays away too long it gives up: it closes
the crawl and acknowledges nothing more.
"""

from __future__ import annotations

import logging
from time import monotonic
from typing import TYPE_CHECKING, Any

import redis
from scrapy.exceptions import IgnoreRequest

from webrobot.compat import engine_in_progress, fail_queued_downloads, schedule_coro, wake_engine
from webrobot.distributed.outage import FINISH_REASON

if TYPE_CHECKING:
    from collections import deque

    from scrapy import Request
    from scrapy.crawler import Crawler

    from webrobot.distributed.frontier import LeasedFrontier
    from webrobot.distributed.items import ItemsAwaitingAck
    from webrobot.distributed.keys import CrawlKeys
    from webrobot.distributed.outage import Outage
    from webrobot.frontier.leases import LeaseTracker

logger = logging.getLogger("webrobot.distributed.scheduler")  # one logger for the scheduler

STATS = "webrobot/redis/"


class LeaseUpkeep:
    """The poll-time work of :class:`~webrobot.distributed.scheduler.RedisLeaseScheduler`."""

    crawler: Crawler
    stats: Any
    keys: CrawlKeys
    queue: LeasedFrontier | None
    leases: LeaseTracker[str, Request]
    outage: Outage
    lease_ttl: float
    reclaim_interval: float
    _disk_full: bool
    _gave_up: bool
    _items: ItemsAwaitingAck
    _unshared: deque[tuple[Request, bytes, tuple[str, int] | None]]
    _empty_until: float
    _lost: set[str]
    _warned: set[str]
    _next_renewal: float
    _next_reclaim: float
    _reconcile: bool

    if TYPE_CHECKING:

        def _added(self, request: Request, added: bool) -> None: ...

    def _acknowledge_finished(self) -> None:
        """Acknowledge the leases of requests the engine is done with, adding the
        items their pages produced to the item stream in the same script."""
        if self.queue is None or self._disk_full:
            return
        if not (self.leases or self._items or self._unshared):
            return
        inprogress = engine_in_progress(self.crawler.engine)
        if inprogress is None:
            return
        done = [lease_id for lease_id, _ in self.leases.done(inprogress)]
        items = self._items.of(done)
        if not done and not items and not self._unshared:
            return
        # The links every page found so far go in with the acknowledgements, in one script.
        links = list(self._unshared)
        held, queued = self.queue.finish(done, items, [(v, r.priority, d) for r, d, v in links])
        if any(queued):
            self._empty_until = 0.0  # not empty any more
        for _ in links:
            self._unshared.popleft()
        for (request, _, _), added in zip(links, queued, strict=True):
            self._added(request, added)
        self._items.stored(done)
        counted = len(self._lost.intersection(done))  # lost, counted when found
        self._lost.difference_update(done)
        for lease_id in done:
            self.leases.forget(lease_id)
        self._inc("items/stored", len(items))
        if not done:
            return
        self._inc("lease/acked", held)
        lost = len(done) - held - counted
        if lost > 0:
            self._inc("lease/lost", lost)
            self._warn_once(
                "lost", "%d requests were finished after their lease expired (another worker "
                "may fetch them again): raise WEBROBOT_REDIS_LEASE_TTL if the reactor is often "
                "blocked that long", lost,
            )  # fmt: skip

    def _tick(self) -> None:
        """Every poll interval: send the heartbeat when due, acknowledge, re-queue the
        leases of workers that stopped, wake the engine."""
        if self.queue is None:
            return
        if self._gave_up:
            self._drop_waiting_downloads()
            return
        contacted = False  # whether this tick asked Redis anything (an outage's end is seen)
        try:
            # The heartbeat first: an acknowledgement that fails must not stop it.
            if monotonic() >= self._next_renewal:
                self._next_renewal = monotonic() + self.lease_ttl / 3
                self.queue.heartbeat()
                contacted = True
            self._acknowledge_finished()
            if self.queue.revived:
                self._revived()
            if self._reconcile:
                self._release_strays()
            self._empty_until = 0.0  # look again: other workers may have queued requests
            if monotonic() < self._next_reclaim and not self.outage.down:
                return
            requeued, dead = self.queue.reclaim_expired()
            contacted = True
            # Workers stop rarely: looked for every reclaim interval (a lease is
            # re-queued at most that long after it expired), and at every poll while
            # there is more to re-queue or Redis is failing.
            busy = requeued or dead or self.queue.walking
            self._next_reclaim = monotonic() + (0.0 if busy else self.reclaim_interval)
            if requeued:
                self._inc("lease/expired", requeued)
                logger.info(
                    "Re-queued %d requests whose lease expired (a worker stopped)", requeued
                )
            for data in dead:
                self._inc("lease/dead")
                logger.warning(
                    "Setting aside %s: its lease expired %d times (every worker that took it "
                    "stopped); it stays in %s", self._describe(data), data[0], self.keys.dead,
                )  # fmt: skip
        except redis.RedisError as exc:
            self._redis_error(exc)
            if self.outage.given_up(monotonic()):
                self._give_up()
                return
        else:
            if contacted:
                self.outage.succeeded(monotonic())
        finally:
            if not self._gave_up:
                wake_engine(self.crawler.engine)

    def _revived(self) -> None:
        """A heartbeat found this worker declared dead (it hung longer than the lease
        TTL): the leases another worker re-queued meanwhile are lost, the others are
        its own again now that it is back in the set."""
        if self.queue is None:
            return
        missing = self.queue.missing([lid for lid in self.leases if lid not in self._lost])
        self.queue.revived = False
        self._inc("lease/revived")
        if missing:
            self._lost.update(missing)
            self._inc("lease/lost", len(missing))
        self._warn_once(
            "renew", "This worker was declared dead (it could not send its heartbeat for longer "
            "than WEBROBOT_REDIS_LEASE_TTL): %d of its leases went back to the frontier and "
            "another worker may fetch those requests too", len(missing),
        )  # fmt: skip

    def _release_strays(self) -> None:
        """After a Redis error: put back the leases in Redis under this worker's name
        that it does not hold (an acknowledgement a failover lost, a lease whose reply
        was lost). Its heartbeat would keep them alive, and the crawl undone, for ever."""
        if self.queue is None:
            return
        strays = self.queue.strays(set(self.leases))
        released = self.queue.release(strays) if strays else 0
        self._reconcile = False
        if released:
            self._inc("lease/strays", released)
            logger.info(
                "Put back %d leases this worker no longer held (lost to a Redis error or "
                "failover): their requests are fetched again", released,
            )  # fmt: skip

    def _give_up(self) -> None:
        """Redis has been away too long: close, acknowledging nothing more (what this
        worker did not acknowledge is fetched again by the next workers)."""
        self._gave_up = True
        message = self.outage.message(monotonic())
        logger.error(message)
        self.stats.set_value(STATS + "error", message)
        self._drop_waiting_downloads()
        engine = self.crawler.engine
        if engine is not None:
            schedule_coro(engine.close_spider_async(reason=FINISH_REASON))

    def _drop_waiting_downloads(self) -> None:
        """Requests waiting in the downloader for a politeness reservation would wait
        forever: fail them, so the engine can close (their leases stay unacknowledged)."""
        fail_queued_downloads(
            self.crawler.engine,
            lambda request: IgnoreRequest(f"{FINISH_REASON}: {request.url} not fetched"),
        )

    # -- helpers -------------------------------------------------------------
    def _describe(self, data: bytes) -> str:
        try:
            return str(self.queue.decode(data)) if self.queue is not None else "a request"
        except Exception:  # noqa: BLE001 - only for a log line
            return "an undecodable request"

    def _redis_error(self, exc: Exception) -> None:
        self._reconcile = True  # a write may be lost, or done without this worker knowing
        self.outage.failed(exc, monotonic())

    def _warn_once(self, key: str, msg: str, *args: Any) -> None:
        level = logging.DEBUG if key in self._warned else logging.WARNING
        self._warned.add(key)
        logger.log(level, msg, *args)

    def _inc(self, key: str, count: int = 1, prefix: str = STATS) -> None:
        if count and self.stats is not None:
            self.stats.inc_value(prefix + key, count)
