from __future__ import annotations

import hashlib
import logging
from pathlib import Path
from typing import Any

import pytest
from scrapy.exceptions import DropItem, NotConfigured

from tests.components import webrobot_crawler
from webrobot.items import PageItem
from webrobot.seen.contentdupes import CONTENT_STORE_FILE
from webrobot.seen.pipelines import DuplicateContentPipeline

#: The checkpoint files under JOBDIR serve Scrapy's own scheduler (webrobot's keeps its
#: job state in the frontier database instead, see tests/test_crashsafe_crawl.py).
SCRAPY_SCHEDULER = "scrapy.core.scheduler.Scheduler"


def item(url: str, body: bytes) -> PageItem:
    return PageItem(url=url, status=200, depth=0, referer=None, fetched_at="2026-01-01T00:00:00Z",
                    content_type="text/html", title=None,
                    md5=hashlib.md5(body).hexdigest())  # fmt: skip


def make_pipeline(**settings: Any) -> DuplicateContentPipeline:
    return DuplicateContentPipeline.from_crawler(webrobot_crawler(**settings))


def test_keeps_the_first_and_drops_the_copies() -> None:
    pipeline = make_pipeline()
    first = item("http://a.test/widget", b"<p>widget</p>")
    assert pipeline.process_item(first) is first
    other = item("http://a.test/gadget", b"<p>gadget</p>")
    assert pipeline.process_item(other) is other
    with pytest.raises(DropItem) as dropped:
        pipeline.process_item(item("http://a.test/print/widget", b"<p>widget</p>"))
    message = str(dropped.value)
    assert "http://a.test/print/widget" in message
    assert "as http://a.test/widget" in message, "names the first URL that had it"
    assert first.md5 in message
    assert dropped.value.log_level == "DEBUG"
    with pytest.raises(DropItem):
        pipeline.process_item(item("http://a.test/widget", b"<p>widget</p>"))
    assert pipeline.crawler.stats.get_value("webrobot/dupes/content") == 2


def test_items_without_a_fingerprint_pass() -> None:
    pipeline = make_pipeline()
    for thing in ({"url": "http://a.test/"}, {"url": "http://a.test/", "md5": "nope"}, "text"):
        assert pipeline.process_item(thing) == thing
        assert pipeline.process_item(thing) == thing


def test_bloom_store_cannot_name_the_first_url() -> None:
    pipeline = make_pipeline(WEBROBOT_CONTENT_STORE="bloom")
    pipeline.process_item(item("http://a.test/1", b"same"))
    with pytest.raises(DropItem, match="an earlier page \\(the Bloom store keeps no URLs\\)"):
        pipeline.process_item(item("http://a.test/2", b"same"))


def test_switched_off() -> None:
    with pytest.raises(NotConfigured):
        make_pipeline(WEBROBOT_DUPES_ENABLED=False)
    with pytest.raises(NotConfigured):
        make_pipeline(WEBROBOT_DUPES_ENABLED="False")


def test_bad_fingerprint_mode() -> None:
    with pytest.raises(ValueError, match="WEBROBOT_FINGERPRINT='dom': expected one of body, text"):
        make_pipeline(WEBROBOT_FINGERPRINT="dom")


@pytest.mark.parametrize("store", ["exact", "bloom"])
def test_seen_fingerprints_survive_a_resume(tmp_path: Path, store: str) -> None:
    settings = {
        "JOBDIR": str(tmp_path),
        "SCHEDULER": SCRAPY_SCHEDULER,
        "WEBROBOT_CONTENT_STORE": store,
    }
    pipeline = make_pipeline(**settings)
    pipeline.process_item(item("http://a.test/a", b"A"))
    pipeline.close_spider()
    assert (tmp_path / CONTENT_STORE_FILE).exists()
    assert pipeline.crawler.stats.get_value("webrobot/dupes/stored/content") == 1

    resumed = make_pipeline(**settings)
    expected = "http://a.test/a" if store == "exact" else "an earlier page"
    with pytest.raises(DropItem, match=expected):
        resumed.process_item(item("http://a.test/a-again", b"A"))
    kept = item("http://a.test/b", b"B")
    assert resumed.process_item(kept) is kept


def test_resume_keeps_the_jobs_content_store_kind(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    pipeline = make_pipeline(JOBDIR=str(tmp_path), SCHEDULER=SCRAPY_SCHEDULER)
    pipeline.process_item(item("http://a.test/a", b"A"))
    pipeline.close_spider()
    with caplog.at_level(logging.WARNING):
        resumed = make_pipeline(
            JOBDIR=str(tmp_path), SCHEDULER=SCRAPY_SCHEDULER, WEBROBOT_CONTENT_STORE="bloom"
        )
    assert "WEBROBOT_CONTENT_STORE=bloom applies to new jobs" in caplog.text
    with pytest.raises(DropItem, match="as http://a.test/a"):
        resumed.process_item(item("http://a.test/b", b"A"))
