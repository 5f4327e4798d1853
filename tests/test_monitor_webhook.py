"""Webhook delivery: at least once, one key per event, nothing lost across a restart."""

from __future__ import annotations

import json
import logging
import time
from pathlib import Path
from typing import Any

import pytest

from tests.crawling import wait_until
from tests.webhookreceiver import WebhookReceiver
from webrobot.monitor import events
from webrobot.monitor.outbox import DEAD_LETTERS, Outbox
from webrobot.monitor.snapshot import Snapshot
from webrobot.monitor.store import MonitorStore
from webrobot.monitor.webhook import WebhookSender, backoff


def add(store: MonitorStore, first: int, count: int) -> list[str]:
    ids = []
    for n in range(first, first + count):
        event = events.new(f"http://site/{n}", "2026-11-27T10:00:00Z")
        store.record(f"http://site/{n}", Snapshot(), set(), "t", [event])
        ids.append(event["id"])
    return ids


def test_backoff_doubles_to_its_ceiling() -> None:
    assert [backoff(n, 10) for n in range(1, 7)] == [1, 2, 4, 8, 10, 10]


def test_a_failing_then_down_receiver_loses_nothing_and_gets_nothing_twice(tmp_path: Path) -> None:
    store = MonitorStore(tmp_path, webhook=True)
    receiver = WebhookReceiver().start()
    receiver.refuse_next = 5  # fails for a while
    counted: list[str] = []
    sender = WebhookSender(tmp_path, receiver.url, timeout=2, ceiling=0.2, count=counted.append)
    sender.start()
    ids = add(store, 0, 10)
    sender.wake()
    wait_until(lambda: len(receiver.keys()) == 10, 30, "the first ten events")
    assert receiver.refused == 5 and counted.count("webrobot/monitor/webhook/failed") == 5

    receiver.stop()  # down for a while: the crawl goes on making events
    ids += add(store, 10, 10)
    sender.wake()
    time.sleep(0.5)
    left = sender.close(wait=0.5)  # the crawl ends while the receiver is down
    assert left == 10 and Outbox(tmp_path).waiting() == 10

    # The next crawl with the same folder, the receiver back on its port.
    back = WebhookReceiver(receiver.port).start()
    again = WebhookSender(tmp_path, back.url, timeout=2, ceiling=0.2)
    again.start()
    assert again.close(wait=20) == 0
    back.stop()
    got = receiver.keys() + back.keys()
    assert sorted(got) == sorted(ids), "every event once under its key"
    assert all(key == body["id"] for key, body in receiver.accepted + back.accepted)
    assert Outbox(tmp_path).waiting() == 0


def test_the_sender_never_holds_the_caller(tmp_path: Path) -> None:
    """Nothing listens: wake() and close(0) return at once, the events stay."""
    store = MonitorStore(tmp_path, webhook=True)
    add(store, 0, 3)
    sender = WebhookSender(tmp_path, "http://127.0.0.1:9/hook", timeout=1, ceiling=0.2)
    sender.start()
    started = time.monotonic()
    sender.wake()
    assert time.monotonic() - started < 0.1
    assert sender.close(wait=0) == 3


def dead_letters(folder: Path) -> list[dict[str, Any]]:
    path = folder / DEAD_LETTERS
    lines = path.read_text("utf-8").splitlines() if path.exists() else []
    return [json.loads(line) for line in lines]


@pytest.mark.parametrize("status", [400, 404, 410, 422])
def test_an_event_refused_for_good_is_a_dead_letter_and_the_rest_go_on(
    tmp_path: Path, status: int, caplog: pytest.LogCaptureFixture
) -> None:
    store = MonitorStore(tmp_path, webhook=True)
    ids = add(store, 0, 8)
    refused = ids[2]
    counted: list[str] = []
    with WebhookReceiver() as receiver:
        receiver.answer = lambda event: status if event["id"] == refused else None
        sender = WebhookSender(tmp_path, receiver.url, timeout=2, ceiling=0.2, count=counted.append)
        with caplog.at_level(logging.WARNING, logger="webrobot.monitor.webhook"):
            sender.start()
            assert sender.close(wait=20) == 0
    assert receiver.keys() == [i for i in ids if i != refused], "every other event, in order"
    assert [key for key, answer in receiver.answered if answer == status] == [refused], "once"
    assert [e["id"] for e in dead_letters(tmp_path)] == [refused]
    assert counted.count("webrobot/monitor/webhook/dead_letter") == 1
    assert counted.count("webrobot/monitor/webhook/delivered") == len(ids) - 1
    assert "webrobot/monitor/webhook/failed" not in counted
    logged = [r.getMessage() for r in caplog.records]
    assert len(logged) == 1 and f"status {status}" in logged[0] and refused in logged[0]
    assert Outbox(tmp_path).waiting() == 0


@pytest.mark.parametrize("status", [408, 429, 503])
def test_a_refusal_for_now_keeps_the_order_and_no_dead_letter(tmp_path: Path, status: int) -> None:
    store = MonitorStore(tmp_path, webhook=True)
    ids = add(store, 0, 4)
    tries = {"left": 2}

    def answer(event: dict[str, Any]) -> int | None:
        if event["id"] == ids[1] and tries["left"] > 0:
            tries["left"] -= 1
            return status
        return None

    counted: list[str] = []
    with WebhookReceiver() as receiver:
        receiver.answer = answer
        sender = WebhookSender(tmp_path, receiver.url, timeout=2, ceiling=0.2, count=counted.append)
        sender.start()
        assert sender.close(wait=20) == 0
    assert receiver.keys() == ids, "the same order, the refused one taken at its third try"
    assert dead_letters(tmp_path) == []
    assert counted.count("webrobot/monitor/webhook/failed") == 2
    assert "webrobot/monitor/webhook/dead_letter" not in counted


def test_dead_letters_that_cannot_be_written_keep_the_event_waiting(tmp_path: Path) -> None:
    store = MonitorStore(tmp_path, webhook=True)
    ids = add(store, 0, 3)
    (tmp_path / DEAD_LETTERS).mkdir()  # not a file: the append fails
    counted: list[str] = []
    with WebhookReceiver() as receiver:
        receiver.answer = lambda event: 422 if event["id"] == ids[0] else None
        sender = WebhookSender(tmp_path, receiver.url, timeout=2, ceiling=30, count=counted.append)
        sender.start()
        # The first try, then a second of delivery: the closing wait is counted from
        # then, as a loaded machine may start the sender's thread a second late.
        wait_until(lambda: bool(counted), 30, "the first try")
        assert sender.close(wait=1) == 3, "nothing lost, the order kept"
    assert receiver.keys() == [] and counted == ["webrobot/monitor/webhook/failed"]
