"""End-to-end: Scrapy's memory guard (``MEMUSAGE_LIMIT_MB``) stops a ``JOBDIR``
crawl cleanly when a page pushes its memory past the limit: finish reason
``memusage_exceeded``, the job's state kept, and the resumed job fetches what
was left, nothing twice and nothing lost (judged by the server's log and the
feeds)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.crawling import run_crawl
from webrobot.demo.server import Reply

pytestmark = pytest.mark.slow

PAGES = 40


def items(workdir: Path) -> list[str]:
    feed = workdir / "items.jsonl"
    return [json.loads(line)["url"] for line in feed.read_text().splitlines() if line.strip()]


def test_the_memory_guard_stops_a_job_cleanly_and_the_resumed_job_loses_nothing(
    tmp_path: Path, make_site: Any
) -> None:
    site = make_site("memory")
    site.add("/robots.txt", Reply.text("User-agent: *\nDisallow:\n"))
    links = [f"/p{i}" for i in range(PAGES)]
    links.insert(5, "/big")
    site.html(
        "/", "<html><body>" + "".join(f'<a href="{u}">x</a>' for u in links) + "</body></html>"
    )
    for i in range(PAGES):
        site.add(f"/p{i}", Reply.html(f"<html><title>p{i}</title><body>page {i}</body></html>",
                                      delay=0.05))  # fmt: skip
    # A page of 80 MB: downloading, decoding and parsing it takes several times that.
    big = "<html><title>big</title><body>" + "<p>word word word</p>" * 4_000_000 + "</body></html>"
    site.add("/big", Reply.html(big))
    settings = {"JOBDIR": str(tmp_path / "job"), "CONCURRENT_REQUESTS": "1", "LOG_LEVEL": "INFO",
                "DOWNLOAD_MAXSIZE": "0", "DOWNLOAD_WARNSIZE": "0", "WEBROBOT_INDEX_ENABLED": "False"}  # fmt: skip
    first = run_crawl(tmp_path / "run1", args={"start_urls": site.url("/")},
                      settings={**settings, "MEMUSAGE_LIMIT_MB": "300",
                                "MEMUSAGE_CHECK_INTERVAL_SECONDS": "0.1"})  # fmt: skip
    assert first.stat("finish_reason", "") == "memusage_exceeded", first.log[-3000:]
    assert "Traceback" not in first.log
    fetched_first = [h.path for h in site.hits]
    assert "/big" in fetched_first and len(fetched_first) < PAGES + 3, "stopped mid-crawl"

    second = run_crawl(tmp_path / "run2", args={"start_urls": site.url("/")},
                       settings={**settings, "MEMUSAGE_LIMIT_MB": "0"})  # fmt: skip
    assert second.returncode == 0, second.stderr[-2000:]
    assert second.stat("finish_reason", "") == "finished"
    pages = ["/", "/big", *(f"/p{i}" for i in range(PAGES))]
    hits = [h.path for h in site.hits if h.path != "/robots.txt"]
    assert sorted(set(hits)) == sorted(pages), "every page fetched"
    assert {p: hits.count(p) for p in pages if hits.count(p) != 1} == {}, "none twice"
    itemised = items(tmp_path / "run1") + items(tmp_path / "run2")
    assert sorted(itemised) == sorted(site.url(p) for p in pages), "each page itemised once"
