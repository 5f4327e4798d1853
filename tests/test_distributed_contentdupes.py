"""The content index shared by workers, against a real redis-server."""

from __future__ import annotations

from typing import Any

import pytest
from scrapy import Spider
from scrapy.exceptions import DropItem

from tests.components import webrobot_crawler
from tests.redisserver import RedisServer
from webrobot.distributed.contentdupes import (
    EARLIER_PAGE,
    RedisContentDupes,
    url_member,
)
from webrobot.seen.contentdupes import ContentDupes
from webrobot.seen.contentfingerprints import body_fingerprint
from webrobot.seen.pipelines import DuplicateContentPipeline

A, B = "http://a.example/", "http://b.example/copy"


def crawler(redis_url: str, **settings: Any) -> Any:
    built = webrobot_crawler(WEBROBOT_REDIS_URL=redis_url, **settings)
    built.spidercls = type("PagesSpider", (Spider,), {"name": "pages"})
    built._apply_settings()
    built.stats.open_spider()
    return built


def worker(server: RedisServer) -> RedisContentDupes:
    content = ContentDupes.of(crawler(server.url))
    assert isinstance(content, RedisContentDupes), "the add-on picks the shared index"
    return content


def test_one_worker_keeps_a_content_and_a_page_fetched_again_is_not_its_own_copy(
    redis_server: RedisServer,
) -> None:
    first, second = worker(redis_server), worker(redis_server)
    fingerprint = body_fingerprint(b"<html>same</html>")
    assert not first.judge(fingerprint, A).duplicate
    copy = second.judge(fingerprint, B)
    assert copy.duplicate and copy.first_url_text() == EARLIER_PAGE
    assert not second.judge(fingerprint, A).duplicate, "A again (its first worker died): kept again"
    assert first.judge(fingerprint, B).duplicate
    assert not second.judge(body_fingerprint(b"other"), B).duplicate

    assert first.follow_links(fingerprint, A)
    assert not second.follow_links(fingerprint, B)
    assert second.follow_links(fingerprint, A), (
        "its links are followed again: they may be lost otherwise"
    )
    assert len(first.index) == 2


def test_contents_are_stored_as_two_integers_per_page(redis_server: RedisServer) -> None:
    content = worker(redis_server)
    content.judge(body_fingerprint(b"x"), A)
    client = redis_server.client()
    [bucket] = list(client.scan_iter(match="webrobot:pages:content:kept:*"))
    [(_member, value)] = client.hgetall(bucket).items()
    assert int(value) == url_member(A)
    assert client.object("encoding", bucket) == b"listpack"


def test_the_pipeline_drops_the_second_workers_copy(redis_server: RedisServer) -> None:
    pipelines = [DuplicateContentPipeline.from_crawler(crawler(redis_server.url)) for _ in range(2)]
    md5 = body_fingerprint(b"<html>same</html>")
    item = {"url": A, "md5": md5}
    assert pipelines[0].process_item(item) is item
    with pytest.raises(DropItem, match="the shared content index keeps no URLs"):
        pipelines[1].process_item({"url": B, "md5": md5})
    assert pipelines[1].crawler.stats.get_value("webrobot/dupes/content") == 1
    for pipeline in pipelines:
        pipeline.close_spider()


def test_without_redis_every_page_counts_as_new() -> None:
    content = ContentDupes.of(crawler("redis://127.0.0.1:1/0"))
    fingerprint = body_fingerprint(b"same")
    assert not content.judge(fingerprint, A).duplicate
    assert not content.judge(fingerprint, B).duplicate, "a copy kept beats a page lost"
    assert content.follow_links(fingerprint, B)
    assert content.crawler.stats.get_value("webrobot/redis/error_count") == 3


def test_the_class_setting() -> None:
    assert type(ContentDupes.of(webrobot_crawler())) is ContentDupes
    with pytest.raises(ValueError, match="WEBROBOT_CONTENT_INDEX_CLASS"):
        ContentDupes.of(
            webrobot_crawler(WEBROBOT_CONTENT_INDEX_CLASS="webrobot.seen.stores.ExactStore")
        )


def test_near_duplicates_are_shared_and_the_lua_distance_agrees_with_python(
    redis_server: RedisServer,
) -> None:
    import random

    from webrobot.seen.simhash import MAX_DISTANCE, NearIndex

    first = ContentDupes.of(crawler(redis_server.url, WEBROBOT_NEAR_DUPLICATES="3"))
    second = ContentDupes.of(crawler(redis_server.url, WEBROBOT_NEAR_DUPLICATES="3"))
    assert isinstance(first, RedisContentDupes) and first.near_bits == 3
    rng = random.Random(7)
    local = NearIndex(MAX_DISTANCE)
    for n in range(300):  # random fingerprints and near ones, high bits included
        base = rng.getrandbits(64)
        flips = rng.sample(range(64), rng.choice([0, 1, 2, 3, 4, 5]))
        for i, fingerprint in enumerate([base, base ^ sum(1 << b for b in flips)]):
            url = f"http://site.test/{n}/{i}"
            worker = (first, second)[i]
            expected = local.first(fingerprint, url)
            shared = worker._first_near(fingerprint, url)
            assert (shared is None) == (expected is None), (n, i, len(flips))
            if shared is not None and expected is not None:
                assert shared[0] == expected[0]
    text = "\n".join(" ".join(f"w{rng.randrange(900)}" for _ in range(30)) for _ in range(4))
    assert first.judge_near(f"Published 1 May\n{text}", A) is None
    verdict = second.judge_near(f"Updated 2 May 2026\n{text}", B)
    assert verdict is not None and verdict.near and verdict.duplicate
    assert second.judge_near(text, A) is None, "A again (its first worker died): kept again"
