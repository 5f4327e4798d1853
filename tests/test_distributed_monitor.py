"""The monitor in a shared crawl, end to end: TWO ``scrapy crawl`` workers and a real
redis-server crawl one local site twice, changed between the crawls. Each page gives
one event per change whichever worker fetched it, judged by the events
``scrapy webrobot-export --events`` writes and by what a local webhook receiver got;
a worker SIGKILLed in the middle of a crawl loses no event and has none told twice."""

from __future__ import annotations

import dataclasses
import json
import threading
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.crawling import RunningCrawl, command_in_process, start_crawl, wait_until
from tests.redisserver import RedisServer
from tests.test_distributed_crawl import LONG_LEASES, REDIS_FAST
from tests.test_monitor_crawl import PROTECTED, build
from tests.webhookreceiver import WebhookReceiver
from webrobot.demo.server import Hit, Reply, SiteServer

pytestmark = pytest.mark.slow

SPIDER = "monitored"
STREAM = "webrobot:monitored:monitor:events"


def workers(
    tmp_path: Path, name: str, site: SiteServer, redis_server: RedisServer,
    receiver: WebhookReceiver, **extra: str,
) -> list[RunningCrawl]:  # fmt: skip
    settings = {
        **REDIS_FAST,
        "SPIDER_MODULES": "webrobot.spiders,tests.monitorspider",
        "WEBROBOT_REDIS_URL": redis_server.url,
        "WEBROBOT_MONITOR_WEBHOOK": receiver.url,
        "WEBROBOT_MONITOR_WEBHOOK_BACKOFF_MAX": "0.2",
        "WEBROBOT_MONITOR_WEBHOOK_TIMEOUT": "1",
        "WEBROBOT_MONITOR_WEBHOOK_CLOSE_WAIT": "30",
        "WEBROBOT_MONITOR_IGNORE_SELECTORS": ".ad",
        "WEBROBOT_REPORT_ENABLED": "False",
        **extra,
    }
    crawls = []
    for n in range(2):
        own = {"WEBROBOT_MONITOR_DIR": str(tmp_path / f"monitor-{n}"), "USER_AGENT": f"worker-{n}"}
        crawls.append(
            start_crawl(tmp_path / f"{name}-{n}", SPIDER, {"site": site.url("/")}, settings | own)
        )
    return crawls


def export_events(tmp_path: Path, redis_server: RedisServer, name: str) -> list[dict[str, Any]]:
    path = tmp_path / f"{name}.jsonl"
    # The command run in this process (tests/crawling.py): the other exports of the
    # suite run it as a process.
    code, said = command_in_process("webrobot-export", SPIDER, "--events", str(path),
                                    "-s", f"WEBROBOT_REDIS_URL={redis_server.url}",
                                    "-s", "SPIDER_MODULES=webrobot.spiders,tests.monitorspider")  # fmt: skip
    assert code == 0, said
    assert said.startswith("Exported "), said
    return [json.loads(line) for line in path.read_text("utf-8").splitlines() if line]


def reset(redis_server: RedisServer, *more: str) -> None:
    """Start the crawl over (frontier, visited set), keeping the monitor's memory."""
    code, said = command_in_process("webrobot-seed", SPIDER, "--reset", *more,
                                    "-s", f"WEBROBOT_REDIS_URL={redis_server.url}",
                                    "-s", "SPIDER_MODULES=webrobot.spiders,tests.monitorspider")  # fmt: skip
    assert code == 0, said


def slow(site: SiteServer, delay: float = 0.2) -> None:
    """Every page answers after ``delay`` seconds, so both workers have pages to take."""
    for target, route in list(site.routes.items()):
        if isinstance(route, Reply):
            site.routes[target] = dataclasses.replace(route, delay=delay)


def shared_by_both(site: SiteServer, redis_server: RedisServer) -> None:
    """Every page but the start page answers once two workers hold leases of the crawl
    (or after 30 s, and then the test fails as it should): a worker that a loaded
    machine started seconds late found every page taken by the other (one started 6 s
    late took none). The one fetching waits, its other pages stay in the frontier, and
    the late worker leases one as soon as it polls."""
    client = redis_server.client()
    both = threading.Event()  # once seen, for good

    def two_workers() -> bool:
        owners = {key.rsplit(b"/", 1)[0] for key in client.hkeys(f"webrobot:{SPIDER}:leased")}
        if len(owners) >= 2:
            both.set()
        return both.is_set()

    def gated(reply: Reply) -> Callable[[Hit], Reply]:
        def answer(hit: Hit) -> Reply:
            deadline = time.monotonic() + 30
            while not two_workers() and time.monotonic() < deadline:
                time.sleep(0.02)
            return reply

        return answer

    for target, route in list(site.routes.items()):
        if isinstance(route, Reply) and target not in ("/", "/robots.txt"):
            site.routes[target] = gated(route)


def fetched_by(site: SiteServer, worker: str) -> set[str]:
    return {h.path for h in site.hits if h.headers.get("user-agent") == worker}


def test_two_workers_two_crawls_one_event_per_change(
    tmp_path: Path, make_site: Any, redis_server: RedisServer
) -> None:
    site = make_site()
    (tmp_path / "keeper.txt").write_text(PROTECTED, "utf-8")
    watch = tmp_path / "watch.toml"
    watch.write_text(
        '[[rule]]\nname = "brand"\nterms = ["Acme Widget"]\n\n[[rule]]\nname = "story"\ntexts = ["keeper.txt"]\n',
        "utf-8",
    )
    with WebhookReceiver() as receiver:
        build(site, 1)
        slow(site)
        shared_by_both(site, redis_server)
        first = [c.wait() for c in workers(tmp_path, "one", site, redis_server, receiver,
                                           WEBROBOT_WATCH=str(watch), **LONG_LEASES)]  # fmt: skip
        assert [r.returncode for r in first] == [0, 0], [r.log[-2000:] for r in first]
        once = export_events(tmp_path, redis_server, "once")
        pages = {"/", "/a", "/b", "/product", "/forum", "/copy", "/decoy", "/gone"}
        assert sorted((e["event"], e["url"]) for e in once) == sorted(
            ("new", site.url(p)) for p in pages
        )
        assert all(fetched_by(site, f"worker-{n}") for n in range(2)), "both workers took pages"

        reset(redis_server)
        build(site, 2)
        slow(site)
        second = [c.wait() for c in workers(tmp_path, "two", site, redis_server, receiver,
                                            WEBROBOT_WATCH=str(watch), **LONG_LEASES)]  # fmt: skip
        assert [r.returncode for r in second] == [0, 0], [r.log[-2000:] for r in second]
        assert site.count("/gone") == 2, "the known page is re-checked once, by one worker"
        everything = export_events(tmp_path, redis_server, "twice")
        told = everything[len(once) :]
        assert everything[: len(once)] == once
        prefix = site.url("/")[:-1]
        assert sorted((e["event"], e["url"].removeprefix(prefix)) for e in told) == sorted([
            ("changed", "/b"), ("changed", "/product"), ("removed", "/gone"), ("new", "/new"),
            ("changed", "/forum"), ("match", "/forum"), ("changed", "/copy"), ("match", "/copy"),
            ("changed", "/decoy"),
        ]), told  # fmt: skip
        by_url = {e["url"]: e for e in told if e["event"] == "changed"}
        assert by_url[prefix + "/product"]["changes"] == [
            {"field": "price", "old": "1299.00", "new": "1249.00"}
        ]
        for result in first + second:
            assert "Traceback" not in result.log
        stats = [r.stats for r in second]
        assert sum(s.get("webrobot/monitor/events/changed", 0) for s in stats) == 5
        leases = [{k: v for k, v in s.items() if "/lease/" in k} for s in stats]
        assert sum(s.get("webrobot/monitor/unchanged", 0) for s in stats) == 2, leases

        # The receiver got every event once, under its own key, whichever worker sent it.
        wait_until(lambda: len(receiver.keys()) >= len(everything), 10, "every delivery")
    assert Counter(receiver.keys()) == Counter(e["id"] for e in everything)
    assert all(key == body["id"] for key, body in receiver.accepted)
    client = redis_server.client()
    assert client.zcard("webrobot:monitored:monitor:outbox") == 0
    # Each worker's folder has the crawl's feed (the newest events, whoever told them).
    for n in range(2):
        feed = (tmp_path / f"monitor-{n}" / "events.atom").read_text("utf-8")
        assert feed.count("<entry>") == len(everything)
    # A reset keeps the monitor's memory (the second crawl compared with it); this one not.
    assert client.hlen("webrobot:monitored:monitor:pages") == 8
    reset(redis_server, "--forget-monitor")
    assert list(client.scan_iter(match="webrobot:monitored:monitor:*")) == []


def test_a_worker_killed_mid_crawl_loses_no_event_and_tells_none_twice(
    tmp_path: Path, make_site: Any, redis_server: RedisServer
) -> None:
    site = make_site()
    pages = [f"/p{n}" for n in range(24)]
    nav = "".join(f'<a href="{p}">{p}</a>' for p in pages)
    site.add(
        "/", Reply.html(f"<html><body><main><p>Index.</p></main><nav>{nav}</nav></body></html>")
    )
    started: list[Hit] = []

    def slow_page(n: int) -> Callable[[Hit], Reply]:
        def handler(hit: Hit) -> Reply:
            started.append(hit)
            return Reply.html(
                f"<html><head><title>Page {n}</title></head><body><main><p>Page number {n} "
                "says hello.</p></main></body></html>", delay=0.25)  # fmt: skip

        return handler

    for n, path in enumerate(pages):
        site.add(path, slow_page(n))
    client = redis_server.client()
    with WebhookReceiver() as receiver:
        crawls = workers(tmp_path, "one", site, redis_server, receiver)
        try:

            def victim_busy() -> bool:
                """Events told, and the victim in the middle of a page."""
                return client.xlen(STREAM) >= 6 and any(
                    h.headers.get("user-agent") == "worker-0" and not h.finished
                    for h in list(started)
                )

            wait_until(victim_busy, 60, "worker-0 in the middle of a page")
            crawls[0].process.kill()
            crawls[0].process.communicate()  # closes its pipe too
            survivor = crawls[1].wait()
        finally:
            for crawl in crawls:
                if crawl.process.poll() is None:
                    crawl.process.kill()
                    crawl.process.communicate()
        assert survivor.returncode == 0, survivor.log[-3000:]
        again = {p for p in pages if site.count(p) == 2}
        assert again, "the page the killed worker had in hand was fetched again"
        assert all(site.count(p) <= 2 for p in pages)
        told = export_events(tmp_path, redis_server, "events")
        urls = Counter((e["event"], e["url"]) for e in told)
        assert urls == Counter({("new", site.url(p)): 1 for p in ["/", *pages]}), (
            "one new event per page, the killed worker's pages included"
        )
        wait_until(lambda: set(receiver.keys()) >= {e["id"] for e in told}, 30, "every delivery")
    delivered = Counter(receiver.keys())
    assert set(delivered) == {e["id"] for e in told}
    # A kill in the middle of a POST may leave that one event to be sent again, same key.
    assert sum(n - 1 for n in delivered.values()) <= 1, delivered
