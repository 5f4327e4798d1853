"""``<meta http-equiv="refresh">`` redirects go through the same checks as any
request: scope, robots.txt, the config's deny patterns, the trap rules and the
global blocklist. Judged by the servers."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.crawling import run_crawl
from webrobot.demo.server import Reply, SiteServer

pytestmark = pytest.mark.slow


def refresh(target: str, delay: int = 0) -> str:
    return (f'<html><head><meta http-equiv="refresh" content="{delay}; url={target}">'
            f"<title>moved</title></head><body>moved</body></html>")  # fmt: skip


def build(make_site: Callable[..., SiteServer]) -> tuple[SiteServer, SiteServer]:
    home, other = make_site("home"), make_site("other")
    home.add("/robots.txt", Reply.text("User-agent: *\nDisallow: /private/\n"))
    other.add("/robots.txt", Reply.text("User-agent: *\nDisallow:\n"))
    other.html("/page.html", "<title>other</title>")
    pages = ("r-ok", "r-offsite", "r-private", "r-blocked", "r-trap", "r-listed")
    home.html("/", "".join(f"<a href='/{p}'>{p}</a>" for p in pages))
    home.html("/r-ok", refresh("/target.html"))
    home.html("/r-offsite", refresh(other.url("/page.html")))
    home.html("/r-private", refresh("'/private/secret.html'"))  # quoted, as some sites do
    home.html("/r-blocked", refresh("/blocked/page.html", delay=1))
    home.html("/r-trap", refresh("/a/a/a/page.html"))  # a path segment repeated 3 times
    home.html("/r-listed", refresh("/listed/page.html"))  # in WEBROBOT_BLOCKLIST below
    for target in ("/target.html", "/private/secret.html", "/blocked/page.html", "/a/a/a/page.html",
                   "/listed/page.html"):  # fmt: skip
        home.html(target, f"<title>{target}</title>")
    return home, other


def test_meta_refresh_passes_scope_robots_deny_trap_and_blocklist_checks(
    make_site: Callable[..., SiteServer], tmp_path: Path
) -> None:
    home, other = build(make_site)
    config = tmp_path / "home.toml"
    config.write_text(f'start_urls = ["{home.url("/")}"]\ndeny = ["/blocked/"]\n', "utf-8")
    result = run_crawl(tmp_path / "out", args={"config": str(config)},
                       settings={"WEBROBOT_BLOCKLIST": '["re:/listed/"]'})  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert sorted(home.targets()) == sorted(
        ["/robots.txt", "/", "/r-ok", "/r-offsite", "/r-private", "/r-blocked", "/r-trap", "/r-listed",
         "/target.html"]
    )  # fmt: skip
    assert other.targets() == [], "the off-site refresh target was requested"
    assert home.url("/target.html") in result.item_urls()
    target = next(i for i in result.items if i["url"] == home.url("/target.html"))
    assert target["referer"] == home.url("/r-ok"), "sent from the refreshing page"
    assert result.stat("webrobot/url/refused/offsite") == 1
    assert result.stat("webrobot/url/refused/deny_pattern") == 1
    assert result.stat("robotstxt/forbidden") == 1
    assert result.stat("webrobot/url/refused/repeated_segment") == 1
    assert result.stat("webrobot/url/refused/blocklist") == 1
    report = json.loads((tmp_path / "out" / "items.report.json").read_text("utf-8"))
    assert report["sites"][home.origin]["refused"] == {
        "blocklist": 1, "deny_pattern": 1, "repeated_segment": 1, "robots_txt": 1}  # fmt: skip
    assert report["sites"][other.origin]["refused"] == {"offsite": 1}


def test_without_meta_refresh_the_allowed_target_is_not_reached(
    make_site: Callable[..., SiteServer], tmp_path: Path
) -> None:
    """The control: the page above is only reached through its meta refresh."""
    home, _ = build(make_site)
    result = run_crawl(tmp_path, args={"start_urls": home.url("/")},
                       settings={"METAREFRESH_ENABLED": "False"})  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert "/r-ok" in home.targets()
    assert "/target.html" not in home.targets()
