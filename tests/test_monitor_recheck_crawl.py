"""End to end: with a re-check interval, a known page not due is not re-seeded by the
monitor (judged by what the server was asked), and one that is due is."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.crawling import CrawlResult, run_crawl
from tests.test_monitor_crawl import page
from webrobot.demo.server import SiteServer


def crawl(tmp_path: Path, name: str, site: SiteServer, interval: str) -> CrawlResult:
    return run_crawl(tmp_path / name, args={"start_urls": site.url("/")}, settings={
        "WEBROBOT_MONITOR_DIR": str(tmp_path / "watch"),
        "WEBROBOT_MONITOR_RECHECK_INTERVAL": interval,
        "WEBROBOT_REPORT_ENABLED": "False",
    })  # fmt: skip


@pytest.mark.slow
def test_a_known_page_is_re_seeded_only_when_its_re_check_is_due(
    tmp_path: Path, make_site: Any
) -> None:
    site = make_site()
    site.html("/", page("Home", ["Welcome."], nav='<a href="/a">a</a><a href="/x">x</a>'))
    site.html("/a", page("A", ["The first page."]))
    site.html("/x", page("X", ["A page linked only at first."]))
    first = crawl(tmp_path, "one", site, "86400")
    assert first.returncode == 0, first.stderr[-3000:]
    assert site.count("/x") == 1
    site.html("/", page("Home", ["Welcome."], nav='<a href="/a">a</a>'))  # /x no longer linked

    second = crawl(tmp_path, "two", site, "86400")  # checked a moment ago: a day not over
    assert second.returncode == 0, second.stderr[-3000:]
    assert site.count("/x") == 1, "not due: not re-seeded"
    assert second.stat("webrobot/monitor/recheck/not_due") == 3
    assert "re-checking 0 known pages (3 not due yet)" in second.log

    third = crawl(tmp_path, "three", site, "0")  # every known page at every crawl
    assert third.returncode == 0, third.stderr[-3000:]
    assert site.count("/x") == 2, "re-seeded"
    assert third.stat("webrobot/monitor/recheck/not_due") == 0
