"""The add-on in someone else's project: a plain ``CrawlSpider`` with
``ADDONS = {"webrobot.Addon": 0}``, crawled by a real ``scrapy crawl`` against
local servers and judged by what they saw requested, the stats and the log.

* Links that will be refused (out of scope, spider traps) are refused before
  the scheduler, as the ``webrobot`` spider's are: they take no place in the
  frontier, among ``CONCURRENT_REQUESTS`` or in a download slot, and no host
  name is looked up for them. Redirects are still judged in the downloader.
* Files that are not pages never reach a callback that expects a page: counted
  as ``webrobot/page/non_html``, no traceback; a request that asks for one
  (``dont_check_type``) gets it.
* The parts that are off as configured are named in one INFO line, not in a
  WARNING each.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.crawling import CrawlResult, run_crawl, write_project
from webrobot.demo.server import Reply, SiteServer

PAGES = 12
OFFSITE_PER_PAGE = 5
#: A saved page archive (Firefox's MAFF: a zip) and a body of no declared type.
MAFF = b"PK\x03\x04" + bytes(range(256)) * 4
BLOB = bytes(range(256)) * 8


def _page(title: str, links: list[str]) -> str:
    anchors = " ".join(f'<a href="{href}">{href}</a>' for href in links)
    return f"<html><head><title>{title}</title></head><body><h1>{title}</h1>{anchors}</body></html>"


def _offsite(i: int, other: SiteServer) -> list[str]:
    """Off-site links of page ``i``: host names no DNS knows, and a loopback site that
    records what it is asked; the first two are on every page."""
    names = [f"http://other{i * OFFSITE_PER_PAGE + k}.example/x" for k in range(OFFSITE_PER_PAGE)]
    return ["http://shared.example/", other.url("/from-a-link"), *names]


@pytest.fixture(scope="module")
def crawled(
    tmp_path_factory: pytest.TempPathFactory,
) -> Iterator[tuple[CrawlResult, SiteServer, SiteServer]]:
    tmp = tmp_path_factory.mktemp("addon-project")
    with SiteServer("site") as site, SiteServer("other") as other:
        site.add("/robots.txt", Reply.text("User-agent: *\nAllow: /\n"))
        too_long = "/deep/" + "a" * 120
        files = ["/saved/page.maff", "/download?id=7"]
        for i in range(PAGES):
            nxt = [f"/p/{j}" for j in (2 * i + 1, 2 * i + 2) if j < PAGES]
            links = [*nxt, *_offsite(i, other), too_long, "/go-away", *files]
            site.html("/" if i == 0 else f"/p/{i}", _page(f"p{i}", links))
        # A redirect to another site: no spider middleware sees it, the downloader refuses it.
        site.add("/go-away", Reply(302, b"", {"Location": other.url("/from-a-redirect")}))
        site.add("/saved/page.maff", Reply(200, MAFF, {"Content-Type": "application/x-maff"}))
        site.add("/download", Reply(200, BLOB, {"Content-Type": "application/octet-stream"}))
        project = write_project(tmp / "project", [site.url("/")])
        result = run_crawl(
            tmp / "out",
            spider="site",
            project=project,
            settings={"URLLENGTH_LIMIT": "100", "LOG_LEVEL": "INFO"},
        )
        yield result, site, other


def test_refused_links_never_reach_the_scheduler_or_the_downloader(
    crawled: tuple[CrawlResult, SiteServer, SiteServer],
) -> None:
    result, site, other = crawled
    assert result.returncode == 0, result.stderr[-3000:]
    pages = {"/"} | {f"/p/{i}" for i in range(1, PAGES)}
    files = {"/saved/page.maff", "/download?id=7"}
    assert set(site.targets()) == pages | files | {"/robots.txt", "/go-away"}
    assert all(site.count(t) == 1 for t in site.targets()), site.targets()
    assert other.hits == [], "an off-site request reached the network"
    # Each refused URL counted once, however many pages link to it.
    distinct_offsite = 2 + PAGES * OFFSITE_PER_PAGE
    assert result.stat("webrobot/url/refused/offsite") == distinct_offsite + 1  # + the redirect
    assert result.stat("webrobot/url/refused/too_long") == 1
    # The links were refused before the scheduler: only the pages, the files, /go-away
    # and its redirect were queued (and the start URL once more, held while robots.txt
    # was fetched), and the downloader refused nothing but the redirect's target.
    assert result.stat("scheduler/enqueued") == len(pages) + len(files) + 3
    assert result.stat("downloader/exception_type_count/scrapy.exceptions.IgnoreRequest") == 1
    # Logged as the webrobot spider's refusals are: the first of each site at INFO.
    assert result.log.count("Refusing offsite URLs of http://shared.example:80") == 1
    assert "Refusing too_long URLs of" in result.log


def test_files_that_are_not_pages_are_counted_not_given_to_the_callback(
    crawled: tuple[CrawlResult, SiteServer, SiteServer],
) -> None:
    result, site, _ = crawled
    assert site.count("/saved/page.maff") == 1 and site.count("/download?id=7") == 1
    assert result.stat("webrobot/page/non_html") == 2
    assert "NotSupported" not in result.log and "Traceback" not in result.log
    assert result.stat("spider_exceptions/NotSupported") == 0
    assert "Not a page, not given to the spider" in result.log
    assert sorted(item["url"].split("/", 3)[3] for item in result.items) == sorted(
        f"p/{i}" for i in range(1, PAGES)
    )


def test_parts_off_as_configured_are_one_info_line_not_warnings(
    crawled: tuple[CrawlResult, SiteServer, SiteServer],
) -> None:
    result, _, _ = crawled
    assert "WARNING: Disabled webrobot." not in result.log
    lines = [line for line in result.log.splitlines() if "webrobot parts off as configured" in line]
    assert len(lines) == 1, lines
    assert "INFO: " in lines[0]
    assert "SpiderState (no JOBDIR)" in lines[0]
    assert "WarcArchiveMiddleware (WEBROBOT_WARC_DIR is not set)" in lines[0]


FILE_SPIDER = """\
import scrapy


class SiteSpider(scrapy.Spider):
    name = "site"
    start_urls = {start_urls!r}

    def parse(self, response):
        for href in response.css("a::attr(href)").getall():
            yield response.follow(href, self.parse_file, meta={{"dont_check_type": True}})

    def parse_file(self, response):
        yield {{"url": response.url, "size": len(response.body)}}
"""


def test_a_request_that_asks_for_a_file_gets_it(
    make_site: type[SiteServer], tmp_path: Path
) -> None:
    site = make_site("files")
    site.add("/robots.txt", Reply.text("User-agent: *\nAllow: /\n"))
    site.html("/", _page("files", ["/saved/page.maff"]))
    site.add("/saved/page.maff", Reply(200, MAFF, {"Content-Type": "application/x-maff"}))
    project = write_project(tmp_path / "project", [site.url("/")], spider=FILE_SPIDER)

    result = run_crawl(tmp_path / "out", spider="site", project=project)

    assert result.returncode == 0, result.stderr[-3000:]
    assert site.count("/saved/page.maff") == 1
    assert result.items == [{"url": site.url("/saved/page.maff"), "size": len(MAFF)}]
    assert result.stat("webrobot/page/non_html") == 0
