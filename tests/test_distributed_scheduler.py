"""The shared-crawl scheduler against a real redis-server, inside a running
asyncio loop (so its polling really runs), with the engine reduced to what the
scheduler reads from it: the set of requests in progress and the call that
wakes it. Whole crawls are in test_distributed_crawl.py."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable, Coroutine
from types import SimpleNamespace
from typing import Any

import pytest
from scrapy import Request, Spider, signals
from scrapy.exceptions import DontCloseSpider
from scrapy.utils.test import get_crawler
from twisted.python.failure import Failure

from tests.redisserver import RedisServer
from webrobot import signals as webrobot_signals
from webrobot.distributed.frontier import LeasedFrontier
from webrobot.distributed.keys import CrawlKeys
from webrobot.distributed.scheduler import RedisLeaseScheduler
from webrobot.settingsmodel.parse import defaults

#: Leases of tenths of a second that the scheduler's heartbeat must keep alive while
#: the test waits, or polls counted in a second: a busy machine breaks both. The other
#: tests only wait for a lease to expire or a timeout to fire, or use long TTLs.
tight_timing = pytest.mark.serial("a lease of tenths of a second must outlive the test's steps")

KEYS = CrawlKeys("webrobot:pages")


class PagesSpider(Spider):
    name = "pages"


class EngineSlot:
    def __init__(self) -> None:
        self.inprogress: set[Request] = set()
        self.nextcall = SimpleNamespace(schedule=self.wake)
        self.wakeups = 0

    def wake(self) -> None:
        self.wakeups += 1


def run(test: Callable[[], Coroutine[Any, Any, None]]) -> None:
    asyncio.run(test())


async def until(condition: Callable[[], Any], timeout: float = 5.0) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, "condition not met in time"
        await asyncio.sleep(0.01)


def make_scheduler(server: RedisServer, **overrides: Any) -> tuple[RedisLeaseScheduler, EngineSlot]:
    settings = {k: v for k, v in defaults().items() if k.startswith("WEBROBOT_REDIS")}
    settings.update(
        WEBROBOT_REDIS_URL=server.url, WEBROBOT_REDIS_POLL_INTERVAL=0.02,
        DUPEFILTER_CLASS="webrobot.distributed.dupefilter.RedisVisitedFilter", **overrides,
    )  # fmt: skip
    crawler = get_crawler(PagesSpider, settings)
    crawler.stats.open_spider()
    slot = EngineSlot()
    crawler.engine = SimpleNamespace(_slot=slot)  # type: ignore[assignment]
    scheduler = RedisLeaseScheduler.from_crawler(crawler)
    scheduler.open(PagesSpider())
    return scheduler, slot


def idle_verdict(scheduler: RedisLeaseScheduler) -> str:
    results = scheduler.crawler.signals.send_catch_log(
        signals.spider_idle, spider=scheduler.spider, dont_log=DontCloseSpider
    )
    for _, result in results:
        if isinstance(result, Failure) and result.check(DontCloseSpider):
            return "wait"
    return "close"


def queue(scheduler: RedisLeaseScheduler) -> LeasedFrontier:
    assert scheduler.queue is not None, "the scheduler did not join the crawl"
    return scheduler.queue


def stat(scheduler: RedisLeaseScheduler, key: str) -> Any:
    return scheduler.crawler.stats.get_value(key, 0)


def test_a_request_is_acknowledged_once_the_engine_is_done_with_it(
    redis_server: RedisServer,
) -> None:
    async def scenario() -> None:
        scheduler, engine = make_scheduler(redis_server)
        assert scheduler.enqueue_request(Request("http://a/")) is True
        assert scheduler.enqueue_request(Request("http://a/")) is False
        assert scheduler.has_pending_requests() and len(scheduler) == 1
        request = scheduler.next_request()
        assert request is not None and request.url == "http://a/"
        engine.inprogress.add(request)  # what ExecutionEngine._download does
        assert scheduler.next_request() is None
        await asyncio.sleep(0.1)  # five polls in which nothing may be acknowledged
        assert queue(scheduler).counts() == (0, 1), "leased while the engine works on it"
        engine.inprogress.discard(request)
        await until(lambda: queue(scheduler).counts() == (0, 0))
        assert stat(scheduler, "webrobot/redis/lease/acked") == 1
        assert stat(scheduler, "scheduler/enqueued/redis") == 1
        assert stat(scheduler, "scheduler/dequeued/redis") == 1
        assert stat(scheduler, "dupefilter/filtered") == 1
        assert engine.wakeups > 0, "polling wakes the engine"
        scheduler.close("finished")

    run(scenario)


def test_workers_wait_until_the_whole_crawl_is_done(redis_server: RedisServer) -> None:
    async def scenario() -> None:
        scheduler, _ = make_scheduler(redis_server, WEBROBOT_REDIS_IDLE_CLOSE=0.3)
        other = LeasedFrontier(redis_server.client(), PagesSpider(), KEYS)  # another worker
        scheduler.enqueue_request(Request("http://a/"))
        assert idle_verdict(scheduler) == "wait", "a request is queued"
        lease_id, _ = other.lease()  # type: ignore[misc]
        assert idle_verdict(scheduler) == "wait", "another worker holds a lease"
        other.ack([lease_id])
        started = time.monotonic()
        await until(lambda: idle_verdict(scheduler) == "close")
        assert time.monotonic() - started >= 0.3, "done for WEBROBOT_REDIS_IDLE_CLOSE first"
        scheduler.close("finished")

    run(scenario)


def test_idle_close_zero_waits_for_seeds_forever(redis_server: RedisServer) -> None:
    async def scenario() -> None:
        scheduler, _ = make_scheduler(redis_server, WEBROBOT_REDIS_IDLE_CLOSE=0)
        await asyncio.sleep(0.1)  # five polls, and still no close: the point
        assert idle_verdict(scheduler) == "wait"
        scheduler.close("shutdown")

    run(scenario)


@tight_timing
def test_leases_live_while_a_request_waits(redis_server: RedisServer) -> None:
    async def scenario() -> None:
        scheduler, engine = make_scheduler(redis_server, WEBROBOT_REDIS_LEASE_TTL=0.3)
        scheduler.enqueue_request(Request("http://a/"))
        request = scheduler.next_request()
        engine.inprogress.add(request)  # type: ignore[arg-type]
        await asyncio.sleep(1.0)  # three TTLs
        assert queue(scheduler).counts() == (0, 1), "kept by the heartbeat, not re-queued"
        assert stat(scheduler, "webrobot/redis/lease/expired") == 0
        client = redis_server.client()
        assert client.zrange(KEYS.leases, 0, -1) == [scheduler.worker_id.encode()]
        scheduler.close("shutdown")
        assert client.zcard(KEYS.leases) == 0, "the worker left the set"

    run(scenario)


@tight_timing
def test_a_worker_declared_dead_counts_its_lost_leases_once_and_keeps_the_others(
    redis_server: RedisServer,
) -> None:
    async def scenario() -> None:
        scheduler, engine = make_scheduler(redis_server, WEBROBOT_REDIS_LEASE_TTL=0.3)
        for path in ("a", "b", "c"):
            scheduler.enqueue_request(Request(f"http://a/{path}"))
        await until(lambda: queue(scheduler).counts() == (3, 0))
        taken = [scheduler.next_request(), scheduler.next_request()]
        engine.inprogress.update(taken)  # type: ignore[arg-type]
        time.sleep(0.4)  # noqa: ASYNC251 - a hung worker: its loop blocked longer than the TTL
        other = LeasedFrontier(redis_server.client(), PagesSpider(), KEYS, lease_ttl=30)
        assert other.reclaim_expired()[0] == 2, "declared dead: its two leases re-queued"
        # It wakes up and leases: its heartbeat goes first (it was away too long).
        third = scheduler.next_request()
        assert third is not None
        engine.inprogress.add(third)
        await until(lambda: stat(scheduler, "webrobot/redis/lease/revived") == 1)
        assert stat(scheduler, "webrobot/redis/lease/lost") == 2
        await asyncio.sleep(0.5)  # more than a TTL: its new lease lives
        assert stat(scheduler, "webrobot/redis/lease/expired") == 0
        assert queue(scheduler).counts() == (2, 1)
        engine.inprogress.clear()  # all three done
        await until(lambda: stat(scheduler, "webrobot/redis/lease/acked") == 1)
        assert stat(scheduler, "webrobot/redis/lease/lost") == 2, "counted once"
        assert queue(scheduler).counts() == (2, 0)
        scheduler.close("shutdown")

    run(scenario)


def test_closing_puts_unfinished_requests_back(redis_server: RedisServer) -> None:
    async def scenario() -> None:
        scheduler, engine = make_scheduler(redis_server)
        scheduler.enqueue_request(Request("http://a/"))
        engine.inprogress.add(scheduler.next_request())  # type: ignore[arg-type]
        scheduler.close("shutdown")
        frontier = LeasedFrontier(redis_server.client(), PagesSpider(), KEYS)
        assert frontier.counts() == (1, 0)
        assert stat(scheduler, "webrobot/redis/lease/released") == 1

    run(scenario)


def test_a_dead_workers_leases_come_back(redis_server: RedisServer) -> None:
    async def scenario() -> None:
        dead = LeasedFrontier(redis_server.client(), PagesSpider(), KEYS, lease_ttl=0.1)
        dead.push(Request("http://a/"))
        assert dead.lease() is not None  # ... and its worker is killed
        # Stopped workers are looked for every quarter of a TTL: 0.1 s here.
        scheduler, _ = make_scheduler(redis_server, WEBROBOT_REDIS_LEASE_TTL=0.4)
        assert scheduler.next_request() is None
        await until(scheduler.has_pending_requests)
        request = scheduler.next_request()
        assert request is not None and request.url == "http://a/"
        assert stat(scheduler, "webrobot/redis/lease/expired") == 1
        scheduler.close("finished")

    run(scenario)


def test_unserializable_requests_stay_local(redis_server: RedisServer) -> None:
    async def scenario() -> None:
        scheduler, _ = make_scheduler(redis_server)

        def not_a_spider_method(response: Any) -> None:
            pass

        request = Request("http://a/x", callback=not_a_spider_method)
        assert scheduler.enqueue_request(request) is True
        assert stat(scheduler, "webrobot/redis/request/unserializable") == 1
        assert queue(scheduler).counts() == (0, 0)
        assert scheduler.has_pending_requests()
        assert scheduler.next_request() is request
        scheduler.close("finished")

    run(scenario)


def test_redis_going_away_pauses_and_what_was_found_meanwhile_goes_in_when_it_is_back(
    tmp_path: Any,
) -> None:
    server = RedisServer(tmp_path, persistent=True).start()

    async def scenario() -> None:
        scheduler, slot = make_scheduler(server)
        assert scheduler.enqueue_request(Request("http://a/")) is True
        page = scheduler.next_request()
        assert page is not None
        slot.inprogress.add(page)
        server.stop()
        assert scheduler.next_request() is None, "nothing is taken without Redis"
        link = Request("http://a/link")
        assert scheduler.enqueue_request(link) is True, "kept until Redis is back"
        assert scheduler.next_request() is None, "not fetched by this worker alone"
        slot.inprogress.discard(page)  # the page is done: its lease waits for the link
        await until(lambda: stat(scheduler, "webrobot/redis/outages") == 1)  # a poll saw it
        assert idle_verdict(scheduler) == "wait"
        assert stat(scheduler, "webrobot/redis/outages") == 1
        server.start(port=server.port)
        await until(lambda: stat(scheduler, "webrobot/redis/lease/acked") == 1)
        assert queue(scheduler).counts() == (1, 0), "the link is shared, the page acknowledged"
        assert scheduler.next_request().url == "http://a/link"
        scheduler.close("finished")

    try:
        run(scenario)
    finally:
        server.stop()


def test_a_lease_a_failover_brought_back_after_its_ack_is_put_back(tmp_path: Any) -> None:
    """A replica that had not received an acknowledgement still has the lease: its
    worker's heartbeat would keep it for ever, so after the outage the worker puts
    back the leases under its name that it does not hold."""
    server = RedisServer(tmp_path, persistent=True).start()

    async def scenario() -> None:
        # An idle worker asks Redis something every quarter of a TTL: 0.75 s here.
        scheduler, slot = make_scheduler(server, WEBROBOT_REDIS_LEASE_TTL=3.0)
        for path in ("done", "busy"):
            scheduler.enqueue_request(Request(f"http://a/{path}"))
        await until(lambda: queue(scheduler).counts() == (2, 0))
        done, busy = scheduler.next_request(), scheduler.next_request()
        assert done is not None and busy is not None
        slot.inprogress.add(busy)
        client = server.client()
        lease_id = next(iter(scheduler.leases))
        stored = client.hget(KEYS.leased, lease_id)
        assert stored is not None
        await until(lambda: stat(scheduler, "webrobot/redis/lease/acked") == 1)
        client.hset(KEYS.leased, lease_id, stored)  # the failover lost the acknowledgement
        server.stop()
        await until(lambda: stat(scheduler, "webrobot/redis/outages") == 1)
        server.start(port=server.port)
        await until(lambda: stat(scheduler, "webrobot/redis/lease/strays") == 1)
        assert queue(scheduler).counts() == (1, 1), "put back; the request in progress still held"
        again = scheduler.next_request()
        assert again is not None and again.url == "http://a/done", "fetched again"
        slot.inprogress.clear()
        await until(lambda: queue(scheduler).counts() == (0, 0))
        scheduler.close("finished")

    try:
        run(scenario)
    finally:
        server.stop()


def test_redis_away_longer_than_the_timeout_closes_the_worker(redis_server: RedisServer) -> None:
    async def scenario() -> None:
        scheduler, _ = make_scheduler(redis_server, WEBROBOT_REDIS_OUTAGE_TIMEOUT=0.3)
        closed: list[str] = []

        async def close_spider_async(reason: str) -> None:
            closed.append(reason)

        scheduler.crawler.engine.close_spider_async = close_spider_async  # type: ignore[union-attr]
        redis_server.stop()
        await until(lambda: closed == ["redis_unavailable"])
        assert "WEBROBOT_REDIS_OUTAGE_TIMEOUT=0.3" in stat(scheduler, "webrobot/redis/error")
        scheduler.close("redis_unavailable")

    run(scenario)


def test_its_length_survives_redis_going_away(redis_server: RedisServer) -> None:
    """The progress line asks len(scheduler) every interval; an exception there
    would stop its looping call for the rest of the crawl."""

    async def scenario() -> None:
        scheduler, _ = make_scheduler(redis_server)
        assert scheduler.enqueue_request(Request("http://a/")) is True
        assert len(scheduler) == 1
        scheduler._tick()  # shared
        assert len(scheduler) == 1
        redis_server.stop()
        assert len(scheduler) == 0
        assert scheduler.enqueue_request(Request("http://a/b")) is True  # kept until Redis is back
        assert len(scheduler) == 1
        scheduler.close("finished")

    run(scenario)


def schedule_again(
    scheduler: RedisLeaseScheduler, engine: EngineSlot, request: Request, held: bool
) -> None:
    """What ExecutionEngine.crawl does with a request a downloader middleware
    handed back: request_scheduled (where the robots middleware may hold it),
    then the scheduler unless held; then the engine is done with the download."""
    scheduler.crawler.signals.send_catch_log(
        signals.request_scheduled, request=request, spider=scheduler.spider
    )
    if not held:
        assert scheduler.enqueue_request(request) is True
    engine.inprogress.discard(request)


@tight_timing
def test_a_request_handed_back_and_held_keeps_its_lease(redis_server: RedisServer) -> None:
    async def scenario() -> None:
        scheduler, engine = make_scheduler(redis_server, WEBROBOT_REDIS_LEASE_TTL=0.3)
        scheduler.enqueue_request(Request("http://a/"))
        request = scheduler.next_request()
        assert request is not None
        engine.inprogress.add(request)
        schedule_again(scheduler, engine, request, held=True)  # robots.txt of a/ is being fetched
        await asyncio.sleep(0.5)  # more than a TTL held: the heartbeat must keep the lease
        assert queue(scheduler).counts() == (0, 1), "held: still leased (renewed), not acknowledged"
        assert scheduler.next_request() is None and not scheduler.has_pending_requests()
        assert idle_verdict(scheduler) == "wait"
        schedule_again(
            scheduler, engine, request, held=False
        )  # released: the engine crawls it again
        assert scheduler.has_pending_requests() and len(scheduler) == 1
        await asyncio.sleep(0.1)  # five polls in which the lease must not be acknowledged
        assert queue(scheduler).counts() == (0, 1), "back in this worker's hands, same lease"
        assert scheduler.next_request() is request, "served from this worker, not through Redis"
        engine.inprogress.add(request)
        engine.inprogress.discard(request)  # downloaded and processed
        await until(lambda: queue(scheduler).counts() == (0, 0))
        assert stat(scheduler, "webrobot/redis/lease/acked") == 1
        assert stat(scheduler, "webrobot/redis/lease/handed_back") == 1
        assert stat(scheduler, "scheduler/enqueued/redis") == 1, "queued in Redis once"
        scheduler.close("finished")

    run(scenario)


def test_a_held_request_that_is_refused_is_acknowledged(redis_server: RedisServer) -> None:
    async def scenario() -> None:
        scheduler, engine = make_scheduler(redis_server)
        scheduler.enqueue_request(Request("http://a/private"))
        request = scheduler.next_request()
        engine.inprogress.add(request)  # type: ignore[arg-type]
        schedule_again(scheduler, engine, request, held=True)  # type: ignore[arg-type]
        await asyncio.sleep(0.1)  # five polls in which a held lease must not be acknowledged
        assert queue(scheduler).counts() == (0, 1)
        scheduler.crawler.signals.send_catch_log(  # robots.txt disallows it
            webrobot_signals.request_refused,
            request=request,
            reason="robots_txt",
            site="http://a:80",
        )
        await until(lambda: queue(scheduler).counts() == (0, 0))
        assert stat(scheduler, "webrobot/redis/lease/acked") == 1
        scheduler.close("finished")

    run(scenario)


def test_a_held_request_refused_as_it_is_scheduled_again_is_acknowledged(
    redis_server: RedisServer,
) -> None:
    """The robots.txt middleware releases a held request once its site is decided and
    refuses it in its own receiver of ``request_scheduled``, which runs before the
    scheduler's: the lease must not be parked again after the refusal."""

    async def scenario() -> None:
        scheduler, engine = make_scheduler(redis_server)
        signals_ = scheduler.crawler.signals
        decided: list[bool] = []

        def robots_middleware(request: Request, **kwargs: Any) -> None:
            if decided:  # the site is decided now: it disallows the request (then not queued)
                signals_.send_catch_log(webrobot_signals.request_refused, request=request,
                                        reason="robots_txt", site="http://a:80")  # fmt: skip

        # Connected before the scheduler's receiver, as the middleware is in a crawl.
        signals_.disconnect(scheduler.leases.scheduled, signal=signals.request_scheduled)
        signals_.connect(robots_middleware, signal=signals.request_scheduled, weak=False)
        signals_.connect(scheduler.leases.scheduled, signal=signals.request_scheduled)
        scheduler.enqueue_request(Request("http://a/private"))
        request = scheduler.next_request()
        assert request is not None
        engine.inprogress.add(request)
        schedule_again(scheduler, engine, request, held=True)  # robots.txt of a/ is being fetched
        decided.append(True)
        schedule_again(scheduler, engine, request, held=True)  # released, refused at once
        await until(lambda: queue(scheduler).counts() == (0, 0))
        assert stat(scheduler, "webrobot/redis/lease/acked") == 1
        assert idle_verdict(scheduler) == "wait"  # done for WEBROBOT_REDIS_IDLE_CLOSE first
        scheduler.close("finished")

    run(scenario)


def test_a_held_request_goes_back_to_the_frontier_when_the_worker_closes(
    redis_server: RedisServer,
) -> None:
    async def scenario() -> None:
        scheduler, engine = make_scheduler(redis_server)
        scheduler.enqueue_request(Request("http://a/"))
        request = scheduler.next_request()
        engine.inprogress.add(request)  # type: ignore[arg-type]
        schedule_again(scheduler, engine, request, held=True)  # type: ignore[arg-type]
        scheduler.close("shutdown")
        frontier = LeasedFrontier(redis_server.client(), PagesSpider(), KEYS)
        assert frontier.counts() == (1, 0), "not acknowledged, not lost"

    run(scenario)


@tight_timing
def test_stopped_workers_are_looked_for_every_quarter_of_a_ttl_not_every_poll(
    redis_server: RedisServer,
) -> None:
    """Re-queueing a stopped worker's leases costs five commands; a poll every
    20 ms must not pay them each time while no worker stops."""

    async def scenario() -> None:
        client = redis_server.client()
        scheduler, _ = make_scheduler(redis_server, WEBROBOT_REDIS_LEASE_TTL=0.8)
        assert scheduler.reclaim_interval == pytest.approx(0.2)
        await asyncio.sleep(0.1)  # the first look at open is not counted
        client.config_resetstat()
        await asyncio.sleep(1.0)  # about 50 polls
        reclaims = client.info("commandstats").get("cmdstat_zrangebyscore", {}).get("calls", 0)
        assert 3 <= reclaims <= 8, reclaims
        dead = LeasedFrontier(client, PagesSpider(), KEYS, lease_ttl=0.1)
        dead.push(Request("http://a/"))
        assert dead.lease() is not None  # ... and its worker is killed
        await until(scheduler.has_pending_requests, timeout=2.0)  # within TTL + a quarter
        scheduler.close("finished")

    run(scenario)
