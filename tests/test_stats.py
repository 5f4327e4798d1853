from __future__ import annotations

import pytest
from scrapy.statscollectors import MemoryStatsCollector
from scrapy.utils.test import get_crawler

from webrobot.settingsmodel.model import BY_NAME
from webrobot.stats import StatsCollector


@pytest.fixture
def stats() -> StatsCollector:
    crawler = get_crawler(settings_dict={"STATS_CLASS": BY_NAME["STATS_CLASS"].default})
    assert isinstance(crawler.stats, StatsCollector)
    return crawler.stats


def test_project_uses_it_and_it_keeps_scrapys_behaviour(stats: StatsCollector) -> None:
    assert isinstance(stats, MemoryStatsCollector)
    stats.inc_value("a")
    stats.inc_value("a", 2)
    stats.max_value("m", 3)
    stats.max_value("m", 1)
    stats.min_value("n", 5)
    stats.min_value("n", 7)
    stats.set_value("s", "x")
    assert stats.get_stats() == {"a": 3, "m": 3, "n": 5, "s": "x"}
    assert stats.get_value("missing", 0) == 0


def test_no_per_access_shim(stats: StatsCollector) -> None:
    stats.inc_value("a")
    assert stats.get_value("a") == 1
    # Scrapy's shim caches a wrapper per method name in the instance: not here.
    assert not [name for name in vars(stats) if name.startswith("_cached_")]
