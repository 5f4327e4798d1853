from __future__ import annotations

import logging
from pathlib import Path

import pytest
from scrapy import Request
from scrapy.spiders import Spider

from tests.components import webrobot_crawler
from webrobot.seen.dupefilter import URL_STORE_FILE, SeenUrlFilter
from webrobot.seen.storefile import read_header
from webrobot.seen.stores import AUDIT_BELOW, BloomStore, ExactStore, uniform_key

#: The checkpoint files under JOBDIR serve Scrapy's own scheduler (webrobot's keeps its
#: job state in the frontier database instead, see tests/test_crashsafe_crawl.py).
SCRAPY_SCHEDULER = "scrapy.core.scheduler.Scheduler"


def make_filter(**settings: object) -> SeenUrlFilter:
    crawler = webrobot_crawler(**settings)
    df = SeenUrlFilter.from_crawler(crawler)
    df.open()
    return df


def test_filters_seen_urls() -> None:
    df = make_filter()
    assert isinstance(df.store, ExactStore)
    assert df.request_seen(Request("http://a.test/x?b=2&a=1")) is False
    assert df.request_seen(Request("http://a.test/x?a=1&b=2")) is True, "same fingerprint"
    assert df.request_seen(Request("http://a.test/y")) is False
    assert df.request_seen(Request("http://a.test/y", method="POST")) is False
    assert len(df.store) == 3


def test_log_counts_filtered_requests(caplog: pytest.LogCaptureFixture) -> None:
    df = make_filter()
    spider = Spider("s")
    with caplog.at_level(logging.DEBUG, logger="webrobot.seen.dupefilter"):
        df.log(Request("http://a.test/1"), spider)
        df.log(Request("http://a.test/2"), spider)
    assert df.crawler.stats.get_value("dupefilter/filtered") == 2
    assert len([r for r in caplog.records if "Filtered duplicate" in r.message]) == 1


def test_bloom_store_from_string_settings() -> None:
    df = make_filter(WEBROBOT_SEEN_STORE="bloom", WEBROBOT_SEEN_CAPACITY="5000",
                     WEBROBOT_SEEN_ERROR_RATE="0.001")  # fmt: skip
    assert isinstance(df.store, BloomStore)
    assert (df.store.capacity, df.store.error_rate) == (5000, 0.001)
    assert df.request_seen(Request("http://a.test/")) is False
    assert df.request_seen(Request("http://a.test/")) is True


@pytest.mark.parametrize(
    ("settings", "message"),
    [
        (
            {"WEBROBOT_SEEN_STORE": "set"},
            "setting WEBROBOT_SEEN_STORE='set': expected one of exact, bloom",
        ),
        ({"WEBROBOT_SEEN_STORE": "bloom", "WEBROBOT_SEEN_ERROR_RATE": "2"}, "error rate"),
    ],
)
def test_bad_settings_are_named(settings: dict[str, str], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        make_filter(**settings)


@pytest.mark.parametrize("store", ["exact", "bloom"])
def test_jobdir_checkpoint_round_trip(
    tmp_path: Path, store: str, caplog: pytest.LogCaptureFixture
) -> None:
    settings = {
        "JOBDIR": str(tmp_path),
        "SCHEDULER": SCRAPY_SCHEDULER,
        "WEBROBOT_SEEN_STORE": store,
    }
    df = make_filter(**settings)
    urls = [f"http://a.test/{i}" for i in range(500)]
    for url in urls:
        df.request_seen(Request(url))
    assert not (tmp_path / URL_STORE_FILE).exists(), "not written per URL"
    df.close("shutdown")
    assert read_header(tmp_path / URL_STORE_FILE)["clean"] is True
    assert df.crawler.stats.get_value("webrobot/dupes/stored/url") == 500
    assert df.crawler.stats.get_value("webrobot/dupes/store_bytes/url") == df.store.nbytes

    with caplog.at_level(logging.INFO, logger="webrobot.seen.checkpoint"):
        resumed = make_filter(**settings)
    assert "Resumed the visited-URL store" in caplog.text
    assert all(resumed.request_seen(Request(url)) for url in urls)
    assert resumed.request_seen(Request("http://a.test/new")) is False


def test_resume_keeps_the_jobs_store_kind(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    df = make_filter(JOBDIR=str(tmp_path), SCHEDULER=SCRAPY_SCHEDULER)
    df.request_seen(Request("http://a.test/"))
    df.close("shutdown")
    with caplog.at_level(logging.WARNING):
        resumed = make_filter(
            JOBDIR=str(tmp_path), SCHEDULER=SCRAPY_SCHEDULER, WEBROBOT_SEEN_STORE="bloom"
        )
    assert isinstance(resumed.store, ExactStore)
    assert "WEBROBOT_SEEN_STORE=bloom applies to new jobs" in caplog.text
    assert resumed.request_seen(Request("http://a.test/"))


def test_unreadable_checkpoint_is_set_aside(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    (tmp_path / URL_STORE_FILE).write_bytes(b"garbage")
    with caplog.at_level(logging.ERROR):
        df = make_filter(JOBDIR=str(tmp_path), SCHEDULER=SCRAPY_SCHEDULER)
    assert "Cannot resume the visited-URL store" in caplog.text
    assert (tmp_path / (URL_STORE_FILE + ".bad")).read_bytes() == b"garbage"
    assert df.crawler.stats.get_value("webrobot/dupes/checkpoint_unreadable") == 1
    assert df.request_seen(Request("http://a.test/")) is False


def _request(audited: bool, start: int = 0) -> Request:
    """A new request whose key is (or is not) one of the 1 in 64 the Bloom store audits."""
    crawler = webrobot_crawler()
    for i in range(start, start + 10_000):
        request = Request(f"http://a.test/audit/{i}")
        key = uniform_key(crawler.request_fingerprinter.fingerprint(request))
        if (key[15] < AUDIT_BELOW) == audited:
            return request
    raise AssertionError("no such request")


def test_bloom_false_positives_are_detected_on_audited_keys(
    caplog: pytest.LogCaptureFixture,
) -> None:
    df = make_filter(WEBROBOT_SEEN_STORE="bloom", WEBROBOT_SEEN_CAPACITY="1000")
    assert isinstance(df.store, BloomStore)
    layer = df.store.layers[0]
    layer.array[:] = b"\xff" * len(layer.array)  # a saturated filter: everything looks seen
    with caplog.at_level(logging.INFO, logger="webrobot.seen.dupefilter"):
        assert df.request_seen(_request(audited=True)) is False, "detected and corrected"
        assert df.request_seen(_request(audited=False)) is True, "undetectable"
        assert df.request_seen(_request(audited=True, start=5000)) is False
    assert df.crawler.stats.get_value("webrobot/dupes/false_positive/url") == 2
    assert len([r for r in caplog.records if "false positive" in r.message]) == 1


def test_bloom_past_capacity_warns_once(caplog: pytest.LogCaptureFixture) -> None:
    df = make_filter(WEBROBOT_SEEN_STORE="bloom", WEBROBOT_SEEN_CAPACITY="10")
    with caplog.at_level(logging.WARNING, logger="webrobot.seen.dupefilter"):
        for i in range(25):
            df.request_seen(Request(f"http://a.test/{i}"))
    assert isinstance(df.store, BloomStore) and len(df.store.layers) == 2
    warnings = [r for r in caplog.records if "past its capacity" in r.message]
    assert len(warnings) == 1 and "WEBROBOT_SEEN_CAPACITY=10" in warnings[0].message
