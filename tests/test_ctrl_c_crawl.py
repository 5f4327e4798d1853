"""End-to-end: Ctrl-C (SIGINT) on a real ``scrapy crawl`` of a slow local site.

The crawl stops without waiting out its downloads: the one in flight is let go after
``WEBROBOT_SHUTDOWN_GRACE``, the queued ones at once; it closes with finish reason
``shutdown`` and exit status 130 (128 + SIGINT), and the ``JOBDIR`` frontier keeps
every page it did not finish, so the resumed crawl requests exactly those, judged by
what the server saw requested. How fast it stops is measured in the benchmark tier
(``benchmarks/bench_ctrl_c.py``); here a generous guard only catches a hang.
"""

from __future__ import annotations

import signal
import threading
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.crawling import run_crawl, start_crawl, wait_until
from webrobot.demo.server import Hit, Reply, SiteServer

pytestmark = pytest.mark.slow

PAGES = [f"/p{i}" for i in range(1, 9)]
#: Far longer than the grace period: a page in flight at Ctrl-C is let go, not waited for.
SLOW = 20.0
#: A hang, not a slow stop (the stop is timed in benchmarks/).
HANG_GUARD = 60.0


class SlowSite:
    """Every page but the start page answers after ``delay`` seconds; arrivals are
    noted per run (a hit is recorded by the server only once answered)."""

    def __init__(self, site: SiteServer) -> None:
        self.site = site
        self.delay = SLOW
        self.run = 1
        self.arrived: dict[int, list[str]] = {1: [], 2: []}
        self.first_page = threading.Event()
        site.add("/robots.txt", Reply.text(""))
        links = "".join(f"<a href='{p}'>{p}</a>" for p in PAGES)
        site.html("/", f"<html><title>home</title><body>{links}</body></html>")
        for page in PAGES:
            site.add(page, self.page)

    def page(self, hit: Hit) -> Reply:
        self.arrived[self.run].append(hit.path)
        self.first_page.set()
        return Reply.html(f"<title>{hit.path}</title>", delay=self.delay)


@pytest.mark.parametrize("scheduler", ["crash-safe", "scrapy"])
def test_ctrl_c_lets_go_stops_with_130_and_the_resumed_crawl_fetches_the_rest(
    make_site: Callable[..., SiteServer], tmp_path: Path, scheduler: str
) -> None:
    slow = SlowSite(make_site())
    job = tmp_path / "job"
    settings = {"JOBDIR": str(job), "WEBROBOT_SHUTDOWN_GRACE": "0.5", "DOWNLOAD_TIMEOUT": "60"}
    if scheduler == "scrapy":  # Scrapy's own JOBDIR queues: what is let go is queued again
        settings["SCHEDULER"] = "scrapy.core.scheduler.Scheduler"
    args = {"start_urls": slow.site.url("/")}

    crawl = start_crawl(tmp_path / "first", args=args, settings=settings)
    try:
        wait_until(slow.first_page.is_set, timeout=60, what="a slow page requested")
    finally:
        crawl.interrupt()
    asked = time.monotonic()
    first = crawl.wait(timeout=HANG_GUARD)
    stopped_in = time.monotonic() - asked

    assert first.returncode == 130, first.stderr[-3000:]
    assert first.stats["finish_reason"] == "shutdown"
    assert stopped_in < SLOW, "the page in flight was let go, not waited for"
    assert first.stat("webrobot/shutdown/let_go/in_flight") == 1
    done_first = {url.removeprefix(slow.site.origin) for url in first.item_urls()}
    assert "/" in done_first and not done_first & set(PAGES), "no slow page was finished"
    said = [line for line in first.stderr.splitlines() if "stopping (Ctrl-C)" in line]
    assert len(said) == 1 and "1 download in flight" in said[0], first.stderr[-2000:]

    slow.run, slow.delay = 2, 0.0
    second = run_crawl(tmp_path / "second", args=args, settings=settings, timeout=120)

    assert second.returncode == 0, second.stderr[-3000:]
    assert sorted(slow.arrived[2]) == sorted(PAGES), "exactly the pages not finished"
    assert "/" not in slow.arrived[2]
    done_second = {url.removeprefix(slow.site.origin) for url in second.item_urls()}
    assert done_second == set(PAGES)


def test_a_second_ctrl_c_stops_at_once(
    make_site: Callable[..., SiteServer], tmp_path: Path
) -> None:
    slow = SlowSite(make_site())
    # A long grace: only the second Ctrl-C can end the crawl before the slow page answers.
    settings = {"JOBDIR": str(tmp_path / "job"), "WEBROBOT_SHUTDOWN_GRACE": str(SLOW)}
    crawl = start_crawl(tmp_path, args={"start_urls": slow.site.url("/")}, settings=settings)
    try:
        wait_until(slow.first_page.is_set, timeout=60, what="a slow page requested")
    finally:
        crawl.interrupt()
    wait_until(
        lambda: (tmp_path / "crawl.log").exists()
        and "Received SIGINT" in (tmp_path / "crawl.log").read_text("utf-8", errors="replace"),
        timeout=30, what="the first Ctrl-C received",
    )  # fmt: skip
    asked = time.monotonic()
    crawl.process.send_signal(signal.SIGINT)
    result = crawl.wait(timeout=HANG_GUARD)
    assert time.monotonic() - asked < SLOW, "did not wait for the grace period"
    assert result.returncode == 130, result.stderr[-3000:]
