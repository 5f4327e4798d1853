"""End-to-end: real crawls of local trap sites, judged by what the servers saw."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable
from dataclasses import replace
from itertools import pairwise
from pathlib import Path

import pytest

from tests.crawling import run_crawl, start_crawl, wait_until, write_project
from webrobot.demo.server import Reply, SiteServer
from webrobot.demo.web import DemoWeb

pytestmark = pytest.mark.slow

ROBOTS_ALLOW_ALL = Reply.text("User-agent: *\nDisallow:\n")
MakeSite = Callable[..., SiteServer]


def page(title: str, body: str = "") -> str:
    return f"<html><head><title>{title}</title></head><body>{body}</body></html>"


def pages_requested(site: SiteServer) -> list[str]:
    return [t for t in site.targets() if t != "/robots.txt"]


def write_config(path: Path, text: str) -> Path:
    path.write_text(text, "utf-8")
    return path


def test_relative_link_loop_ends_without_a_segment_thrice(
    make_site: MakeSite, tmp_path: Path
) -> None:
    site = make_site("loop")
    site.add("/robots.txt", ROBOTS_ALLOW_ALL)
    site.html("/", page("home", "<a href='loop/'>loop</a>"))
    # Every /loop/.../ page links to loop/ relative to itself: /loop/loop/, /loop/loop/loop/, ...
    site.add_prefix(
        "/loop/",
        lambda hit: Reply.html(page(hit.path, "<a href='loop/'>deeper</a> <a href='/'>home</a>")),
    )
    result = run_crawl(tmp_path, args={"start_urls": site.url("/")})
    assert result.returncode == 0, result.stderr
    assert result.stat("finish_reason") == "finished"
    requested = pages_requested(site)
    assert "/loop/loop/" in requested, "the loop was followed as far as allowed"
    for target in requested:
        counts = Counter(segment for segment in target.split("?")[0].split("/") if segment)
        assert max(counts.values(), default=0) <= 2, target
    assert result.stat("webrobot/url/refused/repeated_segment") == 1
    assert (
        f"Refusing repeated_segment URLs of {site.origin} (first: {site.url('/loop/loop/loop/')})"
        in result.log
    )


def test_infinite_calendar_ends_within_the_site_budget(make_site: MakeSite, tmp_path: Path) -> None:
    site = make_site("calendar")
    site.add("/robots.txt", ROBOTS_ALLOW_ALL)
    site.add("/cal", DemoWeb._calendar)  # the demo's calendar: month N links to N-1 and N+1
    config = write_config(
        tmp_path / "calendar.toml", f'start_urls = ["{site.url("/cal?month=1")}"]\nmax_pages = 12\n'
    )
    result = run_crawl(tmp_path / "out", args={"config": str(config)})
    assert result.returncode == 0, result.stderr
    assert result.stat("finish_reason") == "finished"
    months = [t for t in site.targets() if t.startswith("/cal")]
    assert len(months) == 12, "the whole budget and not one page more"
    assert len(set(months)) == 12
    assert site.count("/robots.txt") == 1, "robots.txt is not a page of the budget"
    assert result.stat("webrobot/url/refused/budget") >= 1
    assert len(result.items) == 12


@pytest.mark.serial("Ctrl-C before the budget is spent")
def test_page_budget_survives_pause_and_resume(make_site: MakeSite, tmp_path: Path) -> None:
    """With JOBDIR, a resumed job continues the budget it had spent: the site
    still gets max_pages pages in all, not max_pages more."""
    site = make_site("calendar")
    site.add("/robots.txt", ROBOTS_ALLOW_ALL)
    site.add("/cal", lambda hit: replace(DemoWeb._calendar(hit), delay=0.1))
    config = write_config(
        tmp_path / "calendar.toml", f'start_urls = ["{site.url("/cal?month=1")}"]\nmax_pages = 10\n'
    )
    args, settings = {"config": str(config)}, {"JOBDIR": str(tmp_path / "job"), "LOG_LEVEL": "INFO"}
    first = start_crawl(tmp_path / "run1", args=args, settings=settings)
    try:
        wait_until(lambda: len(pages_requested(site)) >= 4, timeout=60, what="4 pages downloaded")
    finally:
        first.interrupt()
    run1 = first.wait(timeout=60)
    assert run1.returncode == 130, run1.stderr
    assert 4 <= len(pages_requested(site)) < 10, "interrupted before the budget was spent"
    run2 = run_crawl(tmp_path / "run2", args=args, settings=settings)
    assert run2.returncode == 0, run2.stderr
    assert run2.stat("finish_reason") == "finished"
    months = pages_requested(site)
    assert len(months) == 10, f"the budget of 10 pages in all, got {len(months)}"
    assert len(set(months)) == 10
    assert run2.stat("webrobot/url/refused/budget") >= 1


def test_long_url_is_never_requested(make_site: MakeSite, tmp_path: Path) -> None:
    site = make_site("long")
    site.add("/robots.txt", ROBOTS_ALLOW_ALL)
    long_link = "/long/" + "x" * 2100
    site.html("/", page("home", f"<a href='{long_link}'>long</a> <a href='/short'>short</a>"))
    site.add_prefix("/long/", lambda hit: Reply.html(page("long")))
    site.html("/short", page("short"))
    long_start = site.url("/long/" + "y" * 2100)
    result = run_crawl(tmp_path, args={"start_urls": f"{site.url('/')},{long_start}"})
    assert result.returncode == 0, result.stderr
    assert sorted(pages_requested(site)) == ["/", "/short"]
    assert result.stat("webrobot/url/refused/too_long") == 2, "a link and a start URL"
    warnings = [line for line in result.log.splitlines() if " WARNING: URL too long" in line]
    assert len(warnings) == 1, "rate-limited: one warning per site per minute"
    assert site.origin in warnings[0]
    shown = re.search(r": (http://\S+)\.\.\.", warnings[0])
    assert shown is not None and len(shown.group(1)) == 200


def alias_site(site: SiteServer) -> None:
    site.add("/robots.txt", ROBOTS_ALLOW_ALL)
    links = [
        "/page.html#reviews", "/page.html", "/page.html#top",
        "/~staff/", "/%7Estaff/", "/%7estaff/",
        "/search?b=2&a=1", "/search?a=1&b=2",
        "/products/", "/products/index.html", "products/index.html#x",
        "/news?utm_source=mail&id=3", "/news?id=3&sessionid=abc", "/news?id=3",
    ]  # fmt: skip
    site.html("/", page("home", "".join(f"<a href='{link}'>{link}</a> " for link in links)))
    site.html("/page.html", page("page", "<a href='/'>home</a>"))
    for alias in ("/~staff/", "/%7Estaff/", "/%7estaff/"):
        site.html(alias, page("staff"))
    site.add("/search", lambda hit: Reply.html(page("search " + hit.target)))
    site.html("/products/", page("products"))
    site.html("/products/index.html", page("products"))
    site.add("/news", lambda hit: Reply.html(page("news " + hit.target)))


ALIAS_GROUPS = {
    "page": {"/page.html"},
    "staff": {"/~staff/", "/%7Estaff/", "/%7estaff/"},
    "search": {"/search?b=2&a=1", "/search?a=1&b=2"},
    "products": {"/products/", "/products/index.html"},
    "news": {"/news?utm_source=mail&id=3", "/news?id=3&sessionid=abc", "/news?id=3"},
}


def test_aliases_of_one_page_are_requested_once(make_site: MakeSite, tmp_path: Path) -> None:
    site = make_site("aliases")
    alias_site(site)
    config = write_config(tmp_path / "aliases.toml", (
        f'start_urls = ["{site.url("/")}"]\n'
        'index_pages = ["index.html"]\nstrip_params = ["sessionid", "utm_*"]\n'
    ))  # fmt: skip
    result = run_crawl(tmp_path / "out", args={"config": str(config)})
    assert result.returncode == 0, result.stderr
    requested = Counter(pages_requested(site))
    for name, group in ALIAS_GROUPS.items():
        assert sum(requested[t] for t in group) == 1, (name, requested)
    assert requested["/"] == 1
    assert sum(requested.values()) == 1 + len(ALIAS_GROUPS), requested


def test_explicit_default_port_is_the_same_page(
    make_site: MakeSite, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A crawl cannot listen on port 80 here, so the site is reached through an
    HTTP proxy: the proxy (the recording server) sees each absolute URL as sent,
    ``http://alias.test/page.html`` or ``http://alias.test:80/page.html``."""
    proxy = make_site("proxy")
    proxy.add("http://alias.test/robots.txt", ROBOTS_ALLOW_ALL)
    home = page("home", "<a href='http://alias.test:80/page.html'>port 80</a> <a href='/page.html'>page</a> "
                        "<a href='http://ALIAS.test:80/page.html#x'>again</a>")  # fmt: skip
    proxy.html("http://alias.test/", home)
    for target in ("http://alias.test/page.html", "http://alias.test:80/page.html"):
        proxy.html(target, page("page"))
    for name in ("no_proxy", "NO_PROXY", "http_proxy", "HTTP_PROXY"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("http_proxy", proxy.origin)
    result = run_crawl(tmp_path, args={"start_urls": "http://alias.test/"})
    assert result.returncode == 0, result.stderr
    requested = Counter(t for t in proxy.targets() if not t.endswith("/robots.txt"))
    assert requested["http://alias.test/"] == 1
    assert (
        requested["http://alias.test/page.html"] + requested["http://alias.test:80/page.html"] == 1
    ), requested


def test_redirect_into_blocked_url_is_not_followed(make_site: MakeSite, tmp_path: Path) -> None:
    site, blocked_site = make_site("site"), make_site("blocked")
    for s in (site, blocked_site):
        s.add("/robots.txt", ROBOTS_ALLOW_ALL)
    site.html(
        "/",
        page(
            "home", "<a href='/go'>go</a> <a href='/go-site'>site</a> <a href='/go-deny'>deny</a>"
        ),
    )
    site.add("/go", Reply(302, b"", {"Location": "/blocked/page.html"}))
    site.add("/go-site", Reply(301, b"", {"Location": blocked_site.url("/page.html")}))
    site.add("/go-deny", Reply(302, b"", {"Location": "/private/page.html"}))
    for s in (site, blocked_site):
        for target in ("/blocked/page.html", "/private/page.html", "/page.html"):
            s.html(target, page(target))
    blocklist = write_config(tmp_path / "blocklist.txt", (
        "# webrobot must never go here\n"
        "re:^http://127\\.0\\.0\\.1:\\d+/blocked/\n"
        f"{blocked_site.origin}   # the whole site\n"
    ))  # fmt: skip
    config = write_config(tmp_path / "site.toml", (
        f'start_urls = ["{site.url("/")}"]\nallowed_domains = ["127.0.0.1"]\ndeny = ["/private/"]\n'
    ))  # fmt: skip
    result = run_crawl(tmp_path / "out", args={"config": str(config)},
                       settings={"WEBROBOT_BLOCKLIST": str(blocklist)})  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert sorted(pages_requested(site)) == ["/", "/go", "/go-deny", "/go-site"]
    assert blocked_site.targets() == [], "not even its robots.txt"
    assert result.stat("webrobot/url/refused/blocklist") == 2
    assert result.stat("webrobot/url/refused/deny_pattern") == 1
    assert result.stat("downloader/response_status_count/302") == 2


def test_bad_blocklist_stops_the_crawl_with_one_line(make_site: MakeSite, tmp_path: Path) -> None:
    site = make_site()
    site.html("/", page("home"))
    blocklist = write_config(
        tmp_path / "blocklist.txt", "good.example\n\nhttp://bad.example/path\n"
    )
    result = run_crawl(tmp_path / "out", args={"start_urls": site.url("/")},
                       settings={"WEBROBOT_BLOCKLIST": str(blocklist)})  # fmt: skip
    assert result.returncode == 2
    assert f"webrobot cannot start: {blocklist}: line 3: expected a domain name" in result.log
    assert "Traceback" not in result.log
    assert site.targets() == []


#: Lines for a project's settings.py: every open of the blocklist file is one line on the
#: crawl's stderr (a Python audit hook, so any reader counts, whichever component it is).
COUNT_OPENS = """
import os, sys


def _count_blocklist_opens(event, args):
    if event == "open" and isinstance(args[0], (str, os.PathLike)):
        if os.path.abspath(os.fspath(args[0])) == {path!r}:
            sys.stderr.write("blocklist file opened\\n")


sys.addaudithook(_count_blocklist_opens)
"""


def test_the_blocklist_file_is_read_once_per_crawl(make_site: MakeSite, tmp_path: Path) -> None:
    """The link gate (links of pages) and the blocklist middleware (start requests and
    redirects) judge by one blocklist, loaded once for the crawl."""
    site = make_site("listed")
    site.add("/robots.txt", ROBOTS_ALLOW_ALL)
    site.html("/", page("home", "<a href='/listed/a.html'>a</a> <a href='/go'>go</a>"))
    site.add("/go", Reply(302, b"", {"Location": "/listed/b.html"}))
    for target in ("/listed/a.html", "/listed/b.html"):
        site.html(target, page(target))
    blocklist = write_config(tmp_path / "blocklist.txt", "re:/listed/\n")
    project = write_project(
        tmp_path / "project", [site.url("/")], settings=COUNT_OPENS.format(path=str(blocklist))
    )
    result = run_crawl(tmp_path / "out", spider="site", project=project,
                       settings={"WEBROBOT_BLOCKLIST": str(blocklist)})  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert sorted(pages_requested(site)) == ["/", "/go"]
    assert result.stat("webrobot/url/refused/blocklist") == 2, "a link and a redirect"
    assert result.stderr.count("blocklist file opened") == 1, result.stderr


def test_depth_limit_refusals_are_counted(make_site: MakeSite, tmp_path: Path) -> None:
    site = make_site("tree")
    site.add("/robots.txt", ROBOTS_ALLOW_ALL)
    site.html("/", page("0", "<a href='/a/'>a</a> <a href='/b/'>b</a>"))
    site.html("/a/", page("1", "<a href='/a/1'>a1</a> <a href='/a/2'>a2</a>"))
    site.html("/b/", page("1", "<a href='/b/1'>b1</a>"))
    result = run_crawl(tmp_path, args={"start_urls": site.url("/")}, settings={"DEPTH_LIMIT": "1"})
    assert result.returncode == 0, result.stderr
    assert sorted(pages_requested(site)) == ["/", "/a/", "/b/"]
    assert result.stat("webrobot/url/refused/depth") == 3


def test_requests_per_minute_throttle_delays_but_loses_nothing(
    make_site: MakeSite, tmp_path: Path
) -> None:
    site = make_site("throttled")
    site.add("/robots.txt", ROBOTS_ALLOW_ALL)
    site.html("/", page("home", "".join(f"<a href='/p{i}'>{i}</a>" for i in range(4))))
    for i in range(4):
        site.html(f"/p{i}", page(str(i)))
    result = run_crawl(tmp_path, args={"start_urls": site.url("/")},
                       settings={"WEBROBOT_MAX_REQUESTS_PER_SITE_PER_MINUTE": "150"})  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert sorted(pages_requested(site)) == ["/", "/p0", "/p1", "/p2", "/p3"], "delayed, not lost"
    starts = sorted(hit.started for hit in site.hits)
    gaps = [b - a for a, b in pairwise(starts)]
    # 150 per minute: one start every 0.4 s (the slack is for a loaded machine:
    # the server sees a request a little after the downloader starts it).
    assert min(gaps) >= 0.3, gaps
    assert starts[-1] - starts[0] >= 5 * 0.4 - 0.05, gaps


def test_demo_shop_traps_end_to_end(tmp_path: Path) -> None:
    """The demo web's own traps, crawled with the bundled demo site config."""
    with DemoWeb(port_base=0) as web:
        result = run_crawl(tmp_path, spider="demo", args={"start_urls": ",".join(web.start_urls())})
        shop = web.sites["shop"]
    assert result.returncode == 0, result.stderr
    assert result.stat("finish_reason") == "finished"
    requested = Counter(shop.targets())
    assert max(requested.values()) == 1, "no URL twice"
    for target in requested:
        counts = Counter(segment for segment in target.split("?")[0].split("/") if segment)
        assert max(counts.values(), default=0) <= 2, target
    assert "/loop/loop/" in requested and "/catalog/start" in requested
    assert not any(t.startswith("/long/") for t in requested)
    assert 0 < sum(t.startswith("/cal?") for t in requested) <= 17, (
        "depth_limit 8 each way from month 1"
    )
    assert sum(requested[t] for t in ("/~staff/", "/%7Estaff/")) == 1
    assert sum(requested[t] for t in ("/search?b=2&a=1", "/search?a=1&b=2")) == 1
    assert sum(requested[t] for t in ("/products/", "/products/index.html")) == 1
    assert not any("sessionid" in t for t in requested), "strip_params makes it /products/"
    assert requested["/about.html"] == 1 and requested["/products/widget.html"] == 1
