"""The monitor benchmark's changing site (benchmarks/monitor.py) as two real crawls of a
local server: real article pages wrapped in noise that changes on every fetch, then a
change set (noise only, text edits, price changes, removed and new pages). Judged by
events.jsonl against the change set, with pinned floors; the crawl report's changes
section and the Apprise digest (json:// to a local receiver) come from the same crawls."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from benchmarks.monitor import ChangingSite, article_pages, measure
from tests.crawling import CrawlResult, run_crawl
from tests.webhookreceiver import WebhookReceiver

#: Pages of the reduced site (the benchmark runs all 181).
PAGES = 30
#: Floors on `changed` over the pages of both crawls (measured: 1.00 and 1.00).
FLOORS = {"precision": 0.95, "recall": 0.90}


def crawl(tmp_path: Path, name: str, start: str, folder: Path, notify: str) -> CrawlResult:
    return run_crawl(tmp_path / name, args={"start_urls": start}, settings={
        "WEBROBOT_MONITOR_DIR": str(folder),
        "WEBROBOT_MONITOR_NOTIFY": notify,
        "WEBROBOT_MONITOR_WEBHOOK_BACKOFF_MAX": "0.2",
        "DEPTH_LIMIT": "1",
        "WEBROBOT_REPORT_DIR": str(tmp_path / name / "report"),
    }, timeout=300)  # fmt: skip


@pytest.mark.slow
def test_two_crawls_of_the_changing_site_tell_what_changed(tmp_path: Path, make_site: Any) -> None:
    server = make_site()
    site = ChangingSite(article_pages(PAGES))
    site.serve(server)
    folder = tmp_path / "monitor"
    with WebhookReceiver() as receiver:
        notify = f"json://127.0.0.1:{receiver.port}/digest"
        first = crawl(tmp_path, "one", server.url("/"), folder, notify)
        assert first.returncode == 0, first.log[-3000:]
        lines = (folder / "events.jsonl").read_text("utf-8").splitlines()
        site.crawl = 2
        second = crawl(tmp_path, "two", server.url("/"), folder, notify)
        assert second.returncode == 0, second.log[-3000:]
        digests = [body for _, body in receiver.accepted]
    assert "Traceback" not in first.log + second.log
    told = [json.loads(line) for line in (folder / "events.jsonl").read_text("utf-8").splitlines()]
    once, again = told[: len(lines)], told[len(lines) :]
    key = {server.url(site.path(p)): p.key for p in site.pages}
    key[server.url("/")] = "index"  # the list of pages: judged apart from the articles
    present_1 = {p.key for p in site.pages if site.present(p, 1)} | {"index"}
    assert {key[e["url"]] for e in once if e["event"] == "new"} == present_1
    by_kind: dict[str, set[str]] = {}
    for event in again:
        by_kind.setdefault(event["event"], set()).add(key.get(event["url"], event["url"]))
    roles = {p.key: p.role for p in site.pages}
    index_changed = "index" in by_kind.get("changed", set())
    by_kind.get("changed", set()).discard("index")
    assert by_kind.get("removed") == {k for k, r in roles.items() if r == "removed"}
    assert by_kind.get("new") == {k for k, r in roles.items() if r == "new"}
    said, truth = by_kind.get("changed", set()), site.changed()
    precision = len(said & truth) / len(said) if said else 1.0
    prices = {k for k, r in roles.items() if r == "price"}
    assert precision >= FLOORS["precision"], sorted((k, roles[k]) for k in said - truth)
    assert prices <= said, "every price change is told"
    # Each price change is named as one.
    for event in again:
        if event["event"] == "changed" and roles.get(key[event["url"]]) == "price":
            assert "price" in event["fields"], event

    # The second crawl's report counts its events and shows each changed page.
    report = json.loads((tmp_path / "two" / "report" / "report.json").read_text("utf-8"))
    changes = report["changes"]
    assert changes["counts"]["changed"] == len(said) + index_changed
    assert changes["counts"]["removed"] == len(by_kind["removed"])
    assert {p["url"] for p in changes["pages"]} == {
        e["url"] for e in again if e["event"] == "changed"}  # fmt: skip
    html = (tmp_path / "two" / "report" / "report.html").read_text("utf-8")
    assert 'id="changes"' in html and "24.99" in html

    # One digest per crawl, each counting that crawl's events.
    assert len(digests) == 2, digests
    assert digests[0]["title"] == f"webrobot webrobot: {len(present_1)} new"
    assert f"{len(said) + index_changed} changed" in digests[1]["title"]
    assert second.stat("webrobot/monitor/notify/delivered") == 1

    # Text edits are found by the crawl's main-text extractor.
    recall = len(said & truth) / len(truth)
    assert recall >= FLOORS["recall"], (recall, sorted((k, roles[k]) for k in truth - said))


def test_the_benchmark_runs_and_whole_page_monitors_cry_wolf() -> None:
    """benchmarks/monitor.py on 30 pages: the noise makes every page 'changed' for MD5
    and the text diff; webrobot's monitor keeps its precision, and a page's state
    besides its text stays under 2 KB."""
    result = measure(30)
    rows = {row["monitor"]: row for row in result["monitors"]}
    assert rows["webrobot"]["precision"] >= FLOORS["precision"]
    for whole in ("MD5", "text diff"):
        assert rows[whole]["recall"] == 1.0
        assert (
            rows[whole]["said_changed"]
            == result["pages"] - result["roles"]["new"] - result["roles"]["removed"]
        )
    assert result["state_bytes_besides_text"]["max"] < 2048
