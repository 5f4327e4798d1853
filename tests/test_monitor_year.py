"""The monitor's state over a year of weekly re-crawls stays within the bound its design
sets (:mod:`benchmarks.monitor_year` at a small scale; the figures of the full size are in
docs/benchmarks.md).

The design: one snapshot per live page, at most ``KEEP_EVENTS`` events in the store, a
schedule row per page; ``events.jsonl`` rotated past ``max_bytes`` with ``files`` rotated
files kept. So the store holds at most (live pages x the largest snapshot + KEEP_EVENTS x
the largest event), written into SQLite's pages with an overhead of at most
:data:`SQLITE_OVERHEAD` (rows of about 2 KB in 4 KB pages, the URL index, and the file
vacuumed once half of it is free), and the events files at most ``files + 1`` files of
``max_bytes`` plus one crawl's events.
"""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from benchmarks.monitor_year import simulate
from webrobot.monitor.database import DATABASE

SQLITE_OVERHEAD = 3.0
SQLITE_FIXED = 64 * 1024  # the schema's tables and indexes, empty


def test_a_year_of_weekly_crawls_stays_within_the_designed_state_size(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    keep, max_bytes, files = 100, 20_000, 2  # small, so a small site's year reaches them
    monkeypatch.setattr("webrobot.monitor.retention.KEEP_EVENTS", keep)
    year = simulate(tmp_path, 200, 52, scheduled=True, max_bytes=max_bytes, files=files)
    db = sqlite3.connect(tmp_path / DATABASE)
    try:
        live, largest_snapshot = db.execute(
            "SELECT count(*), max(length(snapshot)) FROM pages"
        ).fetchone()
        kept, largest_event = db.execute(
            "SELECT count(*), max(length(body)) FROM events"
        ).fetchone()
    finally:
        db.close()
    assert kept <= keep
    store_bound = SQLITE_OVERHEAD * (live * (largest_snapshot + 200) + keep * largest_event)
    one_crawl = max(year.events) * largest_event
    events_bound = (files + 1) * max_bytes + one_crawl
    for week, state in year.state.items():
        assert state["store"] <= store_bound + SQLITE_FIXED, (week, state, store_bound)
        assert state["events"] <= events_bound, (week, state, events_bound)
    rotated = sorted(p.name for p in tmp_path.iterdir() if p.name.startswith("events.jsonl."))
    assert rotated == ["events.jsonl.1", "events.jsonl.2"], "rotated, the oldest dropped"
    # bounded means flat: the last half-year adds little to the state of the first quarter
    assert year.state[52]["total"] <= 1.5 * year.state[13]["total"], year.state
    # and the re-checks follow the changes: far fewer fetches than pages known, every change told
    assert sum(year.fetched[1:]) < 0.5 * 51 * 200
    assert year.changed_events > 0 and max(year.delays) <= 8
    assert all(json.loads(line) for line in (tmp_path / "events.jsonl").read_text().splitlines())
