"""The index writer's lock record: a lock left by a dead writer is stale and taken
over (one line says so); a live writer whose crawl died is stopped; a live crawl's
writer is refused."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from webrobot.search import writerlock
from webrobot.search.index import IndexUnavailable, SearchIndex

tantivy = pytest.importorskip("tantivy")

HOLD = """
import sys, time
from pathlib import Path
from webrobot.search.index import SearchIndex
index = SearchIndex(Path(sys.argv[1]), create=True)
print("writing", flush=True)
time.sleep(120)  # holds the writer lock until killed: the test ends it
"""


def hold_writer(folder: Path) -> subprocess.Popen[str]:
    """A process that takes the index's writer lock and keeps it."""
    process = subprocess.Popen([sys.executable, "-c", HOLD, str(folder)], stdout=subprocess.PIPE,
                               text=True, cwd=Path(__file__).resolve().parent.parent)  # fmt: skip
    assert process.stdout is not None
    assert process.stdout.readline().strip() == "writing"
    process.stdout.close()
    return process


def test_a_lock_left_by_a_killed_writer_is_taken_over_with_one_line(tmp_path: Path) -> None:
    folder = tmp_path / "index"
    holder = hold_writer(folder)
    assert writerlock.read(folder) is not None and writerlock.read(folder).pid == holder.pid  # type: ignore[union-attr]
    holder.kill()
    holder.wait()
    index = SearchIndex(folder, create=True)
    assert len(index.notes) == 1
    assert f"left by process {holder.pid}" in index.notes[0] and "stale" in index.notes[0]
    assert writerlock.read(folder).pid == os.getpid()  # type: ignore[union-attr]
    index.close()
    assert writerlock.read(folder) is None, "a clean close leaves no record"
    again = SearchIndex(folder, create=True)
    assert again.notes == []
    again.close()


def test_a_live_crawls_writer_is_refused_and_named(tmp_path: Path) -> None:
    folder = tmp_path / "index"
    holder = hold_writer(folder)  # its parent (this test) is alive: a real writer
    try:
        with pytest.raises(IndexUnavailable, match=f"another process \\(process {holder.pid}\\)"):
            SearchIndex(folder, create=True)
        assert holder.poll() is None, "a live crawl's writer is never stopped"
    finally:
        holder.kill()
        holder.wait()


def test_a_writer_whose_crawl_died_is_stopped_and_its_lock_taken_over(tmp_path: Path) -> None:
    folder = tmp_path / "index"
    holder = hold_writer(folder)
    try:
        # Say its crawl was a process that has gone: it is an orphan.
        gone = subprocess.Popen(["true"])
        gone.wait()
        record = json.loads((folder / writerlock.OWNER).read_text())
        record["parent"], record["parent_start"] = gone.pid, "1"
        (folder / writerlock.OWNER).write_text(json.dumps(record))
        index = SearchIndex(folder, create=True)
        assert holder.wait(timeout=30) is not None
        assert any(f"held by process {holder.pid}" in note for note in index.notes)
        index.close()
    finally:
        if holder.poll() is None:
            holder.kill()
            holder.wait()


def test_an_unreadable_record_is_no_owner(tmp_path: Path) -> None:
    (tmp_path / writerlock.OWNER).write_text("{not json")
    assert writerlock.read(tmp_path) is None
    assert writerlock.stale(tmp_path) is None
    assert writerlock.process_start(os.getpid()) is not None
