"""The monitor's stores keep one contract (webrobot.monitor.store.PageStore): the same
tests run against the one-folder SQLite store and a shared crawl's store in a real
redis-server."""

from __future__ import annotations

import itertools
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from scrapy.settings import Settings

from tests.redisserver import RedisServer
from webrobot.distributed.keys import CrawlKeys
from webrobot.distributed.monitorstore import RedisMonitorStore
from webrobot.monitor import events
from webrobot.monitor.schedule import Check
from webrobot.monitor.snapshot import Snapshot
from webrobot.monitor.store import FEED, MonitorStore, PageStore

T1, T2, T3 = "2026-11-27T10:00:00Z", "2026-11-28T10:00:00Z", "2026-11-29T10:00:00Z"
_CRAWLS = itertools.count()

Opener = Callable[..., PageStore]


@pytest.fixture(params=["sqlite", "redis"])
def open_store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Opener]:
    """Opens the store of one monitor folder (the same memory each time it is called)."""
    opened: list[PageStore] = []
    if request.param == "sqlite":

        def open_sqlite(webhook: bool = False) -> PageStore:
            opened.append(MonitorStore(tmp_path / "watch", webhook=webhook))
            return opened[-1]

        opener: Opener = open_sqlite
    else:
        server: RedisServer = request.getfixturevalue("redis_server")
        keys = CrawlKeys(f"webrobot:contract:{next(_CRAWLS)}")
        settings = Settings({"WEBROBOT_REDIS_URL": server.url})

        def open_redis(webhook: bool = False) -> PageStore:
            opened.append(
                RedisMonitorStore(
                    server.client(),
                    keys,
                    tmp_path / "watch",
                    webhook=webhook,
                    settings=settings,
                    hold=5.0,
                )
            )
            return opened[-1]

        opener = open_redis
    yield opener
    for store in opened:
        store.close()


def test_each_store_implements_the_protocol(open_store: Opener) -> None:
    store = open_store()
    assert isinstance(store, PageStore) and issubclass(type(store), PageStore)


def test_a_recorded_page_is_read_back_and_known_oldest_first(open_store: Opener) -> None:
    store = open_store()
    first, second = "http://site.test/first", "http://site.test/second"
    assert store.get(first) is None and len(store) == 0
    assert store.record(first, Snapshot(text=("One.",)), ["rule|term|x"], T1,
                        [events.new(first, T1)])  # fmt: skip
    assert store.record(second, Snapshot(text=("Two.",)), [], T2, [events.new(second, T2)])
    record = store.get(first)
    assert record is not None
    assert record.snapshot == Snapshot(text=("One.",)) and record.matches == {"rule|term|x"}
    assert list(store.urls()) == [first, second] and len(store) == 2
    # The same folder opened again remembers it.
    assert open_store().get(second) is not None


def test_a_change_is_recorded_against_the_record_judged(open_store: Opener) -> None:
    store = open_store()
    url = "http://site.test/a"
    store.record(url, Snapshot(text=("Old.",)), [], T1, [events.new(url, T1)])
    judged = store.get(url)
    assert store.record(url, Snapshot(text=("New.",)), [], T2, [], expected=judged)
    again = store.get(url)
    assert again is not None and again.snapshot == Snapshot(text=("New.",))
    assert list(store.urls()) == [url], "a page recorded twice is one page"


def test_a_forgotten_page_is_gone_and_its_events_kept(open_store: Opener) -> None:
    store = open_store()
    url = "http://site.test/gone"
    store.record(url, Snapshot(), [], T1, [events.new(url, T1)])
    assert store.forget(url, [events.removed(url, T2, 404)], expected=store.get(url))
    assert store.get(url) is None and len(store) == 0
    assert [e["event"] for e in store.recent(10)] == ["removed", "new"]
    assert [e["event"] for e in store.recent(1)] == ["removed"]


def test_the_feed_lists_the_newest_events(open_store: Opener, tmp_path: Path) -> None:
    store = open_store()
    for n, time_ in enumerate((T1, T2, T3)):
        url = f"http://site.test/{n}"
        store.record(url, Snapshot(), [], time_, [events.new(url, time_)])
    store.write_log()
    path = store.write_feed("shop", T3)
    assert path == tmp_path / "watch" / FEED
    feed = path.read_text("utf-8")
    assert feed.count("<entry>") == 3 and "http://site.test/2" in feed


def test_events_wait_in_the_outbox_until_delivered(open_store: Opener) -> None:
    store = open_store(webhook=True)
    for n in range(3):
        url = f"http://site.test/{n}"
        store.record(url, Snapshot(), [], T1, [events.new(url, T1)])
    outbox = store.outbox()()
    try:
        due = outbox.due(time.time())
        assert len(due) == 3 and outbox.waiting() == 3
        assert [p.seq for p in due] == sorted(p.seq for p in due), "in the order they were told"
        outbox.delivered(due[0].seq)
        assert outbox.waiting() == 2
        assert [p.seq for p in outbox.due(time.time())] == [due[1].seq, due[2].seq]
    finally:
        outbox.close()


# -- parked events, re-check schedule, compaction


def add_pages(store: PageStore, count: int) -> list[str]:
    ids = []
    for n in range(count):
        url = f"http://site.test/{n}"
        event = events.new(url, T1)
        store.record(url, Snapshot(), [], T1, [event], expected=None)
        ids.append(event["id"])
    return ids


def test_a_parked_event_leaves_the_queue_and_the_ones_behind_it_are_due(open_store: Opener) -> None:
    store = open_store(webhook=True)
    open_outbox = store.outbox()
    ids = add_pages(store, 3)
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


def test_replay_puts_the_parked_back_in_their_first_order_with_fresh_tries(
    open_store: Opener,
) -> None:
    store = open_store(webhook=True)
    open_outbox = store.outbox()
    ids = add_pages(store, 4)
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


def test_the_schedule_says_which_known_pages_are_due(open_store: Opener) -> None:
    store = open_store()
    add_pages(store, 3)
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
    open_store: Opener, monkeypatch: pytest.MonkeyPatch
) -> None:
    store = open_store(webhook=True)
    open_outbox = store.outbox()
    monkeypatch.setattr("webrobot.monitor.retention.KEEP_EVENTS", 2)
    monkeypatch.setattr("webrobot.distributed.monitorstore.STREAM_EVENTS", 2)
    ids = add_pages(store, 6)
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


def test_a_sites_template_is_kept_against_the_one_judged(open_store: Opener) -> None:
    from webrobot.monitor.template import Template

    store, site = open_store(), "https://blog.example"
    assert store.template(site) is None and store.templates() == {}
    first = Template({"a.": "A."}, 40)
    assert store.keep_template(site, first, T1, [], expected=None)
    kept = store.template(site)
    assert kept is not None and kept.template == first
    change = events.template_changed(site, T2, ["B."], ["A."], 41)
    assert store.keep_template(site, Template({"b.": "B."}, 41), T2, [change], expected=kept)
    again = open_store().template(site)
    assert again is not None and again.template == Template({"b.": "B."}, 41)
    assert store.templates() == {site: again.template}
    assert [e["event"] for e in store.recent(5)] == ["template_changed"]


def test_only_a_shared_store_is_shared_by_workers(open_store: Opener) -> None:
    store = open_store()
    assert store.shared_by_workers() == isinstance(store, RedisMonitorStore)
