"""End to end: an event the webhook keeps failing (5xx, then time-outs) is parked after
its retries and holds nothing back, and ``scrapy webrobot-replay`` sends it once the
receiver is back; judged by what a real receiver on 127.0.0.1 got."""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

import pytest

from tests.crawling import run_crawl, scrapy_command
from tests.test_monitor_crawl import events_of, five_pages
from tests.webhookreceiver import WebhookReceiver
from webrobot.monitor.outbox import Outbox


@pytest.mark.slow
def test_an_event_failing_for_ever_is_parked_the_rest_arrive_and_replay_sends_it(
    tmp_path: Path, make_site: Any
) -> None:
    site = five_pages(make_site())
    folder = tmp_path / "monitor"
    tries: list[str] = []
    broken = threading.Event()
    broken.set()

    def answer(event: dict[str, Any]) -> int | None:
        if broken.is_set() and event["url"].endswith("/bad"):
            tries.append("5xx")
            return 503
        return None

    def delay(event: dict[str, Any]) -> float:
        # after two 5xx the receiver stops answering that event: the sender times out
        if broken.is_set() and event["url"].endswith("/bad") and len(tries) >= 2:
            tries.append("timeout")
            return 1.5
        return 0.0

    with WebhookReceiver() as receiver:
        receiver.answer = answer
        receiver.delay = delay
        settings = {
            "WEBROBOT_MONITOR_DIR": str(folder), "WEBROBOT_MONITOR_WEBHOOK": receiver.url,
            "WEBROBOT_MONITOR_WEBHOOK_RETRIES": "4", "WEBROBOT_MONITOR_WEBHOOK_TIMEOUT": "0.5",
            "WEBROBOT_MONITOR_WEBHOOK_BACKOFF_MAX": "0.2",
            "WEBROBOT_MONITOR_WEBHOOK_CLOSE_WAIT": "20",
            "WEBROBOT_REPORT_ENABLED": "False", "CONCURRENT_REQUESTS": "1",
        }  # fmt: skip
        result = run_crawl(tmp_path / "one", args={"start_urls": site.url("/")}, settings=settings)
        assert result.returncode == 0, result.stderr[-3000:]
        told = events_of(folder)
        assert len(told) == 6
        [bad] = [e for e in told if e["url"] == site.url("/bad")]
        # The receiver got every other event, in order, the failing one behind them or not.
        assert receiver.keys() == [e["id"] for e in told if e is not bad]
        assert tries.count("5xx") >= 2 and "timeout" in tries, tries
        failed_tries = [k for k, status in receiver.answered if k == bad["id"]]
        assert len(failed_tries) >= 2  # the 5xx (the time-outs never got an answer)
        assert result.stat("webrobot/monitor/webhook/parked") == 1
        assert result.stat("webrobot/monitor/webhook/left") == 0
        assert result.log.count("is parked and the events after it go on") == 1
        assert "1 webhook event parked" in result.log
        outbox = Outbox(folder)
        assert (outbox.parked(), outbox.waiting()) == (1, 0)
        outbox.close()

        # The receiver is back: the command sends the parked event, once.
        broken.clear()
        env_settings = [f"-s{k}={v}" for k, v in settings.items()]
        done = scrapy_command("webrobot-replay", *env_settings, "--wait", "10", cwd=tmp_path)
        assert done.returncode == 0, done.stdout + done.stderr
        assert "1 parked events put back; 1 events delivered" in done.stdout
        assert receiver.keys()[-1] == bad["id"]
        assert sorted(receiver.keys()) == sorted(e["id"] for e in told)
        outbox = Outbox(folder)
        assert (outbox.parked(), outbox.waiting()) == (0, 0)
        outbox.close()
        # Nothing left to send: the command says so and sends nothing.
        again = scrapy_command("webrobot-replay", *env_settings, cwd=tmp_path)
        assert again.returncode == 0, again.stdout + again.stderr
        assert "0 parked events put back; 0 events delivered" in again.stdout
        assert len(receiver.keys()) == len(told)


def test_replay_without_a_monitor_folder_says_so(tmp_path: Path) -> None:
    done = scrapy_command("webrobot-replay", f"-sWEBROBOT_MONITOR_DIR={tmp_path / 'none'}",
                          "-sWEBROBOT_MONITOR_WEBHOOK=http://127.0.0.1:9/hook", cwd=tmp_path)  # fmt: skip
    assert done.returncode == 2
    assert "holds no monitor" in done.stderr


def test_replay_sends_a_shared_crawls_parked_events(redis_server: Any, tmp_path: Path) -> None:
    """A shared crawl's parked events are in Redis: the command, naming the spider, sends them."""
    import time

    from scrapy.settings import Settings

    from webrobot.distributed.keys import CrawlKeys
    from webrobot.distributed.monitorstore import RedisMonitorStore, RedisOutbox
    from webrobot.monitor import events
    from webrobot.monitor.snapshot import Snapshot

    settings = {"WEBROBOT_REDIS_URL": redis_server.url, "WEBROBOT_MONITOR_DIR": str(tmp_path / "w"),
                "WEBROBOT_MONITOR_STORE_CLASS": "webrobot.distributed.monitorstore.RedisMonitorStore"}  # fmt: skip
    keys = CrawlKeys.from_settings(Settings(settings), "webrobot")
    store = RedisMonitorStore(redis_server.client(), keys, tmp_path / "w", webhook=True)
    told = []
    for n in range(3):
        url = f"http://site.test/{n}"
        told.append(events.new(url, "2026-12-01T00:00:00Z"))
        store.record(url, Snapshot(), [], "2026-12-01T00:00:00Z", [told[-1]])
    outbox = RedisOutbox(redis_server.client(), keys, "worker", hold=5.0)
    for pending in outbox.due(time.time()):
        if pending.id == told[1]["id"]:
            outbox.park(pending, "status 503", time.time())
        else:
            outbox.delivered(pending.seq)
    outbox.close()
    store.close()
    with WebhookReceiver() as receiver:
        args = [
            f"-s{k}={v}" for k, v in {**settings, "WEBROBOT_MONITOR_WEBHOOK": receiver.url}.items()
        ]
        without_spider = scrapy_command("webrobot-replay", *args, cwd=tmp_path)
        assert without_spider.returncode == 2 and "name its SPIDER" in without_spider.stderr
        done = scrapy_command("webrobot-replay", "webrobot", *args, cwd=tmp_path)
        assert done.returncode == 0, done.stdout + done.stderr
        assert receiver.keys() == [told[1]["id"]]
    assert "1 parked events put back; 1 events delivered" in done.stdout
