"""What keeps a monitor folder bounded over a year of crawls, the SQLite store's side:
each page's re-check schedule (:mod:`webrobot.monitor.schedule`), old events compacted
out of ``monitor.sqlite3``, ``events.jsonl`` rotated (renamed ``events.jsonl.1``, the
older ones one number further, the oldest beyond the count kept deleted, as logrotate
does). Scrapy-free. :class:`Retention` is mixed into
:class:`webrobot.monitor.store.MonitorStore`, whose connection and files it uses.
"""

from __future__ import annotations

import json
import os
import sqlite3
from collections.abc import Iterator
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING

from webrobot.monitor.schedule import Check, should_rotate

if TYPE_CHECKING:
    from collections.abc import Callable
    from contextlib import AbstractContextManager

#: Events kept in the store once written to ``events.jsonl`` and delivered: the feed's
#: and the digest's (older ones are in ``events.jsonl`` and its rotated files).
KEEP_EVENTS = 1000


def first_time(path: Path) -> float | None:
    """The Unix time of the first event in the file (None: empty or unreadable)."""
    try:
        with path.open("rb") as f:
            first = json.loads(f.readline())
        return datetime.fromisoformat(str(first["time"])).timestamp()
    except (OSError, ValueError, KeyError, TypeError):
        return None


def rotate(path: Path, files: int) -> None:
    """``path`` becomes ``path.1``, ``path.N`` becomes ``path.N+1``, and ``path.files`` is
    deleted (``files`` 0: ``path`` itself is)."""
    for n in range(files, 0, -1):
        older = path.with_name(f"{path.name}.{n}")
        if n == files:
            older.unlink(missing_ok=True)
        elif older.exists():
            os.replace(older, path.with_name(f"{path.name}.{n + 1}"))
    if files:
        os.replace(path, path.with_name(f"{path.name}.1"))
    else:
        path.unlink()


class Retention:
    """The schedule, compaction and rotation methods of the SQLite store."""

    _db: sqlite3.Connection
    events_path: Path
    _whole: bool

    #: One transaction on :attr:`_db` (the store's own).
    _transaction: Callable[[], AbstractContextManager[None]]

    # -- re-check schedule (:mod:`webrobot.monitor.schedule`)

    def check(self, url: str) -> Check | None:
        """The page's last check and interval, or None (never scheduled)."""
        row = self._db.execute(
            "SELECT checked, interval FROM checks WHERE url = ?", (url,)
        ).fetchone()
        return None if row is None else Check(float(row[0]), float(row[1]))

    def set_check(self, url: str, check: Check) -> None:
        self._db.execute(
            "INSERT OR REPLACE INTO checks (url, checked, interval) VALUES (?, ?, ?)",
            (url, check.checked, check.interval),
        )

    def due(self, now: float) -> Iterator[str]:
        """The known pages due for a re-check at ``now`` (never scheduled: due), oldest first."""
        rows = self._db.execute(
            "SELECT p.url, c.checked, c.interval FROM pages p LEFT JOIN checks c ON c.url = p.url "
            "ORDER BY p.first_seen, p.url"
        ).fetchall()
        for url, checked, interval in rows:
            if checked is None or Check(float(checked), float(interval)).due(now):
                yield url

    # -- a year of state

    def compact(self) -> int:
        """Drop the events written to ``events.jsonl``, delivered and not parked, but the
        newest :data:`KEEP_EVENTS`; give the space back when most of the file is free.
        Returns the events dropped."""
        with self._transaction():
            top = self._db.execute("SELECT coalesce(max(seq), 0) FROM events").fetchone()[0]
            dropped = self._db.execute(
                "DELETE FROM events WHERE seq <= ? AND logged = 1 AND pending = 0 "
                "AND seq NOT IN (SELECT seq FROM parked)",
                (int(top) - KEEP_EVENTS,),
            ).rowcount
            self._db.execute("DELETE FROM checks WHERE url NOT IN (SELECT url FROM pages)")
        pages = int(self._db.execute("PRAGMA page_count").fetchone()[0])
        free = int(self._db.execute("PRAGMA freelist_count").fetchone()[0])
        if free > 256 and free * 2 > pages:
            self._db.execute("VACUUM")
        self._db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        return int(dropped)

    def rotate_log(self, max_bytes: int, max_age: float, files: int, now: float) -> bool:
        """Rotate ``events.jsonl`` to ``events.jsonl.1`` (the older ones one further, the
        oldest beyond ``files`` deleted) when it is bigger than ``max_bytes`` or its first
        event older than ``max_age`` seconds; True when rotated."""
        try:
            size = self.events_path.stat().st_size
        except FileNotFoundError:
            return False
        if not should_rotate(size, first_time(self.events_path), now, max_bytes, max_age):
            return False
        rotate(self.events_path, files)
        self._whole = True  # the new file starts empty: no line a kill cut short
        return True
