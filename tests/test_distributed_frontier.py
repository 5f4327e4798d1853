"""The leased frontier against a real redis-server."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import pytest
import redis
from scrapy import Request, Spider

from tests.redisserver import RedisServer, command_calls
from webrobot.distributed.frontier import LeasedFrontier
from webrobot.distributed.items import entry_items
from webrobot.distributed.keys import CrawlKeys

#: Leases of tenths of a second that must outlive the test's own steps: a busy machine
#: pausing the test longer than a TTL loses a lease. The other tests only wait for a
#: lease to expire (a busy machine delays that, and they wait), or use long TTLs.
tight_timing = pytest.mark.serial("a lease of tenths of a second must outlive the test's steps")

KEYS = CrawlKeys("test:crawl")


class PageSpider(Spider):
    name = "pages"

    def parse_page(self, response: Any) -> None:
        pass


def make_frontier(server: RedisServer, **kwargs: Any) -> LeasedFrontier:
    return LeasedFrontier(server.client(), PageSpider(), KEYS, **kwargs)


def wait_for(condition: Callable[[], Any], timeout: float = 5.0) -> Any:
    deadline = time.monotonic() + timeout
    while not (result := condition()):
        assert time.monotonic() < deadline, "condition not met in time"
        time.sleep(0.01)
    return result


def redis_ms(client: redis.Redis) -> float:
    """The Redis server's time, in milliseconds."""
    seconds, micros = client.time()
    return float(seconds * 1000 + micros / 1000)


def depth_request(url: str, depth: int) -> Request:
    return Request(url, priority=-depth, meta={"depth": depth})  # DEPTH_PRIORITY = 1


def test_leases_come_out_breadth_first_and_round_trip(redis_server: RedisServer) -> None:
    frontier = make_frontier(redis_server)
    spider = frontier.spider
    frontier.push(depth_request("http://a/deep", 2))
    frontier.push(Request("http://a/mid", priority=-1, meta={"depth": 1}, callback=spider.parse_page,
                          headers={"Referer": "http://a/"}))  # fmt: skip
    frontier.push(depth_request("http://a/", 0))
    urls = []
    while leased := frontier.lease():
        lease_id, request = leased
        assert lease_id.startswith(frontier.worker_id + "/")
        urls.append(request.url)
        if request.url == "http://a/mid":
            assert request.callback == spider.parse_page
            assert request.meta == {"depth": 1}
            assert request.headers[b"Referer"] == b"http://a/"
    assert urls == ["http://a/", "http://a/mid", "http://a/deep"]
    assert frontier.counts() == (0, 3)


def test_ack_ends_a_lease_once(redis_server: RedisServer) -> None:
    frontier = make_frontier(redis_server)
    frontier.push(depth_request("http://a/", 0))
    frontier.push(depth_request("http://a/b", 1))
    first, _ = frontier.lease()  # type: ignore[misc]
    assert frontier.counts() == (1, 1)
    assert frontier.ack([first]) == 1
    assert frontier.counts() == (1, 0)
    assert frontier.ack([first]) == 0, "already acknowledged"
    assert redis_server.client().hlen(KEYS.leased) == 0


def test_add_marks_visited_and_queues_atomically(redis_server: RedisServer) -> None:
    frontier = make_frontier(redis_server)
    request = depth_request("http://a/", 0)
    data = frontier.encode(request)
    visited = ("test:crawl:visited:0", 12345)
    assert frontier.add(data, request.priority, visited) is True
    assert frontier.add(data, request.priority, visited) is False
    assert frontier.counts() == (1, 0)
    assert redis_server.client().sismember("test:crawl:visited:0", 12345)
    other = frontier.encode(depth_request("http://a/other", 0))
    assert frontier.add(other, 0, None) and frontier.add(other, 0, None), "unfiltered"
    assert frontier.counts() == (2, 0)


@tight_timing
def test_expired_leases_go_back_to_the_frontier(redis_server: RedisServer) -> None:
    frontier = make_frontier(redis_server, lease_ttl=0.05)
    frontier.push(depth_request("http://a/", 0))
    lease_id, _ = frontier.lease()  # type: ignore[misc]
    assert frontier.reclaim_expired() == (0, []), "not expired yet"
    assert wait_for(lambda: frontier.reclaim_expired()[0]) == 1
    assert frontier.counts() == (1, 0)
    assert frontier.ack([lease_id]) == 0, "the worker that comes back too late learns it"
    lease_id, request = frontier.lease()  # type: ignore[misc]
    assert request.url == "http://a/"
    stored = redis_server.client().hget(KEYS.leased, lease_id)
    assert stored is not None and stored.split(b" ", 1)[1][0] == 1, "one expiry counted"


@tight_timing
def test_the_workers_heartbeat_keeps_its_leases(redis_server: RedisServer) -> None:
    frontier = make_frontier(redis_server, lease_ttl=0.3)
    client = redis_server.client()
    frontier.push(depth_request("http://a/", 0))
    lease_id, _ = frontier.lease()  # type: ignore[misc]
    assert client.zrange(KEYS.leases, 0, -1) == [frontier.worker_id.encode()], "a worker, no lease"
    deadline = float(client.zscore(KEYS.leases, frontier.worker_id) or 0)
    for _ in range(6):  # 0.6 s in all, twice the TTL
        time.sleep(0.1)
        assert frontier.heartbeat() is False, "registered all along"
        assert frontier.reclaim_expired() == (0, [])
    assert float(client.zscore(KEYS.leases, frontier.worker_id) or 0) > deadline
    assert frontier.missing([lease_id, "gone/1"]) == ["gone/1"]
    assert frontier.ack([lease_id]) == 1
    frontier.leave()
    assert client.zcard(KEYS.leases) == 0


def test_a_request_that_keeps_killing_workers_is_set_aside(redis_server: RedisServer) -> None:
    frontier = make_frontier(redis_server, lease_ttl=0.02, max_expiries=2)
    frontier.push(depth_request("http://a/poison", 0))
    frontier.lease()
    assert wait_for(lambda: frontier.reclaim_expired()[0]) == 1
    frontier.lease()
    dead = wait_for(lambda: frontier.reclaim_expired()[1])
    assert frontier.decode(dead[0]).url == "http://a/poison"
    assert frontier.counts() == (0, 0)
    assert redis_server.client().llen(KEYS.dead) == 1


def test_no_expiry_limit_with_zero(redis_server: RedisServer) -> None:
    frontier = make_frontier(redis_server, lease_ttl=0.02, max_expiries=0)
    frontier.push(depth_request("http://a/", 0))
    for _ in range(4):
        assert frontier.lease() is not None
        assert wait_for(lambda: frontier.reclaim_expired()[0]) == 1
    assert frontier.counts() == (1, 0)


def test_release_returns_requests_without_counting_an_expiry(redis_server: RedisServer) -> None:
    frontier = make_frontier(redis_server)
    frontier.push(depth_request("http://a/", 0))
    frontier.push(depth_request("http://a/b", 1))
    first, _ = frontier.lease()  # type: ignore[misc]
    frontier.lease()
    assert frontier.release([first, "unknown/7"]) == 1
    assert frontier.counts() == (1, 1)
    lease_id, request = frontier.lease()  # type: ignore[misc]
    assert request.url == "http://a/"
    assert redis_server.client().hget(KEYS.leased, lease_id).split(b" ", 1)[1][0] == 0  # type: ignore[union-attr]


def test_undecodable_entries_are_set_aside(
    redis_server: RedisServer, caplog: pytest.LogCaptureFixture
) -> None:
    frontier = make_frontier(redis_server)
    client = redis_server.client()
    client.zadd(KEYS.frontier, {b"\x00not a pickle": -5})
    frontier.push(depth_request("http://a/", 0))
    _, request = frontier.lease()  # type: ignore[misc]
    assert request.url == "http://a/"
    assert client.lrange(KEYS.dead, 0, -1) == [b"\x00not a pickle"]
    assert frontier.counts() == (0, 1)
    assert "cannot be decoded" in caplog.text


def test_scripts_survive_a_script_flush(redis_server: RedisServer) -> None:
    frontier = make_frontier(redis_server)
    frontier.push(depth_request("http://a/", 0))
    redis_server.client().script_flush()
    assert frontier.lease() is not None  # redis-py reloads the script (EVALSHA -> EVAL)


def test_redis_errors_reach_the_caller(redis_server: RedisServer) -> None:
    frontier = make_frontier(redis_server)
    redis_server.stop()
    with pytest.raises(redis.ConnectionError):
        frontier.lease()


def test_a_lease_sent_twice_takes_one_request(redis_server: RedisServer) -> None:
    """redis-py sends a command again after a timeout or a dropped connection
    (scrapy-redis's ``retry_on_timeout``): a lease the server had already made
    must not take a second request under the same id, losing the first."""
    frontier = make_frontier(redis_server)
    frontier.push(depth_request("http://a/", 0))
    frontier.push(depth_request("http://a/b", 1))
    keys, args = [KEYS.frontier, KEYS.leased], ["w/1"]
    first = frontier._lease(keys=keys, args=args)
    again = frontier._lease(keys=keys, args=args)  # the same command, sent again
    assert again == first
    assert frontier.counts() == (1, 1), "the other request is still queued"
    assert frontier.release(["w/1"]) == 1
    assert sorted(leased[1].url for leased in iter(frontier.lease, None)) == [
        "http://a/",
        "http://a/b",
    ]


def test_an_ack_stores_the_items_of_its_pages_in_the_same_step(redis_server: RedisServer) -> None:
    frontier = make_frontier(redis_server)
    frontier.push(Request("http://a/1"))
    frontier.push(Request("http://a/2"))
    first, second = frontier.lease(), frontier.lease()
    assert first is not None and second is not None
    client = redis_server.client()
    assert frontier.ack([first[0]], [("http://a/1", b"one"), ("http://a/1#2", b"two")]) == 1
    entries = client.xrange(KEYS.items)
    assert [pair for _, e in entries for pair in entry_items(e)] == [
        ("http://a/1", b"one"),
        ("http://a/1#2", b"two"),
    ]
    assert len(entries) == 1, "the items of one acknowledgement share one entry"
    assert client.hlen(KEYS.leased) == 1 and client.zcard(KEYS.leases) == 1
    # Items without a lease (a request that never was shared) go in alone.
    assert frontier.ack([], [("http://a/x", b"x")]) == 0
    assert client.xlen(KEYS.items) == 2
    # A lease that expired and went to another worker: its items are stored all the same.
    assert frontier.ack(["nobody/1", second[0]], [("http://a/2", b"2")]) == 1
    assert client.xlen(KEYS.items) == 3
    # Many items: one entry per 200.
    many = [(f"http://a/many#{n}", str(n).encode()) for n in range(450)]
    assert frontier.ack([], many) == 0
    entries = client.xrange(KEYS.items)[3:]
    assert [len(list(entry_items(e))) for _, e in entries] == [200, 200, 50]
    assert [pair for _, e in entries for pair in entry_items(e)] == [(k, v) for k, v in many]
    assert frontier.counts() == (0, 0)


@tight_timing
def test_after_a_gap_in_reclaims_leases_get_a_grace_period_to_be_renewed(
    redis_server: RedisServer,
) -> None:
    frontier = make_frontier(redis_server, lease_ttl=0.4)
    frontier.push(Request("http://a/1"))
    assert frontier.reclaim_expired() == (0, [])
    leased = frontier.lease()
    assert leased is not None
    time.sleep(0.5)  # nobody reclaimed for longer than half a TTL: Redis (or every worker) was away
    assert frontier.reclaim_expired() == (0, []), "expired, but its worker had no chance to beat"
    assert frontier.heartbeat() is False, "not declared dead"
    time.sleep(0.1)  # within the grace period: still nothing to re-queue
    assert frontier.reclaim_expired() == (0, [])
    # No heartbeat again: it expires a TTL later, reclaimed by regular polls.
    assert wait_for(lambda: frontier.reclaim_expired()[0], timeout=3) == 1


def test_higher_priority_first_and_first_in_first_out_within_a_priority(
    redis_server: RedisServer,
) -> None:
    frontier = make_frontier(redis_server)
    order = [("a", 0), ("b", 5), ("c", 0), ("d", 5), ("e", -1), ("f", 0), ("g", 10**9)]
    for name, priority in order[:3]:
        frontier.push(Request(f"http://x/{name}", priority=priority))
    # Several in one script keep their order too.
    frontier.finish(
        [],
        (),
        [(None, p, frontier.encode(Request(f"http://x/{n}", priority=p))) for n, p in order[3:]],
    )
    leased = []
    while (taken := frontier.lease()) is not None:
        leased.append(taken[1].url.rsplit("/", 1)[1])
    assert leased == ["g", "b", "d", "a", "c", "f", "e"]


def test_finishing_pages_is_one_round_trip_with_links_marked_visited(
    redis_server: RedisServer,
) -> None:
    frontier = make_frontier(redis_server)
    frontier.push(Request("http://x/page"))
    lease_id, _ = frontier.lease()  # type: ignore[misc]
    client = redis_server.client()
    client.config_resetstat()
    links = [
        (("test:crawl:visited:1", n % 3), 0, frontier.encode(Request(f"http://x/{n}")))
        for n in range(5)
    ]
    held, queued = frontier.finish([lease_id], [("http://x/page", b"item")], links)
    assert (held, queued) == (1, [True, True, True, False, False]), "the 4th and 5th: digests seen"
    calls = {k: v["calls"] for k, v in client.info("commandstats").items()}
    assert calls.get("cmdstat_evalsha") == 1
    assert frontier.counts() == (3, 0)
    assert client.xlen(KEYS.items) == 1


def test_slow_polling_delays_re_queueing_but_cannot_stop_it(redis_server: RedisServer) -> None:
    frontier = make_frontier(redis_server, lease_ttl=0.2)
    frontier.push(Request("http://a/1"))
    frontier.reclaim_expired()
    assert frontier.lease() is not None
    deadline = time.monotonic() + 3
    requeued = 0
    while not requeued and time.monotonic() < deadline:
        time.sleep(0.15)  # every poll comes after a gap longer than half a TTL
        requeued = frontier.reclaim_expired()[0]
    assert requeued == 1


def test_a_lease_is_three_commands_and_the_heartbeat_on_the_redis_clock(
    redis_server: RedisServer,
) -> None:
    """The cost per page that docs/scaling.md states, as Redis counts it."""
    frontier = make_frontier(redis_server, lease_ttl=30)
    client = redis_server.client()
    frontier.push(Request("http://a/1"))
    frontier.push(Request("http://a/2"))
    frontier.push(Request("http://a/3"))
    frontier.lease()  # registers the worker, loads the script
    frontier.reclaim_expired()  # reads the Redis clock
    client.config_resetstat()
    frontier.lease()
    assert command_calls(client) == {"evalsha": 1, "zpopmin": 1, "hsetnx": 1}
    started = redis_ms(client)
    client.config_resetstat()
    frontier.heartbeat()
    assert command_calls(client) == {"zadd": 1}, "the Redis clock carried forward"
    finished = redis_ms(client)
    # One TTL from the Redis server's time when it beat (a little early, by the time
    # the reading of the Redis clock took to arrive; never late).
    deadline = float(client.zscore(KEYS.leases, frontier.worker_id) or 0)
    assert started + 29_000 < deadline <= finished + 30_001, "one TTL from the Redis server's time"
    # A worker whose reading of the Redis clock is old reads it again.
    frontier._redis_clock = (0, time.monotonic() - 11)
    started = redis_ms(client)
    frontier.heartbeat()
    finished = redis_ms(client)
    deadline = float(client.zscore(KEYS.leases, frontier.worker_id) or 0)
    assert started + 29_000 < deadline <= finished + 30_001


def test_the_heartbeat_and_the_poll_cost_the_same_for_one_lease_or_fifty(
    redis_server: RedisServer,
) -> None:
    client = redis_server.client()
    costs = []
    for n in (1, 50):
        client.flushall()
        frontier = make_frontier(redis_server, lease_ttl=30)
        for i in range(n):
            frontier.push(Request(f"http://a/{i}"))
        while frontier.lease():
            pass
        frontier.reclaim_expired()  # the first poll walks the leases (see below)
        client.config_resetstat()
        frontier.heartbeat()
        frontier.reclaim_expired()
        costs.append(command_calls(client))
        assert frontier.counts() == (0, n)
    poll = {"zadd": 1, "evalsha": 1, "time": 1, "hmget": 1, "hset": 1, "zrangebyscore": 1}
    assert costs[0] == poll and costs[1] == poll


@tight_timing
def test_a_worker_declared_dead_wakes_up_with_lost_and_valid_leases(
    redis_server: RedisServer,
) -> None:
    """A worker that hung longer than the TTL: what another worker re-queued is
    lost to it, what it leased since is its own once its heartbeat is back."""
    hung = make_frontier(redis_server, lease_ttl=0.3)
    other = make_frontier(redis_server, lease_ttl=30)
    client = redis_server.client()
    for i in range(4):
        hung.push(Request(f"http://a/{i}"))
    first, second = hung.lease(), hung.lease()
    assert first is not None and second is not None
    time.sleep(0.35)  # hung: no heartbeat for longer than the TTL
    assert wait_for(lambda: other.reclaim_expired()[0]) == 2, "both re-queued"
    assert client.zscore(KEYS.leases, hung.worker_id) is None, "declared dead"
    # It wakes and takes a lease before its heartbeat could register it again
    # (the command was on its way): that lease belongs to no worker in the set.
    hung._beat = time.monotonic()
    third = hung.lease()
    assert third is not None
    assert hung.heartbeat() is True and hung.revived, "it learns that it was declared dead"
    assert hung.missing([first[0], second[0], third[0]]) == [first[0], second[0]]
    assert other.reclaim_expired() == (0, [])
    client.hdel(KEYS.clock, "walked")  # the next poll walks the leases again
    assert other.reclaim_expired() == (0, []), "back in the set: its lease is valid again"
    assert hung.ack([third[0]]) == 1
    assert hung.ack([first[0]]) == 0, "lost: went back to the frontier"
    assert hung.counts() == (3, 0)


def test_a_lease_whose_worker_is_not_in_the_set_is_never_left_behind(
    redis_server: RedisServer,
) -> None:
    """A worker declared dead that leased before its heartbeat and then died for good:
    its lease belongs to nobody in the set, and goes back within about a TTL."""
    ghost = make_frontier(redis_server, lease_ttl=0.2)
    poller = make_frontier(redis_server, lease_ttl=0.2)
    ghost.push(Request("http://a/1"))
    ghost.push(Request("http://a/2"))
    poller.heartbeat()
    assert poller.reclaim_expired() == (0, [])  # a walk: nothing to take
    ghost._beat = time.monotonic()  # it believes it is registered, and is not
    lease_id, _ = ghost.lease()  # type: ignore[misc]
    assert poller.reclaim_expired() == (0, []), "no walk due yet"
    assert redis_server.client().hexists(KEYS.leased, lease_id)
    deadline = time.monotonic() + 3
    requeued = 0
    while not requeued and time.monotonic() < deadline:
        poller.heartbeat()
        requeued = poller.reclaim_expired()[0]
        time.sleep(0.02)
    assert requeued == 1
    assert poller.counts() == (2, 0)


def test_a_dead_workers_leases_are_re_queued_over_several_polls(
    redis_server: RedisServer,
) -> None:
    frontier = make_frontier(redis_server, lease_ttl=0.1)
    poller = make_frontier(redis_server, lease_ttl=30)
    for i in range(1000):  # a hash Redis keeps as a table, walked in pages
        frontier.push(Request(f"http://a/{i}"))
    leased = [frontier.lease() for _ in range(600)]
    assert all(leased)
    time.sleep(0.15)  # past the 0.1 s TTL: every lease expired, the worker never beat
    polls, requeued = 0, 0
    while requeued < 600:
        polls += 1
        assert polls <= 100
        requeued += poller.reclaim_expired(walk=100)[0]
    assert polls > 1 and requeued == 600
    assert poller.counts() == (1000, 0)


def test_a_lease_can_give_way_to_requests_about_to_be_queued(redis_server: RedisServer) -> None:
    """A worker whose own new links are not queued yet takes a request only if it
    comes before them (else it queues them first): the order is as if they were in."""
    frontier = make_frontier(redis_server)
    frontier.push(Request("http://x/low", priority=-2))
    frontier.push(Request("http://x/mid", priority=0))
    assert frontier.lease(before=1) is None, "a priority-1 link would come first"
    assert frontier.counts() == (2, 0), "nothing taken"
    _, first = frontier.lease(before=0)  # type: ignore[misc]
    assert first.url == "http://x/mid", "queued earlier at the same priority: first"
    assert frontier.lease(before=-1) is None
    _, second = frontier.lease(before=-2)  # type: ignore[misc]
    assert second.url == "http://x/low"
    assert frontier.lease(before=-2) is None and frontier.counts() == (0, 2)
