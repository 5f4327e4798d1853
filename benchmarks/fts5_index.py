"""SQLite FTS5 as a full-text index of the crawl: the engine webrobot used before
tantivy, kept here as the comparison in ``benchmarks.search_engines`` (same
interface as :class:`webrobot.search.index.SearchIndex`: ``put``, ``remove``,
``search``, ``len``)."""

from __future__ import annotations

import re
import sqlite3
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from webrobot.search.index import Hit, IndexUnavailable
from webrobot.search.query import QueryError, Term, parse_query

SCHEMA_VERSION = "1"
#: BM25 weights of the indexed columns: a word in the title counts 4 times one in the text.
TITLE_WEIGHT, TEXT_WEIGHT = 4.0, 1.0
#: Snippet highlight markers (never in page text: control characters are dropped).
MARK_START, MARK_END = "\x02", "\x03"
_CONTROL_RE = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")


def fts_query(query: str) -> str:
    """The user's query as an FTS5 expression, from the same parse the index uses
    (:func:`webrobot.search.query.parse_query`): terms ANDed, groups ORed, every
    term quoted so that no input is an FTS5 syntax error."""

    def fts_term(term: Term) -> str:
        quoted = '"' + term.text.replace('"', '""') + '"'
        return quoted + "*" if term.kind == "prefix" else quoted

    return " OR ".join(
        "(" + " ".join(fts_term(term) for term in group) + ")" for group in parse_query(query)
    )


def clean(text: str) -> str:
    return _CONTROL_RE.sub(" ", text)


@dataclass
class SearchIndex:
    """Open (or create, with ``create=True``) the index at ``path``."""

    path: Path
    create: bool = False
    #: commit after this many changes or seconds, whichever first
    batch: int = 200
    batch_seconds: float = 2.0
    _pending: int = field(default=0, init=False)
    _last_commit: float = field(default_factory=time.monotonic, init=False)

    def __post_init__(self) -> None:
        self.path = Path(self.path)
        if not self.create and not self.path.exists():
            raise IndexUnavailable(f"no search index at {self.path}")
        if self.create:
            self.path.parent.mkdir(parents=True, exist_ok=True)
        try:
            self.db = sqlite3.connect(str(self.path), isolation_level=None, check_same_thread=False)
            self.db.execute("PRAGMA busy_timeout = 5000")
            if self.create:
                self._create_schema()
            else:
                self._check_schema()
        except sqlite3.DatabaseError as exc:
            raise IndexUnavailable(f"{self.path} is not a readable search index: {exc}") from exc

    def _create_schema(self) -> None:
        db = self.db
        db.execute("PRAGMA journal_mode = WAL")
        db.execute("PRAGMA synchronous = NORMAL")
        db.execute("CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT)")
        db.execute(
            "CREATE TABLE IF NOT EXISTS pages (id INTEGER PRIMARY KEY, url TEXT UNIQUE NOT NULL, "
            "site TEXT NOT NULL, host TEXT NOT NULL, title TEXT, fetched_at TEXT, lang TEXT)"
        )
        db.execute("CREATE INDEX IF NOT EXISTS pages_site ON pages (site)")
        db.execute("CREATE INDEX IF NOT EXISTS pages_host ON pages (host)")
        db.execute(
            "CREATE VIRTUAL TABLE IF NOT EXISTS pages_fts USING fts5("
            "title, body, tokenize = 'unicode61 remove_diacritics 2', prefix = '2 3')"
        )
        db.execute("INSERT OR IGNORE INTO meta VALUES ('schema', ?)", (SCHEMA_VERSION,))
        self._check_schema()

    def _check_schema(self) -> None:
        try:
            row = self.db.execute("SELECT value FROM meta WHERE key = 'schema'").fetchone()
        except sqlite3.DatabaseError as exc:
            raise IndexUnavailable(f"{self.path} is not a webrobot search index ({exc})") from exc
        if row is None or row[0] != SCHEMA_VERSION:
            raise IndexUnavailable(
                f"{self.path} has an unknown index schema ({row[0] if row else 'none'})"
            )

    # -- writing -------------------------------------------------------------------
    def _begin(self) -> None:
        if not self.db.in_transaction:
            self.db.execute("BEGIN")

    def put(self, page: Any) -> str:
        """Add or replace ``page``; returns ``"added"`` or ``"updated"``."""
        self._begin()
        db = self.db
        row = db.execute("SELECT id FROM pages WHERE url = ?", (page.url,)).fetchone()
        values = (page.site, page.host, clean(page.title), page.fetched_at, page.lang)
        if row is None:
            cur = db.execute(
                "INSERT INTO pages (url, site, host, title, fetched_at, lang) VALUES (?, ?, ?, ?, ?, ?)",
                (page.url, *values),
            )
            rowid, outcome = cur.lastrowid, "added"
        else:
            rowid, outcome = row[0], "updated"
            db.execute(
                "UPDATE pages SET site = ?, host = ?, title = ?, fetched_at = ?, lang = ? WHERE id = ?",
                (*values, rowid),
            )
            db.execute("DELETE FROM pages_fts WHERE rowid = ?", (rowid,))
        db.execute(
            "INSERT INTO pages_fts (rowid, title, body) VALUES (?, ?, ?)",
            (rowid, clean(page.title), clean(page.text)),
        )
        self._changed()
        return outcome

    def remove(self, url: str) -> bool:
        """Remove ``url``'s page; whether it was there."""
        self._begin()
        row = self.db.execute("SELECT id FROM pages WHERE url = ?", (url,)).fetchone()
        if row is None:
            return False
        self.db.execute("DELETE FROM pages_fts WHERE rowid = ?", (row[0],))
        self.db.execute("DELETE FROM pages WHERE id = ?", (row[0],))
        self._changed()
        return True

    def _changed(self) -> None:
        self._pending += 1
        if (
            self._pending >= self.batch
            or time.monotonic() - self._last_commit >= self.batch_seconds
        ):
            self.commit()

    def commit(self) -> None:
        if self.db.in_transaction:
            self.db.execute("COMMIT")
        self._pending = 0
        self._last_commit = time.monotonic()

    def optimize(self) -> None:
        """Merge the FTS5 segments (smaller, faster to query); at the end of a crawl."""
        self.commit()
        self.db.execute("INSERT INTO pages_fts (pages_fts) VALUES ('optimize')")

    def close(self) -> None:
        self.commit()
        self.db.close()

    # -- reading ---------------------------------------------------------------------
    def __len__(self) -> int:
        return int(self.db.execute("SELECT count(*) FROM pages").fetchone()[0])

    def search(
        self, query: str, site: str | None = None, limit: int = 10, offset: int = 0
    ) -> list[Hit]:
        """Pages matching ``query`` (see :func:`fts_query`), best first (BM25)."""
        expression = fts_query(query)
        sql = (
            "SELECT p.url, p.title, p.site, p.fetched_at, p.lang, "
            "snippet(pages_fts, 1, ?, ?, ' … ', 24), bm25(pages_fts, ?, ?) AS score "
            "FROM pages_fts JOIN pages p ON p.id = pages_fts.rowid WHERE pages_fts MATCH ?"
        )
        args: list[object] = [MARK_START, MARK_END, TITLE_WEIGHT, TEXT_WEIGHT, expression]
        if site:
            sql += " AND (p.site = ? OR p.host = ?)"
            args += [site.rstrip("/"), site.lower()]
        sql += " ORDER BY score LIMIT ? OFFSET ?"
        args += [max(0, limit), max(0, offset)]
        try:
            rows = self.db.execute(sql, args).fetchall()
        except sqlite3.OperationalError as exc:
            raise QueryError(f"cannot search for {query!r}: {exc}") from exc
        return [Hit(*row[:6], score=-row[6]) for row in rows]  # higher is better
