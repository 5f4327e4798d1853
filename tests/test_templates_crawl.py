"""End-to-end: URL-template traps on local sites, judged by what the servers saw."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from datetime import date, timedelta
from pathlib import Path

import pytest

from tests.crawling import run_crawl
from webrobot.demo.server import Hit, Reply, SiteServer

pytestmark = pytest.mark.slow

ROBOTS_ALLOW_ALL = Reply.text("User-agent: *\nDisallow:\n")
MakeSite = Callable[..., SiteServer]
FAST = {"CONCURRENT_REQUESTS_PER_DOMAIN": "8", "LOG_LEVEL": "INFO"}


def page(title: str, body: str = "") -> str:
    return f"<html><head><title>{title}</title></head><body>{body}</body></html>"


def pages_requested(site: SiteServer) -> list[str]:
    return [t for t in site.targets() if t != "/robots.txt"]


def calendar_site(make_site: MakeSite) -> SiteServer:
    """An endless calendar: each day links to the next day, for ever."""
    site = make_site("calendar")
    site.add("/robots.txt", ROBOTS_ALLOW_ALL)

    def day(hit: Hit) -> Reply:
        m = re.fullmatch(r"/cal/(\d{4})/(\d{2})/(\d{2})", hit.path)
        if not m:
            return Reply.html(page("not found"), 404)
        nxt = date(int(m[1]), int(m[2]), int(m[3])) + timedelta(days=1)
        return Reply.html(
            page(hit.path, f"<a href='/cal/{nxt:%Y/%m/%d}'>next day</a> <a href='/'>home</a>")
        )

    site.html(
        "/", page("home", "<a href='/cal/2026/01/01'>calendar</a> <a href='/about'>about</a>")
    )
    site.html("/about", page("about"))
    site.add_prefix("/cal/", day)
    return site


def catalog_site(make_site: MakeSite, listings: int = 20, per_listing: int = 100) -> SiteServer:
    """A shop: 20 listing pages (each links to the next), 100 numbered products on each."""
    site = make_site("catalog")
    site.add("/robots.txt", ROBOTS_ALLOW_ALL)
    site.html("/", page("shop", "<a href='/list?page=1'>catalog</a>"))

    def listing(hit: Hit) -> Reply:
        n = int(hit.target.split("page=")[1])
        if not 1 <= n <= listings:
            return Reply.html(page("no such page"), 404)
        links = "".join(
            f"<a href='/product/{i}'>p{i}</a>"
            for i in range((n - 1) * per_listing + 1, n * per_listing + 1)
        )
        more = f"<a href='/list?page={n + 1}'>next</a>" if n < listings else ""
        return Reply.html(page(f"list {n}", links + more))

    def product(hit: Hit) -> Reply:
        n = int(hit.path.rsplit("/", 1)[1])
        related = (
            f"<a href='/product/{n + 1}'>next product</a>" if n < listings * per_listing else ""
        )
        return Reply.html(page(f"product {n}", f"{related}<a href='/list?page=1'>catalog</a>"))

    site.add_prefix("/list", listing)
    site.add_prefix("/product/", product)
    return site


def test_endless_calendar_stopped_within_a_few_hundred_requests(
    make_site: MakeSite, tmp_path: Path
) -> None:
    site = calendar_site(make_site)
    result = run_crawl(tmp_path, args={"start_urls": site.url("/")}, settings=FAST, timeout=180)
    assert result.returncode == 0, result.stderr
    assert result.stat("finish_reason") == "finished"
    days = [t for t in pages_requested(site) if t.startswith("/cal/")]
    assert 90 <= len(days) <= 110, len(days)  # the default chain of 100 pages
    assert len(pages_requested(site)) < 300
    assert "/about" in pages_requested(site), "the rest of the site is crawled"
    assert result.stat("webrobot/url/refused/template_chain") == 1
    report = json.loads((tmp_path / "items.report.json").read_text("utf-8"))
    top = report["templates"][0]
    assert top["template"] == site.url("/cal/{n}/{n}/{n}")
    assert top["refused"] == {"template_chain": 1} and top["pages"] == len(days)
    assert "template_chain" in report["sites"][site.origin]["refused"]
    html = (tmp_path / "items.report.html").read_text("utf-8")
    assert "URL templates" in html and "/cal/{n}/{n}/{n}" in html


def test_site_config_lowers_the_chain_for_a_pattern(make_site: MakeSite, tmp_path: Path) -> None:
    site = calendar_site(make_site)
    config = tmp_path / "cal.toml"
    config.write_text(
        f'start_urls = ["{site.url("/")}"]\n[[templates]]\nmatch = "^/cal/"\nmax_chain = 5\n',
        "utf-8",
    )
    result = run_crawl(tmp_path / "out", args={"config": str(config)}, settings=FAST)
    assert result.returncode == 0, result.stderr
    # Sorted: the server records a hit once it has answered, so the next day's request
    # (sent as soon as the answer arrived) may be recorded first.
    days = sorted(t for t in pages_requested(site) if t.startswith("/cal/"))
    assert days == [f"/cal/2026/01/{d:02d}" for d in range(1, 7)], "the first day and a chain of 5"


def test_catalog_of_2000_numbered_pages_is_crawled_fully(
    make_site: MakeSite, tmp_path: Path
) -> None:
    site = catalog_site(make_site)
    result = run_crawl(tmp_path, args={"start_urls": site.url("/")}, settings=FAST, timeout=400)
    assert result.returncode == 0, result.stderr
    assert result.stat("finish_reason") == "finished"
    requested = pages_requested(site)
    assert sorted(t for t in requested if t.startswith("/product/")) == sorted(
        f"/product/{i}" for i in range(1, 2001)
    )
    assert sorted(t for t in requested if t.startswith("/list")) == sorted(
        f"/list?page={i}" for i in range(1, 21)
    )
    assert len(requested) == len(set(requested)) == 2021
    assert result.stat("webrobot/url/refused/template_budget") == 0
    assert result.stat("webrobot/url/refused/template_chain") == 0


def test_site_config_budget_per_template(make_site: MakeSite, tmp_path: Path) -> None:
    site = catalog_site(make_site, listings=3, per_listing=40)
    config = tmp_path / "shop.toml"
    config.write_text(
        f'start_urls = ["{site.url("/")}"]\n[[templates]]\nmatch = "^/product/"\nmax_pages = 50\n',
        "utf-8",
    )
    result = run_crawl(tmp_path / "out", args={"config": str(config)}, settings=FAST)
    assert result.returncode == 0, result.stderr
    products = [t for t in pages_requested(site) if t.startswith("/product/")]
    assert len(products) == len(set(products)) == 50
    assert sorted(t for t in pages_requested(site) if t.startswith("/list")) == [
        f"/list?page={i}" for i in (1, 2, 3)
    ]
    assert result.stat("webrobot/url/refused/template_budget") == 120 - 50


def test_deep_tree_is_crawled_fully(make_site: MakeSite, tmp_path: Path) -> None:
    """A tree 80 levels deep whose pages share one template (/node/N), each with two leaves."""
    site = make_site("tree")
    site.add("/robots.txt", ROBOTS_ALLOW_ALL)
    depth = 80

    def node(hit: Hit) -> Reply:
        n = int(hit.path.rsplit("/", 1)[1])
        child = f"<a href='/node/{n + 1}'>deeper</a>" if n < depth else ""
        return Reply.html(
            page(f"node {n}", child + f"<a href='/leaf/{n}-a'>a</a><a href='/leaf/{n}-b'>b</a>")
        )

    site.add_prefix("/node/", node)
    site.add_prefix("/leaf/", lambda hit: Reply.html(page(hit.path)))
    result = run_crawl(
        tmp_path, args={"start_urls": site.url("/node/1")}, settings=FAST, timeout=180
    )
    assert result.returncode == 0, result.stderr
    requested = pages_requested(site)
    assert sorted(requested) == sorted(
        [f"/node/{n}" for n in range(1, depth + 1)]
        + [f"/leaf/{n}-{x}" for n in range(1, depth + 1) for x in "ab"]
    )
    assert result.stat("webrobot/url/refused/template_chain") == 0
    assert result.stat("webrobot/url/refused/template_budget") == 0
