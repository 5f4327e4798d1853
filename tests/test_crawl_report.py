"""End-to-end: the crawl report of real crawls of a small multi-site web, checked
against what each server saw, and opened in Chromium."""

from __future__ import annotations

import contextlib
import json
import socket
import threading
from collections import Counter
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from tests.browser import render
from tests.crawling import run_crawl
from tests.test_report_html import external_references
from webrobot.demo.server import Hit, Reply, SiteServer

pytestmark = pytest.mark.slow


class DeadSite:
    """A port that accepts connections and closes them unanswered."""

    def __init__(self) -> None:
        self.sock = socket.create_server(("127.0.0.1", 0))
        self.port = self.sock.getsockname()[1]
        self.connections = 0
        self._thread = threading.Thread(target=self._serve, daemon=True)
        self._thread.start()

    @property
    def origin(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def _serve(self) -> None:
        while True:
            try:
                conn, _ = self.sock.accept()
            except OSError:
                return
            self.connections += 1
            conn.close()

    def close(self) -> None:
        with contextlib.suppress(OSError):  # wakes the thread's accept(), which close() would not
            self.sock.shutdown(socket.SHUT_RDWR)
        self.sock.close()
        self._thread.join(timeout=5)


@pytest.fixture
def dead_site() -> Iterator[DeadSite]:
    site = DeadSite()
    yield site
    site.close()


def body_size(site: SiteServer, hit: Hit) -> int:
    body = site.resolve(hit).body
    return len(body.encode("utf-8") if isinstance(body, str) else body)


def page(title: str, *links: str) -> str:
    return f"<title>{title}</title>" + "".join(f"<a href='{u}'>{u}</a>" for u in links)


def build_web(make_site: Callable[..., SiteServer]) -> tuple[SiteServer, SiteServer, SiteServer]:
    shop, blog, elsewhere = make_site("shop"), make_site("blog"), make_site("elsewhere")
    shop.add("/robots.txt", Reply.text("User-agent: *\nDisallow: /private/\nCrawl-delay: 0\n"))
    products = [f"/p{i}.html" for i in range(8)]
    shop.html("/", page("shop", *products, "/private/secret.html", "/drafts/new.html",
                        "/missing.html", "/broken.html", elsewhere.url("/"), blog.url("/")))  # fmt: skip
    for path in products:
        shop.html(path, page(path, "/", "/p0.html"))
    shop.add("/broken.html", Reply.html("<title>oops</title>", 500))
    shop.html("/private/secret.html", page("secret"))
    shop.html("/drafts/new.html", page("draft"))
    blog.html("/", page("blog", "/post1.html", "/post2.html", shop.url("/")))  # no robots.txt: 404
    blog.html("/post1.html", page("post 1", "/post2.html"))
    blog.html("/post2.html", page("post 2"))
    elsewhere.add("/robots.txt", Reply.text("User-agent: *\nDisallow:\n"))
    elsewhere.html("/", page("elsewhere"))
    return shop, blog, elsewhere


def test_report_agrees_with_the_servers_and_renders(
    make_site: Callable[..., SiteServer], dead_site: DeadSite, tmp_path: Path
) -> None:
    shop, blog, elsewhere = build_web(make_site)
    config = tmp_path / "web.toml"
    starts = ", ".join(f'"{u}"' for u in (shop.url("/"), blog.url("/"), dead_site.origin + "/"))
    config.write_text(f'start_urls = [{starts}]\ndeny = ["/drafts/"]\n', "utf-8")
    result = run_crawl(tmp_path / "out", args={"config": str(config)},
                       settings={"WEBROBOT_HEALTH_MAX_ERROR_RATE": "0.15",
                                 # the dead site is deferred, retried, then given up on
                                 "WEBROBOT_ROBOTS_DEFER_MAX": "1.5",
                                 "WEBROBOT_ROBOTS_BACKOFF_BASE": "0.5",
                                 # errors slow a site down by less than a second's wait
                                 "WEBROBOT_POLITENESS_BACKOFF_BASE": "0.2"})  # fmt: skip
    assert result.returncode == 0, result.stderr
    json_path, html_path = (
        tmp_path / "out" / "items.report.json",
        tmp_path / "out" / "items.report.html",
    )
    report = json.loads(json_path.read_text("utf-8"))
    sites = report["sites"]

    # pages requested per site, as each server logged them
    for server in (shop, blog):
        row = sites[server.origin]
        pages = [t for t in server.targets() if t != "/robots.txt"]
        assert row["requested"] == len(pages), server.name
        assert row["robots"]["fetches"] == server.count("/robots.txt") == 1
        assert row["items"] == sum(
            1 for i in result.items if i["url"].startswith(server.origin + "/")
        )
    assert sorted(t for t in shop.targets() if t != "/robots.txt") == sorted(
        ["/", "/missing.html", "/broken.html", *[f"/p{i}.html" for i in range(8)]]
    )
    assert sites[shop.origin]["status"] == {"200": 9, "404": 1, "500": 1}
    assert sites[shop.origin]["errors"] == {"HTTP 404": 1, "HTTP 500": 1}
    assert sites[shop.origin]["error_rate"] == pytest.approx(2 / 11, abs=1e-3)
    assert (
        sites[shop.origin]["robots"]["status"] == 200 and sites[shop.origin]["robots"]["resolved"]
    )
    assert sites[shop.origin]["robots"]["rules"] == "group '*': 1 disallow, 0 allow"
    assert sites[blog.origin]["robots"]["status"] == 404
    assert sites[shop.origin]["bytes"] == sum(body_size(shop, hit) for hit in shop.hits)

    # refusals: never requested, counted by reason on the site they belong to
    assert sites[shop.origin]["refused"] == {"deny_pattern": 1, "robots_txt": 1}
    assert "/private/secret.html" not in shop.targets() and "/drafts/new.html" not in shop.targets()
    assert elsewhere.targets() == []
    assert sites[elsewhere.origin]["refused"] == {"offsite": 1}
    assert sites[elsewhere.origin]["crawled"] is False
    assert report["totals"]["refused"] == {
        "deny_pattern": 1,
        "offsite": 1,
        "robots_txt": 1,
        "robots_unreachable": 1,
    }
    assert (
        result.stat("webrobot/url/refused/offsite") == 1 and result.stat("robotstxt/forbidden") == 1
    )

    # the dead site: every robots.txt attempt reached its port, none got an answer;
    # its page was held, never requested, and dropped when the robot gave up
    dead = sites[dead_site.origin]
    assert dead_site.connections == dead["robots"]["fetches"] >= 2
    assert dead["robots"]["resolved"] is False and dead["robots"]["outcome"] == "unreachable"
    assert dead["requested"] == 0 and dead["refused"] == {"robots_unreachable": 1}
    assert dead["frontier"] == 0, "its held page was refused, not left scheduled"
    assert dead["deferrals"] == dead["robots"]["fetches"] - 1
    assert report["health"]["ok"] is False
    flags = {(f["site"], f["check"]) for f in report["health"]["flags"]}
    # the shop's 2 failures in 11 requests pass the 0.15 error-rate threshold
    assert flags == {(dead_site.origin, "robots_unresolved"), (shop.origin, "error_rate")}
    warnings = [line for line in result.log.splitlines() if "WARNING: Crawl health:" in line]
    assert len(warnings) == 2
    assert result.stat("webrobot/report/health_flags") == 2

    # totals and the timeline agree with the rows
    assert report["totals"]["requested"] == sum(r["requested"] for r in sites.values()) == 11 + 3
    assert report["totals"]["items"] == len(result.items)
    timeline = report["timeline"]["sites"]
    assert {s: sum(v) for s, v in timeline.items()} == {shop.origin: 11, blog.origin: 3}
    assert report["finish_reason"] == "finished" and report["spider"] == "webrobot"

    # report.html: self-contained, and clean in a real browser
    html = html_path.read_text("utf-8")
    assert external_references(html) == []
    for origin in (shop.origin, blog.origin, dead_site.origin):
        assert origin in html
    shown = render(html_path, tmp_path / "report.png")
    assert shown.console == [], shown.console
    assert shown.requests == []
    assert 'data-ready="1"' in shown.dom
    assert shown.screenshot.stat().st_size > 20_000


def test_report_dir_setting_and_switch(
    make_site: Callable[..., SiteServer], tmp_path: Path
) -> None:
    site = make_site()
    site.html("/", page("home"))
    on = run_crawl(tmp_path / "on", args={"start_urls": site.url("/")},
                   settings={"WEBROBOT_REPORT_DIR": str(tmp_path / "reports")})  # fmt: skip
    assert on.returncode == 0
    assert sorted(p.name for p in (tmp_path / "reports").iterdir()) == [
        "report.html",
        "report.json",
    ]
    assert not list((tmp_path / "on").glob("*report*"))
    off = run_crawl(tmp_path / "off", args={"start_urls": site.url("/")},
                    settings={"WEBROBOT_REPORT_ENABLED": "False"})  # fmt: skip
    assert off.returncode == 0
    assert not list((tmp_path / "off").glob("*report*"))
    assert "Crawl report:" in on.log and "Crawl report:" not in off.log


def test_an_unwritable_report_folder_is_logged_not_fatal(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    from scrapy import Spider
    from scrapy.utils.test import get_crawler

    from webrobot.report.extension import CrawlReport

    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder", "utf-8")
    crawler = get_crawler(Spider, settings_dict={
        "WEBROBOT_REPORT_ENABLED": True, "WEBROBOT_REPORT_DIR": str(blocker / "report")})  # fmt: skip
    report = CrawlReport.from_crawler(crawler)
    report.spider_closed(Spider("s"), "finished")
    assert any("Could not write the crawl report" in r.getMessage() and r.levelname == "ERROR"
               for r in caplog.records)  # fmt: skip
    assert not (blocker / "report").exists()


def test_a_scrapyd_job_gets_its_report_next_to_its_items(
    make_site: Callable[..., SiteServer], tmp_path: Path
) -> None:
    """Scrapyd passes FEEDS={"file:///<items_dir>/<project>/<spider>/<job>.jl": ...} with -s."""
    from tests.crawling import scrapy_command

    site = make_site()
    site.html("/", page("home"))
    job_dir = tmp_path / "items" / "webrobot" / "webrobot"
    feed = (job_dir / "6487ec79947edab326d6db28a2d86511.jl").as_uri()
    done = scrapy_command(
        "crawl", "webrobot", "-a", f"start_urls={site.url('/')}",
        "-s", "FEEDS=" + json.dumps({feed: {"format": "jsonlines"}}),
        "-s", f"LOG_FILE={tmp_path / 'job.log'}", "-s", "DOWNLOAD_DELAY=0",
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert sorted(p.name for p in job_dir.iterdir()) == [
        "6487ec79947edab326d6db28a2d86511.index",  # the full-text index (docs/search.md)
        "6487ec79947edab326d6db28a2d86511.jl",
        "6487ec79947edab326d6db28a2d86511.report.html",
        "6487ec79947edab326d6db28a2d86511.report.json",
    ]


def test_report_counts_retries_redirects_duplicates_and_a_deferral_as_the_server_saw_them(
    make_site: Callable[..., SiteServer], tmp_path: Path
) -> None:
    site = make_site("busy")
    answered: list[int] = []  # the status of every page answer, as sent
    robots_answers = iter([Reply.text("busy", 503)])
    flaky_answers = iter([Reply.html("busy", 503), Reply.html("busy", 503)])

    def recorded(reply: Reply | Callable[[], Reply]) -> Callable[[Hit], Reply]:
        def handler(hit: Hit) -> Reply:
            answer = reply() if callable(reply) else reply
            answered.append(answer.status)
            return answer

        return handler

    site.add(
        "/robots.txt",
        lambda hit: next(robots_answers, Reply.text("User-agent: *\nDisallow: /private/\n")),
    )
    site.add("/", recorded(Reply.html(page("home", "/r1", "/flaky.html", "/dead.html", "/d1.html",
                                           "/d2.html", "/private/x.html"))))  # fmt: skip
    site.add("/r1", recorded(Reply(301, b"", {"Location": "/r2"})))
    site.add("/r2", recorded(Reply(302, b"", {"Location": "/target.html"})))
    site.add("/target.html", recorded(Reply.html(page("target", "/"))))
    site.add("/flaky.html", recorded(lambda: next(flaky_answers, Reply.html(page("flaky")))))
    site.add("/dead.html", recorded(Reply.html("down", 500)))
    site.add("/d1.html", recorded(Reply.html(page("same body"))))
    site.add("/d2.html", recorded(Reply.html(page("same body"))))
    result = run_crawl(tmp_path, args={"start_urls": site.url("/")},
                       settings={"RETRY_TIMES": "2", "WEBROBOT_ROBOTS_BACKOFF_BASE": "0.3",
                                 # each error slows the site down: by 0.2 s, doubling, not 1 s
                                 "WEBROBOT_POLITENESS_BACKOFF_BASE": "0.2"})  # fmt: skip
    assert result.returncode == 0, result.stderr
    row = json.loads((tmp_path / "items.report.json").read_text("utf-8"))["sites"][site.origin]

    pages = [t for t in site.targets() if t != "/robots.txt"]
    assert row["requested"] == len(pages) == len(answered) == 12, "retries and redirect hops count"
    assert row["status"] == {str(s): n for s, n in sorted(Counter(answered).items())}
    assert row["errors"] == {"HTTP 500": 3, "HTTP 503": 2} and row["failed"] == 5
    assert row["robots"]["fetches"] == site.count("/robots.txt") == 2
    assert row["robots"]["status"] == 200 and row["robots"]["resolved"] is True
    assert row["deferrals"] == 1 and row["deferred_seconds"] > 0
    assert row["items"] == len(result.items) == 4  # /, /target.html, /flaky.html, one of /d1 /d2
    assert row["items_dropped"] == row["duplicates"] == 1
    assert row["refused"] == {"robots_txt": 1}


def test_a_scrapyd_job_without_items_dir_gets_a_report_of_its_own(
    make_site: Callable[..., SiteServer], tmp_path: Path
) -> None:
    """Scrapyd's default items_dir is empty: no FEEDS, only ``-a _job=<id>``."""
    from tests.crawling import scrapy_command

    site = make_site()
    site.html("/", page("home"))
    for job in ("job-1", "job-2"):
        done = scrapy_command(
            "crawl", "webrobot", "-a", f"start_urls={site.url('/')}", "-a", f"_job={job}",
            "-s", f"WEBROBOT_REPORT_DIR={tmp_path / 'reports'}",
            "-s", f"LOG_FILE={tmp_path / (job + '.log')}", "-s", "DOWNLOAD_DELAY=0",
            "-s", f"WEBROBOT_INDEX={tmp_path / (job + '.index')}",  # not in the project folder
        )  # fmt: skip
        assert done.returncode == 0, done.stderr
    assert sorted(p.name for p in (tmp_path / "reports").iterdir()) == [
        "job-1.report.html", "job-1.report.json", "job-2.report.html", "job-2.report.json"]  # fmt: skip


def test_a_robots_txt_redirected_to_another_site_and_a_budget_stop(
    make_site: Callable[..., SiteServer], tmp_path: Path
) -> None:
    """The robots.txt fetches count for the site whose robots.txt they are, even
    on another site's port; the site that spent its page budget is healthy."""
    shop, policies = make_site("shop"), make_site("policies")
    shop.add("/robots.txt", Reply(301, b"", {"Location": policies.url("/rules/shop.txt")}))
    policies.add(
        "/rules/shop.txt", Reply.text("User-agent: *\nDisallow: /private/\nCrawl-delay: 0\n")
    )
    links = [f"/p{i}.html" for i in range(12)]
    shop.html("/", page("home", *links, "/private/x.html"))
    for link in links:
        shop.html(link, page(link, *links))
    result = run_crawl(tmp_path, args={"start_urls": shop.url("/")},
                       settings={"WEBROBOT_MAX_PAGES_PER_SITE": "5",
                                 "WEBROBOT_HEALTH_MAX_TRAP_REFUSALS": "2"})  # fmt: skip
    assert result.returncode == 0, result.stderr
    report = json.loads((tmp_path / "items.report.json").read_text("utf-8"))
    assert policies.targets() == ["/rules/shop.txt"] and shop.count("/robots.txt") == 1
    row = report["sites"][shop.origin]
    assert row["robots"]["fetches"] == 2, "the robots.txt and its redirect's target"
    assert row["robots"]["status"] == 200 and row["robots"]["resolved"] is True
    assert row["robots"]["rules"] == "group '*': 1 disallow, 0 allow"
    assert row["requested"] == len([t for t in shop.targets() if t != "/robots.txt"]) == 5
    assert row["refused"]["budget"] > 2
    assert policies.origin not in report["sites"], "it served a robots.txt, not a page"
    assert report["health"]["ok"] is True, report["health"]["flags"]


def test_page_flags_are_what_the_components_decided(
    make_site: Callable[..., SiteServer], tmp_path: Path
) -> None:
    """noindex pages yield no item and duplicates are dropped: the report counts
    what the meta-robots rules and the duplicate filter said, page by page."""
    site = make_site("flags")
    site.html("/", page("home", "/noindex.html", "/nofollow.html", "/a.html", "/b.html"))
    site.html("/noindex.html", '<meta name="robots" content="noindex"><title>hidden</title>')
    site.html(
        "/nofollow.html", '<meta name="robots" content="nofollow">' + page("shut", "/unseen.html")
    )
    site.html("/a.html", page("same body"))
    site.html("/b.html", page("same body"))
    result = run_crawl(tmp_path, args={"start_urls": site.url("/")})
    assert result.returncode == 0, result.stderr
    assert "/unseen.html" not in site.targets()
    row = json.loads((tmp_path / "items.report.json").read_text("utf-8"))["sites"][site.origin]
    assert (row["noindex"], row["nofollow"], row["duplicates"]) == (1, 1, 1)
    assert row["items"] == len(result.items) == 3  # /, /nofollow.html, one of /a.html /b.html
