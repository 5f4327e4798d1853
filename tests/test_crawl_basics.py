"""End-to-end: real crawls against local sites, judged by what the servers saw."""

from __future__ import annotations

from collections.abc import Callable
from itertools import pairwise
from pathlib import Path

import pytest

from tests.crawling import run_crawl
from webrobot.demo.server import Reply, SiteServer
from webrobot.version import __version__

pytestmark = pytest.mark.slow

ROBOTS_ALLOW_ALL = Reply.text("User-agent: *\nDisallow:\n")


def tree_site(site: SiteServer, fanout: int = 3, depth: int = 3) -> dict[str, int]:
    """A tree of pages; returns page path -> depth. Every page also links back home."""
    depths = {"/": 0}
    site.add("/robots.txt", ROBOTS_ALLOW_ALL)
    frontier = ["/"]
    for level in range(1, depth + 1):
        nxt = []
        for parent in frontier:
            children = [f"{parent.rstrip('/')}/d{level}n{i}/" for i in range(fanout)]
            for child in children:
                depths[child] = level
            links = "".join(f'<a href="{c}">{c}</a>' for c in children)
            site.html(
                parent,
                f"<html><head><title>{parent}</title></head><body>{links}<a href='/'>home</a></body></html>",
            )
            nxt.extend(children)
        frontier = nxt
    for leaf in frontier:
        site.html(
            leaf,
            f"<html><head><title>{leaf}</title></head><body><a href='/'>home</a></body></html>",
        )
    return depths


def test_breadth_first_order_on_a_tree(
    make_site: Callable[..., SiteServer], tmp_path: Path
) -> None:
    site = make_site("tree")
    depths = tree_site(site, fanout=3, depth=3)
    # /n0/n0/n0/ repeats a segment three times, which the trap rules refuse.
    result = run_crawl(
        tmp_path,
        args={"start_urls": site.url("/")},
        settings={"CONCURRENT_REQUESTS_PER_DOMAIN": "1"},
    )
    assert result.returncode == 0, result.stderr
    pages = [t for t in site.targets() if t != "/robots.txt"]
    assert sorted(pages) == sorted(depths), "every page requested exactly once"
    order = [depths[p] for p in pages]
    assert order == sorted(order), f"a deeper page was requested before a shallower one: {order}"
    assert len(result.items) == len(depths)
    by_url = {item["url"]: item for item in result.items}
    leaf = by_url[site.url("/d1n0/d2n1/d3n2/")]
    assert leaf["depth"] == 3
    assert leaf["referer"] == site.url("/d1n0/d2n1/")
    assert leaf["title"] == "/d1n0/d2n1/d3n2/"
    assert leaf["status"] == 200 and leaf["content_type"] == "text/html"
    assert len(leaf["md5"]) == 32 and leaf["meta_robots"] == []
    assert leaf["fetched_at"].endswith("Z") and "T" in leaf["fetched_at"]


def test_stays_on_the_start_sites(make_site: Callable[..., SiteServer], tmp_path: Path) -> None:
    home, other = make_site("home"), make_site("other")
    for site in (home, other):
        site.add("/robots.txt", ROBOTS_ALLOW_ALL)
        site.html("/page.html", "<title>page</title>")
    home.html("/", f"<a href='{other.url('/page.html')}'>other</a><a href='/page.html'>mine</a>")
    result = run_crawl(tmp_path, args={"start_urls": home.url("/")})
    assert result.returncode == 0
    assert sorted(home.targets()) == ["/", "/page.html", "/robots.txt"]
    assert other.targets() == [], "another port on the same host is another site"
    assert result.stat("webrobot/url/refused/offsite") == 1


def test_config_file_argument_and_identification(
    make_site: Callable[..., SiteServer], tmp_path: Path
) -> None:
    site = make_site()
    site.add("/robots.txt", ROBOTS_ALLOW_ALL)
    site.html("/", "<a href='/a'>a</a><a href='/skip/me'>skip</a>")
    site.html("/a", "<title>a</title>")
    config = tmp_path / "mysite.toml"
    config.write_text(
        f'start_urls = ["{site.url("/")}"]\ndeny = ["/skip/"]\nfrom = "ops@example.org"\n', "utf-8"
    )
    result = run_crawl(tmp_path / "out", args={"config": str(config)})
    assert result.returncode == 0, result.stderr
    assert sorted(site.targets()) == ["/", "/a", "/robots.txt"]
    assert result.stat("webrobot/url/refused/deny_pattern") == 1
    page = next(h for h in site.hits if h.target == "/a")
    assert page.headers["user-agent"].startswith(f"webrobot/{__version__} (+http")
    assert page.headers["from"] == "ops@example.org"
    assert page.headers["accept"].startswith("text/html")
    assert page.headers["referer"] == site.url("/")


def test_non_html_and_binary_pages_yield_no_item(
    make_site: Callable[..., SiteServer], tmp_path: Path
) -> None:
    site = make_site()
    site.add("/robots.txt", ROBOTS_ALLOW_ALL)
    site.html("/", "<a href='/img'>i</a><a href='/junk'>j</a><a href='/broken'>b</a>")
    site.add("/img", Reply(200, bytes(range(256)) * 4, {"Content-Type": "image/png"}))
    site.add(
        "/junk",
        Reply(
            200,
            b"\x00\xff\xfe<html>" + bytes(range(256)),
            {"Content-Type": "text/html; charset=utf-8"},
        ),
    )
    site.add(
        "/broken",
        Reply(
            200, b"<html><head><title>Bro\xe9ken</ti", {"Content-Type": "text/html; charset=ascii"}
        ),
    )
    result = run_crawl(tmp_path, args={"start_urls": site.url("/")})
    assert result.returncode == 0
    assert sorted(site.targets()) == ["/", "/broken", "/img", "/junk", "/robots.txt"]
    urls = result.item_urls()
    assert site.url("/img") not in urls
    assert site.url("/broken") in urls and site.url("/junk") in urls
    assert result.stat("webrobot/page/non_html") == 1
    assert "Traceback" not in result.log


def test_a_link_that_cannot_be_requested_costs_the_page_nothing(
    make_site: Callable[..., SiteServer], tmp_path: Path
) -> None:
    site = make_site()
    site.add("/robots.txt", ROBOTS_ALLOW_ALL)
    site.html(
        "/",
        "<a href='http://[::1/x'>v6</a><a href='/a'>a</a><a href='/b:abc/x'>ok</a>"
        f"<a href='{site.origin}:abc/'>port</a><a href='/c'>c</a>"
        f"<a href='{site.origin}\\d'>a backslash: scrapy makes it /d</a>",
    )
    for target in ("/a", "/b:abc/x", "/c", "/d"):
        site.html(target, "<p>page</p>")
    result = run_crawl(tmp_path, args={"start_urls": site.url("/")})
    assert result.returncode == 0
    assert sorted(site.targets()) == ["/", "/a", "/b:abc/x", "/c", "/d", "/robots.txt"]
    assert site.url("/") in result.item_urls()
    assert result.stat("webrobot/page/bad_link") == 2
    assert "Traceback" not in result.log


def test_bad_arguments_fail_with_one_clear_line(tmp_path: Path) -> None:
    """A spider argument the spider refuses ends the crawl with the error in its log
    (``LOG_FILE``) and finish reason ``config_error``. Every such error goes this one
    route (the spider's ``config_error``); each argument's own line is
    ``test_hostile_arguments.py``'s (``-a start_urls=ftp://...``, no argument...)."""
    message = "/no/such/file.toml: cannot be read"
    result = run_crawl(tmp_path, args={"config": "/no/such/file.toml"})
    assert result.returncode == 2
    assert message in result.log
    assert "Traceback" not in result.log
    assert result.stats["finish_reason"] == "config_error"


def test_one_request_in_flight_per_site_with_zero_delay(
    make_site: Callable[..., SiteServer], tmp_path: Path
) -> None:
    """Scrapy 2.19 alone overlaps most of these; webrobot's downloader must not."""
    site = make_site()
    site.add("/robots.txt", ROBOTS_ALLOW_ALL)
    site.html("/", "".join(f"<a href='/p{i}'>{i}</a>" for i in range(8)))
    for i in range(8):
        site.add(f"/p{i}", Reply.html(f"<title>{i}</title>", delay=0.05))
    result = run_crawl(
        tmp_path,
        args={"start_urls": site.url("/")},
        settings={"CONCURRENT_REQUESTS_PER_DOMAIN": "1", "DOWNLOAD_DELAY": "0"},
    )
    assert result.returncode == 0
    hits = sorted(site.hits, key=lambda h: h.started)
    assert len(hits) == 10
    overlaps = [(a.target, b.target) for a, b in pairwise(hits) if b.started < a.finished]
    assert overlaps == []
