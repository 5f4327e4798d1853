"""The crawl's shared objects (webrobot.wiring): one per crawler and key."""

from __future__ import annotations

import gc
import weakref

import pytest
from scrapy.crawler import Crawler
from scrapy.utils.test import get_crawler

from webrobot.wiring import Key, find_per_crawler, per_crawler, set_per_crawler


class Shared:
    def __init__(self, crawler: Crawler) -> None:
        self.crawler = crawler  # refers back to its crawler, as the real ones do


class Other(Shared):
    """Another class: another key."""


def test_one_object_per_crawler_and_key() -> None:
    crawler = get_crawler()
    made: list[Shared] = []

    def make(c: Crawler) -> Shared:
        made.append(Shared(c))
        return made[-1]

    first = per_crawler(crawler, Shared, make)
    assert per_crawler(crawler, Shared, make) is first
    assert made == [first], "made once, by whichever asks first"
    assert first.crawler is crawler
    other = per_crawler(crawler, Other, Other)
    assert other is not first and type(other) is Other, "another key, another object"


def test_distinct_crawlers_get_distinct_objects() -> None:
    one, two = get_crawler(), get_crawler()
    assert per_crawler(one, Shared, Shared) is not per_crawler(two, Shared, Shared)
    assert per_crawler(two, Shared, Shared).crawler is two


def test_keys_of_one_name_are_one_key() -> None:
    crawler = get_crawler()
    cap = per_crawler(crawler, Key[int]("tests.cap"), lambda c: 7)
    assert find_per_crawler(crawler, Key[int]("tests.cap")) == cap == 7
    assert find_per_crawler(crawler, Key[int]("tests.other")) is None


def test_found_only_once_made_or_set() -> None:
    crawler = get_crawler()
    assert find_per_crawler(crawler, Shared) is None
    assert find_per_crawler(get_crawler(), Shared) is None
    mine = Shared(crawler)
    set_per_crawler(crawler, Shared, mine)
    assert find_per_crawler(crawler, Shared) is mine
    assert per_crawler(crawler, Shared, Other) is mine, "the set object, not a new one"
    replacement = Shared(crawler)
    set_per_crawler(crawler, Shared, replacement)
    assert find_per_crawler(crawler, Shared) is replacement


def test_a_failing_factory_leaves_nothing_behind() -> None:
    crawler = get_crawler()

    def refuse(c: Crawler) -> Shared:
        raise ValueError("bad setting")

    with pytest.raises(ValueError, match="bad setting"):
        per_crawler(crawler, Shared, refuse)
    assert find_per_crawler(crawler, Shared) is None
    assert isinstance(per_crawler(crawler, Shared, Shared), Shared)


def test_the_objects_go_with_their_crawler() -> None:
    crawler = get_crawler()
    shared = per_crawler(crawler, Shared, Shared)
    gone_crawler, gone_shared = weakref.ref(crawler), weakref.ref(shared)
    del crawler, shared
    gc.collect()
    assert gone_crawler() is None
    assert gone_shared() is None
