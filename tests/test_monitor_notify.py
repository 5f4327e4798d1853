"""Digests by e-mail and chat through Apprise, tested with Apprise's ``json://`` scheme
against a local receiver (loopback only): one digest per crawl's events, at least once
(a receiver that fails gets it later, a receiver down at the crawl's close gets it from
the next crawl), no digest for events told before notices were on, and a clear line
for an unusable Apprise URL or a missing extra."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.webhookreceiver import WebhookReceiver
from webrobot.monitor import digest, events
from webrobot.monitor.notify import Notices, NotifySender, bad_urls, target_key
from webrobot.monitor.snapshot import Snapshot
from webrobot.monitor.store import MonitorStore

T = "2026-11-28T06:00:12Z"


@pytest.fixture
def receiver() -> Iterator[WebhookReceiver]:
    with WebhookReceiver() as running:
        yield running


def apprise_url(receiver: WebhookReceiver) -> str:
    return f"json://127.0.0.1:{receiver.port}/hook"


def crawl_events(store: MonitorStore, n: int, prefix: str = "p") -> None:
    for i in range(n):
        store.record(f"https://x.example/{prefix}{i}", Snapshot(), (), T,
                     [events.new(f"https://x.example/{prefix}{i}", T, f"Page {i}")])  # fmt: skip
    store.record("https://x.example/lantern", Snapshot(), (), T, [events.changed(
        "https://x.example/lantern", T, [{"field": "price", "old": "1299.00", "new": "1249.00"}])])  # fmt: skip


def wait_for(condition: Any, seconds: float = 20) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.05)


def test_the_digest_counts_and_lists_the_events() -> None:
    told = [events.new("https://a/1", T, "One"), events.removed("https://a/2", T, 410),
            events.changed("https://a/3", T, [{"field": "price", "old": "2", "new": "1"},
                           {"field": "main_text", "added": ["x", "y"], "removed": []}]),
            events.match("https://a/4", T, "brand", "term", 1.0, {"term": "Acme"})]  # fmt: skip
    title, body = digest.digest(told, "shop") or ("", "")
    assert title == "webrobot shop: 1 new, 1 changed, 1 removed, 1 match"
    assert body.splitlines() == [
        "new https://a/1 (One)", "removed https://a/2 (410)",
        "changed https://a/3 (price: 2 → 1; text +2 -0 sentences)",
        "match https://a/4: rule brand (term, score 1.0)"]  # fmt: skip
    many = [events.new(f"https://a/{i}", T) for i in range(digest.LINES + 3)]
    assert (digest.digest(many, "s") or ("", ""))[1].endswith("… and 3 more events in events.jsonl")
    assert digest.digest([], "s") is None


def test_a_crawls_digest_reaches_the_receiver_once(
    tmp_path: Path, receiver: WebhookReceiver
) -> None:
    store = MonitorStore(tmp_path)
    crawl_events(store, 2, "old")  # told before notices were switched on
    notices = Notices(tmp_path)
    notices.start()
    crawl_events(store, 3)
    assert notices.add_digest("shop", [apprise_url(receiver)]) == 4
    assert notices.add_digest("shop", [apprise_url(receiver)]) == 0, "nothing new, no digest"
    sender = NotifySender(tmp_path, [apprise_url(receiver)])
    sender.start()
    assert sender.close(10) == 0
    ((_, body),) = receiver.accepted
    assert body["title"] == "webrobot shop: 3 new, 1 changed"
    assert "changed https://x.example/lantern (price: 1299.00 → 1249.00)" in body["message"]
    assert "old" not in body["message"]
    assert notices.waiting() == 0
    notices.close()
    store.close()


def test_a_failing_receiver_gets_the_digest_later_and_a_down_one_at_the_next_crawl(
    tmp_path: Path,
) -> None:
    store = MonitorStore(tmp_path)
    notices = Notices(tmp_path)
    notices.start()
    crawl_events(store, 1)
    receiver = WebhookReceiver().start()
    url = apprise_url(receiver)
    receiver.refuse_next = 2
    counted: list[str] = []
    notices.add_digest("shop", [url])
    sender = NotifySender(tmp_path, [url], ceiling=0.2, count=counted.append)
    sender.start()
    wait_for(lambda: receiver.accepted)
    assert sender.close(5) == 0
    assert receiver.refused == 2 and len(receiver.accepted) == 1
    assert counted.count("webrobot/monitor/notify/failed") == 2
    port = receiver.port
    receiver.stop()  # down when the next crawl closes
    crawl_events(store, 1, "second")
    notices.add_digest("shop", [url])
    sender = NotifySender(tmp_path, [url], ceiling=0.2)
    sender.start()
    assert sender.close(0.5) == 1, "left in the folder"
    later = WebhookReceiver(port).start()  # the next crawl sends it first
    try:
        sender = NotifySender(tmp_path, [url], ceiling=0.2)
        sender.start()
        assert sender.close(10) == 0
        ((_, body),) = later.accepted
        assert body["title"] == "webrobot shop: 1 new, 1 changed"
    finally:
        later.stop()
    notices.close()
    store.close()


def test_a_notice_for_an_url_no_longer_configured_is_dropped(
    tmp_path: Path, receiver: WebhookReceiver
) -> None:
    store = MonitorStore(tmp_path)
    notices = Notices(tmp_path)
    notices.start()
    crawl_events(store, 1)
    notices.add_digest("shop", ["json://127.0.0.1:9/gone"])
    counted: list[str] = []
    sender = NotifySender(tmp_path, [apprise_url(receiver)], count=counted.append)
    sender.start()
    assert sender.close(5) == 0
    assert counted == ["webrobot/monitor/notify/dropped"] and receiver.accepted == []
    assert target_key("json://a") != target_key("json://b")
    notices.close()
    store.close()


def test_unusable_apprise_urls_are_named() -> None:
    assert bad_urls(["json://127.0.0.1:1/", "nosuchscheme://x", "mailto://"]) == [
        "nosuchscheme://x", "mailto://"]  # fmt: skip
