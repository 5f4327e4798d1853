"""DeadHostRecall, the crawl's memory of dead requisite hosts: where its file is, what it
learns from robots.txt failures and download errors, what it writes at the close and
reads back, and a damaged file."""

from __future__ import annotations

import json
import logging
import os
from pathlib import Path
from typing import Any

import pytest
from scrapy import signals as scrapy_signals
from scrapy.utils.test import get_crawler
from twisted.internet.error import DNSLookupError

from webrobot import signals
from webrobot.urls.deadrecall import DeadHostRecall, memory_path


def crawler(**settings: Any) -> Any:
    crawler = get_crawler(settings_dict=settings)
    crawler.stats.open_spider()
    return crawler


def test_where_the_memory_lives(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    assert memory_path("") is None
    assert memory_path("  ") is None
    assert memory_path(str(tmp_path / "m.json")) == tmp_path / "m.json"
    # in a project: its .scrapy/ folder, as HTTPCACHE_DIR; nothing is created
    project = tmp_path / "project"
    (project / "pkg").mkdir(parents=True)
    (project / "scrapy.cfg").write_text("[settings]\ndefault = pkg.settings\n", "utf-8")
    monkeypatch.chdir(project / "pkg")
    monkeypatch.delenv("SCRAPY_SETTINGS_MODULE", raising=False)  # scrapy.cfg says it
    assert memory_path("dead.json") == project / ".scrapy" / "dead.json"
    assert not (project / ".scrapy").exists()
    # a [datadir] the project names
    (project / "scrapy.cfg").write_text(
        f"[settings]\ndefault = pkg.settings\n[datadir]\ndefault = {tmp_path / 'data'}\n", "utf-8"
    )
    assert memory_path("dead.json") == tmp_path / "data" / "dead.json"
    # outside a project: .scrapy/ of the working folder
    monkeypatch.chdir(tmp_path)
    (project / "scrapy.cfg").unlink()
    assert memory_path("dead.json") == Path(".scrapy", "dead.json")


def test_learns_kept_and_read_back(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    file = tmp_path / "state" / "dead.json"
    first = crawler(WEBROBOT_DEAD_HOSTS_FILE=str(file))
    dead = DeadHostRecall.of(first)
    assert DeadHostRecall.of(first) is dead
    heard: list[tuple[str, str]] = []
    dead.listen(lambda url, reason: heard.append((url, reason)))
    send = first.signals.send_catch_log
    # robots.txt of a site: a name that does not resolve, a refused port, a 503
    for site, reason in (("http://gone.invalid:80", "DNSLookupError"),
                         ("http://127.0.0.1:9", "ConnectionRefusedError"),
                         ("http://busy.test:80", "503")):  # fmt: skip
        send(signals.site_deferred, site=site, seconds=1.0, attempt=1, reason=reason,
             status=None, gives_up_in=None)  # fmt: skip
    assert dead.download_failed("http://other.invalid/a.png", DNSLookupError("x")) == "no_such_name"
    assert dead.download_failed("http://slow.test/a.png", TimeoutError()) is None
    assert heard == [("http://gone.invalid:80", "no_such_name"), ("http://127.0.0.1:9", "refused"),
                     ("http://other.invalid/a.png", "no_such_name")]  # fmt: skip
    assert dead.skip("https://gone.invalid/x.png") == "no_such_name"
    assert dead.skip("http://127.0.0.1:9/x.png") == "refused"
    assert dead.skip("http://busy.test/x.png") is None
    assert first.stats.get_value("webrobot/deadhosts/found/no_such_name") == 2
    assert first.stats.get_value("webrobot/deadhosts/skipped") == 2
    assert first.stats.get_value("webrobot/deadhosts/skipped_remembered") is None
    with caplog.at_level(logging.INFO):
        send(scrapy_signals.spider_closed, spider=None, reason="finished")
    assert "3 requisite hosts found dead" in caplog.text and str(file) in caplog.text
    kept = json.loads(file.read_text("utf-8"))
    assert sorted(kept["hosts"]) == ["127.0.0.1:9", "gone.invalid", "other.invalid"]
    assert not [p for p in file.parent.iterdir() if p.suffix == ".tmp"]

    second = crawler(WEBROBOT_DEAD_HOSTS_FILE=str(file))
    again = DeadHostRecall.of(second)
    assert second.stats.get_value("webrobot/deadhosts/remembered") == 3
    assert again.skip("http://gone.invalid/y.png") == "no_such_name"
    assert second.stats.get_value("webrobot/deadhosts/skipped_remembered") == 1

    # expired: asked again
    third = crawler(WEBROBOT_DEAD_HOSTS_FILE=str(file), WEBROBOT_DEAD_HOSTS_EXPIRY=1.0)
    os.utime(file)  # (the times are in the file, not its mtime)
    for entry in kept["hosts"].values():
        entry["found"] -= 10
    file.write_text(json.dumps(kept), "utf-8")
    assert DeadHostRecall.of(third).skip("http://gone.invalid/y.png") is None


def test_a_damaged_memory_is_one_warning(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    file = tmp_path / "dead.json"
    file.write_text("{not json", "utf-8")
    c = crawler(WEBROBOT_DEAD_HOSTS_FILE=str(file))
    with caplog.at_level(logging.WARNING):
        dead = DeadHostRecall.of(c)
    assert "not read" in caplog.text and str(file) in caplog.text
    assert dead.skip("http://gone.invalid/") is None
    # a crawl that finds nothing leaves the file alone
    c.signals.send_catch_log(scrapy_signals.spider_closed, spider=None, reason="finished")
    assert file.read_text("utf-8") == "{not json"


def test_no_file_remembers_during_the_crawl_only(tmp_path: Path) -> None:
    c = crawler(WEBROBOT_DEAD_HOSTS_FILE="")
    dead = DeadHostRecall.of(c)
    dead.found("http://gone.invalid/", "no_such_name")
    assert dead.skip("http://gone.invalid/a.png") == "no_such_name"
    c.signals.send_catch_log(scrapy_signals.spider_closed, spider=None, reason="finished")
    assert dead.path is None
