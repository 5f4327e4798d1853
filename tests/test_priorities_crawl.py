"""End-to-end: priority rules change the fetch order, judged by the order the server saw."""

from __future__ import annotations

import json
from collections.abc import Callable
from itertools import pairwise
from pathlib import Path

import pytest

from tests.crawling import run_crawl
from tests.redisserver import RedisServer
from webrobot.demo.server import Reply, SiteServer

pytestmark = pytest.mark.slow

MakeSite = Callable[..., SiteServer]
ARCHIVES = 40


def page(title: str, body: str = "") -> str:
    return f"<html><head><title>{title}</title></head><body>{body}</body></html>"


def shop(make_site: MakeSite) -> SiteServer:
    """Home links 40 archive pages, then (last) the catalog; the catalog links 10 products."""
    site = make_site("shop")
    site.add("/robots.txt", Reply.text("User-agent: *\nDisallow:\n"))
    archive_links = "".join(f"<a href='/archive/{i}'>a{i}</a>" for i in range(1, ARCHIVES + 1))
    site.html("/", page("home", archive_links + "<a href='/catalog'>catalog</a>"))
    site.html(
        "/catalog",
        page("catalog", "".join(f"<a href='/product/{i}'>p{i}</a>" for i in range(1, 11))),
    )
    site.add_prefix("/archive/", lambda hit: Reply.html(page(hit.path)))
    site.add_prefix("/product/", lambda hit: Reply.html(page(hit.path)))
    return site


def order(site: SiteServer) -> list[str]:
    return [t for t in site.targets() if t != "/robots.txt"]


def crawl(site: SiteServer, tmp_path: Path, rules: str, **settings: str) -> list[str]:
    """Crawl ``site`` with the given config rules; the order the server saw."""
    config = tmp_path / "shop.toml"
    config.write_text(f'start_urls = ["{site.url("/")}"]\n{rules}', "utf-8")
    result = run_crawl(tmp_path / "out", args={"config": str(config)}, settings=settings)
    assert result.returncode == 0, result.stderr
    assert result.stat("finish_reason") == "finished"
    fetched = order(site)
    assert len(fetched) == len(set(fetched)) == 1 + ARCHIVES + 1 + 10, (
        "everything is crawled either way"
    )
    return fetched


def test_without_rules_the_crawl_is_breadth_first(make_site: MakeSite, tmp_path: Path) -> None:
    fetched = crawl(shop(make_site), tmp_path, "")
    assert fetched[: ARCHIVES + 2] == [
        "/",
        *(f"/archive/{i}" for i in range(1, ARCHIVES + 1)),
        "/catalog",
    ]
    assert all(t.startswith("/product/") for t in fetched[ARCHIVES + 2 :])


def test_a_rank_rule_fetches_products_before_the_archive(
    make_site: MakeSite, tmp_path: Path
) -> None:
    site = shop(make_site)
    rules = '[[priorities]]\nmatch = "^/(catalog|product/)"\nrank = 10\n[[priorities]]\nmatch = "^/archive/"\nrank = -1\n'
    fetched = crawl(site, tmp_path, rules, DOWNLOAD_DELAY="0.02")
    position = {t: i for i, t in enumerate(fetched)}
    assert position["/catalog"] <= 2, "ranked first though it is the home page's last link"
    last_product = max(position[f"/product/{i}"] for i in range(1, 11))
    archives_before = sum(
        1 for i in range(1, ARCHIVES + 1) if position[f"/archive/{i}"] < last_product
    )
    # Without the rule all 40 come first; with it only those fetched while the home page
    # and the catalog were being parsed (the site is not kept idle waiting for links).
    assert archives_before <= 4, fetched
    # breadth-first within a rank: products in link order, archives in link order
    assert [t for t in fetched if t.startswith("/product/")] == [
        f"/product/{i}" for i in range(1, 11)
    ]
    assert [t for t in fetched if t.startswith("/archive/")] == [
        f"/archive/{i}" for i in range(1, ARCHIVES + 1)
    ]
    report = json.loads((tmp_path / "out" / "items.report.json").read_text("utf-8"))
    assert report["priorities"] == [
        {"rank": 10, "requests": 11, "patterns": ["^/(catalog|product/)"]},
        {"rank": 0, "requests": 1, "patterns": ["(no rule)"]},
        {"rank": -1, "requests": ARCHIVES, "patterns": ["^/archive/"]},
    ]
    assert "<h2>Priorities</h2>" in (tmp_path / "out" / "items.report.html").read_text("utf-8")
    # politeness is never bypassed: one request at a time, at least DOWNLOAD_DELAY apart
    hits = [h for h in site.hits if h.target != "/robots.txt"]
    for a, b in pairwise(sorted(hits, key=lambda h: h.started)):
        assert b.started >= a.finished, "never two requests to the site at once"


def test_sitemap_priority_orders_the_sitemap_urls(make_site: MakeSite, tmp_path: Path) -> None:
    site = make_site("news")
    site.add(
        "/robots.txt",
        Reply.text(f"User-agent: *\nDisallow:\nSitemap: {site.url('/sitemap.xml')}\n"),
    )
    site.html("/", page("home"))
    entries = [(f"/low/{i}", "0.1") for i in range(1, 11)] + [
        (f"/high/{i}", "0.9") for i in range(1, 11)
    ]
    site.add(
        "/sitemap.xml",
        Reply(200, "<urlset xmlns='http://www.sitemaps.org/schemas/sitemap/0.9'>" + "".join(
            f"<url><loc>{site.url(path)}</loc><priority>{p}</priority></url>" for path, p in entries
        ) + "</urlset>", {"Content-Type": "application/xml"}),
    )  # fmt: skip
    site.add_prefix("/low/", lambda hit: Reply.html(page(hit.path)))
    site.add_prefix("/high/", lambda hit: Reply.html(page(hit.path)))
    result = run_crawl(tmp_path, args={"start_urls": site.url("/")})
    assert result.returncode == 0, result.stderr
    fetched = [t for t in order(site) if t.startswith(("/low/", "/high/"))]
    assert len(fetched) == 20
    last_high = max(i for i, t in enumerate(fetched) if t.startswith("/high/"))
    assert sum(1 for t in fetched[:last_high] if t.startswith("/low/")) <= 2, fetched
    assert result.stat("webrobot/priority/rank/0") >= 20


def test_a_rank_rule_orders_the_redis_frontier_too(
    make_site: MakeSite, tmp_path: Path, redis_server: RedisServer
) -> None:
    site = shop(make_site)
    rules = '[[priorities]]\nmatch = "^/(catalog|product/)"\nrank = 10\n[[priorities]]\nmatch = "^/archive/"\nrank = -1\n'
    fetched = crawl(
        site, tmp_path, rules,
        WEBROBOT_REDIS_URL=redis_server.url, WEBROBOT_REDIS_POLL_INTERVAL="0.2", WEBROBOT_REDIS_IDLE_CLOSE="1",
    )  # fmt: skip
    position = {t: i for i, t in enumerate(fetched)}
    last_product = max(position[f"/product/{i}"] for i in range(1, 11))
    archives_before = sum(
        1 for i in range(1, ARCHIVES + 1) if position[f"/archive/{i}"] < last_product
    )
    assert archives_before <= 4, fetched
