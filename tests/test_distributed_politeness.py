"""The shared per-site politeness clock against a real redis-server."""

from __future__ import annotations

import threading
import time
from itertools import pairwise

import pytest

from tests.redisserver import RedisServer
from webrobot.distributed.politeness import SharedPoliteness

SITE = "http://127.0.0.1:8000"


def test_reservations_are_one_delay_apart(redis_server: RedisServer) -> None:
    clock = SharedPoliteness(redis_server.client())
    assert clock.reserve(SITE, 0.5) == 0.0
    second = clock.reserve(SITE, 0.5)
    third = clock.reserve(SITE, 0.5)
    assert 0.3 <= second <= 0.5
    assert 0.8 <= third <= 1.0
    assert clock.reserve("http://127.0.0.1:8001", 0.5) == 0.0, "another site, another clock"
    assert clock.reserve("http://127.0.0.1:8002", 0) == 0.0
    assert clock.reserve("http://127.0.0.1:8002", 0) == 0.0


def test_concurrent_workers_get_distinct_spaced_start_times(redis_server: RedisServer) -> None:
    delay = 0.25  # longer than the burst, so every booking queues behind the last
    starts: list[float] = []
    lock = threading.Lock()

    def worker() -> None:
        clock = SharedPoliteness(redis_server.client())
        for _ in range(5):
            _, start = clock.booking(SITE, delay)  # in the Redis server's clock
            with lock:
                starts.append(start)

    threads = [threading.Thread(target=worker) for _ in range(3)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    starts.sort()
    gaps = [b - a for a, b in pairwise(starts)]
    assert len(starts) == 15
    assert all(gap == pytest.approx(delay, abs=0.0015) for gap in gaps), gaps


def test_a_site_is_held_for_one_request_at_a_time(redis_server: RedisServer) -> None:
    a = SharedPoliteness(redis_server.client())
    b = SharedPoliteness(redis_server.client())
    assert a.acquire(SITE, "a/1", delay=0, hold=30) == 0.0
    wait = b.acquire(SITE, "b/1", delay=0, hold=30)
    assert 29 < wait <= 30, "held by a: try again later"
    assert b.release(SITE, "b/1") is False, "not b's hold"
    assert a.release(SITE, "a/1") is True
    assert b.acquire(SITE, "b/1", delay=0, hold=30) == 0.0


def test_the_delay_holds_after_a_release(redis_server: RedisServer) -> None:
    clock = SharedPoliteness(redis_server.client())
    assert clock.acquire(SITE, "a/1", delay=0.3, hold=30) == 0.0
    clock.release(SITE, "a/1")
    assert 0.1 < clock.acquire(SITE, "b/1", delay=0.3, hold=30) <= 0.3, "start to start"
    time.sleep(0.3)
    assert clock.acquire(SITE, "b/1", delay=0.3, hold=30) == 0.0
    clock.release(SITE, "b/1", gap=0.5)
    assert 0.3 < clock.acquire(SITE, "c/1", delay=0, hold=30) <= 0.5, "end to start"


def test_a_dead_workers_hold_expires(redis_server: RedisServer) -> None:
    clock = SharedPoliteness(redis_server.client())
    assert clock.acquire(SITE, "dead/1", delay=0, hold=0.05) == 0.0
    deadline = time.monotonic() + 5
    while (wait := clock.acquire(SITE, "b/1", delay=0, hold=30)) > 0:
        assert wait <= 0.05
        assert time.monotonic() < deadline
        time.sleep(wait)
    assert redis_server.client().get(f"webrobot:politeness:{SITE}:hold") == b"b/1"


@pytest.mark.parametrize("delay", [0.0, 1.0])
def test_keys_expire_when_they_no_longer_matter(redis_server: RedisServer, delay: float) -> None:
    client = redis_server.client()
    SharedPoliteness(client).reserve(SITE, delay)
    ttl = client.pttl(f"webrobot:politeness:{SITE}:next")
    assert 0 < ttl <= (delay + 1) * 1000
