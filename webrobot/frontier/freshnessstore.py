"""The page records of :mod:`webrobot.frontier.freshness`, kept between crawls in one
SQLite file (Python's ``sqlite3``: no server, one file next to the HTTP cache).

Each record is written when its page is checked, in WAL mode, so a crawl that
is killed loses at most the last writes: the pages concerned are then simply
checked again at the next crawl.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

from webrobot.frontier.freshness import PageRecord

_SCHEMA = """
CREATE TABLE IF NOT EXISTS pages (
    url TEXT PRIMARY KEY,
    checked_at REAL NOT NULL,
    interval REAL NOT NULL,
    md5 TEXT NOT NULL,
    checks INTEGER NOT NULL,
    changes INTEGER NOT NULL
)
"""


class FreshnessStore:
    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self.db = sqlite3.connect(str(self.path), isolation_level=None, check_same_thread=False)
        self.db.execute("PRAGMA journal_mode=WAL")
        self.db.execute("PRAGMA synchronous=NORMAL")
        self.db.execute(_SCHEMA)

    def get(self, url: str) -> PageRecord | None:
        row = self.db.execute(
            "SELECT checked_at, interval, md5, checks, changes FROM pages WHERE url = ?", (url,)
        ).fetchone()
        return PageRecord(*row) if row else None

    def put(self, url: str, record: PageRecord) -> None:
        self.db.execute(
            "INSERT OR REPLACE INTO pages VALUES (?, ?, ?, ?, ?, ?)",
            (url, record.checked_at, record.interval, record.md5, record.checks, record.changes),
        )

    def all(self) -> dict[str, PageRecord]:
        rows = self.db.execute("SELECT url, checked_at, interval, md5, checks, changes FROM pages")
        return {url: PageRecord(*rest) for url, *rest in rows}

    def close(self) -> None:
        self.db.close()
