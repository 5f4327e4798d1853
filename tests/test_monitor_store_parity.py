"""The webhook outbox's contract (:class:`webrobot.monitor.store.EventOutbox`), run against
both stores: one process's SQLite folder and a shared crawl's Redis (a real redis-server)."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from tests.redisserver import RedisServer
from webrobot.distributed.keys import CrawlKeys
from webrobot.distributed.monitorstore import RedisMonitorStore, RedisOutbox
from webrobot.monitor import events
from webrobot.monitor.schedule import Check
from webrobot.monitor.snapshot import Snapshot
from webrobot.monitor.store import EventOutbox, MonitorStore

T1 = "2026-12-01T10:00:00Z"
KEYS = CrawlKeys("outbox-contract")

Opened = tuple[MonitorStore, Callable[[], EventOutbox]]


@pytest.fixture(params=["sqlite", "redis"])
def opened(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Opened]:
    if request.param == "sqlite":
        store = MonitorStore(tmp_path, webhook=True)
        yield store, store.outbox()
        store.close()
        return
    server: RedisServer = request.getfixturevalue("redis_server")
    shared = RedisMonitorStore(server.client(), KEYS, tmp_path, webhook=True)
    yield shared, lambda: RedisOutbox(server.client(), KEYS, "one", hold=5.0)
    shared.close()


def add(store: MonitorStore, count: int) -> list[str]:
    ids = []
    for n in range(count):
        url = f"http://site.test/{n}"
        event = events.new(url, T1)
        store.record(url, Snapshot(), [], T1, [event], expected=None)
        ids.append(event["id"])
    return ids


def test_a_parked_event_leaves_the_queue_and_the_ones_behind_it_are_due(opened: Opened) -> None:
    store, open_outbox = opened
    ids = add(store, 3)
    outbox = open_outbox()
    try:
        head = outbox.due(time.time())[0]
        assert head.id == ids[0]
        outbox.failed(head.seq, time.time() + 600)
        assert outbox.due(time.time()) == [], "in order: the ones behind the head wait"
        outbox.park(head, "status 503", time.time())
        assert [p.id for p in outbox.due(time.time())] == ids[1:]
        assert (outbox.parked(), outbox.waiting()) == (1, 2)
    finally:
        outbox.close()


def test_replay_puts_the_parked_back_in_their_first_order_with_fresh_tries(opened: Opened) -> None:
    store, open_outbox = opened
    ids = add(store, 4)
    outbox = open_outbox()
    try:
        due = outbox.due(time.time())
        outbox.failed(due[0].seq, time.time() + 600)
        outbox.park(due[0], "time-out", time.time())
        outbox.park(due[2], "status 500", time.time())
        outbox.delivered(due[1].seq)
        assert (outbox.parked(), outbox.waiting()) == (2, 1)
        assert outbox.replay() == 2
        again = outbox.due(time.time())
        assert [p.id for p in again] == [ids[0], ids[2], ids[3]]
        assert [p.attempts for p in again] == [0, 0, 0]
        assert (outbox.parked(), outbox.waiting()) == (0, 3)
        assert outbox.replay() == 0, "nothing parked: nothing put back twice"
    finally:
        outbox.close()


def test_the_schedule_says_which_known_pages_are_due(opened: Opened) -> None:
    store, _ = opened
    add(store, 3)
    urls = list(store.urls())
    assert list(store.due(0.0)) == urls, "never scheduled: due"
    store.set_check(urls[0], Check(1000.0, 600.0))
    store.set_check(urls[1], Check(1000.0, 60.0))
    assert store.check(urls[0]) == Check(1000.0, 600.0)
    assert store.check("http://site.test/unknown") is None
    assert list(store.due(1100.0)) == [urls[1], urls[2]]
    assert list(store.due(1600.0)) == urls
    store.forget(urls[1], [], expected=store.get(urls[1]))
    assert store.check(urls[1]) is None, "a page forgotten is not scheduled"


def test_compaction_keeps_the_newest_events_and_every_one_still_waiting(
    opened: Opened, monkeypatch: pytest.MonkeyPatch
) -> None:
    store, open_outbox = opened
    monkeypatch.setattr("webrobot.monitor.store.KEEP_EVENTS", 2)
    monkeypatch.setattr("webrobot.distributed.monitorstore.STREAM_EVENTS", 2)
    ids = add(store, 6)
    outbox = open_outbox()
    try:
        due = outbox.due(time.time())
        for pending in due[1:]:
            outbox.delivered(pending.seq)  # the first still waits for the webhook
        store.compact()
        assert outbox.waiting() == 1
        assert outbox.due(time.time())[0].id == ids[0]
        assert [e["id"] for e in store.recent(10)][:2] == [ids[5], ids[4]]
    finally:
        outbox.close()
