"""The monitor's Scrapy glue: off without a folder; settings that cannot be used stop the
crawl with one line before any request; the bundled spider's items are judged too."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest
from scrapy.exceptions import NotConfigured
from scrapy.utils.test import get_crawler

from tests.crawling import run_crawl
from webrobot.demo.server import SiteServer
from webrobot.monitor.middleware import MonitorMiddleware, match_key


def test_off_without_a_folder() -> None:
    with pytest.raises(NotConfigured):
        MonitorMiddleware.from_crawler(get_crawler(settings_dict={"WEBROBOT_WATCH": "w.toml"}))


def test_match_keys_name_rule_kind_and_what() -> None:
    assert match_key({"rule": "r", "kind": "term", "evidence": {"term": "Acme"}}) == "r|term|Acme"
    assert match_key({"rule": "r", "kind": "text", "evidence": {"text": "a.txt"}}) == "r|text|a.txt"


BAD = [
    (
        "WEBROBOT_WATCH",
        "[[rule]]\nname = 'brand'\n",
        "watch.toml: key 'rule 'brand'': expected one or more of terms",
    ),
    ("WEBROBOT_MONITOR_IGNORE_PATTERNS", "(unclosed", "WEBROBOT_MONITOR_IGNORE_PATTERNS"),
    ("WEBROBOT_MONITOR_IGNORE_SELECTORS", "div[", "WEBROBOT_MONITOR_IGNORE_SELECTORS"),
    (
        "WEBROBOT_MONITOR_STORE_CLASS",
        "webrobot.monitor.events.event",
        "setting WEBROBOT_MONITOR_STORE_CLASS='webrobot.monitor.events.event': expected a class implementing webrobot.monitor.store.PageStore",
    ),
    (
        "WEBROBOT_MONITOR_STORE_CLASS",
        "webrobot.monitor.nowhere.Store",
        "WEBROBOT_MONITOR_STORE_CLASS",
    ),
]


@pytest.mark.slow
@pytest.mark.parametrize(
    ("name", "value", "message"), BAD, ids=[f"{b[0]}-{b[1][:12]}" for b in BAD]
)
def test_a_setting_that_cannot_be_used_stops_the_crawl_in_one_line(
    make_site: Callable[..., SiteServer], tmp_path: Path, name: str, value: str, message: str
) -> None:
    site = make_site()
    site.html("/", "<html><body><main><p>Hello.</p></main></body></html>")
    if name == "WEBROBOT_WATCH":
        (tmp_path / "watch.toml").write_text(value, "utf-8")
        value = str(tmp_path / "watch.toml")
    result = run_crawl(tmp_path / "out", spider="monitored", args={"site": site.url("/")}, settings={
        "SPIDER_MODULES": "webrobot.spiders,tests.monitorspider",
        "WEBROBOT_MONITOR_DIR": str(tmp_path / "monitor"), name: value,
    })  # fmt: skip
    assert result.returncode == 2, result.log[-2000:]
    errors = [line for line in result.log.splitlines() if " ERROR: " in line]
    assert len(errors) == 1 and message in errors[0], errors
    assert "Traceback" not in result.log
    assert site.targets() == []


@pytest.mark.slow
def test_the_monitor_mines_what_it_compares_and_skips_what_has_nothing(
    make_site: Callable[..., SiteServer], tmp_path: Path
) -> None:
    """With no WEBROBOT_EXTRACT at all, the monitor switches on the parts it compares: a
    page with words is judged (one ``new`` event), an empty page has nothing to judge it
    by (counted, no event)."""
    site = make_site()
    article = "<p>" + "The harbour opened a new ferry line to the island this spring. " * 5 + "</p>"
    site.html(
        "/", f"<html><head><title>First</title></head><body>{article}<a href=/e>e</a></body></html>"
    )
    site.html("/e", "<html><body></body></html>")
    settings = {"WEBROBOT_MONITOR_DIR": str(tmp_path / "monitor")}
    result = run_crawl(tmp_path / "one", args={"start_urls": site.url("/")}, settings=settings)
    assert result.returncode == 0, result.log[-2000:]
    first = {item["url"]: item for item in result.items}[site.url("/")]
    assert "ferry line" in first["main_text"] and first["metadata"]["title"] == "First"
    events = (tmp_path / "monitor" / "events.jsonl").read_text("utf-8").splitlines()
    assert [(e["event"], e["url"]) for e in map(json.loads, events)] == [("new", site.url("/"))]
    assert result.stat("webrobot/monitor/skipped/no_content") == 1


def test_picture_rules_without_the_extra_name_it_in_one_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import sys

    from webrobot.settingsmodel.parse import ConfigError

    (tmp_path / "logo.png").write_bytes(b"\x89PNG\r\n\x1a\n")
    (tmp_path / "watch.toml").write_text(
        '[[rule]]\nname = "logo"\nimages = ["logo.png"]\n', "utf-8"
    )
    monkeypatch.setitem(sys.modules, "imagehash", None)
    crawler = get_crawler(
        settings_dict={
            "WEBROBOT_MONITOR_DIR": str(tmp_path / "m"),
            "WEBROBOT_WATCH": str(tmp_path / "watch.toml"),
        }
    )
    with pytest.raises(ConfigError) as caught:
        MonitorMiddleware.from_crawler(crawler)
    line = str(caught.value)
    expected = f"{tmp_path / 'watch.toml'}: key 'rule 'logo'.images': Watching for pictures needs"
    assert line.startswith(expected) and "pip install 'webrobot[monitor]'" in line, line
    assert "\n" not in line


def test_notices_without_the_extra_name_it_in_one_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import sys

    monkeypatch.setitem(sys.modules, "apprise", None)
    crawler = get_crawler(settings_dict={
        "WEBROBOT_MONITOR_DIR": str(tmp_path / "m"),
        "WEBROBOT_MONITOR_NOTIFY": "json://127.0.0.1:9/"})  # fmt: skip
    with pytest.raises(ValueError) as caught:
        MonitorMiddleware.from_crawler(crawler)
    line = str(caught.value)
    assert line.startswith("setting WEBROBOT_MONITOR_NOTIFY=") and "\n" not in line, line
    assert "needs the 'apprise' package" in line and "pip install 'webrobot[notify]'" in line


def test_an_apprise_url_that_cannot_be_used_is_named_without_its_secrets(tmp_path: Path) -> None:
    crawler = get_crawler(settings_dict={
        "WEBROBOT_MONITOR_DIR": str(tmp_path / "m"),
        "WEBROBOT_MONITOR_NOTIFY": "json://127.0.0.1:9/,nosuch://user:secret@host/"})  # fmt: skip
    with pytest.raises(ValueError) as caught:
        MonitorMiddleware.from_crawler(crawler)
    line = str(caught.value)
    assert "nosuch://..." in line and "secret" not in line and "json:" not in line, line


def test_the_report_has_a_changes_section_only_when_the_folder_opened(tmp_path: Path) -> None:
    from webrobot.monitor import events

    blocked = tmp_path / "a-file"
    blocked.write_text("not a folder", "utf-8")
    parts = []
    for folder in (blocked / "m", tmp_path / "m"):
        crawler = get_crawler(settings_dict={"WEBROBOT_MONITOR_DIR": str(folder)})
        crawler._apply_settings()
        middleware = MonitorMiddleware.from_crawler(crawler)
        middleware.spider_opened()
        middleware.tally.add(events.removed("https://x.example/", "2026-11-28T06:00:12Z", 404))
        parts.append(middleware.report_part(finished=True))
        if middleware.store is not None:
            middleware.store.close()
    assert parts[0] == {}, "the monitor is off: no section"
    assert parts[1]["changes"]["counts"]["removed"] == 1


def test_new_extractors_re_baseline_a_page_quietly(tmp_path: Path) -> None:
    """A page whose snapshot another version of the extractors took is re-baselined: no
    ``changed`` event, counted, one summary entry; the next judgement is the usual one."""
    from scrapy.http import HtmlResponse

    from webrobot.monitor.snapshot import Snapshot

    url = "https://x.example/a"
    crawler = get_crawler(settings_dict={"WEBROBOT_MONITOR_DIR": str(tmp_path / "m")})
    crawler._apply_settings()
    assert crawler.stats is not None
    crawler.stats.open_spider()
    middleware = MonitorMiddleware.from_crawler(crawler)
    middleware.spider_opened()
    store = middleware.store
    assert store is not None
    old = Snapshot(("The pier reopened.",), {}, (), middleware.rules_print, "0-older-reader")
    assert store.record(url, old, [], "2026-11-27T06:00:00Z", [])
    response = HtmlResponse(url, body=b"<html><body><p>x</p></body></html>")
    item = {"main_text": "The pier reopened on Monday.", "metadata": {"title": "Pier"}}
    middleware._judge(url, item, response)
    section = middleware.report_part(finished=True)["changes"]
    assert section["counts"]["changed"] == 0
    assert section["summary"] == ["extractors changed: 1 pages re-baselined"]
    assert crawler.stats.get_value("webrobot/monitor/rebaselined") == 1
    record = store.get(url)
    assert record is not None and record.snapshot.reader == middleware.reader
    assert record.snapshot.text == ("The pier reopened on Monday.",)
    store.close()
