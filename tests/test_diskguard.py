"""The disk guard's glue and every writer's answer to a full disk, one at a time.

The end-to-end tests on a real tmpfs are in ``test_disk_full_crawl.py``; here a
full disk is made without root: SQLite's ``max_page_count`` (which answers
``SQLITE_FULL`` exactly as a full disk does), and files whose writes fail with
``ENOSPC`` after a number of bytes.
"""

from __future__ import annotations

import errno
import logging
import os
import sqlite3
from pathlib import Path
from typing import Any

import pytest
from scrapy.exceptions import NotConfigured
from scrapy.utils.test import get_crawler

from webrobot.frontier.sqlitefrontier import SqliteFrontier
from webrobot.job.diskspace import MB, Reading
from webrobot.job.diskstate import disk_of
from webrobot.resources import diskguard
from webrobot.resources.diskguard import DiskGuard, crawl_folders
from webrobot.search import spool as spool_module
from webrobot.search.spool import SpoolReader, SpoolWriter, segment_path

ENOSPC = OSError(errno.ENOSPC, "No space left on device")


class FakeEngine:
    def __init__(self) -> None:
        self.paused = False
        self.spider = object()
        self._slot = None
        self.closed: list[str] = []

    def pause(self) -> None:
        self.paused = True

    def unpause(self) -> None:
        self.paused = False

    async def close_spider_async(self, *, reason: str = "cancelled") -> None:
        self.closed.append(reason)


def make_guard(tmp_path: Path, **settings: Any) -> tuple[DiskGuard, FakeEngine]:
    crawler = get_crawler(
        settings_dict={"JOBDIR": str(tmp_path / "job"), "WEBROBOT_INDEX_ENABLED": False,
                       "WEBROBOT_DISK_MIN_FREE_MB": 10, **settings}
    )  # fmt: skip
    crawler.stats.open_spider()  # type: ignore[union-attr]
    guard = DiskGuard.from_crawler(crawler)
    engine = FakeEngine()
    crawler.engine = engine  # type: ignore[assignment]
    guard.folders = crawl_folders(crawler)
    return guard, engine


def test_switched_off() -> None:
    with pytest.raises(NotConfigured):
        DiskGuard.from_crawler(get_crawler(settings_dict={"WEBROBOT_DISK_GUARD_ENABLED": False}))


def test_it_watches_every_folder_the_crawl_writes(tmp_path: Path) -> None:
    crawler = get_crawler(
        settings_dict={
            "JOBDIR": str(tmp_path / "job"), "WEBROBOT_WARC_DIR": str(tmp_path / "warc"),
            "WEBROBOT_INDEX": str(tmp_path / "idx"), "WEBROBOT_REPORT_DIR": str(tmp_path / "rep"),
            "FEEDS": {str(tmp_path / "out" / "items.jsonl"): {"format": "jsonlines"}},
            "WEBROBOT_DISK_PATHS": [str(tmp_path / "extra")],
            "WEBROBOT_MONITOR_DIR": str(tmp_path / "watch"),
        }
    )  # fmt: skip
    assert crawl_folders(crawler) == [
        str(tmp_path / name) for name in ("job", "warc", "idx", "out", "rep", "watch", "extra")
    ]


def test_a_folder_not_made_yet_is_read_on_the_disk_it_will_be_on(tmp_path: Path) -> None:
    reading = diskguard.statvfs_reading(str(tmp_path / "not" / "yet"))
    st = os.statvfs(tmp_path)
    assert reading.total == st.f_blocks * st.f_frsize and reading.folder.endswith("yet")


def test_low_space_pauses_plenty_resumes_and_stats_say_so(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    free = {"value": 100 * MB}
    monkeypatch.setattr(
        diskguard, "statvfs_reading", lambda folder: Reading(folder, free["value"], 1000 * MB)
    )
    guard, engine = make_guard(tmp_path)
    stats = guard.crawler.stats
    assert stats is not None
    caplog.set_level(logging.INFO)
    guard.check()
    assert not engine.paused and not stats.get_value("webrobot/disk/paused")
    free["value"] = 5 * MB
    guard.check()
    guard.check()
    assert engine.paused and stats.get_value("webrobot/disk/paused") == 1
    warnings = [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING]
    assert len(warnings) == 1, warnings  # said once
    assert str(tmp_path / "job") in warnings[0] and "5.0 MB free" in warnings[0]
    assert "threshold of 10 MB" in warnings[0]
    assert stats.get_value("webrobot/disk/free_bytes") == 5 * MB
    engine.unpause()  # another component lets the engine go while space is still low
    guard.check()
    assert engine.paused
    free["value"] = 50 * MB
    guard.check()
    assert not engine.paused and stats.get_value("webrobot/disk/paused") == 0
    assert stats.get_value("webrobot/disk/pauses") == 1
    assert any("the crawl goes on" in r.getMessage() for r in caplog.records)
    assert engine.closed == []


def test_a_pause_longer_than_the_timeout_closes_with_disk_full(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(diskguard, "statvfs_reading", lambda f: Reading(f, 1 * MB, 1000 * MB))
    clock = {"now": 0.0}
    monkeypatch.setattr(diskguard.time, "monotonic", lambda: clock["now"])
    closed: list[str] = []
    monkeypatch.setattr(
        "webrobot.job.diskstate.schedule_coro", lambda coro: (closed.append("x"), coro.close())
    )
    guard, engine = make_guard(tmp_path, WEBROBOT_DISK_FULL_TIMEOUT=30)
    guard.check()
    clock["now"] = 29.0
    guard.check()
    assert not closed
    clock["now"] = 31.0
    guard.check()
    guard.check()
    assert closed == ["x"] and engine.paused
    assert guard.crawler.stats.get_value("webrobot/disk/failed").startswith("low free space in")  # type: ignore[union-attr]


def test_a_failed_write_is_one_line_counted_every_time_and_tells_the_writers(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    closed: list[str] = []
    monkeypatch.setattr(
        "webrobot.job.diskstate.schedule_coro", lambda coro: (closed.append("x"), coro.close())
    )
    crawler = get_crawler()
    crawler.stats.open_spider()  # type: ignore[union-attr]
    crawler.engine = FakeEngine()  # type: ignore[assignment]
    state = disk_of(crawler)
    told: list[str] = []
    state.on_failure(lambda: told.append("frozen"))
    assert not state.write_failed("feed", "/x", OSError(errno.EACCES, "Permission denied"))
    assert told == [] and not closed
    assert state.write_failed("feed", "/x/items.jsonl", ENOSPC)
    assert state.write_failed("WARC record", "/x/warc", ENOSPC)
    errors = [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR]
    assert errors == [
        (
            "Cannot write the feed to /x/items.jsonl: No space left on device. Nothing that was not "
            "written is acknowledged; closing the crawl (disk_full). Free some space and run the "
            "same command to resume"
        )
    ]
    assert told == ["frozen"] and closed == ["x"]
    stats = crawler.stats
    assert stats is not None
    assert stats.get_value("webrobot/disk/write_error") == 2
    assert stats.get_value("webrobot/disk/write_error/feed") == 1
    assert stats.get_value("webrobot/disk/write_error/WARC_record") == 1
    assert stats.get_value("webrobot/disk/failed") == "feed"
    late: list[str] = []
    state.on_failure(lambda: late.append("frozen"))  # told at once: it already failed
    assert late == ["frozen"]


# -- the frontier database ------------------------------------------------------------


def full_frontier(path: Path) -> SqliteFrontier:
    """A frontier whose file cannot grow past its current size (SQLITE_FULL after that)."""
    frontier = SqliteFrontier(path)
    frontier.recover()
    pages = frontier._db.execute("PRAGMA page_count").fetchone()[0]
    frontier._db.execute(f"PRAGMA max_page_count = {pages + 2}")
    return frontier


def test_sqlite_full_rolls_back_to_the_last_commit_and_freezes(tmp_path: Path) -> None:
    path = tmp_path / "f.sqlite"
    frontier = full_frontier(path)
    errors: list[Exception] = []
    frontier.on_write_error = lambda exc: errors.append(exc) or True
    frontier.push(0, b"committed", b"k" * 16)
    frontier.commit()
    leased = frontier.lease()
    assert leased is not None
    frontier.commit()
    for n in range(2000):  # fills the database: 1 MB of payloads in 8 KB
        frontier.push(0, os.urandom(500), n.to_bytes(16, "big"))
        if frontier.frozen:
            break
    assert frontier.frozen and len(errors) == 1
    assert "full" in str(errors[0])
    frontier.ack(leased[0])  # after the failure: written nowhere
    frontier.commit()
    assert frontier.lease() is None  # nothing more leaves the frontier
    frontier.close()
    again = SqliteFrontier(path)
    recovered = again.recover()
    # As committed: one request (leased then, so queued again), one visited key.
    assert (recovered.queued, recovered.requeued, recovered.visited) == (1, 1, 1)
    again.close()


def test_sqlite_full_without_a_handler_raises_as_before(tmp_path: Path) -> None:
    import sqlite3

    frontier = full_frontier(tmp_path / "f.sqlite")
    with pytest.raises(sqlite3.OperationalError, match="full"):
        for n in range(2000):
            frontier.push(0, os.urandom(500), n.to_bytes(16, "big"))
    assert not frontier.frozen


# -- the index spool -------------------------------------------------------------------


def test_a_spool_record_cut_by_a_full_disk_is_cut_off_at_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = tmp_path / "spool"
    folder.mkdir()
    writer = SpoolWriter(folder, 1)
    writer.append(("put", "first"))
    whole = segment_path(folder, 1).stat().st_size
    real_write = os.write

    def half_then_full(fd: int, data: Any) -> int:
        if len(data) > 10:
            return real_write(fd, bytes(data[: len(data) // 2]))
        raise ENOSPC

    monkeypatch.setattr(spool_module.os, "write", half_then_full)
    with pytest.raises(OSError, match="No space"):
        writer.append(("put", "x" * 1000))
    monkeypatch.undo()
    assert segment_path(folder, 1).stat().st_size == whole
    assert writer.records == 1
    writer.close()
    reader = SpoolReader(folder)
    assert [record for _, record in reader.read(final=True)] == [("put", "first")]


# -- the WARC writer -------------------------------------------------------------------


class FullAfter:
    """A file whose writes fail with ENOSPC once ``room`` bytes are written (a short write first)."""

    def __init__(self, inner: Any, room: int) -> None:
        self.inner, self.room = inner, room

    def write(self, data: Any) -> int:
        if self.room <= 0:
            raise ENOSPC
        n = self.inner.write(bytes(data[: self.room]))
        self.room -= n
        return int(n)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)


def test_a_warc_exchange_cut_by_a_full_disk_is_cut_off_and_the_file_stays_whole(
    tmp_path: Path,
) -> None:
    pytest.importorskip("warcio")
    from warcio.archiveiterator import ArchiveIterator

    from webrobot.archive.warc import Exchange, WarcArchive

    def exchange(n: int) -> Exchange:
        return Exchange(
            url=f"http://example.com/{n}", method="GET", request_headers=[("Host", "example.com")],
            request_body=b"", status=200, response_headers=[("Content-Type", "text/html")],
            payload=os.urandom(3000),
        )  # fmt: skip

    archive = WarcArchive(tmp_path)
    archive.write(exchange(1))
    assert archive._out is not None
    archive._out = FullAfter(archive._out, 1000)  # type: ignore[assignment]
    with pytest.raises(OSError, match="No space"):
        archive.write(exchange(2))
    assert archive.abandon()
    with pytest.raises(RuntimeError):
        archive.write(exchange(3))
    archive.close()
    (done,) = list(tmp_path.glob("*.warc.gz"))
    with done.open("rb") as stream:
        records = [(r.rec_type, r.rec_headers.get_header("WARC-Target-URI")) for r in ArchiveIterator(stream, check_digests="raise")]  # fmt: skip
    assert records == [
        ("warcinfo", None), ("response", "http://example.com/1"), ("request", "http://example.com/1")
    ]  # fmt: skip


# -- the index process -------------------------------------------------------------------


class Shared:
    def __init__(self) -> None:
        self.value = 0


def test_the_index_process_stops_without_moving_its_checkpoint_when_the_disk_is_full(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """tantivy's words for a full disk ('No space left on device (os error 28)', or its
    writer thread killed by an I/O error): the child stops, says so, and the spool
    keeps every record for the next run."""
    import queue
    import signal
    import threading

    from webrobot.search import index as index_module
    from webrobot.search import worker
    from webrobot.search.spool import SPOOL, read_checkpoint

    class FullIndex:
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            self.docs: list[str] = []
            self.notes: list[str] = []

        def __len__(self) -> int:
            return 0

        def put(self, page: Any) -> str:
            self.docs.append(page.url)
            return "added"

        def remove(self, url: str) -> bool:
            return False

        def commit_due(self) -> bool:
            return True

        def commit(self) -> None:
            raise ValueError("An error occurred in a thread: 'An index writer was killed.'")

        def close(self) -> None:
            raise ValueError("Internal error: 'No space left on device (os error 28)'")

    monkeypatch.setattr(index_module, "SearchIndex", FullIndex)
    monkeypatch.setattr(worker, "_apply", lambda index, kind, value, totals: None)
    folder = tmp_path / "idx"
    (folder / SPOOL).mkdir(parents=True)
    writer = SpoolWriter(folder / SPOOL, 1)
    writer.append(("remove", "http://example.com/a"))
    writer.append(("remove", "http://example.com/b"))
    writer.close()
    results: queue.Queue[Any] = queue.Queue()
    stop, disk_error = threading.Event(), Shared()
    stop.set()
    handlers = signal.getsignal(signal.SIGINT), signal.getsignal(signal.SIGTERM)
    # In this process, not a child: nothing to bind to the parent's life.
    monkeypatch.setattr(worker.lifeline, "bind_to_parent", lambda parent: True)
    try:
        worker._child(str(folder), results, Shared(), stop, disk_error, os.getppid())
    finally:
        signal.signal(signal.SIGINT, handlers[0])
        signal.signal(signal.SIGTERM, handlers[1])
    results.get_nowait()  # "ready"
    totals = results.get_nowait()
    assert totals.disk_full and disk_error.value == 1
    assert "writer was killed" in totals.first_error or "No space" in totals.first_error
    assert read_checkpoint(folder / SPOOL).offset == 0  # nothing counted as indexed
    reader = SpoolReader(folder / SPOOL)
    assert len(reader.read(final=True)) == 2


def test_the_report_says_how_long_the_crawl_was_paused_for_disk_space() -> None:
    from webrobot.report.html import disk_note

    assert disk_note({}) == ""
    assert disk_note({"pauses": 0, "paused_seconds": 0}) == ""
    note = disk_note({"pauses": 2, "paused_seconds": 41})
    assert note.startswith(" · paused 2 times for disk space (") and "41" in note


# -- the feed -------------------------------------------------------------------------


def test_a_feed_write_that_fails_for_want_of_space_is_one_line_and_stops_the_feed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    from scrapy import Spider

    from webrobot.job.feeds import FeedExporter

    monkeypatch.setattr("webrobot.job.diskstate.schedule_coro", lambda coro: coro.close())
    feed = tmp_path / "items.jsonl"
    crawler = get_crawler(Spider, settings_dict={"FEEDS": {str(feed): {"format": "jsonlines"}}})
    crawler.stats.open_spider()  # type: ignore[union-attr]
    crawler.engine = FakeEngine()  # type: ignore[assignment]
    spider = Spider(name="s")
    exporter = FeedExporter.from_crawler(crawler)
    exporter.open_spider(spider)
    exporter.item_scraped({"url": "http://e.com/1"}, spider)
    (slot,) = exporter.slots
    assert slot.file is not None
    slot.file.flush()
    whole = feed.read_bytes()
    slot.file = FullAfter(slot.file, 0)  # type: ignore[assignment]
    slot.exporter.file = slot.file  # type: ignore[union-attr]
    exporter.item_scraped({"url": "http://e.com/2"}, spider)  # no exception: handled
    exporter.item_scraped({"url": "http://e.com/3"}, spider)  # not even tried
    assert exporter.stopped
    stats = crawler.stats
    assert stats is not None
    assert stats.get_value("webrobot/disk/write_error/feed") == 1
    errors = [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR]
    assert len(errors) == 1 and errors[0].startswith("Cannot write the feed to")
    import asyncio

    asyncio.run(exporter.close_spider(spider))  # closes without a traceback
    assert feed.read_bytes() == whole
    assert not [r for r in caplog.records if r.exc_info]


class _FailingReads:
    """A connection whose reads fail as a dying device makes SQLite fail them."""

    def __init__(self, db: sqlite3.Connection) -> None:
        self.db = db

    def execute(self, sql: str, *args: object) -> sqlite3.Cursor:
        if sql.lstrip().upper().startswith("SELECT"):
            raise sqlite3.OperationalError("disk I/O error")
        return self.db.execute(sql, *args)

    def __getattr__(self, name: str) -> object:
        return getattr(self.db, name)


def test_a_read_that_fails_on_the_device_freezes_the_frontier_like_a_write(
    tmp_path: Path,
) -> None:
    path = tmp_path / "f.sqlite"
    frontier = SqliteFrontier(path)
    frontier.recover()
    frontier.push(0, b"queued", b"k" * 16)
    frontier.commit()
    errors: list[Exception] = []
    frontier.on_write_error = lambda exc: errors.append(exc) or True
    real = frontier._db
    frontier._db = _FailingReads(real)  # type: ignore[assignment]
    assert frontier.lease() is None
    assert frontier.frozen and len(errors) == 1 and "disk i/o" in str(errors[0]).lower()
    frontier._db = real
    frontier.close()
    again = SqliteFrontier(path)
    assert again.recover().queued == 1  # nothing was lost by the failed read
    again.close()


def test_a_read_error_that_is_not_the_disk_is_raised(tmp_path: Path) -> None:
    frontier = SqliteFrontier(tmp_path / "f.sqlite")
    frontier.recover()
    frontier.push(0, b"queued", b"k" * 16)
    frontier.commit()
    frontier.on_write_error = lambda exc: False  # not a disk error: the caller raises it
    frontier._db = _FailingReads(frontier._db)  # type: ignore[assignment]
    with pytest.raises(sqlite3.OperationalError):
        frontier.lease()


@pytest.mark.parametrize("fmt", ["csv", "xml"])
def test_a_feed_whose_last_bytes_find_no_space_at_close_is_one_line(
    fmt: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
) -> None:
    """The items fitted; the format's last bytes at close (a CSV exporter's text
    buffer, the closing XML tag) do not: one ERROR line, no traceback."""
    import asyncio

    from scrapy import Spider

    from webrobot.job.feeds import FeedExporter

    monkeypatch.setattr("webrobot.job.diskstate.schedule_coro", lambda coro: coro.close())
    feed = tmp_path / f"items.{fmt}"
    crawler = get_crawler(Spider, settings_dict={"FEEDS": {str(feed): {"format": fmt}}})
    crawler.stats.open_spider()  # type: ignore[union-attr]
    crawler.engine = FakeEngine()  # type: ignore[assignment]
    spider = Spider(name="s")
    exporter = FeedExporter.from_crawler(crawler)
    exporter.open_spider(spider)
    for n in range(3):
        exporter.item_scraped({"url": f"http://e.com/{n}", "title": "t"}, spider)
    (slot,) = exporter.slots
    assert slot.exporter is not None
    finish = slot.exporter.finish_exporting

    def last_bytes_find_no_space() -> None:
        finish()
        raise ENOSPC

    monkeypatch.setattr(slot.exporter, "finish_exporting", last_bytes_find_no_space)
    asyncio.run(exporter.close_spider(spider))
    errors = [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR]
    assert len(errors) == 1 and errors[0].startswith("Cannot write the feed to"), errors
    assert not [r for r in caplog.records if r.exc_info]
    assert crawler.stats.get_value("webrobot/disk/failed") == "feed"  # type: ignore[union-attr]
