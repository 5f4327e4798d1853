"""End-to-end: re-crawls fetch only the pages that are due, judged by what the server saw.

Time between crawls is simulated by ageing the page records in the freshness
store (moving each last check back), so the intervals are the real defaults
(a day) and the test does not wait."""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

import pytest

from tests.crawling import CrawlResult, run_crawl
from webrobot.demo.server import Hit, Reply, SiteServer
from webrobot.frontier.freshnessstore import FreshnessStore

pytestmark = pytest.mark.slow

MakeSite = Callable[..., SiteServer]
DAY, HOUR = 86400.0, 3600.0


def page(title: str, body: str = "") -> str:
    return f"<html><head><title>{title}</title></head><body>{body}</body></html>"


class NewsSite:
    """/ links /stable (ETag: answers 304), /changing (new text at every fetch),
    /rare (same text, no validators); the sitemap lists /news with a lastmod."""

    def __init__(self, site: SiteServer) -> None:
        self.site = site
        self.changes = 0
        self.news_lastmod = "2026-01-01"
        site.add(
            "/robots.txt",
            Reply.text(f"User-agent: *\nDisallow:\nSitemap: {site.url('/sitemap.xml')}\n"),
        )
        site.html(
            "/",
            page("home", "<a href='/stable'>s</a><a href='/changing'>c</a><a href='/rare'>r</a>"),
        )
        site.add("/stable", self.stable)
        site.add("/changing", self.changing)
        site.html("/rare", page("rare"))
        site.html("/news", page("news"))
        site.add("/sitemap.xml", lambda hit: Reply(200, (
            "<urlset xmlns='http://www.sitemaps.org/schemas/sitemap/0.9'>"
            f"<url><loc>{site.url('/news')}</loc><lastmod>{self.news_lastmod}</lastmod></url></urlset>"
        ), {"Content-Type": "application/xml"}))  # fmt: skip

    def stable(self, hit: Hit) -> Reply:
        if hit.headers.get("if-none-match") == '"v1"':
            return Reply(304, b"", {"ETag": '"v1"'})
        return Reply.html(page("stable"), ETag='"v1"')

    def changing(self, hit: Hit) -> Reply:
        self.changes += 1
        return Reply.html(page("changing", f"version {self.changes}"))

    def pages_seen(self, since: int) -> list[str]:
        return sorted(
            t for t in self.site.targets()[since:] if t not in ("/robots.txt", "/sitemap.xml")
        )


def age(store_path: Path, seconds: float) -> None:
    """As if ``seconds`` had passed since every page was last checked."""
    store = FreshnessStore(store_path)
    for url, record in store.all().items():
        store.put(url, replace(record, checked_at=record.checked_at - seconds))
    store.close()


def intervals(store_path: Path, site: SiteServer) -> dict[str, float]:
    store = FreshnessStore(store_path)
    try:
        return {url.removeprefix(site.origin): r.interval for url, r in store.all().items()}
    finally:
        store.close()


def test_recrawl_fetches_only_due_pages_and_intervals_adapt(
    make_site: MakeSite, tmp_path: Path
) -> None:
    news = NewsSite(make_site("news"))
    site = news.site
    db = tmp_path / "freshness.sqlite"
    settings = {
        "HTTPCACHE_ENABLED": "True", "HTTPCACHE_DIR": str(tmp_path / "cache"), "WEBROBOT_FRESHNESS_DB": str(db),
        "WEBROBOT_RECRAWL_INTERVAL": str(DAY), "LOG_LEVEL": "INFO",
    }  # fmt: skip
    runs = 0

    def crawl() -> CrawlResult:
        nonlocal runs
        runs += 1
        result = run_crawl(
            tmp_path / f"run{runs}", args={"start_urls": site.url("/")}, settings=settings
        )
        assert result.returncode == 0, result.stderr
        assert result.stat("finish_reason") == "finished"
        return result

    everything = ["/", "/changing", "/news", "/rare", "/stable"]
    first = crawl()
    assert news.pages_seen(0) == everything
    assert first.stat("webrobot/freshness/new") == 5
    assert intervals(db, site) == dict.fromkeys(everything, DAY)

    # At once again: nothing is due, the site sees no page request, links are still followed.
    mark = len(site.targets())
    second = crawl()
    assert news.pages_seen(mark) == []
    assert second.stat("webrobot/freshness/not_due") == 5
    assert sorted(i["url"] for i in second.items) == [site.url(p) for p in everything]

    # A day later: everything is due; /stable answers 304, /changing has changed.
    age(db, DAY + 1)
    mark = len(site.targets())
    third = crawl()
    assert news.pages_seen(mark) == everything
    assert [h.headers.get("if-none-match") for h in site.hits[mark:] if h.target == "/stable"] == [
        '"v1"'
    ]
    assert third.stat("webrobot/freshness/changed") == 1
    assert third.stat("webrobot/freshness/unchanged") == 4
    assert third.stat("webrobot/freshness/due/interval") == 5
    assert intervals(db, site) == {**dict.fromkeys(everything, 2 * DAY), "/changing": DAY / 2}

    # 13 hours later: only the page that changes is due, and it changed again.
    age(db, 13 * HOUR)
    mark = len(site.targets())
    fourth = crawl()
    assert news.pages_seen(mark) == ["/changing"]
    assert fourth.stat("webrobot/freshness/not_due") == 4
    assert fourth.stat("webrobot/freshness/changed") == 1
    assert intervals(db, site)["/changing"] == DAY / 4

    # The sitemap says /news was modified after its last check: due at once.
    news.news_lastmod = "2099-01-01"
    mark = len(site.targets())
    fifth = crawl()
    assert news.pages_seen(mark) == ["/news"]
    assert fifth.stat("webrobot/freshness/due/lastmod") == 1
    report = json.loads((tmp_path / "run5" / "items.report.json").read_text("utf-8"))
    assert report["freshness"]["not_due"] == 4 and report["freshness"]["unchanged"] == 1
    assert "Freshness" in (tmp_path / "run5" / "items.report.html").read_text("utf-8")


def test_without_an_interval_every_stored_page_is_revalidated(
    make_site: MakeSite, tmp_path: Path
) -> None:
    news = NewsSite(make_site("news"))
    settings = {"HTTPCACHE_ENABLED": "True", "HTTPCACHE_DIR": str(tmp_path / "cache")}
    for run in (1, 2):
        result = run_crawl(
            tmp_path / f"run{run}", args={"start_urls": news.site.url("/")}, settings=settings
        )
        assert result.returncode == 0, result.stderr
    assert news.site.targets().count("/stable") == 2
    assert news.site.targets().count("/changing") == 2
    assert not (tmp_path / "cache" / "freshness.sqlite").exists()
