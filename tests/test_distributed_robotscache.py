"""Shared robots.txt decisions against a real redis-server: the cache itself, and
two robots middlewares (two workers) that share it, inside a running asyncio
loop. Whole crawls are in test_distributed_crawl.py."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable, Coroutine
from typing import Any

import pytest
from scrapy import Request, Spider
from scrapy.exceptions import IgnoreRequest

from tests.components import webrobot_crawler
from tests.redisserver import RedisServer
from webrobot.distributed.robotscache import (
    RedisRobotsCache,
    decode_decision,
    encode_decision,
)
from webrobot.robots.cache import LruRobotsCache
from webrobot.robots.fetch import RobotsFetch as _Fetch
from webrobot.robots.middleware import RobotsMiddleware
from webrobot.robots.policy import RULES, UNAVAILABLE, RobotsDecision
from webrobot.urls.sitekey import site_key

#: A claim of tenths of a second that a live worker must keep renewing while the test
#: waits: a busy machine breaks it. The other tests wait for claims to expire, or use
#: long TTLs.
tight_timing = pytest.mark.serial("a claim of tenths of a second must outlive the test's steps")

SITE = "http://a.example:80"


def crawler_for(server: RedisServer, **settings: Any) -> Any:
    crawler = webrobot_crawler(
        WEBROBOT_REDIS_URL=server.url, WEBROBOT_REDIS_POLL_INTERVAL=0.02,
        WEBROBOT_ROBOTS_CACHE_CLASS="webrobot.distributed.robotscache.RedisRobotsCache", **settings,
    )  # fmt: skip
    crawler.spidercls = type("PagesSpider", (Spider,), {"name": "pages"})
    crawler.stats.open_spider()
    return crawler


def cache_for(server: RedisServer, **settings: Any) -> RedisRobotsCache:
    return RedisRobotsCache.from_crawler(crawler_for(server, **settings))


def decision(fetched_at: float, life: float = 60.0, **fields: Any) -> RobotsDecision:
    values: dict[str, Any] = {"status": 200, "url": f"{SITE}/robots.txt", "summary": "1 rule",
                              "reason": "robots.txt answered 200"}  # fmt: skip
    values.update(fields)
    site = values.pop("site", SITE)
    return RobotsDecision(
        site, RULES, fetched_at=fetched_at, expires_at=fetched_at + life, **values
    )


def run(test: Callable[[], Coroutine[Any, Any, None]]) -> None:
    asyncio.run(test())


async def until(condition: Callable[[], Any], timeout: float = 5.0) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, "condition not met in time"
        await asyncio.sleep(0.01)


def test_a_decision_survives_the_trip_through_redis_except_its_parser() -> None:
    original = decision(1000.5, body=b"User-agent: *\nDisallow: /x\n\xff", crawl_delay=2.5,
                        crawl_delay_source="request_rate", status=None, parser=object())  # fmt: skip
    data, body = encode_decision(original)
    copy = decode_decision(data.encode(), body)
    assert copy == original  # every field but parser (excluded from comparisons)
    assert copy.parser is None and copy.body == original.body


def test_workers_see_each_others_decisions_and_keep_their_parsed_copy(
    redis_server: RedisServer,
) -> None:
    first, second = cache_for(redis_server), cache_for(redis_server)
    assert first.get(SITE) is None
    stored = decision(time.time())
    first.put(SITE, stored)
    assert first.get(SITE) is stored, "the worker's own copy, no round trip"
    seen = second.get(SITE)
    assert seen == stored and seen is not stored
    seen.parser = parsed = object()
    assert second.get(SITE).parser is parsed, "fresh: the parsed copy is reused"
    assert len(second) == 1
    client = redis_server.client()
    assert client.pttl(f"webrobot:pages:robots:{SITE}") > 29 * 86400 * 1000, "kept for stale use"

    other = "http://b.example:80"
    expired = decision(time.time() - 120, life=60, site=other)
    first.put(other, expired)
    assert second.get(other) == expired, "expired decisions are returned too (for stale use)"
    refetched = decision(time.time(), site=other)
    first.put(other, refetched)
    assert second.get(other) == refetched, (
        "an expired copy asks Redis again and finds the new decision"
    )


def test_one_worker_claims_a_site_until_it_puts_or_releases(redis_server: RedisServer) -> None:
    first, second = cache_for(redis_server), cache_for(redis_server)

    async def test() -> None:
        assert first.claim(SITE)
        assert first.claim(SITE), "claiming again renews"
        assert not second.claim(SITE)
        first.put(SITE, decision(time.time()))
        assert second.claim(SITE), "putting the decision ends the claim"
        assert not first.claim(SITE)
        second.release(SITE)
        assert first.claim(SITE)
        first.release(SITE)
        first.release(SITE)  # twice: nothing to give up
        assert second.claim(SITE)

    run(test)


@tight_timing
def test_a_dead_workers_claim_expires_and_a_live_one_is_renewed(redis_server: RedisServer) -> None:
    dead, alive, other = (cache_for(redis_server, WEBROBOT_REDIS_LEASE_TTL=0.3) for _ in range(3))

    async def test() -> None:
        assert dead.claim(SITE)
        dead._loop.stop()  # killed: no more renewals
        assert alive.claim("http://b.example:80")
        await asyncio.sleep(0.45)  # 1.5 TTLs: both claims are past their first TTL, the point
        assert other.claim(SITE), "the dead worker's claim expired"
        assert not other.claim("http://b.example:80"), "the live worker's claim was renewed"

    run(test)


def test_without_redis_no_claim_is_given_and_a_decision_is_stored_when_it_is_back(
    tmp_path: Any,
) -> None:
    server = RedisServer(tmp_path, persistent=True).start()

    async def test() -> None:
        cache, other = cache_for(server), cache_for(server)
        assert cache.claim(SITE)
        port = server.port
        server.stop()
        local = decision(time.time())
        cache.put(SITE, local)  # fetched, but Redis does not take it
        assert cache.get(SITE) is local, "this worker uses its own copy"
        assert not other.claim("http://b.example:80"), "no claim, no fetch, without Redis"
        assert cache.crawler.stats.get_value("webrobot/redis/error_count") >= 1
        assert other.crawler.stats.get_value("webrobot/redis/error_count") >= 1
        server.start(port=port)
        cache._renew()  # the renewal loop's turn
        assert other.get(SITE) == local, "stored when Redis was back: nobody fetches it again"
        assert other.claim(SITE), "and the claim was ended with it"

    try:
        run(test)
    finally:
        server.stop()


def workers_middleware(
    server: RedisServer, fetch: Callable[[str], Coroutine[Any, Any, _Fetch]]
) -> RobotsMiddleware:
    crawler = crawler_for(server)
    crawler._apply_settings()
    middleware = RobotsMiddleware.from_crawler(crawler)
    middleware._download = fetch  # type: ignore[method-assign]  # the network, for this test
    return middleware


def test_the_second_worker_waits_for_the_first_workers_decision(redis_server: RedisServer) -> None:
    released = asyncio.Event()
    fetched: list[str] = []

    async def slow_fetch(url: str) -> _Fetch:
        fetched.append(url)
        await released.wait()
        return _Fetch(
            url, 200, {"content-type": "text/plain"}, b"User-agent: *\nDisallow: /private\n"
        )

    async def must_not_fetch(url: str) -> _Fetch:
        raise AssertionError("the second worker fetched robots.txt too")

    async def test() -> None:
        first = workers_middleware(redis_server, slow_fetch)
        second = workers_middleware(redis_server, must_not_fetch)
        assert second.shared is not None and not second.hold_new, (
            "the add-on: new requests go to Redis"
        )
        allowed = asyncio.ensure_future(first.process_request(Request("http://a.example/public")))
        await until(lambda: fetched)
        refused = asyncio.ensure_future(second.process_request(Request("http://a.example/private")))
        await until(lambda: second.stats.get_value("webrobot/robots/waited"))
        await asyncio.sleep(0.1)  # a window in which the second worker must go on waiting
        assert not refused.done(), "waiting for the first worker"
        released.set()
        assert await allowed is None
        with pytest.raises(IgnoreRequest):
            await refused
        assert fetched == ["http://a.example/robots.txt"]
        assert second.stats.get_value("webrobot/robots/reused") == 1
        assert second.stats.get_value("webrobot/robots/outcome/rules") == 1
        assert first.stats.get_value("webrobot/robots/fetched") == 1
        assert first.stats.get_value("webrobot/robots/reused") is None
        # A third worker starting later obeys the stored decision at once, announced once.
        third = workers_middleware(redis_server, must_not_fetch)
        assert await third.process_request(Request("http://a.example/public")) is None
        assert await third.process_request(Request("http://a.example/other")) is None
        assert third.stats.get_value("webrobot/robots/reused") == 1

    run(test)


def test_a_worker_takes_over_when_the_fetching_worker_dies(redis_server: RedisServer) -> None:
    async def never_answers(url: str) -> _Fetch:
        await asyncio.Event().wait()
        raise AssertionError("unreachable")

    async def answers_404(url: str) -> _Fetch:
        return _Fetch(url, 404, {}, b"")

    async def test() -> None:
        crawler = crawler_for(redis_server, WEBROBOT_REDIS_LEASE_TTL=0.3)
        crawler._apply_settings()
        dying = RobotsMiddleware.from_crawler(crawler)
        dying._download = never_answers  # type: ignore[method-assign]
        asyncio.ensure_future(dying.process_request(Request("http://a.example/")))
        await until(lambda: dying.cache._claims)  # type: ignore[attr-defined]
        dying.cache._loop.stop()  # type: ignore[attr-defined]  # killed: its claim is not renewed
        claim_key = dying.cache._keys(site_key("http://a.example/"))[1]  # type: ignore[attr-defined]
        started = time.monotonic()
        left = redis_server.client().pttl(claim_key) / 1000.0  # of the dead worker's claim
        assert left > 0, "the dead worker's claim is still there"
        survivor = workers_middleware(redis_server, answers_404)
        assert await survivor.process_request(Request("http://a.example/page")) is None
        waited = time.monotonic() - started
        assert waited >= left - 0.02, "it waited for the claim to expire"
        assert survivor.stats.get_value("webrobot/robots/fetched") == 1
        assert survivor.stats.get_value(f"webrobot/robots/outcome/{UNAVAILABLE}") == 1

    run(test)


def test_in_process_caches_have_no_claims() -> None:
    crawler = webrobot_crawler()
    crawler._apply_settings()
    middleware = RobotsMiddleware.from_crawler(crawler)
    assert isinstance(middleware.cache, LruRobotsCache)
    assert middleware.shared is None and middleware.hold_new


def test_a_claim_says_whether_its_worker_obeys_the_expired_decision(
    redis_server: RedisServer,
) -> None:
    first, second = cache_for(redis_server), cache_for(redis_server)

    async def test() -> None:
        assert first.claim(SITE) and not second.stale_in_use(SITE)
        assert first.claim(SITE, stale=True) and second.stale_in_use(SITE)
        assert first.claim(SITE), "renewing keeps what was said"
        first._renew()
        assert second.stale_in_use(SITE) and not second.claim(SITE)
        assert first.claim(SITE, stale=False) and not second.stale_in_use(SITE)
        first.put(SITE, decision(time.time()))
        assert not second.stale_in_use(SITE) and second.claim(SITE)

    run(test)


def test_waiting_workers_obey_the_expired_rules_while_the_fetching_worker_does(
    redis_server: RedisServer,
) -> None:
    async def fails(url: str) -> _Fetch:
        return _Fetch(url, 503, {}, b"")

    async def must_not_fetch(url: str) -> _Fetch:
        raise AssertionError("the second worker fetched robots.txt too")

    async def test() -> None:
        expired = decision(time.time() - 120, life=60, body=b"User-agent: *\nDisallow: /private\n")
        cache_for(redis_server).put(SITE, expired)
        first = workers_middleware(redis_server, fails)
        assert await first.process_request(Request("http://a.example/public")) is None, "stale use"
        assert first.stats.get_value("webrobot/robots/stale_used") == 1
        second = workers_middleware(redis_server, must_not_fetch)
        public = second.process_request(Request("http://a.example/public"))
        assert await asyncio.wait_for(public, 5) is None, "not held while the first worker retries"
        with pytest.raises(IgnoreRequest):
            await asyncio.wait_for(second.process_request(Request("http://a.example/private")), 5)
        assert second.stats.get_value("webrobot/robots/stale_used") == 1
        assert second.stats.get_value("webrobot/robots/waited") == 1
        for middleware in (first, second):
            middleware._spider_closed()

    run(test)


def test_a_deferral_is_shared_and_goes_on_when_another_worker_takes_the_site_over(
    redis_server: RedisServer,
) -> None:
    fetches: list[tuple[str, float]] = []

    def failing(name: str) -> Callable[[str], Coroutine[Any, Any, _Fetch]]:
        async def fetch(url: str) -> _Fetch:
            fetches.append((name, time.time()))
            return _Fetch(url, 503, {}, b"")

        return fetch

    async def test() -> None:
        settings = {"WEBROBOT_REDIS_LEASE_TTL": 0.3, "WEBROBOT_ROBOTS_BACKOFF_BASE": 1.0}
        crawler = crawler_for(redis_server, **settings)
        crawler._apply_settings()
        dying = RobotsMiddleware.from_crawler(crawler)
        dying._download = failing("dying")  # type: ignore[method-assign]
        asyncio.ensure_future(dying.process_request(Request("http://a.example/")))
        await until(lambda: dying.stats.get_value("webrobot/robots/deferred"))
        dying.cache._loop.stop()  # type: ignore[attr-defined]  # killed: its claim is not renewed
        for pending in dying.pending.values():
            pending.timer.cancel()  # type: ignore[union-attr]  # and it never retries
        shared = dying.cache.deferral(SITE)  # type: ignore[attr-defined]
        assert shared is not None and shared[1] == 1, "the first failure is shared"
        crawler2 = crawler_for(redis_server, **settings)
        crawler2._apply_settings()
        survivor = RobotsMiddleware.from_crawler(crawler2)
        survivor._download = failing("survivor")  # type: ignore[method-assign]
        asyncio.ensure_future(survivor.process_request(Request("http://a.example/page")))
        await until(
            lambda: len(fetches) == 2 and survivor.stats.get_value("webrobot/robots/deferred"),
            timeout=10,
        )
        assert [name for name, _ in fetches] == ["dying", "survivor"]
        assert fetches[1][1] >= shared[2] - 0.05, "the survivor kept the dead worker's schedule"
        assert survivor.cache.deferral(SITE)[1] == 2, (
            "its backoff goes on from the dead worker's attempts"
        )  # type: ignore[attr-defined]
        assert survivor.cache.deferral(SITE)[0] == pytest.approx(shared[0], abs=0.01), (
            "and its deadline"
        )  # type: ignore[attr-defined]
        survivor._spider_closed()

    run(test)


def test_the_shared_cache_has_every_optional_part_of_a_robots_cache(
    redis_server: RedisServer,
) -> None:
    from webrobot.robots.cache import PeekableRobotsCache, SharedDeferrals, SharedRobotsCache

    cache = cache_for(redis_server)
    assert isinstance(cache, SharedRobotsCache) and isinstance(cache, SharedDeferrals)
    assert isinstance(cache, PeekableRobotsCache)
    local = LruRobotsCache()
    assert isinstance(local, PeekableRobotsCache) and not isinstance(local, SharedRobotsCache)
    assert not isinstance(local, SharedDeferrals)
