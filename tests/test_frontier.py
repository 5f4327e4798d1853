"""The frontier's two modes: order, leases, acknowledgements, and what survives a crash."""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path

import pytest

from webrobot.frontier.journal import local_feed_paths
from webrobot.frontier.queues import FrontierError, MemoryFrontier, resolve_mode
from webrobot.frontier.sqlitefrontier import CONTENT_FOLLOWED, CONTENT_KEPT, SqliteFrontier


def crash(frontier: SqliteFrontier) -> None:
    """What a SIGKILL leaves: the connection gone, its open transaction never committed."""
    frontier._db.close()


def drain(frontier: MemoryFrontier | SqliteFrontier) -> list[object]:
    out = []
    while (leased := frontier.lease()) is not None:
        out.append(leased[1])
        frontier.ack(leased[0])
    return out


@pytest.mark.parametrize("mode", ["memory", "sqlite"])
def test_higher_priority_first_and_first_in_first_out_within_one(mode: str, tmp_path: Path) -> None:
    frontier = MemoryFrontier() if mode == "memory" else SqliteFrontier(tmp_path / "f.sqlite")
    for priority, name in [
        (0, b"a"),
        (-1, b"deep1"),
        (0, b"b"),
        (5, b"urgent"),
        (-1, b"deep2"),
        (0, b"c"),
    ]:
        frontier.push(priority, name)
    assert len(frontier) == 6
    assert drain(frontier) == [b"urgent", b"a", b"b", b"c", b"deep1", b"deep2"]
    assert len(frontier) == 0 and frontier.lease() is None and frontier.leased == 0


def test_a_leased_request_not_acknowledged_is_queued_again_after_a_crash(tmp_path: Path) -> None:
    path = tmp_path / "f.sqlite"
    frontier = SqliteFrontier(path)
    assert frontier.recover().resumed is False
    for i in range(4):
        frontier.push(0, f"r{i}".encode(), key=bytes([i]) * 16)
    frontier.commit()
    done, in_flight = frontier.lease(), frontier.lease()
    assert done is not None and in_flight is not None
    frontier.ack(done[0])
    frontier.commit()  # the ack of r0 is durable; r1 is leased
    frontier.push(0, b"r4", key=b"\x09" * 16)  # not committed: lost with the crash
    frontier.ack(in_flight[0])  # nor is this one
    crash(frontier)

    resumed = SqliteFrontier(path)
    recovered = resumed.recover()
    assert (recovered.resumed, recovered.queued, recovered.requeued, recovered.visited) == (
        True,
        3,
        1,
        4,
    )
    assert resumed.first_new_entry == 5, "entries 1-4 came from the earlier run"
    assert drain(resumed) == [b"r1", b"r2", b"r3"], "the in-flight request first: it came first"
    assert sorted(resumed.visited_keys()) == [bytes([i]) * 16 for i in range(4)]


def test_failed_requests_are_kept_and_retried_only_when_asked(tmp_path: Path) -> None:
    path = tmp_path / "f.sqlite"
    frontier = SqliteFrontier(path)
    frontier.push(0, b"bad")
    frontier.push(0, b"good")
    bad, good = frontier.lease(), frontier.lease()
    assert bad is not None and good is not None
    frontier.ack(bad[0], failed="http_503")
    frontier.ack(good[0])
    frontier.close()

    again = SqliteFrontier(path)
    assert again.recover() == again.recover()  # idempotent
    assert again.failed_entries() == [(bad[0], "http_503")]
    assert len(again) == 0
    again.close()
    retried = SqliteFrontier(path)
    recovered = retried.recover(retry_failed=True)
    assert (recovered.retried, recovered.queued, recovered.failed) == (1, 1, 0)
    assert drain(retried) == [b"bad"]


def test_content_fingerprints_items_written_and_feed_sizes_commit_with_the_rest(
    tmp_path: Path,
) -> None:
    path = tmp_path / "f.sqlite"
    frontier = SqliteFrontier(path)
    frontier.add_content(CONTENT_KEPT, b"k" * 16, "http://a/1")
    frontier.add_content(CONTENT_FOLLOWED, b"f" * 16, None)
    frontier.add_written(b"w" * 16)
    frontier.set_feed_size("/out/items.jsonl", 1234)
    frontier.commit()
    frontier.add_written(b"x" * 16)  # never committed
    frontier.set_feed_size("/out/items.jsonl", 9999)
    crash(frontier)

    resumed = SqliteFrontier(path)
    assert list(resumed.content_keys(CONTENT_KEPT)) == [(b"k" * 16, "http://a/1")]
    assert list(resumed.content_keys(CONTENT_FOLLOWED)) == [(b"f" * 16, None)]
    assert list(resumed.written_keys()) == [b"w" * 16]
    assert resumed.feed_sizes() == {"/out/items.jsonl": 1234}


def test_the_database_is_in_wal_mode_and_a_foreign_file_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "f.sqlite"
    SqliteFrontier(path).close()
    with sqlite3.connect(path) as db:
        assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    foreign = tmp_path / "foreign.sqlite"
    foreign.write_bytes(b"not a database at all" * 100)
    with pytest.raises(FrontierError, match="not a usable frontier database"):
        SqliteFrontier(foreign)
    with sqlite3.connect(path) as db:
        db.execute("UPDATE meta SET value = 99 WHERE name = 'version'")
    with pytest.raises(FrontierError, match="frontier format 99"):
        SqliteFrontier(path)
    with pytest.raises(ValueError, match="expected one of normal, full"):
        SqliteFrontier(tmp_path / "g.sqlite", synchronous="off")


@pytest.mark.parametrize(
    ("setting", "jobdir", "mode"),
    [("auto", None, "memory"), ("auto", "/j", "sqlite"), ("", "/j", "sqlite"), ("memory", "/j", "memory"),
     ("SQLite", "/j", "sqlite")],
)  # fmt: skip
def test_resolve_mode(setting: str, jobdir: str | None, mode: str) -> None:
    assert resolve_mode(setting, jobdir) == mode


@pytest.mark.parametrize(
    ("setting", "message"), [("redis", "expected one of auto"), ("sqlite", "needs a JOBDIR")]
)
def test_resolve_mode_refuses_what_cannot_work(setting: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        resolve_mode(setting, None)


def test_local_feed_paths() -> None:
    feeds = {"items.jsonl": {"format": "jsonlines"}, "file:///tmp/x.csv": {"overwrite": True},
             "s3://bucket/items.jsonl": {}, "items-%(time)s.jsonl": {}}  # fmt: skip
    assert local_feed_paths(feeds) == {os.path.abspath("items.jsonl"): False, "/tmp/x.csv": True}
