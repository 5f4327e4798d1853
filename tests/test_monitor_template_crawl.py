"""The monitor end to end on a blog of 40 real articles whose container ends with a site
note (a donation plea and a copyright year) and a block of site links, as many blogs'
do: both reach the main text the crawl extracts (trafilatura), so only the monitor's
own judgement keeps them from being news.

* A noise rule added between two crawls (an ignore selector for the note) re-baselines
  quietly: no page event, one summary entry, counted.
* The note's year and plea changed on every page while two articles get a real new
  sentence: the two pages are told, and the site's template change once.
* Only the block of site links changed: one site-level event.

The articles are the public article-extraction benchmark's (read in place); the
evaluation of the same rules on all of them is scripts/eval_monitor.py.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from scripts import eval_monitor
from tests.crawling import CrawlResult, run_crawl
from webrobot.demo.server import SiteServer

ARTICLES = 40
NOTES = {
    1: ("The Harbour Review is free to read because readers like you chip in. Please give five pounds today.",
        "Copyright 2025 The Harbour Review. All rights reserved."),
    2: ("Our reporters rely on readers: a gift of any size keeps the Harbour Review free for everyone.",
        "Copyright 2026 The Harbour Review. All rights reserved."),
}  # fmt: skip
LINKS = {
    1: "Read more stories from the harbour desk. Sign up for the morning letter.",
    2: "Browse every story from the harbour desk. Get the morning letter by email.",
}
NEWS = "Update: the harbour board confirmed these figures at its meeting on Tuesday evening."

pytestmark = pytest.mark.skipif(
    not eval_monitor.DATA.exists(), reason=f"no benchmark data at {eval_monitor.DATA}"
)


def build(
    site: SiteServer, note: int = 1, links: int = 1, news: frozenset[int] = frozenset()
) -> None:
    """The blog: an index and :data:`ARTICLES` real articles, each ending with the site note
    (version ``note``) and the block of site links (version ``links``); the articles in
    ``news`` end with one more real sentence."""
    bodies = [body for _, body in eval_monitor.articles()[:ARTICLES]]
    nav = "".join(f'<li><a href="/post/{i}">Story {i}</a></li>' for i in range(ARTICLES))
    site.html("/", "<html><head><title>The Harbour Review</title></head><body>"
                   f"<h1>The Harbour Review</h1><ul>{nav}</ul></body></html>")  # fmt: skip
    plea, year = NOTES[note]
    for i, body in enumerate(bodies):
        paragraphs = [*body.splitlines(), *([NEWS] if i in news else [])]
        text = "".join(f"<p>{p}</p>" for p in paragraphs)
        site.html(f"/post/{i}", (
            f"<html><head><title>Story {i}</title></head><body>"
            '<nav><a href="/">Home</a> <a href="/about">About</a></nav>'
            f"<article><h1>Story {i}</h1>{text}"
            f'<div class="site-note"><p>{plea}</p><p>{year}</p></div>'
            f'<div class="text-center"><p>{LINKS[links]}</p></div></article>'
            "<footer><p>The Harbour Review, 1 Quay Street.</p></footer></body></html>"
        ))  # fmt: skip


def crawl(
    tmp_path: Path, name: str, site: SiteServer, folder: Path, **settings: str
) -> CrawlResult:
    result = run_crawl(tmp_path / name, args={"start_urls": site.url("/")}, settings={
        "WEBROBOT_MONITOR_DIR": str(folder), "WEBROBOT_REPORT_DIR": str(tmp_path / name / "report"),
        "CONCURRENT_REQUESTS_PER_DOMAIN": "4", **settings,
    }, timeout=300)  # fmt: skip
    assert result.returncode == 0, result.stderr[-3000:]
    assert "Traceback" not in result.log
    return result


def told(folder: Path, since: int = 0) -> list[dict[str, Any]]:
    lines = (folder / "events.jsonl").read_text("utf-8").splitlines()
    return [json.loads(line) for line in lines[since:]]


def changes_section(tmp_path: Path, name: str) -> dict[str, Any]:
    report = json.loads((tmp_path / name / "report" / "report.json").read_text("utf-8"))
    return dict(report["changes"])


@pytest.mark.slow
def test_a_rule_change_re_baselines_quietly(tmp_path: Path, make_site: Any) -> None:
    site, folder = make_site(), tmp_path / "monitor"
    build(site)
    crawl(tmp_path, "one", site, folder)
    first = told(folder)
    assert sum(e["event"] == "new" for e in first) == ARTICLES + 1
    second = crawl(tmp_path, "two", site, folder, WEBROBOT_MONITOR_IGNORE_SELECTORS=".site-note")
    assert told(folder, len(first)) == [], "a rule change alone tells no page"
    pages = ARTICLES + 1
    assert second.stat("webrobot/monitor/rebaselined") == pages
    section = changes_section(tmp_path, "two")
    assert section["summary"] == [f"rules changed: {pages} pages re-baselined"]
    assert section["rebaselined"] == pages
    assert second.log.count("pages re-baselined") == 1
    [line] = [x for x in second.log.splitlines() if "INFO: Monitor: " in x and "; see " in x]
    assert "Monitor: no changes" in line, line
    assert f"; rules changed: {pages} pages re-baselined; see " in line, line
    # The next crawl judges under the new rules as usual: nothing to tell, nothing re-baselined.
    third = crawl(tmp_path, "three", site, folder, WEBROBOT_MONITOR_IGNORE_SELECTORS=".site-note")
    assert told(folder, len(first)) == []
    assert third.stat("webrobot/monitor/rebaselined") == 0
    assert third.stat("webrobot/monitor/unchanged") == pages


def template_crawls(
    tmp_path: Path, site: SiteServer, **settings: str
) -> list[list[dict[str, Any]]]:
    """Three crawls of the blog: as it was; the note changed everywhere and two articles
    with news; then only the block of site links changed. The events of the last two."""
    folder = tmp_path / "monitor"
    build(site)
    crawl(tmp_path, "one", site, folder, **settings)
    seen = len(told(folder))
    build(site, note=2, news=frozenset({3, 17}))
    crawl(tmp_path, "two", site, folder, **settings)
    second = told(folder, seen)
    build(site, note=2, links=2, news=frozenset({3, 17}))
    crawl(tmp_path, "three", site, folder, **settings)
    return [second, told(folder, seen + len(second))]


@pytest.mark.slow
def test_a_site_template_change_is_one_event_and_real_news_is_still_told(
    tmp_path: Path, make_site: Any
) -> None:
    site = make_site()
    second, third = template_crawls(tmp_path, site)
    pages = sorted(e["url"] for e in second if e["event"] == "changed")
    assert pages == [site.url("/post/17"), site.url("/post/3")]
    for event in second:
        if event["event"] == "changed":
            assert event["changes"] == [{"field": "main_text", "added": [NEWS], "removed": []}]
    templates = [e for e in second if e["event"] == "template_changed"]
    assert len(templates) == 1 and len(second) == 3, second
    (template,) = templates
    assert template["site"] == site.url("/").rstrip("/")
    old_note, new_note = " ".join(NOTES[1]), " ".join(NOTES[2])
    assert "Copyright 2025 The Harbour Review." in template["removed"]
    assert "Copyright 2026 The Harbour Review." in template["added"]
    assert all(s in old_note for s in template["removed"]), template
    assert all(s in new_note for s in template["added"]), template
    # Only the site links changed: one site-level event, no page event.
    assert [e["event"] for e in third] == ["template_changed"], third
    assert " ".join(third[0]["added"]) == LINKS[2] and " ".join(third[0]["removed"]) == LINKS[1]
    # The report shows what was learnt.
    section = changes_section(tmp_path, "three")
    shown = section["templates"][site.url("/").rstrip("/")]
    assert "Get the morning letter by email." in shown["sentences"]
    assert "Copyright 2026 The Harbour Review." in shown["sentences"]
    assert section["counts"]["template_changed"] == 1


@pytest.mark.slow
def test_without_template_learning_every_page_is_told(tmp_path: Path, make_site: Any) -> None:
    """The same crawls with learning off: the template is news on every page (what the
    test above would see if learning did nothing)."""
    site = make_site()
    second, third = template_crawls(tmp_path, site, WEBROBOT_MONITOR_TEMPLATE_MIN_PAGES="0")
    assert sum(e["event"] == "changed" for e in second) == ARTICLES
    assert sum(e["event"] == "changed" for e in third) == ARTICLES
    assert not any(e["event"] == "template_changed" for e in second + third)
