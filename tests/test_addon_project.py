"""The add-on in someone else's project: a plain ``CrawlSpider`` with
``ADDONS = {"webrobot.Addon": 0}``, crawled by a real ``scrapy crawl`` against
local servers and judged by what they saw requested, the stats and the log.

Links that will be refused (out of scope, spider traps) are refused before the
scheduler, as the ``webrobot`` spider's are: they take no place in the
frontier, among ``CONCURRENT_REQUESTS`` or in a download slot, and no host name
is looked up for them. Redirects are still judged in the downloader.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from tests.crawling import run_crawl, write_project
from webrobot.demo.server import Reply, SiteServer

PAGES = 12
OFFSITE_PER_PAGE = 5


def _page(title: str, links: list[str]) -> str:
    anchors = " ".join(f'<a href="{href}">{href}</a>' for href in links)
    return f"<html><head><title>{title}</title></head><body><h1>{title}</h1>{anchors}</body></html>"


def _offsite(i: int, other: SiteServer) -> list[str]:
    """Off-site links of page ``i``: host names no DNS knows, and a loopback site that
    records what it is asked; the first two are on every page."""
    names = [f"http://other{i * OFFSITE_PER_PAGE + k}.example/x" for k in range(OFFSITE_PER_PAGE)]
    return ["http://shared.example/", other.url("/from-a-link"), *names]


def test_refused_links_never_reach_the_scheduler_or_the_downloader(
    make_site: Callable[..., SiteServer], tmp_path: Path
) -> None:
    site, other = make_site("site"), make_site("other")
    site.add("/robots.txt", Reply.text("User-agent: *\nAllow: /\n"))
    too_long = "/deep/" + "a" * 120
    for i in range(PAGES):
        nxt = [f"/p/{j}" for j in (2 * i + 1, 2 * i + 2) if j < PAGES]
        links = [*nxt, *_offsite(i, other), too_long, "/go-away"]
        site.html("/" if i == 0 else f"/p/{i}", _page(f"p{i}", links))
    # A redirect to another site: no spider middleware sees it, the downloader refuses it.
    site.add("/go-away", Reply(302, b"", {"Location": other.url("/from-a-redirect")}))
    project = write_project(tmp_path / "project", [site.url("/")])

    result = run_crawl(
        tmp_path / "out",
        spider="site",
        project=project,
        settings={"URLLENGTH_LIMIT": "100", "LOG_LEVEL": "INFO"},
    )

    assert result.returncode == 0, result.stderr[-3000:]
    pages = {"/"} | {f"/p/{i}" for i in range(1, PAGES)}
    assert set(site.targets()) == pages | {"/robots.txt", "/go-away"}
    assert all(site.count(t) == 1 for t in site.targets()), site.targets()
    assert other.hits == [], "an off-site request reached the network"
    # Each refused URL counted once, however many pages link to it.
    distinct_offsite = 2 + PAGES * OFFSITE_PER_PAGE
    assert result.stat("webrobot/url/refused/offsite") == distinct_offsite + 1  # + the redirect
    assert result.stat("webrobot/url/refused/too_long") == 1
    # The links were refused before the scheduler: only the pages, /go-away and its
    # redirect were queued (and the start URL once more, held while robots.txt was
    # fetched), and the downloader refused nothing but the redirect's target.
    assert result.stat("scheduler/enqueued") == len(pages) + 3
    assert result.stat("downloader/exception_type_count/scrapy.exceptions.IgnoreRequest") == 1
    # Logged as the webrobot spider's refusals are: the first of each site at INFO.
    assert "Refusing offsite URLs of http://shared.example:80" in result.log
    assert result.log.count("Refusing offsite URLs of http://shared.example:80") == 1
    assert "Refusing too_long URLs of" in result.log
