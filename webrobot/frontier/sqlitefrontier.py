"""The durable crawl frontier: requests, visited keys, content fingerprints and
feed sizes in one SQLite file (no Scrapy here).

:class:`SqliteFrontier` is the ``sqlite`` mode of :mod:`webrobot.frontier.queues`
(same order, same life of a request): an SQLite database in WAL mode
(``JOBDIR/webrobot-frontier.sqlite``) holding pickled requests and their states,
and in the same transactions the visited URL keys, the content fingerprints, the
keys of URLs whose item is in the feed, and the committed size of each feed file.
Writes accumulate in one open transaction; :meth:`SqliteFrontier.commit` makes
them durable together, so after a SIGKILL the next run sees the state of the last
commit, with the requests that were leased then back in ``pending``
(:meth:`SqliteFrontier.recover`).
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from webrobot.frontier.queues import FrontierError

if TYPE_CHECKING:
    from collections.abc import Callable, Iterable, Iterator

PENDING, LEASED, DONE, FAILED = 0, 1, 2, 3
SCHEMA_VERSION = 1
#: SQLite ``synchronous`` levels accepted by :class:`SqliteFrontier`.
SYNC_LEVELS = ("normal", "full")
#: ``content`` table kinds: the fingerprint of a page whose item was kept, of a page whose links
#: were followed, the SimHash (8 bytes, big-endian) of a page kept by the near-duplicate filter.
CONTENT_KEPT, CONTENT_FOLLOWED, CONTENT_NEAR = 0, 1, 2


@dataclass(frozen=True)
class Recovered:
    """What a durable frontier found when it opened."""

    queued: int  # pending, including the re-queued below
    requeued: int  # leased when the last run stopped: back in pending
    retried: int  # failed for good in an earlier run, pending again (retry_failed)
    failed: int  # failed for good and kept as such
    visited: int  # visited-URL keys
    resumed: bool  # False: a new job (the file did not exist)


_SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (name TEXT PRIMARY KEY, value) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS requests (
    id INTEGER PRIMARY KEY,
    state INTEGER NOT NULL,
    priority INTEGER NOT NULL,
    data BLOB,
    reason TEXT
);
CREATE INDEX IF NOT EXISTS requests_pending ON requests (priority DESC, id) WHERE state = 0;
CREATE TABLE IF NOT EXISTS visited (key BLOB PRIMARY KEY) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS content (
    kind INTEGER NOT NULL, key BLOB NOT NULL, url TEXT, PRIMARY KEY (kind, key)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS written (key BLOB PRIMARY KEY) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS feeds (path TEXT PRIMARY KEY, size INTEGER NOT NULL) WITHOUT ROWID;
"""


class SqliteFrontier:
    """Requests, visited keys, content fingerprints and feed sizes in one SQLite file."""

    durable = True

    def __init__(self, path: str | os.PathLike[str], *, synchronous: str = "normal") -> None:
        if synchronous not in SYNC_LEVELS:
            raise ValueError(f"expected one of {', '.join(SYNC_LEVELS)}, got {synchronous!r}")
        self.path = Path(path)
        existed = self.path.exists()
        try:
            # isolation_level=None: transactions are begun and committed here, explicitly.
            self._db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
            # The format is checked before anything is written: a file of another
            # format (or not a database) is left exactly as it was.
            version = self._version() if existed else None
            if version is not None and version != SCHEMA_VERSION:
                self._db.close()
                raise FrontierError(
                    f"{self.path}: frontier format {version}, this webrobot reads {SCHEMA_VERSION}"
                )
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute(f"PRAGMA synchronous={synchronous.upper()}")
            self._db.executescript(_SCHEMA)
            if version is None:
                version = self._version()
        except sqlite3.DatabaseError as exc:
            if hasattr(self, "_db"):
                self._db.close()
            raise FrontierError(f"{self.path}: not a usable frontier database ({exc})") from None
        if version is None:
            self._db.execute("INSERT INTO meta VALUES ('version', ?)", (SCHEMA_VERSION,))
        self.resumed = existed and version is not None
        #: Entries below this id were queued by earlier runs (set by :meth:`recover`).
        self.first_new_entry = 0
        self._in_transaction = False
        self._pending = 0
        self._leased = 0
        #: Told of a write that failed (an ``sqlite3.Error``); True: handled (the
        #: transaction is rolled back and the frontier frozen), False: raised again.
        self.on_write_error: Callable[[Exception], bool] | None = None
        #: After a handled write error nothing is written any more: the file stays
        #: as of the last commit, which is what a resumed job starts from.
        self.frozen = False

    def _version(self) -> Any:
        """The format version the file says it has; None for a file without one."""
        tables = {name for (name,) in self._db.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table'")}  # fmt: skip
        if "meta" not in tables:
            return None
        row = self._db.execute("SELECT value FROM meta WHERE name = 'version'").fetchone()
        return None if row is None else row[0]

    def _write_failed(self, exc: Exception) -> None:
        if self.on_write_error is None or not self.on_write_error(exc):
            raise exc
        self.freeze()

    def freeze(self) -> None:
        """Roll back what was written since the last commit and write nothing more."""
        if self._in_transaction:
            try:
                self._db.execute("ROLLBACK")
            except sqlite3.Error:
                pass  # SQLite rolled it back itself (as it may on SQLITE_FULL)
            self._in_transaction = False
        self.frozen = True

    # -- opening -------------------------------------------------------------
    def recover(self, *, retry_failed: bool = False) -> Recovered:
        """Put what was leased when the last run stopped back in ``pending`` (and,
        with ``retry_failed``, what failed for good); count what is there."""
        self._begin()
        requeued = self._db.execute(
            "UPDATE requests SET state = ? WHERE state = ?", (PENDING, LEASED)
        ).rowcount
        retried = 0
        if retry_failed:
            retried = self._db.execute(
                "UPDATE requests SET state = ?, reason = NULL WHERE state = ?", (PENDING, FAILED)
            ).rowcount
        self.commit()
        counts = dict(
            self._db.execute("SELECT state, COUNT(*) FROM requests GROUP BY state").fetchall()
        )
        self._pending = counts.get(PENDING, 0)
        self._leased = 0
        visited = self._db.execute("SELECT COUNT(*) FROM visited").fetchone()[0]
        self.first_new_entry = int(
            self._db.execute("SELECT COALESCE(MAX(id), 0) + 1 FROM requests").fetchone()[0]
        )
        return Recovered(
            self._pending, requeued, retried, counts.get(FAILED, 0), visited, self.resumed
        )

    def visited_keys(self) -> Iterator[bytes]:
        for (key,) in self._db.execute("SELECT key FROM visited"):
            yield bytes(key)

    def content_keys(self, kind: int) -> Iterator[tuple[bytes, str | None]]:
        for key, url in self._db.execute("SELECT key, url FROM content WHERE kind = ?", (kind,)):
            yield bytes(key), url

    def written_keys(self) -> Iterator[bytes]:
        for (key,) in self._db.execute("SELECT key FROM written"):
            yield bytes(key)

    def failed_entries(self) -> list[tuple[int, str]]:
        """``(id, reason)`` of the requests kept as failed for good."""
        return [(int(i), str(r)) for i, r in self._db.execute(
            "SELECT id, reason FROM requests WHERE state = ? ORDER BY id", (FAILED,))]  # fmt: skip

    # -- the frontier ----------------------------------------------------------
    def _begin(self) -> None:
        if not self._in_transaction:
            self._db.execute("BEGIN")
            self._in_transaction = True

    def _write(self, sql: str, args: tuple[Any, ...]) -> sqlite3.Cursor | None:
        """One statement in the open transaction; None when it failed (handled) or
        the frontier is frozen."""
        if self.frozen:
            return None
        try:
            self._begin()
            return self._db.execute(sql, args)
        except sqlite3.Error as exc:
            self._write_failed(exc)
            return None

    def push(self, priority: int, payload: Any, key: bytes | None = None) -> int:
        if key is not None:
            self._write("INSERT OR IGNORE INTO visited (key) VALUES (?)", (key,))
        cursor = self._write(
            "INSERT INTO requests (state, priority, data) VALUES (?, ?, ?)",
            (PENDING, priority, payload),
        )
        if cursor is None:
            return 0
        self._pending += 1
        return int(cursor.lastrowid or 0)

    def add_visited(self, keys: Iterable[bytes]) -> None:
        if self.frozen:
            return
        try:
            self._begin()
            self._db.executemany(
                "INSERT OR IGNORE INTO visited (key) VALUES (?)", ((k,) for k in keys)
            )
        except sqlite3.Error as exc:
            self._write_failed(exc)

    def lease(self) -> tuple[int, Any] | None:
        if self._pending <= 0 or self.frozen:
            return None
        try:
            row = self._db.execute(
                "SELECT id, data FROM requests WHERE state = 0 ORDER BY priority DESC, id LIMIT 1"
            ).fetchone()
        except sqlite3.Error as exc:  # a device that fails under a read: as for a write
            self._write_failed(exc)
            return None
        if row is None:
            self._pending = 0
            return None
        if self._write("UPDATE requests SET state = ? WHERE id = ?", (LEASED, row[0])) is None:
            return None
        self._pending -= 1
        self._leased += 1
        return int(row[0]), bytes(row[1])

    def ack(self, entry: int, failed: str | None = None) -> None:
        if failed is None:
            self._write("DELETE FROM requests WHERE id = ?", (entry,))
        else:
            self._write(
                "UPDATE requests SET state = ?, reason = ? WHERE id = ?", (FAILED, failed, entry)
            )
        self._leased = max(0, self._leased - 1)

    def add_content(self, kind: int, key: bytes, url: str | None) -> None:
        self._write(
            "INSERT OR IGNORE INTO content (kind, key, url) VALUES (?, ?, ?)", (kind, key, url)
        )

    def add_written(self, key: bytes) -> None:
        self._write("INSERT OR IGNORE INTO written (key) VALUES (?)", (key,))

    def feed_sizes(self) -> dict[str, int]:
        return {str(p): int(s) for p, s in self._db.execute("SELECT path, size FROM feeds")}

    def set_feed_size(self, path: str, size: int) -> None:
        self._write("INSERT OR REPLACE INTO feeds (path, size) VALUES (?, ?)", (path, size))

    def __len__(self) -> int:
        return self._pending

    @property
    def leased(self) -> int:
        return self._leased

    @property
    def dirty(self) -> bool:
        return self._in_transaction

    def commit(self) -> None:
        if self._in_transaction and not self.frozen:
            try:
                self._db.execute("COMMIT")
            except sqlite3.Error as exc:
                self._write_failed(exc)
                return
            self._in_transaction = False

    def disk_bytes(self) -> int:
        """Bytes of the database file and its write-ahead log."""
        total = 0
        for suffix in ("", "-wal"):
            with contextlib.suppress(OSError):  # a log not written yet counts 0
                total += os.path.getsize(f"{self.path}{suffix}")
        return total

    def checkpoint(self) -> None:
        """Fold the write-ahead log into the database file (keeps the log from growing)."""
        self.commit()
        self._db.execute("PRAGMA wal_checkpoint(TRUNCATE)")

    def close(self) -> None:
        try:
            self.commit()
            if not self.frozen:
                self._db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        except sqlite3.Error as exc:
            # The log keeps what was committed: a checkpoint that found no room is harmless.
            if self.on_write_error is None or not self.on_write_error(exc):
                raise
        finally:
            self._db.close()
