"""End-to-end: the live status page of a running crawl, opened in headless
Chromium while one page hangs, shows the figures the crawl has at that moment:
those of the sites' logs, of ``/metrics``, and of the final report for every
site that was done by then."""

from __future__ import annotations

import json
import re
import threading
import time
import urllib.request
from collections.abc import Callable
from pathlib import Path

import pytest
from parsel import Selector

from tests.browser import chromium_binary, render_url
from tests.test_crawl_report import build_web
from tests.test_distributed_crawl import Worker, stop_all, wait_for
from webrobot.demo.server import Hit, Reply, SiteServer

pytestmark = pytest.mark.slow
pytest.importorskip("prometheus_client")

HANG = 25.0  # seconds at most the blog's last page takes: the crawl waits for it


def chromium_or_skip() -> None:
    try:
        chromium_binary()
    except RuntimeError as exc:
        pytest.skip(str(exc))


def fetch(url: str) -> str:
    with urllib.request.urlopen(url, timeout=10) as response:
        return response.read().decode("utf-8")


def metric(text: str, name: str) -> float:
    found = re.search(rf"^{name} (\S+)$", text, re.MULTILINE)
    assert found, f"{name} not in /metrics"
    return float(found.group(1))


def site_rows(dom: str) -> dict[str, dict[str, str]]:
    """Each row of the Sites table: column title -> the cell's data-v."""
    page = Selector(text=dom)
    columns = page.css("#sites thead th::text").getall()
    return {
        cells[0]: dict(zip(columns, cells, strict=True))
        for row in page.css("#sites tbody tr")
        for cells in [row.css("td::attr(data-v)").getall()]
    }


def tiles(dom: str) -> dict[str, str]:
    page = Selector(text=dom)
    return {
        tile.css("span::text").get(""): tile.css("b::text").get("")
        for tile in page.css("section.tiles .tile")
    }


def test_the_live_page_shows_the_running_crawl(
    make_site: Callable[..., SiteServer], tmp_path: Path
) -> None:
    chromium_or_skip()
    shop, blog, elsewhere = build_web(make_site)
    blog.html("/post2.html", "<title>post 2</title><a href='/slow.html'>slow</a>")
    slow_started, judged = threading.Event(), threading.Event()

    def slow(hit: Hit) -> Reply:
        slow_started.set()
        judged.wait(HANG)  # answered once the live page has been read, mid-crawl
        return Reply.html("<title>slow</title>", 200)

    blog.add("/slow.html", slow)
    config = tmp_path / "web.toml"
    config.write_text(
        f'start_urls = ["{shop.url("/")}", "{blog.url("/")}"]\ndeny = ["/drafts/"]\n', "utf-8"
    )
    worker = Worker(
        tmp_path / "crawl", "live-test", {"config": str(config)},
        {"WEBROBOT_METRICS_PORT": "0", "WEBROBOT_METRICS_REFRESH": "2",
         "WEBROBOT_HEALTH_MAX_ERROR_RATE": "0.15", "DOWNLOAD_TIMEOUT": str(HANG * 3)},
    )  # fmt: skip
    try:
        address = worker.workdir / "crawl.metrics.txt"
        wait_for(address.exists, 60, "the metrics address")
        metrics_url = address.read_text("utf-8").strip()
        status_url = metrics_url.removesuffix("metrics")

        def only_the_slow_page_is_left() -> bool:
            if not slow_started.is_set():
                return False
            done = [h for s in (shop, blog) for h in s.hits if h.target != "/robots.txt"]
            return metric(fetch(metrics_url), "webrobot_pages_total") == len(done)

        wait_for(only_the_slow_page_is_left, 60, "every page but the slow one")
        before = fetch(metrics_url)
        shown = render_url(status_url, tmp_path / "live.png")
        after = fetch(metrics_url)
        second = fetch(status_url)
        slow_done = time.monotonic()  # every hit the servers logged before this is in the page
        assert worker.process.poll() is None, "the crawl was still running"
        assert "/slow.html" not in blog.targets(), "the slow page was still being served"
        judged.set()
        code = worker.wait(timeout=HANG * 4)
    finally:
        judged.set()
        stop_all([worker])
    assert code == 0, worker.log()[-3000:]
    assert metric(before, "webrobot_pages_total") == metric(after, "webrobot_pages_total")
    assert metric(after, "webrobot_requests_in_flight") == 1.0, "the slow page"

    # Clean in a real browser, self-contained, reloading itself.
    dom = shown.dom
    assert shown.console == [], shown.console
    assert shown.requests == [], "the page loads nothing from anywhere"
    assert shown.screenshot.stat().st_size > 20_000
    assert re.search(r'<meta http-equiv="refresh" content="2">', dom)
    now = Selector(text=dom).css("#now")
    assert now.css("b::text").getall() == ["0", "1"], "nothing queued, the slow page in flight"
    assert "1 active" in now.get() and "0 deferred" in now.get()
    assert "Crawl status" in dom and "running" in dom
    as_of = re.compile(r"as of (\S+), reloads")
    assert as_of.search(dom) and as_of.search(second)

    # The figures: the sites' logs now, and /metrics.
    rows = site_rows(dom)
    pages_now = {
        site.origin: [h for h in site.hits if h.target != "/robots.txt" and h.finished < slow_done]
        for site in (shop, blog)
    }
    for origin, hits in pages_now.items():
        assert int(rows[origin]["Requested"]) == len(hits), origin
    shown_tiles = tiles(dom)
    assert int(shown_tiles["pages requested"]) == metric(before, "webrobot_requests_total")
    assert int(shown_tiles["pages requested"]) == sum(len(h) for h in pages_now.values())
    assert int(shown_tiles["items"]) == metric(before, "webrobot_items_total")

    # And the final report: the shop was done, so its row is the report's row;
    # the blog's differs by the slow page only.
    report = json.loads((worker.workdir / "items.report.json").read_text("utf-8"))
    final_shop = report["sites"][shop.origin]
    for column, key in (("Requested", "requested"), ("Downloaded", "downloaded"),
                        ("Items", "items"), ("Bytes", "bytes")):  # fmt: skip
        assert int(rows[shop.origin][column]) == final_shop[key], column
    assert int(rows[shop.origin]["Refused"]) == sum(final_shop["refused"].values()) == 2
    assert int(rows[shop.origin]["Errors"]) == sum(final_shop["errors"].values()) == 2
    assert int(rows[blog.origin]["Requested"]) == report["sites"][blog.origin]["requested"] - 1
    # The health warning of the final report was already on the live page.
    assert [(f["site"], f["check"]) for f in report["health"]["flags"]] == [
        (shop.origin, "error_rate")
    ]
    health = Selector(text=dom).css("section.health.bad")
    assert "1 health warning" in health.css("b::text").get("")
    assert shop.origin in "".join(health.css("li ::text").getall())
    assert elsewhere.origin in dom, "the site that only had refusals is named"
    assert report["finish_reason"] == "finished"
