"""End to end: a real ``scrapy crawl`` ends with the monitor's summary line, with the right
counts, and its report shows the changes first (report.json's first key, report.html's
first section)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.crawling import CrawlResult, run_crawl
from tests.test_monitor_crawl import page
from webrobot.demo.server import SiteServer


def build(site: SiteServer, crawl: int) -> None:
    links = ["/a", "/b", "/c", "/product"] + (["/gone"] if crawl == 1 else ["/new"])
    nav = "".join(f'<a href="{link}">{link}</a>' for link in links)
    site.html("/", page("Home", ["Welcome to the harbour town site."], nav=nav))
    site.html("/a", page("Walks", ["The coastal path runs for nine miles."]))
    site.html("/b", page("Museum", ["The museum opens at ten."]
                         + (["The cafe closes in winter."] if crawl == 2 else [])))  # fmt: skip
    site.html("/c", page("Harbour", ["Boats leave at dawn."]
                         + (["The ferry now runs on Sundays."] if crawl == 2 else [])))  # fmt: skip
    price = "1299.00" if crawl == 1 else "1249.00"
    site.html("/product", page("Lantern", ["A brass storm lantern, made by hand."],
                               f'<span itemprop="price" content="{price}">{price}</span>'))  # fmt: skip
    if crawl == 1:
        site.html("/gone", page("Old news", ["The pier reopened."]))
    else:
        site.routes.pop("/gone", None)
        site.html("/new", page("Events", ["A regatta on Saturday."]))


def crawl(tmp_path: Path, name: str, site: SiteServer) -> CrawlResult:
    return run_crawl(tmp_path / name, args={"start_urls": site.url("/")}, settings={
        "WEBROBOT_MONITOR_DIR": str(tmp_path / "watch"),
        "WEBROBOT_REPORT_DIR": str(tmp_path / name / "report"),
        "LOG_LEVEL": "INFO",
    })  # fmt: skip


@pytest.mark.slow
def test_the_crawl_ends_with_one_summary_line_and_the_report_starts_with_the_changes(
    tmp_path: Path, make_site: Any
) -> None:
    site = make_site()
    build(site, 1)
    first = crawl(tmp_path, "one", site)
    assert first.returncode == 0, first.stderr[-3000:]
    lines = [x for x in first.log.splitlines() if "Monitor: " in x and "; see " in x]
    assert len(lines) == 1, lines
    assert lines[0].endswith(
        f"Monitor: 6 new; see {tmp_path / 'watch' / 'events.jsonl'} and "
        f"{tmp_path / 'one' / 'report' / 'report.html'}#changes"
    )
    build(site, 2)
    second = crawl(tmp_path, "two", site)
    assert second.returncode == 0, second.stderr[-3000:]
    [line] = [x for x in second.log.splitlines() if "Monitor: " in x and "; see " in x]
    assert " INFO: Monitor: 3 pages changed, 1 new, 1 removed (2 pages unchanged); see " in line
    report = json.loads((tmp_path / "two" / "report" / "report.json").read_text("utf-8"))
    assert next(iter(report)) == "changes", list(report)[:3]
    changes = report["changes"]
    assert changes["counts"] == {
        "new": 1,
        "changed": 3,
        "removed": 1,
        "moved": 0,
        "match": 0,
        "template_changed": 0,
    }
    assert changes["line"] in line
    by_url = {p["url"]: p for p in changes["pages"]}
    assert by_url[site.url("/b")]["added"] == ["The cafe closes in winter."]
    assert by_url[site.url("/product")]["fields"] == [
        {"field": "price", "old": "1299.00", "new": "1249.00"}
    ]
    html = (tmp_path / "two" / "report" / "report.html").read_text("utf-8")
    sections = [html.index(f'id="{part}"') for part in ("changes", "sites")]
    assert sections == sorted(sections), "the changes come before the sites"
    assert html.index('id="changes"') < html.index('class="tiles"')
