"""Which pages are rendered and which browser sub-requests may go out (pure logic),
and how rendering is switched on."""

from __future__ import annotations

import importlib.util

import pytest
from scrapy.utils.test import get_crawler

from webrobot.render.middleware import HANDLER, configure_rendering
from webrobot.render.rendering import (
    CHECK,
    DEFAULT_BLOCKED_TYPES,
    LOCAL,
    NOT_HTTP,
    SKIPPED_TYPE,
    check_mode,
    classify_subrequest,
    wants_browser,
)
from webrobot.sites.config import ConfigError


@pytest.mark.parametrize(
    ("mode", "meta", "internal", "rendered"),
    [
        ("", {}, False, False),
        ("", {"render": "browser"}, False, False),  # no browser in this crawl
        ("browser", {}, False, True),
        ("browser", {"render": "none"}, False, False),  # a request may opt out
        ("browser", {}, True, False),  # robots.txt, sitemaps
        ("on-request", {}, False, False),
        ("on-request", {"render": "browser"}, False, True),
        ("on-request", {"render": "Browser"}, True, False),
    ],
)
def test_wants_browser(mode: str, meta: dict[str, str], internal: bool, rendered: bool) -> None:
    assert wants_browser(mode, meta, internal) is rendered


def test_check_mode() -> None:
    assert check_mode(" Browser ") == "browser"
    with pytest.raises(ValueError, match="expected one of"):
        check_mode("chrome")


@pytest.mark.parametrize(
    ("url", "kind", "expected"),
    [
        ("data:text/plain,hi", "fetch", LOCAL),
        ("blob:http://a/x", "fetch", LOCAL),
        ("http://a/pic.png", "image", SKIPPED_TYPE),
        ("http://a/font.woff", "font", SKIPPED_TYPE),
        ("ws://a/socket", "websocket", NOT_HTTP),
        ("http://a/app.js", "script", CHECK),
        ("https://a/api", "fetch", CHECK),
    ],
)
def test_classify_subrequest(url: str, kind: str, expected: str) -> None:
    assert classify_subrequest(url, kind, DEFAULT_BLOCKED_TYPES) == expected


def test_rendering_off_leaves_the_download_handlers_alone() -> None:
    crawler = get_crawler(settings_dict={"WEBROBOT_RENDER": ""})
    configure_rendering(crawler)
    assert HANDLER not in crawler.settings.getdict("DOWNLOAD_HANDLERS").values()


def test_rendering_on_installs_scrapy_playwright_with_the_system_chromium() -> None:
    pytest.importorskip("scrapy_playwright")
    crawler = get_crawler(
        settings_dict={"WEBROBOT_RENDER": "browser", "WEBROBOT_BROWSER_PATH": "/usr/bin/chromium"}
    )
    crawler.settings.frozen = False  # as while the spider is built
    configure_rendering(crawler)
    handlers = crawler.settings.getdict("DOWNLOAD_HANDLERS")
    assert handlers["http"] == handlers["https"] == HANDLER
    launch = crawler.settings.getdict("PLAYWRIGHT_LAUNCH_OPTIONS")
    assert launch["executable_path"] == "/usr/bin/chromium" and "--no-sandbox" in launch["args"]
    assert callable(crawler.settings.get("PLAYWRIGHT_ABORT_REQUEST"))


def test_missing_optional_dependency_is_a_clear_error(monkeypatch: pytest.MonkeyPatch) -> None:
    real = importlib.util.find_spec
    monkeypatch.setattr(
        importlib.util,
        "find_spec",
        lambda name, *a: None if name == "scrapy_playwright" else real(name, *a),
    )
    crawler = get_crawler(settings_dict={"WEBROBOT_RENDER": "browser"})
    with pytest.raises(ConfigError, match=r"pip install 'webrobot\[browser\]'"):
        configure_rendering(crawler)


def test_bad_mode_is_a_clear_error() -> None:
    with pytest.raises(ConfigError, match="WEBROBOT_RENDER"):
        configure_rendering(get_crawler(settings_dict={"WEBROBOT_RENDER": "chrome"}))
