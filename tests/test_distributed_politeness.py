"""The shared per-site politeness against a real redis-server: each
SharedPoliteness is one worker; the downloader's ``now`` is deliberately
nonsense, because only the Redis clock counts."""

from __future__ import annotations

import asyncio
import threading
import time
from itertools import pairwise
from typing import Any

import pytest
import redis

from tests.components import webrobot_crawler
from tests.redisserver import RedisServer, command_calls
from webrobot.distributed import politeness as shared
from webrobot.distributed.politeness import SharedPoliteness
from webrobot.politeness.downloader import SiteDownloader

#: Holds of tenths of a second that must outlive the test's steps, starts spaced by
#: threads' own clocks, and a clock reading that must stay fresh for twenty starts: a
#: busy machine breaks them. The waits held to bounds are found by tests/tiers.py.
tight_timing = pytest.mark.serial("a hold or a spacing of tenths of a second")

SITE = "http://127.0.0.1:8000"
OTHER = "http://127.0.0.1:8001"
NOW = -1e9  # a monotonic clock of another machine: never used


def worker(server: RedisServer, **kwargs: Any) -> SharedPoliteness:
    return SharedPoliteness(server.client(), **kwargs)


def start(politeness: SharedPoliteness, site: str = SITE, delay: float = 0.0) -> tuple[float, str]:
    return politeness.reserve(site, delay, "download_delay", NOW)


def one_clock(*workers: SharedPoliteness) -> None:
    """The workers carry one reading of the Redis clock, as if they had read it at the
    same moment with the same round trip. Each worker's own reading is early by up to
    its round trip, so a worker that starts right after another may first be told to
    wait that much for the interval's end (``download_delay``), and a loaded machine
    stretches a round trip past any bound a test could set (a start after another
    worker's let go waited 5 ms). Tests of holds judge the source of a wait, not the
    clocks; how close a reading is to the Redis clock is judged apart (see
    ``test_the_clock_is_read_every_few_seconds_and_is_never_late``)."""
    for other in workers[1:]:
        other._offsets = workers[0]._offsets


def test_starts_are_one_interval_apart_whichever_worker_asks(redis_server: RedisServer) -> None:
    a, b = worker(redis_server), worker(redis_server)
    assert start(a, delay=0.5) == (0.0, "download_delay")
    a.finished(SITE)
    wait, source = start(b, delay=0.5)
    assert 0.3 < wait <= 0.5 and source == "download_delay"
    assert start(b, delay=0.5)[0] == pytest.approx(wait, abs=0.05), "waiting records nothing"
    assert start(b, site=OTHER, delay=0.5)[0] == 0.0, "another site, another clock"
    b.set_robots_delay(SITE, 2.0, "crawl_delay")
    wait, source = start(b, delay=0.5)
    assert 1.8 < wait <= 2.0 and source == "crawl_delay", (
        "this worker's Crawl-delay counts from a's start"
    )


def test_another_workers_requests_in_flight_hold_the_site(redis_server: RedisServer) -> None:
    a, b = worker(redis_server), worker(redis_server, busy_poll=0.05)
    one_clock(a, b)
    assert start(a) == (0.0, "download_delay")
    assert start(a) == (0.0, "download_delay"), "a's own slot decides a's concurrency"
    assert start(b) == (0.05, "other_worker"), "ask again in b's polling interval"
    a.finished(SITE)
    assert start(b) == (0.1, "other_worker"), "one of a's requests is still in flight"
    assert [start(b)[0] for _ in range(3)] == [0.2, 0.2, 0.2], "asked less often, up to a limit"
    a.finished(SITE)
    assert start(b) == (0.0, "download_delay")
    a.finished(SITE)  # more than it started: ignored
    assert start(a) == (0.25, "other_worker")
    b.finished(SITE)
    assert start(a)[0] == 0.0
    assert start(b) == (0.05, "other_worker"), "a start resets the wait"


def test_throttled_answers_slow_every_worker_down(redis_server: RedisServer) -> None:
    a = worker(redis_server, backoff_base=1.0, backoff_max=8.0, retry_after_max=60)
    b = worker(redis_server)
    assert start(a)[0] == 0.0
    a.note_response(SITE, 503, 86400.0, NOW)  # Retry-After: a day, capped to a minute
    a.finished(SITE)
    wait, source = start(b)
    assert 59 < wait <= 60 and source == "retry_after"
    client = redis_server.client()
    client.hdel(f"webrobot:politeness:{SITE}", "penalty")  # the minute is over
    wait, source = start(b)
    assert 0.8 < wait <= 1.0 and source == "backoff", "first strike: 1 s between starts"
    client.hdel(f"webrobot:politeness:{SITE}", "last")  # and so is that second
    assert start(b)[0] == 0.0
    b.note_response(SITE, 429, None, NOW)  # second strike: 2 s between starts
    b.finished(SITE)
    wait, source = start(a)
    assert 1.8 < wait <= 2.0 and source == "backoff"
    for _ in range(10):
        b.note_response(SITE, 503, None, NOW)
    assert 7.8 < start(a)[0] <= 8.0, "capped"
    a.note_response(SITE, 200, None, NOW)
    assert start(b)[0] == 0.0, "a good answer to any worker resets the backoff"


@tight_timing
def test_concurrent_workers_never_overlap_and_keep_the_spacing(redis_server: RedisServer) -> None:
    delay = 0.05
    spans: list[tuple[float, float]] = []
    lock = threading.Lock()

    def crawl() -> None:
        politeness = worker(redis_server, busy_poll=0.005)
        for _ in range(6):
            while (wait := start(politeness, delay=delay)[0]) > 0:
                time.sleep(wait)  # what a worker does: wait for its reserved start
            began = time.monotonic()
            politeness.departed(SITE, began)  # as the downloader tells it
            time.sleep(0.01)  # the download
            ended = time.monotonic()
            politeness.finished(SITE)
            with lock:
                spans.append((began, ended))

    threads = [threading.Thread(target=crawl) for _ in range(3)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    spans.sort()
    assert len(spans) == 18
    assert all(b[0] >= a[1] for a, b in pairwise(spans)), "a download overlapped another worker's"
    # A request that leaves under LATE_MS after its start was asked for is not
    # corrected for (by design: most leave within a round trip), so a worker whose
    # answer came slowly may begin up to that much after its start, shortening the
    # next gap; a few ms more for two workers' readings of the Redis clock.
    assert min(b[0] - a[0] for a, b in pairwise(spans)) >= delay - shared.LATE_MS / 1000 - 0.003


@tight_timing
def test_a_dead_workers_hold_expires_and_a_live_one_is_renewed(redis_server: RedisServer) -> None:
    async def test() -> None:
        dead = worker(redis_server, hold_ttl=0.3)
        alive = worker(redis_server, hold_ttl=0.3)
        other = worker(redis_server)
        dead.start()
        alive.start()
        assert start(dead)[0] == 0.0
        dead._loop.stop()  # killed
        assert start(alive, site=OTHER)[0] == 0.0
        await asyncio.sleep(0.45)  # 1.5 TTLs: both holds are past their first TTL, the point
        assert start(other)[0] == 0.0, "the dead worker's hold expired"
        assert start(other, site=OTHER)[1] == "other_worker", "the live worker's hold was renewed"
        alive.close()
        assert start(other, site=OTHER)[0] == 0.0, "closing lets its holds go"

    asyncio.run(test())


def test_site_state_expires_when_it_no_longer_matters(redis_server: RedisServer) -> None:
    client = redis_server.client()
    a = worker(redis_server)
    key = f"webrobot:politeness:{SITE}"
    start(a, delay=1.0)
    assert 0 < client.pttl(key) <= 601_000
    held_until = int(client.hget(key, f"u:{a.worker_id}"))
    assert 59_000 < held_until - int(client.time()[0]) * 1000 <= 61_000
    assert client.hget(key, f"h:{a.worker_id}") == b"1"
    a.finished(SITE)
    assert client.hget(key, f"h:{a.worker_id}") == b"0", "the hold is let go"
    # Six and a half minutes later (as the key sees it): the next start pushes the expiry again.
    now_ms = int(client.time()[0]) * 1000
    client.hset(key, "exp", now_ms + 200_000)
    client.pexpire(key, 200_000)
    assert start(a)[0] == 0.0
    assert client.pttl(key) > 590_000


def test_a_start_is_three_commands_and_the_end_of_a_download_one(
    redis_server: RedisServer,
) -> None:
    """The cost per page that docs/scaling.md states, as Redis counts it."""
    client = redis_server.client()
    a = worker(redis_server)
    start(a)  # the first start also sets the key's expiry
    a.finished(SITE)
    client.config_resetstat()
    start(a)
    a.finished(SITE)
    assert command_calls(client) == {"evalsha": 1, "hgetall": 1, "hset": 1, "hincrby": 1}


def test_a_dead_workers_hold_is_cleared_once_it_no_longer_matters(
    redis_server: RedisServer,
) -> None:
    client = redis_server.client()
    key = f"webrobot:politeness:{SITE}"
    # The dead worker's hold is ended by hand below: its TTL is the default one, as a
    # short one would give its start back whenever the answer took a third of it.
    dead, alive = worker(redis_server), worker(redis_server)
    one_clock(dead, alive)
    assert start(dead)[0] == 0.0
    client.hset(key, f"u:{dead.worker_id}", 1)  # its hold ended long ago
    assert start(alive)[0] == 0.0, "an expired hold holds nothing"
    assert client.hget(key, f"h:{dead.worker_id}") is None, "and is removed"


def test_without_redis_no_request_starts_and_the_wait_grows() -> None:
    crawler = webrobot_crawler(WEBROBOT_REDIS_URL="redis://127.0.0.1:1/0")  # nothing listens there
    crawler.stats.open_spider()
    politeness = SharedPoliteness.from_crawler(crawler)
    politeness.set_robots_delay(SITE, 5.0, "crawl_delay")
    waits = [politeness.reserve(SITE, 1.0, "download_delay", 100.0) for _ in range(4)]
    assert [source for _, source in waits] == ["redis_unavailable"] * 4, "no local fallback"
    assert [wait for wait, _ in waits] == [0.1, 0.2, 0.4, 0.8]
    politeness.note_response(SITE, 200, None, 101.0)  # no strikes known: nothing to tell Redis
    politeness.note_response(SITE, 503, None, 101.0)
    assert crawler.stats.get_value("webrobot/redis/error_count") == 5
    assert crawler.stats.get_value("webrobot/redis/outages") == 1


def test_a_hold_whose_release_failed_is_released_when_redis_is_back(tmp_path: Any) -> None:
    server = RedisServer(tmp_path, persistent=True).start()
    try:
        a, b = worker(server), worker(server)
        one_clock(a, b)
        assert start(a)[0] == 0.0
        server.stop()
        a.finished(SITE)  # fails: the hold stays in Redis
        assert start(a)[1] == "redis_unavailable"
        server.start(port=server.port)
        assert start(b) == (pytest.approx(0.25), "other_worker"), "a's hold survived the restart"
        assert start(a)[0] == 0.0, "a let its hold go first, then started"
        a.finished(SITE)
        assert start(b)[0] == 0.0
    finally:
        server.stop()


def test_the_downloader_uses_it_in_redis_mode_and_reports_finished_downloads(
    redis_server: RedisServer,
) -> None:
    crawler = webrobot_crawler(WEBROBOT_REDIS_URL=redis_server.url)
    crawler._apply_settings()
    downloader = SiteDownloader(crawler)
    assert isinstance(downloader.politeness, SharedPoliteness)
    assert downloader._finished == downloader.politeness.finished
    assert downloader._finished_takes_more, "told whether the site has more queued"
    local = SiteDownloader(webrobot_crawler())
    assert local._finished is None, "in-process politeness has no holds"


def test_a_request_that_left_late_moves_the_next_start_of_every_worker(
    redis_server: RedisServer,
) -> None:
    """A worker busy between the reservation and the send (a blocking call) sent
    its request late: the site's interval counts from when it left."""
    client = redis_server.client()
    crawler = webrobot_crawler()
    crawler.stats.open_spider()
    # A hold TTL shorter than the stall: the worker was blocked past half its hold.
    a, b = worker(redis_server, stats=crawler.stats, hold_ttl=0.15), worker(redis_server)
    assert start(a, delay=0.3) == (0.0, "download_delay")
    reserved = int(client.hget(f"webrobot:politeness:{SITE}", "last"))
    time.sleep(0.1)  # the reactor blocked before the request was written
    a.departed(SITE, time.monotonic())
    a.finished(SITE)
    moved = int(client.hget(f"webrobot:politeness:{SITE}", "last"))
    assert 100 <= moved - reserved < 200, "last is when the request left"
    wait, _ = start(b, delay=0.3)
    assert 0.25 < wait <= 0.3, "b waits a whole interval from when a's request left"
    assert crawler.stats.get_value("webrobot/politeness/left_late") == 1


def test_a_request_that_left_on_time_costs_no_command_more(
    redis_server: RedisServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    client = redis_server.client()
    a = worker(redis_server)
    start(a)
    a.finished(SITE)
    # The worker's clock stands still, so the request leaves 1 ms after its start was
    # asked for however slow the machine is (a loaded one took over LATE_MS to answer).
    asked = time.monotonic()
    monkeypatch.setattr(shared, "monotonic", lambda: asked)
    client.config_resetstat()
    start(a)
    a.departed(SITE, asked + 0.001)
    time.sleep(0.05)  # a long download: only the time before it left counts
    a.finished(SITE)
    assert command_calls(client) == {"evalsha": 1, "hgetall": 1, "hset": 1, "hincrby": 1}


def test_the_downloader_reports_when_each_request_left(redis_server: RedisServer) -> None:
    crawler = webrobot_crawler(WEBROBOT_REDIS_URL=redis_server.url)
    crawler._apply_settings()
    downloader = SiteDownloader(crawler)
    assert downloader._departed == downloader.politeness.departed
    local = SiteDownloader(webrobot_crawler())
    assert local._departed == local.politeness.departed, "in-process too"


def test_a_worker_with_more_of_the_site_queued_keeps_its_hold_for_the_next_start(
    redis_server: RedisServer,
) -> None:
    client = redis_server.client()
    a, b = worker(redis_server), worker(redis_server, busy_poll=0.05)
    one_clock(a, b)
    key = f"webrobot:politeness:{SITE}"
    assert start(a)[0] == 0.0
    client.config_resetstat()
    a.finished(SITE, more=True)
    assert command_calls(client) == {}, "keeping the hold costs no command"
    assert start(b) == (0.05, "other_worker"), "the site stays a's while a has more of it"
    assert start(a)[0] == 0.0
    assert client.hget(key, f"h:{a.worker_id}") == b"1", "the next start let the kept part go"
    a.finished(SITE, more=True)
    a.finished(SITE, more=True)  # more than it started: ignored
    a.release_holds()
    assert client.hget(key, f"h:{a.worker_id}") == b"0", "closing lets kept holds go"
    assert start(b)[0] == 0.0
    b.finished(SITE)
    assert start(a)[0] == 0.0
    a.finished(SITE)  # nothing more queued: the hold goes at once
    assert client.hget(key, f"h:{a.worker_id}") == b"0"


@tight_timing
def test_the_clock_is_read_every_few_seconds_and_is_never_late(
    redis_server: RedisServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(shared, "CLOCK_REFRESH", 0.5)
    client = redis_server.client()
    a = worker(redis_server)
    before = client.time()
    estimate = a.redis_now()
    after = client.time()
    assert (
        before[0] * 1000 + before[1] // 1000 - 1
        <= estimate
        <= after[0] * 1000 + after[1] // 1000 + 1
    )
    client.config_resetstat()
    for _ in range(20):
        start(a)
        a.finished(SITE)
    assert "time" not in command_calls(client), "a start reads no clock of its own"
    time.sleep(0.5)  # the last reading grows old: what makes a start read the clock again
    start(a)
    assert command_calls(client)["time"] >= 1, "read again once the last reading is old"


def test_a_failing_clock_reading_keeps_the_last_one_for_a_while(
    redis_server: RedisServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    a = worker(redis_server)
    first = a.redis_now()

    def failing(**kwargs: Any) -> Any:
        raise redis.ConnectionError("the clock's server is failing over")

    monkeypatch.setattr(a, "_clock", failing)
    a._clock_due = 0.0
    assert a.redis_now() >= first, "the last reading carries on"
    a._clock_due = 0.0
    a._clock_read_at -= shared.CLOCK_STALE + 1
    with pytest.raises(redis.ConnectionError):
        a.redis_now()


def test_a_late_request_never_moves_the_last_start_back(redis_server: RedisServer) -> None:
    """A worker stalled past its hold: another worker may have started since."""
    client = redis_server.client()
    key = f"webrobot:politeness:{SITE}"
    a = worker(redis_server)
    assert start(a)[0] == 0.0
    time.sleep(0.05)  # the request leaves a little after its start
    a.departed(SITE, time.monotonic())
    later = int(client.hget(key, "last")) + 10_000  # another worker's start, after a's
    client.hset(key, "last", later)
    a.finished(SITE)
    assert int(client.hget(key, "last")) == later
    assert client.hget(key, f"h:{a.worker_id}") == b"0", "the hold is let go all the same"


def slow_answers(
    politeness: SharedPoliteness, seconds: float, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The reserve script answers ``seconds`` late, as a cluster client's does when it
    retries through a failover (it sleeps between tries): the script runs at the end,
    with the time the worker read before asking."""
    reserve = politeness._reserve

    def slow(**kwargs: Any) -> Any:
        time.sleep(seconds)
        return reserve(**kwargs)

    monkeypatch.setattr(politeness, "_reserve", slow)


def test_a_start_whose_answer_came_late_counts_from_when_its_request_left(
    redis_server: RedisServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    client = redis_server.client()
    key = f"webrobot:politeness:{SITE}"
    a, b = worker(redis_server), worker(redis_server)
    slow_answers(a, 0.1, monkeypatch)
    asked = a.redis_now()
    assert start(a, delay=0.3) == (0.0, "download_delay")
    assert int(client.hget(key, "last")) - asked < 50, "recorded when the worker asked"
    a.departed(SITE, time.monotonic())  # the request leaves as soon as the answer came
    a.finished(SITE)
    assert int(client.hget(key, "last")) - asked >= 100, "moved to when it left"
    wait, _ = start(b, delay=0.3)
    assert 0.25 < wait <= 0.3, "b waits a whole interval from when a's request left"


def test_a_start_whose_answer_came_too_late_for_its_hold_is_given_back(
    redis_server: RedisServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    client = redis_server.client()
    crawler = webrobot_crawler()
    crawler.stats.open_spider()
    key = f"webrobot:politeness:{SITE}"
    # The hold lasts 0.3 s from when the worker asked; the answer takes half of it.
    a, b = worker(redis_server, stats=crawler.stats, hold_ttl=0.3), worker(redis_server)
    slow_answers(a, 0.15, monkeypatch)
    wait, source = start(a, delay=0.3)
    assert wait > 0 and source == "redis_unavailable", "no request goes out"
    assert client.hget(key, f"h:{a.worker_id}") == b"0", "the hold is let go at once"
    assert crawler.stats.get_value("webrobot/politeness/given_back") == 1
    assert not a._in_flight and not a._starts
    wait, source = start(b, delay=0.3)
    assert source == "download_delay" and wait <= 0.16, "held by no hold, only the interval"


def test_a_late_request_counts_for_the_next_start_even_before_its_download_ends(
    redis_server: RedisServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The downloader frees the slot, and may start the site's next request, before it
    says the download ended: the late request's correction comes with that start."""
    client = redis_server.client()
    key = f"webrobot:politeness:{SITE}"
    a = worker(redis_server)
    slow_answers(a, 0.1, monkeypatch)
    asked = a.redis_now()
    assert start(a, delay=0.3) == (0.0, "download_delay")
    monkeypatch.undo()
    a.departed(SITE, time.monotonic())
    wait, source = start(a, delay=0.3)  # before a.finished(SITE)
    assert source == "download_delay" and 0.25 < wait <= 0.3, "a whole interval from when it left"
    assert int(client.hget(key, "last")) - asked >= 100
    a.finished(SITE)
    assert client.hget(key, f"h:{a.worker_id}") == b"0"
