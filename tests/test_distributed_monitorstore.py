"""The shared crawl's monitor memory against a real redis-server: compare-and-set
recording, events in the stream, and one deliverer of the outbox at a time."""

from __future__ import annotations

import json
import time

from tests.redisserver import RedisServer
from webrobot.distributed.keys import CrawlKeys
from webrobot.distributed.monitorstore import RedisMonitorStore, RedisOutbox, read_events
from webrobot.monitor import events
from webrobot.monitor.snapshot import Snapshot

KEYS = CrawlKeys("webrobot:test")
T1, T2 = "2026-11-27T10:00:00Z", "2026-11-28T10:00:00Z"


def store(redis_server: RedisServer, tmp_path, webhook: bool = False) -> RedisMonitorStore:  # type: ignore[no-untyped-def]
    return RedisMonitorStore(redis_server.client(), KEYS, tmp_path, webhook=webhook)


def test_two_workers_judging_one_page_tell_it_once(redis_server: RedisServer, tmp_path) -> None:  # type: ignore[no-untyped-def]
    a, b = store(redis_server, tmp_path), store(redis_server, tmp_path)
    url = "http://site.test/a"
    seen_a, seen_b = a.get(url), b.get(url)  # both read "unknown" before either records
    assert seen_a is None and seen_b is None
    snapshot = Snapshot(text=("one.",))
    assert a.record(url, snapshot, [], T1, [events.new(url, T1)], expected=seen_a)
    assert not b.record(url, snapshot, [], T1, [events.new(url, T1)], expected=seen_b), (
        "the second worker's judgement is stale: refused"
    )
    again = b.get(url)
    assert again is not None and again.snapshot == snapshot
    assert b.record(url, snapshot, [], T2, [], expected=again)  # judged again: no change
    told = [json.loads(line) for line in read_events(redis_server.client(), KEYS)]
    assert [(e["event"], e["url"]) for e in told] == [("new", url)]
    assert list(a.urls()) == [url] and len(a) == 1
    record = a.get(url)
    assert record is not None and json.loads(record.stored)["first_seen"] == T1


def test_forget_is_compared_too(redis_server: RedisServer, tmp_path) -> None:  # type: ignore[no-untyped-def]
    a = store(redis_server, tmp_path)
    url = "http://site.test/gone"
    a.record(url, Snapshot(), [], T1, [], expected=None)
    record = a.get(url)
    assert record is not None
    assert a.forget(url, [events.removed(url, T2, 404)], expected=record)
    assert not a.forget(url, [events.removed(url, T2, 404)], expected=record)
    assert a.get(url) is None
    assert [e["event"] for e in a.recent(10)] == ["removed"]


def test_only_the_holder_of_the_sender_lock_sees_due_events(
    redis_server: RedisServer,
    tmp_path,  # type: ignore[no-untyped-def]
) -> None:
    a = store(redis_server, tmp_path, webhook=True)
    for n in range(3):
        url = f"http://site.test/{n}"
        a.record(url, Snapshot(), [], T1, [events.new(url, T1)], expected=None)
    first = RedisOutbox(redis_server.client(), KEYS, "one", hold=1.0)
    second = RedisOutbox(redis_server.client(), KEYS, "two", hold=1.0)
    due = first.due(time.time())
    assert [p.id for p in due] == [
        json.loads(x)["id"] for x in read_events(redis_server.client(), KEYS)
    ]
    assert second.due(time.time()) == [], "one deliverer at a time"
    first.failed(due[0].seq, time.time() + 60)
    assert first.due(time.time()) == [], "in order: the head waits for its next try"
    assert first.next_try() is not None and first.next_try() > time.time()  # type: ignore[operator]
    first.delivered(due[0].seq)
    assert [p.seq for p in first.due(time.time())] == [due[1].seq, due[2].seq]
    assert first.waiting() == 2
    first.close()  # lets the lock go
    assert [p.seq for p in second.due(time.time())] == [due[1].seq, due[2].seq]
    second.close()
    third = RedisOutbox(redis_server.client(), KEYS, "three", hold=1.0)
    assert third.holds()
    # A holder that dies keeps the lock only until it expires.
    fourth = RedisOutbox(redis_server.client(), KEYS, "four", hold=1.0)
    assert not fourth.holds()
    deadline = time.monotonic() + 5
    while not fourth.holds():
        assert time.monotonic() < deadline, "the lock of a dead holder expires"
        time.sleep(0.05)


class RacedStore(RedisMonitorStore):
    """A shared store where another worker records the page between this worker's read
    and its record, once (the race the compare-and-set is there for)."""

    other: RedisMonitorStore
    raced = False

    def record(self, url, snapshot, matches, time, found, expected=None):  # type: ignore[no-untyped-def,override]
        if not RacedStore.raced:
            RacedStore.raced = True
            self.other.record(url, snapshot, matches, time, [events.new(url, time)], expected=None)
        return super().record(url, snapshot, matches, time, found, expected=expected)


def test_the_middleware_judges_again_when_another_worker_recorded_first(
    redis_server: RedisServer,
    tmp_path,  # type: ignore[no-untyped-def]
) -> None:
    from scrapy.http import HtmlResponse
    from scrapy.utils.test import get_crawler

    from webrobot.monitor.middleware import MonitorMiddleware

    crawler = get_crawler(settings_dict={"WEBROBOT_MONITOR_DIR": str(tmp_path)})
    crawler.stats.open_spider()  # type: ignore[union-attr]
    middleware = MonitorMiddleware.from_crawler(crawler)
    middleware.store = RacedStore(redis_server.client(), KEYS, tmp_path)
    RacedStore.other = store(redis_server, tmp_path)
    url = "http://site.test/raced"
    response = HtmlResponse(url, body=b"<html><body><p>x</p></body></html>")
    middleware._judge(url, {"main_text": "One sentence here."}, response)
    told = [json.loads(line) for line in read_events(redis_server.client(), KEYS)]
    assert [(e["event"], e["url"]) for e in told] == [("new", url)], "told once, by the other"
    stats = crawler.stats.get_stats()  # type: ignore[union-attr]
    assert stats.get("webrobot/monitor/events/new") is None, "this worker told nothing"
    assert stats.get("webrobot/monitor/unchanged") == 1, "judged again: nothing new"


def test_on_a_redis_cluster_each_script_touches_one_slot(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """The monitor's keys and the near-duplicate tables carry the crawl's hash tag."""
    import shutil

    import pytest

    if shutil.which("redis-server") is None:
        pytest.skip("no redis-server")
    from tests.rediscluster import RedisClusterNodes
    from webrobot.distributed.contentdupes import NEAR
    from webrobot.seen.simhash import bands

    keys = CrawlKeys("webrobot:test", cluster=True)
    with RedisClusterNodes(tmp_path / "cluster") as nodes:
        client = nodes.client()
        shared = RedisMonitorStore(client, keys, tmp_path, webhook=True)  # type: ignore[arg-type]
        url = "http://site.test/a"
        assert shared.record(url, Snapshot(), [], T1, [events.new(url, T1)], expected=None)
        assert not shared.record(url, Snapshot(), [], T1, [events.new(url, T1)], expected=None)
        assert [json.loads(x)["event"] for x in read_events(client, keys)] == ["new"]  # type: ignore[arg-type]
        outbox = RedisOutbox(client, keys, "one", hold=1.0)  # type: ignore[arg-type]
        [pending] = outbox.due(time.time())
        outbox.delivered(pending.seq)
        assert outbox.waiting() == 0
        other = "http://site.test/b"
        assert shared.record(other, Snapshot(), [], T1, [events.new(other, T1)], expected=None)
        [pending] = outbox.due(time.time())
        outbox.dead(pending)  # a dead letter moves in one script, one slot
        assert outbox.waiting() == 0 and client.llen(f"{keys.monitor}:dead") == 1
        near = client.register_script(NEAR)
        fingerprint = 0x0123_4567_89AB_CDEF
        buckets = [f"{keys.near}:{i}:{b:04x}" for i, b in enumerate(bands(fingerprint))]
        assert list(near(keys=buckets, args=[f"{fingerprint:016x}", "1", 3])) == [0]
        answer = near(keys=buckets, args=[f"{fingerprint ^ 0b111:016x}", "2", 3])
        assert answer[0] == 1


def test_a_shared_crawls_dead_letter_leaves_the_outbox_for_a_list_and_the_rest_go_on(
    redis_server: RedisServer,
    tmp_path,  # type: ignore[no-untyped-def]
) -> None:
    from tests.webhookreceiver import WebhookReceiver
    from webrobot.monitor.webhook import WebhookSender

    a = store(redis_server, tmp_path, webhook=True)
    ids = []
    for n in range(5):
        url = f"http://site.test/{n}"
        event = events.new(url, T1)
        a.record(url, Snapshot(), [], T1, [event], expected=None)
        ids.append(event["id"])
    counted: list[str] = []
    with WebhookReceiver() as receiver:
        receiver.answer = lambda event: 410 if event["id"] == ids[1] else None
        sender = WebhookSender(
            tmp_path, receiver.url, timeout=2, ceiling=0.2, count=counted.append,
            outbox=lambda: RedisOutbox(redis_server.client(), KEYS, "one", hold=5.0),
        )  # fmt: skip
        sender.start()
        assert sender.close(wait=20) == 0
    assert receiver.keys() == [i for i in ids if i != ids[1]], "the others, in order"
    assert [k for k, status in receiver.answered if status == 410] == [ids[1]]
    dead = redis_server.client().lrange(f"{KEYS.monitor}:dead", 0, -1)
    assert [json.loads(x)["id"] for x in dead] == [ids[1]]  # type: ignore[union-attr]
    assert counted.count("webrobot/monitor/webhook/dead_letter") == 1


def test_two_workers_learning_one_template_tell_its_change_once(
    redis_server: RedisServer, tmp_path
) -> None:  # type: ignore[no-untyped-def]
    from webrobot.monitor.template import Template

    a, b = store(redis_server, tmp_path), store(redis_server, tmp_path)
    site = "http://site.test"
    assert a.keep_template(site, Template({"a.": "A."}, 20), T1, [], expected=None)
    seen_a, seen_b = a.template(site), b.template(site)
    assert seen_a is not None and seen_b is not None
    new = Template({"b.": "B."}, 20)
    change = events.template_changed(site, T2, ["B."], ["A."], 20)
    assert a.keep_template(site, new, T2, [change], expected=seen_a)
    assert not b.keep_template(site, new, T2, [change], expected=seen_b), "stale: refused"
    kept = b.template(site)
    assert kept is not None and kept.template == new
    assert b.templates() == {site: new}
    told = [json.loads(line) for line in read_events(redis_server.client(), KEYS)]
    assert [e["event"] for e in told] == ["template_changed"]
