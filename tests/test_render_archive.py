"""End-to-end: a page rendered in the browser is archived with what its scripts
loaded (a ``fetch()`` answer no markup names), robots.txt still obeyed."""

from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.crawling import run_crawl
from tests.test_crawl_archive import read_warcs
from tests.test_render_crawl import js_site
from webrobot.demo.server import SiteServer

pytest.importorskip("scrapy_playwright", reason="the optional browser extra is not installed")
pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(shutil.which("chromium") is None, reason="chromium is not installed"),
]


def test_what_the_browser_loaded_is_archived(
    make_site: Callable[..., SiteServer], tmp_path: Path
) -> None:
    site, cdn = js_site(make_site)
    config = tmp_path / "jssite.toml"
    config.write_text(f'start_urls = ["{site.url("/")}"]\nrender = "browser"\n', "utf-8")
    warc = tmp_path / "warc"
    result = run_crawl(
        tmp_path / "out", args={"config": str(config)},
        settings={"WEBROBOT_WARC_DIR": str(warc), "WEBROBOT_INDEX_ENABLED": "False"}, timeout=240,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr + result.log[-3000:]
    records = read_warcs(warc)
    requisites = {
        r["uri"]: r["headers"].get("X-Webrobot-Requisite")
        for r in records
        if r["type"] in ("response", "revisit")
    }
    # the fetch() answer only the script names, archived as a requisite
    assert requisites.get(site.url("/api/data")) == "other"
    assert requisites.get(site.url("/app.js")) == "script"
    assert requisites.get(cdn.url("/lib.js")) == "script"
    # robots.txt still decides: neither the browser nor the archive asked for these
    assert "/private/track" not in site.targets()
    assert "/blocked/tracker.js" not in cdn.targets()
    assert result.stat("webrobot/requisite/other/archived") >= 1
    # the pages are the same: requisites are not items
    assert site.url("/api/data") not in result.item_urls()
