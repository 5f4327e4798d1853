from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit

import pytest
from scrapy import Request, Spider
from scrapy.crawler import Crawler
from scrapy.utils.test import get_crawler

from tests.redisserver import RedisServer
from webrobot.distributed.dupefilter import RedisVisitedFilter
from webrobot.seen.dupefilter import visited_filter
from webrobot.settingsmodel.parse import defaults


class PagesSpider(Spider):
    name = "pages"


class QuerylessFingerprinter:
    """Treats URLs that differ only in their query as one page."""

    def fingerprint(self, request: Request) -> bytes:
        return urlsplit(request.url)._replace(query="").geturl().encode()


def redis_settings(server: RedisServer, **overrides: Any) -> dict[str, Any]:
    settings = {k: v for k, v in defaults().items() if k.startswith("WEBROBOT_REDIS")}
    return {**settings, "WEBROBOT_REDIS_URL": server.url, **overrides}


def make_filter(server: RedisServer, **overrides: Any) -> tuple[RedisVisitedFilter, Crawler]:
    crawler = get_crawler(PagesSpider, redis_settings(server, **overrides))
    return RedisVisitedFilter.from_crawler(crawler), crawler


def test_workers_share_one_visited_set(redis_server: RedisServer) -> None:
    first, _ = make_filter(redis_server)
    second, _ = make_filter(redis_server)
    first.open()
    second.open()
    assert first.request_seen(Request("http://a/")) is False
    assert second.request_seen(Request("http://a/")) is True
    assert second.request_seen(Request("http://a/b")) is False
    first.close("finished")
    assert len(second.digests) == 2, "closing one worker keeps the set"
    second.close("finished")


def test_the_crawlers_request_fingerprinter_decides(redis_server: RedisServer) -> None:
    dupefilter, _ = make_filter(
        redis_server, REQUEST_FINGERPRINTER_CLASS=f"{__name__}.QuerylessFingerprinter"
    )
    assert dupefilter.request_seen(Request("http://a/?x=1")) is False
    assert dupefilter.request_seen(Request("http://a/?x=2")) is True
    assert dupefilter.request_fingerprint(Request("http://a/?y")) == b"http://a/".hex()
    key, member = dupefilter.visited_slot(Request("http://a/?z"))
    assert key.startswith("webrobot:pages:visited:")
    assert redis_server.client().sismember(key, member)
    dupefilter.close("finished")


def test_workers_must_cut_digests_alike(redis_server: RedisServer) -> None:
    first, _ = make_filter(redis_server, WEBROBOT_REDIS_VISITED_BUCKET_BITS=14)
    first.open()
    other, _ = make_filter(redis_server, WEBROBOT_REDIS_VISITED_BUCKET_BITS=10)
    with pytest.raises(ValueError, match="WEBROBOT_REDIS_VISITED_BUCKET_BITS=14, this worker 10"):
        other.open()


def test_filtered_requests_are_counted_and_logged_once(
    redis_server: RedisServer, caplog: pytest.LogCaptureFixture
) -> None:
    dupefilter, crawler = make_filter(redis_server)
    crawler.stats.open_spider()
    spider = PagesSpider()
    caplog.set_level("DEBUG")
    dupefilter.log(Request("http://a/"), spider)
    dupefilter.log(Request("http://a/"), spider)
    assert crawler.stats.get_value("dupefilter/filtered") == 2
    assert caplog.text.count("Filtered duplicate request") == 1


def test_needs_a_crawler() -> None:
    with pytest.raises(TypeError, match="needs a crawler"):
        RedisVisitedFilter.from_settings(get_crawler(Spider).settings)


def test_marking_visited_is_shared_and_remembered(redis_server: RedisServer) -> None:
    first, crawler = make_filter(redis_server, WEBROBOT_REDIS_VISITED_CACHE=2)
    second, _ = make_filter(redis_server)
    assert visited_filter(crawler) is first
    assert first.mark_visited(Request("http://a/x")) is False
    assert second.mark_visited(Request("http://a/x")) is True, "one visited set for all workers"
    assert second.request_seen(Request("http://a/y")) is False
    assert first.mark_visited(Request("http://a/y")) is True
    assert first.known == {first.visited_slot(Request(u)) for u in ("http://a/x", "http://a/y")}
    redis_server.client().flushall()
    assert first.mark_visited(Request("http://a/x")) is True, "remembered: no Redis command"
    assert first.mark_visited(Request("http://a/z")) is False
    assert len(first.known) == 1, "bounded by WEBROBOT_REDIS_VISITED_CACHE"
    first.server = type(first.server).from_url("redis://127.0.0.1:9/0", socket_connect_timeout=1)
    assert first.mark_visited(Request("http://a/w")) is None, "Redis unreachable: cannot say"


def test_the_scheduler_marks_visited_itself_only_with_the_shared_filter(
    redis_server: RedisServer,
) -> None:
    from webrobot.distributed.dupefilter import SharedVisitedFilter
    from webrobot.seen.dupefilter import SeenUrlFilter

    shared, _ = make_filter(redis_server, WEBROBOT_REDIS_VISITED_CACHE=2)
    assert isinstance(shared, SharedVisitedFilter)
    assert not isinstance(SeenUrlFilter.from_crawler(get_crawler(PagesSpider)), SharedVisitedFilter)
    slots = [shared.visited_slot(Request(f"http://a/{n}")) for n in range(3)]
    shared.remember(slots[0])
    shared.remember(slots[1])
    assert shared.known == {slots[0], slots[1]}
    shared.remember(slots[2])
    assert shared.known == {slots[2]}, "bounded by WEBROBOT_REDIS_VISITED_CACHE"
