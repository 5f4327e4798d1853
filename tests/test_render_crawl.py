"""End-to-end: pages built by JavaScript, rendered in the system's Chromium through
scrapy-playwright, judged by what the servers saw (the browser's requests included)."""

from __future__ import annotations

import hashlib
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.crawling import run_crawl
from webrobot.demo.server import Reply, SiteServer

pytest.importorskip("scrapy_playwright", reason="the optional browser extra is not installed")
pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(shutil.which("chromium") is None, reason="chromium is not installed"),
]

MakeSite = Callable[..., SiteServer]


def js(body: str) -> Reply:
    return Reply(200, body, {"Content-Type": "application/javascript"})


def js_site(make_site: MakeSite) -> tuple[SiteServer, SiteServer]:
    site, cdn = make_site("site"), make_site("cdn")
    site.add("/robots.txt", Reply.text("User-agent: *\nDisallow: /private/\n"))
    site.html("/", (
        "<html><head><title>home</title></head><body><div id='links'></div>"
        f"<img src='/picture.png'><script src='{cdn.url('/lib.js')}'></script>"
        f"<script src='{cdn.url('/blocked/tracker.js')}'></script><script src='/app.js'></script></body></html>"
    ))  # fmt: skip
    site.add("/app.js", js(
        "Promise.allSettled([fetch('/api/data'), fetch('/private/track')]).then(function () {"
        " document.getElementById('links').innerHTML = \"<a href='/js-only'>built by a script</a>\"; });"
    ))  # fmt: skip
    site.add("/api/data", Reply(200, '{"ok": true}', {"Content-Type": "application/json"}))
    site.add("/private/track", Reply.text("tracked"))
    site.html("/js-only", (
        "<html><head><title>js only</title><script>var m = document.createElement('meta');"
        " m.name = 'robots'; m.content = 'noindex'; document.head.appendChild(m);</script></head>"
        "<body>only reachable through a script</body></html>"
    ))  # fmt: skip
    site.add("/picture.png", Reply(200, b"\x89PNG", {"Content-Type": "image/png"}))
    cdn.add("/robots.txt", Reply.text("User-agent: *\nDisallow: /blocked/\n"))
    cdn.add("/lib.js", js("window.lib = 1;"))
    cdn.add("/blocked/tracker.js", js("window.tracked = 1;"))
    return site, cdn


def test_a_javascript_link_is_followed_with_rendering_and_rules_hold(
    make_site: MakeSite, tmp_path: Path
) -> None:
    site, cdn = js_site(make_site)
    config = tmp_path / "jssite.toml"
    config.write_text(f'start_urls = ["{site.url("/")}"]\nrender = "browser"\n', "utf-8")
    result = run_crawl(
        tmp_path / "out",
        args={"config": str(config)},
        settings={"WEBROBOT_STORE_BODY": "True"},
        timeout=240,
    )
    assert result.returncode == 0, result.stderr + result.log[-3000:]
    assert result.stat("finish_reason") == "finished"
    seen = site.targets()
    assert "/js-only" in seen, "the link built by a script was followed"
    assert "/api/data" in seen and "/app.js" in seen, "the browser's allowed sub-requests went out"
    assert "/private/track" not in seen, (
        "a sub-request disallowed by robots.txt never reached the site"
    )
    assert "/picture.png" not in seen, "pictures are not fetched while rendering"
    assert seen.count("/robots.txt") == 1
    assert cdn.targets().count("/robots.txt") == 1, (
        "the robots.txt of a sub-request's site was fetched"
    )
    assert "/lib.js" in cdn.targets() and "/blocked/tracker.js" not in cdn.targets()
    assert result.stat("webrobot/render/subrequest/refused") == 2
    assert result.stat("robotstxt/forbidden") == 2
    assert result.stat("webrobot/render/subrequest/skipped_type") == 1
    assert result.stat("webrobot/render/pages") == 2
    items = {i["url"]: i for i in result.items}
    assert site.url("/js-only") not in items, "noindex read from the rendered DOM"
    home = items[site.url("/")]
    assert 'href="/js-only"' in home["body"], "the item is the rendered HTML"
    assert home["md5"] == hashlib.md5(home["body"].encode("utf-8")).hexdigest(), (
        "MD5 of the rendered HTML"
    )


def test_without_rendering_the_javascript_link_is_not_found(
    make_site: MakeSite, tmp_path: Path
) -> None:
    site, cdn = js_site(make_site)
    result = run_crawl(tmp_path, args={"start_urls": site.url("/")})
    assert result.returncode == 0, result.stderr
    assert site.targets() == ["/robots.txt", "/"]
    assert cdn.targets() == []
    assert result.stat("webrobot/render/pages") == 0


def test_render_meta_key_renders_only_the_pages_that_ask(
    make_site: MakeSite, tmp_path: Path
) -> None:
    """With WEBROBOT_RENDER = "on-request", a request without render = "browser" is not rendered."""
    site, _ = js_site(make_site)
    result = run_crawl(
        tmp_path,
        args={"start_urls": site.url("/")},
        settings={"WEBROBOT_RENDER": "on-request"},
        timeout=240,
    )
    assert result.returncode == 0, result.stderr
    assert site.targets() == ["/robots.txt", "/"]
    assert result.stat("webrobot/render/pages") == 0
