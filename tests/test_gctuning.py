"""The garbage collector tuning: thresholds raised and start-up objects frozen
while the engine runs, Python's own settings back when it stops."""

from __future__ import annotations

import gc
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from scrapy.exceptions import NotConfigured
from scrapy.utils.test import get_crawler

from tests.crawling import run_crawl
from webrobot.demo.server import Reply, SiteServer
from webrobot.resources import gctuning
from webrobot.resources.gctuning import GarbageCollectorTuning, tuned_thresholds


@pytest.fixture(autouse=True)
def python_defaults() -> Iterator[None]:
    """Each test starts and ends with the collector as Python has it."""
    saved = gc.get_threshold()
    gc.unfreeze()
    yield
    for left_running in list(gctuning._active):  # a test that failed before engine_stopped
        left_running.engine_stopped()
    gc.set_threshold(*saved)
    gc.unfreeze()


@pytest.mark.parametrize(
    ("current", "young", "expected"),
    [
        ((700, 10, 10), 50_000, (50_000, 10, 10)),
        ((700, 10, 10), 0, (700, 10, 10)),  # 0 keeps Python's
        ((100_000, 5, 5), 50_000, (100_000, 5, 5)),  # never lowered
        ((700, 20, 30), 701, (701, 20, 30)),  # older generations' ratios kept
    ],
)
def test_tuned_thresholds(
    current: tuple[int, int, int], young: int, expected: tuple[int, int, int]
) -> None:
    assert tuned_thresholds(current, young) == expected


def tuning(**settings: object) -> GarbageCollectorTuning:
    crawler = get_crawler(settings_dict=settings)
    crawler.stats.open_spider()  # type: ignore[union-attr]
    return GarbageCollectorTuning.from_crawler(crawler)


def test_applied_at_engine_start_and_undone_at_stop() -> None:
    before = gc.get_threshold()
    extension = tuning(WEBROBOT_GC_THRESHOLD=40_000, WEBROBOT_GC_FREEZE=True)
    assert gc.get_threshold() == before and gc.get_freeze_count() == 0  # nothing before start
    extension.engine_started()
    try:
        assert gc.get_threshold() == (40_000, before[1], before[2])
        frozen = gc.get_freeze_count()
        assert frozen > 1000  # at least the imported modules' objects
        counted = extension.crawler.stats.get_value("webrobot/gc/frozen")  # type: ignore[union-attr]
        # A frozen object another thread lets go of leaves the permanent generation, so
        # the count can only have fallen since the freeze: by a few, never by much.
        assert frozen <= counted <= frozen + max(100, frozen // 100)
    finally:
        extension.engine_stopped()
    assert gc.get_threshold() == before
    assert gc.get_freeze_count() == 0


class Node:
    """An object in a reference cycle (weakly referable, unlike a list)."""

    def __init__(self) -> None:
        self.other: Node | None = None


def test_what_died_just_before_the_freeze_is_collected_not_frozen() -> None:
    import weakref

    extension = tuning(WEBROBOT_GC_FREEZE=True)
    first, second = Node(), Node()
    first.other, second.other = second, first  # a cycle: only the collector frees it
    dead = weakref.ref(first)
    del first, second
    assert dead() is not None
    extension.engine_started()
    try:
        assert dead() is None, "a dead cycle was frozen with the live objects"
    finally:
        extension.engine_stopped()


def test_threshold_only_freezes_nothing() -> None:
    before = gc.get_threshold()
    extension = tuning(WEBROBOT_GC_THRESHOLD=20_000, WEBROBOT_GC_FREEZE=False)
    extension.engine_started()
    assert gc.get_threshold()[0] == 20_000
    assert gc.get_freeze_count() == 0
    extension.engine_stopped()
    assert gc.get_threshold() == before


def test_two_crawlers_in_one_process_share_one_tuning() -> None:
    before = gc.get_threshold()
    first = tuning(WEBROBOT_GC_THRESHOLD=30_000)
    second = tuning(WEBROBOT_GC_THRESHOLD=90_000)
    first.engine_started()
    second.engine_started()
    assert gc.get_threshold()[0] == 30_000  # the first one's tuning stays in force
    first.engine_stopped()
    assert gc.get_threshold()[0] == 30_000  # the second crawler still runs
    assert gc.get_freeze_count() > 0
    second.engine_stopped()
    assert gc.get_threshold() == before
    assert gc.get_freeze_count() == 0


def test_stopped_twice_restores_once() -> None:
    before = gc.get_threshold()
    extension = tuning()
    extension.engine_started()
    extension.engine_stopped()
    gc.set_threshold(1234, 11, 12)  # something else changes the collector afterwards
    extension.engine_stopped()
    assert gc.get_threshold() == (1234, 11, 12)
    gc.set_threshold(*before)


def test_not_configured_when_both_are_off() -> None:
    with pytest.raises(NotConfigured, match="WEBROBOT_GC_THRESHOLD is 0"):
        tuning(WEBROBOT_GC_THRESHOLD=0, WEBROBOT_GC_FREEZE=False)


@pytest.mark.slow
def test_a_crawl_runs_with_the_collector_tuned(
    make_site: Callable[..., SiteServer], tmp_path: Path
) -> None:
    site = make_site("gc")
    site.add("/robots.txt", Reply.text("User-agent: *\nDisallow:\n"))
    site.html("/", "<html><head><title>home</title></head><body><a href='/a'>a</a></body></html>")
    site.html("/a", "<html><head><title>a</title></head><body>a</body></html>")
    result = run_crawl(tmp_path / "on", args={"start_urls": site.url("/")})
    assert result.returncode == 0, result.stderr
    assert sorted(site.targets()) == ["/", "/a", "/robots.txt"]
    assert result.stat("webrobot/gc/frozen") > 1000
    assert "thresholds (50000, " in result.log
    off = run_crawl(
        tmp_path / "off",
        args={"start_urls": site.url("/")},
        settings={"WEBROBOT_GC_THRESHOLD": "0", "WEBROBOT_GC_FREEZE": "False"},
    )
    assert off.returncode == 0, off.stderr
    assert len(off.items) == 2
    assert "webrobot/gc/frozen" not in off.stats
