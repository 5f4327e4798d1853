"""The scheduler of a shared crawl: scrapy-redis's ``Scheduler`` with leases,
atomic visited-and-queue, and a definition of "done" for many workers.

What differs from ``scrapy_redis.scheduler.Scheduler`` 0.9.1, and why:

* **Leases.** Its ``next_request`` pops (deletes) a request from Redis, so a
  worker killed with requests in hand loses them. Here ``next_request`` takes
  a lease (:class:`~webrobot.distributed.frontier.LeasedFrontier`), kept
  alive by the worker's heartbeat (one ``ZADD`` every third of
  ``WEBROBOT_REDIS_LEASE_TTL``, whatever the number of leases it holds), and
  acknowledged when Scrapy's engine is *done* with it: downloaded,
  its response processed by the spider (so the links it found are queued), or
  its failure handled, or its redirect or retry queued. No Scrapy signal marks
  that moment (``response_received`` comes before the spider, errors and
  redirects have none), so the scheduler compares the requests it leased with
  the engine's in-progress set, which the engine empties exactly then
  (``ExecutionEngine._slot.inprogress``: private, present in Scrapy 2.13 to
  2.19; checked at open). Acknowledging lags by at most
  ``WEBROBOT_REDIS_POLL_INTERVAL``: the pages finished since the last poll
  are acknowledged together, in one script with their items and links (or
  earlier, when this worker's own new links wait to go in and nothing in
  the frontier comes before them: so its next request is the one it would
  take had they gone in at once).
* **Atomic visited-and-queue.** It asks the dupefilter, then pushes: a worker
  dying in between leaves a URL marked visited but never queued. Here one Lua
  script does both (when the dupefilter is :class:`.RedisVisitedFilter`).
* **Nothing is flushed** on close or start (``SCHEDULER_PERSIST`` and
  ``SCHEDULER_FLUSH_ON_START`` are ignored): with several workers, the first
  to stop would delete the others' crawl. ``webrobot-seed --reset`` does it.
* **Done means done for everyone.** A worker with nothing to do does not
  close while the frontier holds requests or any worker holds a lease; it
  closes when the crawl has had neither for ``WEBROBOT_REDIS_IDLE_CLOSE``
  seconds (0: never, wait for seeds). It does not use scrapy-redis's blocking
  pop (which stalls the reactor) or its ``RedisSpider`` idle loop.
* **Polling.** Scrapy 2.19's engine asks an idle scheduler again only every
  5 s (its heartbeat); other workers add requests at any time, so every
  ``WEBROBOT_REDIS_POLL_INTERVAL`` the scheduler sends its heartbeat (when
  due), acknowledges finished pages and wakes the engine
  (``ExecutionEngine._slot.nextcall``); every quarter of the lease TTL it
  re-queues the leases of workers that stopped (five commands: at every poll
  they were a twentieth of a shared crawl's Redis commands).
* **A leased request handed back stays leased.** A downloader middleware
  may hand a request back to the engine unchanged (the robots.txt middleware
  does, for a request whose site's robots.txt is still being fetched, and then
  holds it until the site is decided). Acknowledged then, the request would
  live only in this worker's memory and be lost if it died. Here a leased
  request the engine schedules again (``request_scheduled``) keeps its lease
  while it is held; when it comes back to the scheduler it is
  served from this worker under the same lease (not through Redis: it was
  counted visited already), and a held request that is refused
  (``webrobot.signals.request_refused``) or dropped is acknowledged.
* **The crawl report** counts a request out of this worker's frontier once
  it is in the shared one (``webrobot.signals.request_shared``; a worker's
  report describes what it fetched; the shared frontier's size is
  ``webrobot-seed``'s status line). Meta keys that only this worker's view
  of a request needs (``webrobot.signals.WORKER_LOCAL_META``) stay out of the
  shared copy.
* Stats without the ``spider=`` argument Scrapy 2.19 deprecates.
* Requests that cannot be serialized (a callback that is not a spider method,
  objects pickle refuses in ``meta``) stay in a local queue, with a warning,
  instead of failing.

What is done at every poll (the heartbeat, acknowledging, re-queueing the leases of
workers that stopped, giving up after a long Redis outage) is in
:mod:`webrobot.distributed.leaseupkeep`.
"""

from __future__ import annotations

import importlib
import logging
from collections import deque
from time import monotonic
from typing import TYPE_CHECKING, Any

import redis
from scrapy import signals
from scrapy.exceptions import CloseSpider, DontCloseSpider
from scrapy.utils.asyncio import create_looping_call
from scrapy.utils.misc import build_from_crawler, load_object
from scrapy_redis.scheduler import Scheduler

from webrobot import signals as webrobot_signals
from webrobot.compat import engine_in_progress
from webrobot.distributed.crawldone import CrawlDone
from webrobot.distributed.dupefilter import SharedVisitedFilter, crawl_spider_name
from webrobot.distributed.frontier import (
    REQUEUE_KEY,
    SERIALIZE_ERRORS,
    LeasedFrontier,
    new_worker_id,
)
from webrobot.distributed.items import PICKLE_ERRORS, ItemsAwaitingAck
from webrobot.distributed.keys import CrawlKeys, explain, redis_from_settings, safe_url
from webrobot.distributed.leasetiming import LeaseTiming
from webrobot.distributed.leaseupkeep import STATS, LeaseUpkeep
from webrobot.distributed.outage import outage_of
from webrobot.frontier.leases import LeaseTracker
from webrobot.job.diskstate import disk_of
from webrobot.settingsmodel.parse import read
from webrobot.signals import WORKER_LOCAL_META

if TYPE_CHECKING:
    from typing import Self

    from scrapy import Request, Spider
    from scrapy.crawler import Crawler
    from scrapy.http import Response
    from scrapy.settings import BaseSettings

logger = logging.getLogger(__name__)

#: Private meta key: the lease a request (or the response to it) belongs to.
LEASE_KEY = "_webrobot_lease"


class RedisLeaseScheduler(LeaseUpkeep, Scheduler):
    def __init__(self, crawler: Crawler) -> None:
        settings = crawler.settings
        self.crawler = crawler
        self.keys = CrawlKeys.from_settings(settings, crawl_spider_name(crawler))
        self.redis_url = safe_url(read(settings, "WEBROBOT_REDIS_URL"))
        self._disk_full = False  # a write failed for want of disk space: acknowledge nothing
        serializer: Any = settings.get("SCHEDULER_SERIALIZER")
        if isinstance(serializer, str):
            serializer = importlib.import_module(serializer)
        super().__init__(
            redis_from_settings(settings),
            persist=True,
            queue_key=self.keys.frontier,
            queue_cls=f"{LeasedFrontier.__module__}.{LeasedFrontier.__qualname__}",
            dupefilter=build_from_crawler(load_object(settings["DUPEFILTER_CLASS"]), crawler),
            serializer=serializer,
        )
        self.stats = crawler.stats
        timing = LeaseTiming.from_settings(settings)  # polls and looks for stopped workers
        self.lease_ttl, self.max_expiries = timing.lease_ttl, timing.max_expiries
        self.poll_interval, self.reclaim_interval = timing.poll_interval, timing.reclaim_interval
        self.done = CrawlDone(read(settings, "WEBROBOT_REDIS_IDLE_CLOSE"))
        self.worker_id = new_worker_id()
        self.queue: LeasedFrontier | None = None  # type: ignore[assignment]
        self.leases: LeaseTracker[str, Request] = LeaseTracker()  # lease ids of leased requests
        self._local: deque[Request] = deque()  # requests that cannot be serialized
        # New requests not in Redis yet: (request, data, visited slot). They go in with
        # the next acknowledgements, in the same script (or when Redis is back after
        # an outage); no lease is acknowledged before they are in.
        self._unshared: deque[tuple[Request, bytes, tuple[str, int] | None]] = deque()
        # A dupefilter whose visited marks go in with the requests, in one script; the
        # slots this worker knows are marked (its own, and the links robots.txt refuses
        # before queueing, which the filter marks itself) cost no Redis command.
        self.shared_visited = self.df if isinstance(self.df, SharedVisitedFilter) else None
        self._empty_until = 0.0  # no lease attempt before (the frontier was empty)
        self.outage = outage_of(crawler)
        self._gave_up = False
        self.store_items = read(settings, "WEBROBOT_REDIS_ITEMS_ENABLED")
        self._items = ItemsAwaitingAck()  # stored with their page's acknowledgement
        self._next_renewal = 0.0
        self._next_reclaim = 0.0
        self._reconcile = False  # look for leases this worker does not hold (a Redis error)
        # Leases found re-queued after this worker was declared dead (counted as lost).
        self._lost: set[str] = set()
        self._warned: set[str] = set()
        self._loop: Any = None
        if self.shared_visited is None:
            logger.warning(
                "DUPEFILTER_CLASS %s is not RedisVisitedFilter: the visited-URL set is not "
                "shared atomically with the frontier", type(self.df).__name__,
            )  # fmt: skip

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> Self:
        return cls(crawler)

    @classmethod
    def from_settings(cls, settings: BaseSettings) -> Self:
        raise TypeError("RedisLeaseScheduler needs a crawler: build it with from_crawler()")

    # -- life cycle --------------------------------------------------------
    def open(self, spider: Spider) -> None:
        self.spider = spider
        if engine_in_progress(self.crawler.engine) is None:
            raise RuntimeError(
                "RedisLeaseScheduler needs Scrapy's ExecutionEngine._slot.inprogress "
                "(Scrapy 2.13-2.19) to know when a leased request is done"
            )
        try:
            self.server.ping()
            self.df.open()
            queue = LeasedFrontier(
                self.server, spider, self.keys, self.serializer,
                lease_ttl=self.lease_ttl, max_expiries=self.max_expiries,
                worker_id=self.worker_id,
            )  # fmt: skip
            queue.heartbeat()  # registered before its first lease
            queued, leased = queue.counts()
        except (redis.RedisError, ValueError) as exc:
            message = f"Cannot join the shared crawl at {self.redis_url}: {explain(exc)}"
            logger.error(message)
            self.stats.set_value(STATS + "error", message)
            # Raised here, Scrapy 2.19 would skip opening the scraper and then fail
            # closing it (a traceback); from spider_opened the spider closes cleanly.
            self.crawler.signals.connect(self._refuse_to_start, signal=signals.spider_opened)
            return
        self.queue = queue
        self._next_renewal = monotonic() + self.lease_ttl / 3
        self.stats.set_value(STATS + "worker", self.worker_id)
        logger.info(
            "Joined the shared crawl %s at %s as worker %s: %d requests queued, %d leased",
            self.keys.prefix, self.redis_url, self.worker_id, queued, leased,
        )  # fmt: skip
        self.crawler.signals.connect(self._spider_idle, signal=signals.spider_idle)
        self.crawler.signals.connect(self.leases.scheduled, signal=signals.request_scheduled)
        self.crawler.signals.connect(self.leases.gone, signal=signals.request_dropped)
        self.crawler.signals.connect(self.leases.gone, signal=webrobot_signals.request_refused)
        if self.store_items:
            self.crawler.signals.connect(self._item_scraped, signal=signals.item_scraped)
        # A write that failed for want of disk space (WARC, index, feed): from then on no
        # lease is acknowledged, and the unfinished ones go back to the shared frontier
        # at close, so no page whose outcome may not be written counts as done.
        disk_of(self.crawler).on_failure(self._stop_acknowledging)
        self._loop = create_looping_call(self._tick)
        self._loop.start(self.poll_interval, now=False)

    def _stop_acknowledging(self) -> None:
        self._disk_full = True

    def _refuse_to_start(self, spider: Spider) -> None:
        raise CloseSpider("redis_unavailable")

    def close(self, reason: str) -> None:
        if self._loop is not None and self._loop.running:
            self._loop.stop()
        if self.queue is not None and self._gave_up:
            logger.info(
                "Left the shared crawl %s (%s): its %d unacknowledged leases expire and go to "
                "other workers", self.keys.prefix, reason, len(self.leases),
            )  # fmt: skip
        elif self.queue is not None:
            try:
                self._acknowledge_finished()
                if self.leases:
                    released = self.queue.release(list(self.leases))
                    self._inc("lease/released", released)
                    logger.info(
                        "Put %d unfinished requests back into the shared frontier", released
                    )
                    self._forget_all()
                self.queue.leave()
                queued, leased = self.queue.counts()
                logger.info(
                    "Left the shared crawl %s (%s): %d requests queued, %d leased",
                    self.keys.prefix, reason, queued, leased,
                )  # fmt: skip
            except redis.RedisError as exc:
                logger.error("Redis error while leaving the shared crawl: %s", exc)
        if self._local:
            logger.warning("%d requests that were never shared are dropped", len(self._local))
        if self._unshared:
            logger.warning(
                "%d new requests could not be added to the shared frontier (Redis unreachable); "
                "the pages that found them were not acknowledged and will be fetched again",
                len(self._unshared),
            )  # fmt: skip
        self.df.close(reason)
        self.server.close()

    # -- Scrapy's scheduler interface --------------------------------------
    @property
    def leases_held(self) -> int:
        """Requests of the shared frontier this worker holds a lease on now (no Redis call)."""
        return len(self.leases)

    def __len__(self) -> int:
        queued = 0
        if self.queue is not None:
            try:
                queued = len(self.queue)
            except redis.RedisError as exc:
                self._redis_error(exc)
        return self.leases.waiting + len(self._local) + len(self._unshared) + queued

    def has_pending_requests(self) -> bool:
        if self.leases.waiting or self._local or self._unshared:
            return True
        if self.queue is None:
            return False
        try:
            return len(self.queue) > 0
        except redis.RedisError as exc:
            self._redis_error(exc)
            return False

    def enqueue_request(self, request: Request) -> bool:
        if self.queue is None:
            return False
        if self.leases.handed_back(request):  # leased, handed back by a middleware: still ours
            self._inc("lease/handed_back")
            return True
        # A redirect or retry copies the meta of the request it replaces: the copy is
        # a new request, not under that lease.
        request.meta.pop(LEASE_KEY, None)
        visited: tuple[str, int] | None = None
        # What only this worker knows of the request (e.g. the crawl report's mark
        # that it is in this worker's frontier) stays out of the shared copy.
        local = {key: request.meta.pop(key) for key in WORKER_LOCAL_META if key in request.meta}
        # A link of a page fetched again after its lease expired (cluster mode): its
        # visited mark may be the expired worker's, made before it could queue it.
        requeue = bool(request.meta.pop(REQUEUE_KEY, False)) and self.queue.cluster
        try:
            data = self.queue.encode(request)
            if not request.dont_filter:
                if self.shared_visited is not None:
                    visited = self.shared_visited.visited_slot(request)
                    if requeue:
                        self.queue.fresh.add(visited)
                        self._inc("links/requeued")
                    elif visited in self.shared_visited.known:
                        self.df.log(request, self.spider)
                        return False
                elif self.df.request_seen(request):
                    self.df.log(request, self.spider)
                    return False
        except SERIALIZE_ERRORS as exc:
            return self._keep_local(request, "unserializable", f"cannot be serialized ({exc})")
        except redis.RedisError as exc:
            self._redis_error(exc)
            return self._keep_local(request, "unqueued", f"could not be checked in Redis ({exc})")
        finally:
            request.meta.update(local)
        if visited is not None and self.shared_visited is not None:
            self.shared_visited.remember(visited)
        self._unshared.append((request, data, visited))
        # On its way to the shared frontier: no longer in this worker's.
        self.crawler.signals.send_catch_log(signal=webrobot_signals.request_shared, request=request)
        return True

    def _added(self, request: Request, added: bool) -> None:
        if not added:
            self.df.log(request, self.spider)
            return
        self._inc("scheduler/enqueued", prefix="")
        self._inc("scheduler/enqueued/redis", prefix="")

    def next_request(self) -> Request | None:
        request = self.leases.next_waiting()
        if request is not None:
            self._inc("scheduler/dequeued", prefix="")
            return request
        if self._local:
            self._inc("scheduler/dequeued", prefix="")
            self._inc("scheduler/dequeued/memory", prefix="")
            return self._local.popleft()
        if self.queue is None:
            return None
        try:
            # Finished pages are acknowledged (with their items and links) every poll, in
            # one script for all of them; here only when this worker's own new links
            # wait to go in and the frontier has nothing that comes before them.
            leased = None
            if self._unshared:
                leased = self.queue.lease(before=max(r.priority for r, _, _ in self._unshared))
            elif monotonic() >= self._empty_until:
                leased = self.queue.lease()
            if leased is None and self._unshared:
                self._acknowledge_finished()
                leased = self.queue.lease()
        except redis.RedisError as exc:
            self._redis_error(exc)
            return None
        if leased is None:
            # Found empty: other workers' requests are looked for at the next poll.
            self._empty_until = monotonic() + self.poll_interval
            return None
        lease_id, request = leased
        self.leases.handed_out(lease_id, request)
        request.meta[LEASE_KEY] = lease_id
        self._inc("scheduler/dequeued", prefix="")
        self._inc("scheduler/dequeued/redis", prefix="")
        return request

    def _item_scraped(self, item: Any, response: Response | None = None, **kwargs: Any) -> None:
        """Keep the item until its page's lease is acknowledged (with it)."""
        request = getattr(response, "request", None)
        lease_id = request.meta.get(LEASE_KEY, "") if request is not None else ""
        if lease_id not in self.leases:
            lease_id = ""  # not (or no longer) under a lease: stored at the next poll
        url = getattr(response, "url", "") or ""
        try:
            self._items.add(lease_id, url, item)
        except PICKLE_ERRORS as exc:
            self._inc("items/unserializable")
            self._warn_once("item", "An item of %s cannot be stored in Redis (%s): it is only "
                            "in this worker's feeds", url, exc)  # fmt: skip

    def _forget_all(self) -> None:
        self._items.forget_leased()
        self.leases.clear()
        self._lost.clear()

    def _spider_idle(self, spider: Spider) -> None:
        """This worker has nothing to do: close only when the whole crawl is done."""
        if self.queue is None:
            return
        try:
            self._acknowledge_finished()
            queued, leased = self.queue.counts()
        except redis.RedisError as exc:
            self._redis_error(exc)
            raise DontCloseSpider from None
        if self.outage.down or self._unshared:
            raise DontCloseSpider
        work = bool(queued or leased or self.leases or self.leases.waiting or self._local)
        done_for = self.done.done_for(work=work, now=monotonic())
        if done_for is None:
            raise DontCloseSpider
        logger.info(
            "The shared crawl %s is done: nothing queued or leased for %.1f s",
            self.keys.prefix, done_for,
        )  # fmt: skip

    # -- helpers -------------------------------------------------------------
    def _keep_local(self, request: Request, reason: str, why: str) -> bool:
        self._inc(f"request/{reason}")
        self._warn_once(reason, "%s %s: kept in this worker only", request, why)
        self._local.append(request)
        self._inc("scheduler/enqueued", prefix="")
        self._inc("scheduler/enqueued/memory", prefix="")
        return True
