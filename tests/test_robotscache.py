"""The in-process robots decision cache: bounded, least recently used evicted."""

from __future__ import annotations

from scrapy.utils.test import get_crawler

from webrobot.robots.cache import LruRobotsCache
from webrobot.robots.policy import RULES, RobotsDecision


def _decision(site: str) -> RobotsDecision:
    return RobotsDecision(site, RULES, 200, 0.0, 1.0)


def test_least_recently_used_site_is_evicted() -> None:
    cache = LruRobotsCache(max_sites=3)
    for site in ("a", "b", "c"):
        cache.put(site, _decision(site))
    assert cache.get("a") is not None  # a is now the most recently used
    cache.put("d", _decision("d"))
    assert len(cache) == 3
    assert cache.get("b") is None
    assert [s for s in ("a", "c", "d") if cache.get(s) is not None] == ["a", "c", "d"]


def test_put_replaces_and_zero_means_unbounded() -> None:
    cache = LruRobotsCache(max_sites=0)
    for i in range(5000):
        cache.put(f"s{i}", _decision(f"s{i}"))
    assert len(cache) == 5000
    newer = _decision("s1")
    cache.put("s1", newer)
    assert cache.get("s1") is newer and len(cache) == 5000


def test_size_from_settings() -> None:
    crawler = get_crawler(settings_dict={"WEBROBOT_ROBOTS_CACHE_SITES": "2"})
    cache = LruRobotsCache.from_crawler(crawler)
    for site in "abc":
        cache.put(site, _decision(site))
    assert len(cache) == 2 and cache.get("a") is None
