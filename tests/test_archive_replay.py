"""End-to-end: a crawl archives its pages whole, judged by a real player.

A site and a second server standing for a CDN (whose robots.txt forbids
/private/) are crawled with ``WEBROBOT_WARC_DIR``; the WARC files are loaded
into pywb, and headless Chromium opens every page through it: no request the
page makes may miss the archive except the requisite robots.txt forbids (which
the report lists). The CDXJ index holds every requisite, the live servers see
nothing during the replay, and items are the same with requisites off.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path
from typing import Any

import pytest

from tests.crawling import PROJECT_ROOT, CrawlResult, run_crawl
from tests.replay import Pywb, replay_venv
from tests.requisite_site import RequisiteSite, build
from tests.test_crawl_archive import tool

pytestmark = pytest.mark.slow

needs_player = pytest.mark.skipif(
    replay_venv() is None or shutil.which("chromium") is None,
    reason="needs pywb in .venv-replay (make replay-venv) and chromium (make system-deps)",
)


def crawl(tmp_path: Path, site: RequisiteSite, name: str, **settings: str) -> CrawlResult:
    work = tmp_path / name
    result = run_crawl(
        work, args={"start_urls": site.site.url("/")},
        settings={"WEBROBOT_WARC_DIR": str(work / "warc"), "WEBROBOT_INDEX_ENABLED": "False",
                  "WEBROBOT_REPORT_DIR": str(work / "report"), **settings},
    )  # fmt: skip
    assert result.returncode == 0, result.stderr[-2000:]
    return result


def served_requisites(site: RequisiteSite) -> set[str]:
    """Every file the two servers hold that a page of the site needs (not pages, not robots.txt)."""
    out = set()
    for server in (site.site, site.cdn):
        for target in server.routes:
            url = server.url(target)
            if target == "/robots.txt" or url == site.forbidden:
                continue
            if target.endswith(".html") and server is site.site or target == "/":
                continue
            out.add(url)
    return out


@pytest.fixture
def requisite_site(make_site: Any) -> RequisiteSite:
    return build(make_site("site"), make_site("cdn"))


def test_requisites_are_fetched_once_never_forbidden_and_indexed(
    tmp_path: Path, requisite_site: RequisiteSite
) -> None:
    site = requisite_site
    result = crawl(tmp_path, site, "on")
    # robots.txt of the CDN obeyed: its forbidden requisite never asked for
    assert not [t for t in site.cdn.targets() if t.startswith("/private/")]
    # once per crawl: no requisite fetched twice, though every page names them
    for server in (site.site, site.cdn):
        targets = server.targets()
        assert all(targets.count(t) == 1 for t in set(targets)), targets
    # never itemised: the items are the pages, as with requisites off
    pages = {site.site.url(p) for p in site.pages}
    assert set(result.item_urls()) == pages
    assert result.stat("webrobot/requisite/image/robots_txt") == 1
    assert result.stat("webrobot/requisite/stylesheet/archived") >= 2  # site.css and its @import
    assert result.stat("webrobot/requisite/font/archived") == 2
    assert result.stat("webrobot/requisite/frame/archived") == 1  # the CDN's widget
    assert result.stat("webrobot/page/failed") == 0

    # index level: every requisite the servers hold for the pages is in the CDXJ
    files = sorted((tmp_path / "on" / "warc").glob("*.warc.gz"))
    cdxj = subprocess.run([tool("cdxj-indexer"), *map(str, files)], check=True,
                          capture_output=True, text=True, timeout=120).stdout  # fmt: skip
    indexed = {json.loads(line.split(" ", 2)[2])["url"] for line in cdxj.splitlines() if line}
    missing = served_requisites(site) - indexed
    assert not missing, missing
    assert site.forbidden not in indexed

    # the report: per site, pages whole and pages missing a requisite, and why
    report = json.loads((tmp_path / "on" / "report" / "report.json").read_text())
    row = report["archive"]["sites"]
    assert len(row) == 1
    (only,) = row.values()
    assert only["pages_missing_requisites"] == len(pages) - 1  # all but the frame page
    assert only["pages_whole"] == 1
    assert only["missing_by_reason"] == {"robots_txt": len(pages) - 1}
    assert {e["requisite"] for e in only["examples"]} == {site.forbidden}


def test_requisites_off_fetches_pages_only(tmp_path: Path, requisite_site: RequisiteSite) -> None:
    site = requisite_site
    result = crawl(tmp_path, site, "off", WEBROBOT_REQUISITES_ENABLED="False")
    assert set(site.site.targets()) == {"/robots.txt", *site.pages}
    assert site.cdn.targets() == []
    assert set(result.item_urls()) == {site.site.url(p) for p in site.pages}
    assert not [k for k in result.stats if k.startswith("webrobot/requisite/")]


def test_off_scope_requisites_stop_at_the_hop_limit(
    tmp_path: Path, requisite_site: RequisiteSite
) -> None:
    """The CDN widget's image is two embeds from the page: refused with one hop allowed."""
    site = requisite_site
    result = crawl(tmp_path, site, "hops", WEBROBOT_REQUISITES_MAX_HOPS="1")
    cdn = site.cdn.targets()
    assert "/widget/embed.html" in cdn and "/widget/w.png" not in cdn
    assert result.stat("webrobot/url/refused/requisite_hops") >= 1


@needs_player
def test_every_page_replays_whole_in_pywb_and_chromium(
    tmp_path: Path, requisite_site: RequisiteSite
) -> None:
    site = requisite_site
    crawl(tmp_path, site, "on")
    venv = replay_venv()
    assert venv is not None
    files = sorted((tmp_path / "on" / "warc").glob("*.warc.gz"))
    hits_before = len(site.site.hits) + len(site.cdn.hits)
    player = Pywb(venv, tmp_path / "pywb", files)
    try:
        visits = [player.visit(site.site.url(p)) for p in site.pages]
    finally:
        player.close()
    for visit in visits:
        assert visit.requests, f"{visit.url}: no request reached pywb"
        assert (visit.url, 200) in visit.requests
        allowed = {site.forbidden} if visit.url != site.site.url("/frame.html") else set()
        assert set(visit.misses) <= allowed, (visit.url, visit.misses)
        asked = {u for u, _ in visit.requests}
        if visit.url != site.site.url("/frame.html"):
            # the replayed page really loaded its requisites from the archive
            assert (
                site.cdn.url("/fonts/cdn.woff2") in asked
                or site.cdn.url("/img/photo-1x.png") in asked
            )
            assert site.site.url("/static/img/tile.gif") in asked  # through site.css's @import
            assert site.cdn.url("/widget/w.png") in asked  # the CDN frame's own requisite
            assert 'data-app="1"' in visit.dom  # the archived script ran
    # the forbidden requisite is the only miss, and it is missed (the check can fail)
    assert any(site.forbidden in v.misses for v in visits)
    # nothing went to the live servers during the replay
    assert len(site.site.hits) + len(site.cdn.hits) == hits_before


@needs_player
def test_wacz_of_a_crawl_validates_lists_its_pages_and_replays(
    tmp_path: Path, requisite_site: RequisiteSite
) -> None:
    site = requisite_site
    crawl(tmp_path, site, "on", WEBROBOT_INDEX_ENABLED="True",
          WEBROBOT_INDEX=str(tmp_path / "on" / "index"))  # fmt: skip
    # a second crawl's files (another worker's, say) in another folder go in too
    crawl(tmp_path, site, "again", WEBROBOT_REQUISITES_ENABLED="False")
    venv = replay_venv()
    assert venv is not None
    wacz = tmp_path / "crawl.wacz"
    done = subprocess.run(
        [sys.executable, "-m", "scrapy", "webrobot-wacz", "-o", str(wacz),
         "--index", str(tmp_path / "on" / "index"),
         str(tmp_path / "on" / "warc"), str(tmp_path / "again" / "warc")],
        cwd=PROJECT_ROOT, capture_output=True, text=True, timeout=300, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr[-2000:]
    valid = subprocess.run([str(venv / "bin" / "wacz"), "validate", "-f", str(wacz)],
                           capture_output=True, text=True, timeout=300, check=False)  # fmt: skip
    assert valid.returncode == 0, valid.stdout[-2000:] + valid.stderr[-2000:]
    assert "Validation succeeded" in valid.stdout

    with zipfile.ZipFile(wacz) as archive:
        names = archive.namelist()
        lines = archive.read("pages/pages.jsonl").decode().splitlines()
    assert len([n for n in names if n.startswith("archive/")]) == 2
    assert any(n.startswith("indexes/") for n in names) and "datapackage.json" in names
    header, *entries = [json.loads(line) for line in lines]
    assert header["format"] == "json-pages-1.0"
    pages = {site.site.url(p) for p in site.pages}
    assert {e["url"] for e in entries} == pages  # pages only: requisites (the CDN frame) left out
    home = next(e for e in entries if e["url"] == site.site.url("/"))
    assert home["title"] == "Home" and "Home text" in home["text"] and home["ts"]

    player = Pywb(venv, tmp_path / "pywb-wacz", [wacz])
    try:
        visits = [player.visit(site.site.url(p)) for p in site.pages]
    finally:
        player.close()
    for visit in visits:
        assert (visit.url, 200) in visit.requests
        assert set(visit.misses) <= {site.forbidden}, (visit.url, visit.misses)
        assert site.site.url("/static/img/tile.gif") in {u for u, _ in visit.requests}


def test_a_recrawl_with_the_http_cache_asks_for_each_requisite_again_once(
    tmp_path: Path, requisite_site: RequisiteSite
) -> None:
    site = requisite_site
    cache = {"HTTPCACHE_ENABLED": "True", "HTTPCACHE_DIR": str(tmp_path / "cache")}
    crawl(tmp_path, site, "first", **cache)
    first = len(site.site.hits)
    result = crawl(tmp_path, site, "second", **cache)
    again = site.site.targets()[first:]
    # revalidated, not skipped: every requisite of the site is asked for again, once
    for target in (
        "/static/site.css",
        "/static/base.css",
        "/static/img/tile.gif",
        "/static/app.js",
    ):
        assert again.count(target) == 1, again
    assert result.stat("webrobot/requisite/stylesheet/archived") >= 2


def test_a_shared_crawl_fetches_each_requisite_once_across_workers(
    tmp_path: Path, requisite_site: RequisiteSite, redis_server: Any
) -> None:
    from tests.test_distributed_crawl import LONG_LEASES, Worker, stop_all

    site = requisite_site
    settings = {"WEBROBOT_REDIS_URL": redis_server.url, "WEBROBOT_WARC_DIR": str(tmp_path / "warc"),
                "WEBROBOT_INDEX_ENABLED": "False", **LONG_LEASES}  # fmt: skip
    starts = {"start_urls": site.site.url("/")}
    workers = [Worker(tmp_path / f"worker-{i}", f"worker-{i}", starts, settings) for i in range(2)]
    try:
        codes = [worker.wait() for worker in workers]
    finally:
        stop_all(workers)
    assert codes == [0, 0], [w.log()[-2000:] for w in workers]
    for server in (site.site, site.cdn):
        targets = [t for t in server.targets() if t != "/robots.txt"]
        assert targets and all(targets.count(t) == 1 for t in targets), targets
    assert served_requisites(site) <= {s.url(t) for s in (site.site, site.cdn) for t in s.targets()}
    assert not [t for t in site.cdn.targets() if t.startswith("/private/")]


@pytest.mark.parametrize("why", ["blocklist", "budget"])
def test_the_report_says_why_requisites_are_missing(
    tmp_path: Path, requisite_site: RequisiteSite, why: str
) -> None:
    site = requisite_site
    settings = (
        {"WEBROBOT_BLOCKLIST": json.dumps(["re:/img/photo-2x"])}
        if why == "blocklist"
        else {"WEBROBOT_MAX_PAGES_PER_SITE": "3"}
    )
    result = crawl(tmp_path, site, why, **settings)
    report = json.loads((tmp_path / why / "report" / "report.json").read_text())
    (row,) = report["archive"]["sites"].values()
    assert row["missing_by_reason"].get(why, 0) >= 1, row
    assert any(e["reason"] == why for e in row["examples"])
    if why == "blocklist":
        assert "/img/photo-2x.png" not in site.cdn.targets()  # never requested
        assert result.stat("webrobot/requisite/image/blocklist") == 1
    else:
        assert len([t for t in site.site.targets() if t != "/robots.txt"]) == 3


def test_requisites_come_right_after_their_page(
    tmp_path: Path, requisite_site: RequisiteSite
) -> None:
    """Ahead of the pages waiting: a crawl stopped early holds whole pages."""
    site = requisite_site
    work = tmp_path / "order"
    # every page waits in the frontier from the start
    starts = ",".join(site.site.url(p) for p in site.pages)
    result = run_crawl(
        work, args={"start_urls": starts},
        settings={"WEBROBOT_WARC_DIR": str(work / "warc"), "WEBROBOT_INDEX_ENABLED": "False",
                  "CONCURRENT_REQUESTS": "1"},
    )  # fmt: skip
    assert result.returncode == 0, result.stderr[-2000:]
    targets = [t for t in site.site.targets() if t != "/robots.txt"]
    first_other_page = min(targets.index(p) for p in site.pages if p != "/")
    before = set(targets[:first_other_page])
    # the home page's own requisites, its stylesheet's @import and url()s included
    for target in ("/static/site.css", "/static/base.css", "/static/fonts/own.woff2",
                   "/static/img/tile.gif", "/static/app.js", "/static/hero.png"):  # fmt: skip
        assert target in before, targets
