"""End-to-end: sitemaps from robots.txt and from a site config, judged by what the servers saw."""

from __future__ import annotations

import gzip
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.crawling import run_crawl
from webrobot.demo.server import Reply, SiteServer

pytestmark = pytest.mark.slow

MakeSite = Callable[..., SiteServer]
NS = 'xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"'


def page(title: str, body: str = "") -> str:
    return f"<html><head><title>{title}</title></head><body>{body}</body></html>"


def urlset(*locs: str) -> str:
    return (
        f"<?xml version='1.0'?><urlset {NS}>"
        + "".join(f"<url><loc>{loc}</loc></url>" for loc in locs)
        + "</urlset>"
    )


def xml(body: str | bytes) -> Reply:
    return Reply(200, body, {"Content-Type": "application/xml"})


def test_pages_only_in_sitemaps_are_fetched_and_the_rules_still_apply(
    make_site: MakeSite, tmp_path: Path
) -> None:
    site, other = make_site("site"), make_site("other")
    site.add(
        "/robots.txt",
        Reply.text(
            f"User-agent: *\nDisallow: /private/\n\nSitemap: {site.url('/sitemap_index.xml')}\n"
        ),
    )
    site.html("/", page("home", "no links at all"))
    site.add(
        "/sitemap_index.xml",
        xml(f"<sitemapindex {NS}>" + "".join(
            f"<sitemap><loc>{site.url(p)}</loc></sitemap>" for p in ("/sitemap1.xml", "/sitemap2.xml.gz", "/broken.xml")
        ) + "</sitemapindex>"),
    )  # fmt: skip
    site.add(
        "/sitemap1.xml",
        xml(
            urlset(
                site.url("/only-in-sitemap-1"), site.url("/private/secret"), other.url("/offsite")
            )
        ),
    )
    site.add(
        "/sitemap2.xml.gz",
        Reply(
            200,
            gzip.compress(urlset(site.url("/only-in-sitemap-2")).encode()),
            {"Content-Type": "application/gzip"},
        ),
    )
    site.add("/broken.xml", xml("<urlset><url><loc>"))
    site.add("/config-sitemap.xml", xml(urlset(site.url("/from-config"), "/relative-entry")))
    for target in ("/only-in-sitemap-1", "/only-in-sitemap-2", "/from-config", "/relative-entry"):
        site.html(target, page(target))
    other.add("/robots.txt", Reply.text("User-agent: *\nDisallow:\n"))
    other.html("/offsite", page("offsite"))

    config = tmp_path / "withsitemaps.toml"
    config.write_text(
        f'start_urls = ["{site.url("/")}"]\nsitemaps = ["{site.url("/config-sitemap.xml")}"]\n',
        "utf-8",
    )
    result = run_crawl(tmp_path / "out", args={"config": str(config)})
    assert result.returncode == 0, result.stderr
    assert result.stat("finish_reason") == "finished"
    requested = set(site.targets())
    for target in ("/only-in-sitemap-1", "/only-in-sitemap-2", "/from-config", "/relative-entry"):
        assert target in requested, target
    assert "/private/secret" not in requested, "robots.txt rules apply to sitemap URLs"
    assert other.targets() == [], "a sitemap URL outside the scope is not fetched"
    assert site.count("/sitemap_index.xml") == 1
    assert result.stat("webrobot/sitemap/found/robots") == 1
    assert result.stat("webrobot/sitemap/found/config") == 1
    assert result.stat("webrobot/sitemap/found/index") == 3
    assert result.stat("webrobot/sitemap/read/sitemapindex") == 1
    assert result.stat("webrobot/sitemap/read/urlset") == 3
    assert result.stat("webrobot/sitemap/bad/xml") == 1
    assert result.stat("webrobot/url/refused/offsite") == 1
    assert result.stat("robotstxt/forbidden") >= 1
    assert "Sitemap " + site.url("/broken.xml") + " skipped: xml" in result.log
    assert sorted(i["url"] for i in result.items) == sorted(
        site.url(t)
        for t in (
            "/",
            "/only-in-sitemap-1",
            "/only-in-sitemap-2",
            "/from-config",
            "/relative-entry",
        )
    ), "sitemaps themselves are not items"


def test_disallowed_sitemap_is_not_fetched_and_url_limit_holds(
    make_site: MakeSite, tmp_path: Path
) -> None:
    site = make_site()
    site.add(
        "/robots.txt",
        Reply.text(
            f"User-agent: *\nDisallow: /hidden/\nSitemap: {site.url('/hidden/sitemap.xml')}\nSitemap: {site.url('/big.xml')}\n"
        ),
    )
    site.html("/", page("home"))
    site.add("/hidden/sitemap.xml", xml(urlset(site.url("/never"))))
    site.add("/big.xml", xml(urlset(*(site.url(f"/p/{i}") for i in range(8)))))
    site.add_prefix("/p/", lambda hit: Reply.html(page(hit.path)))
    result = run_crawl(
        tmp_path, args={"start_urls": site.url("/")}, settings={"WEBROBOT_SITEMAP_MAX_URLS": "5"}
    )
    assert result.returncode == 0, result.stderr
    requested = site.targets()
    assert "/hidden/sitemap.xml" not in requested and "/never" not in requested
    assert sorted(t for t in requested if t.startswith("/p/")) == [f"/p/{i}" for i in range(5)]
    assert result.stat("webrobot/sitemap/truncated") == 1


def test_robots_sitemaps_can_be_switched_off(make_site: MakeSite, tmp_path: Path) -> None:
    site = make_site()
    site.add(
        "/robots.txt",
        Reply.text(f"User-agent: *\nDisallow:\nSitemap: {site.url('/sitemap.xml')}\n"),
    )
    site.html("/", page("home"))
    site.add("/sitemap.xml", xml(urlset(site.url("/only-in-sitemap"))))
    result = run_crawl(
        tmp_path,
        args={"start_urls": site.url("/")},
        settings={"WEBROBOT_SITEMAPS_ENABLED": "False"},
    )
    assert result.returncode == 0, result.stderr
    assert site.targets() == ["/robots.txt", "/"]
