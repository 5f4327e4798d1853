"""The monitor folder's SQLite file, ``monitor.sqlite3``: its tables, its connections,
its transactions, and the JSON-lines files beside it.

No Scrapy, no network. The page store (:mod:`webrobot.monitor.store`) and the
webhook's outbox (:mod:`webrobot.monitor.outbox`) each open their own connection.
"""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path

DATABASE = "monitor.sqlite3"
SCHEMA = """
CREATE TABLE IF NOT EXISTS pages (
    url TEXT PRIMARY KEY,
    snapshot TEXT NOT NULL,
    matches TEXT NOT NULL DEFAULT '[]',
    first_seen TEXT NOT NULL,
    last_seen TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS events (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    id TEXT NOT NULL,
    body TEXT NOT NULL,
    logged INTEGER NOT NULL DEFAULT 0,
    pending INTEGER NOT NULL DEFAULT 0,
    attempts INTEGER NOT NULL DEFAULT 0,
    next_try REAL NOT NULL DEFAULT 0
);
CREATE TABLE IF NOT EXISTS checks (
    url TEXT PRIMARY KEY,
    checked REAL NOT NULL,
    interval REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS parked (
    seq INTEGER PRIMARY KEY,
    id TEXT NOT NULL,
    body TEXT NOT NULL,
    attempts INTEGER NOT NULL DEFAULT 0,
    parked_at REAL NOT NULL DEFAULT 0,
    problem TEXT NOT NULL DEFAULT ''
);
CREATE TABLE IF NOT EXISTS templates (
    site TEXT PRIMARY KEY,
    template TEXT NOT NULL,
    learnt TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS events_unlogged ON events (logged) WHERE logged = 0;
CREATE INDEX IF NOT EXISTS events_pending ON events (next_try) WHERE pending = 1;
CREATE INDEX IF NOT EXISTS events_waiting ON events (seq) WHERE pending = 1;
"""


def connect(folder: Path) -> sqlite3.Connection:
    connection = sqlite3.connect(folder / DATABASE, timeout=30, isolation_level=None)
    connection.execute("PRAGMA journal_mode=WAL")
    connection.execute("PRAGMA synchronous=NORMAL")
    return connection


def open_database(folder: Path) -> sqlite3.Connection:
    """A connection to ``folder``'s database, its tables made when missing."""
    connection = connect(folder)
    connection.executescript(SCHEMA)
    return connection


class Transaction:
    """``with Transaction(db):`` one immediate transaction, rolled back on an error."""

    def __init__(self, db: sqlite3.Connection) -> None:
        self.db = db

    def __enter__(self) -> None:
        self.db.execute("BEGIN IMMEDIATE")

    def __exit__(self, kind: object, *rest: object) -> None:
        self.db.execute("ROLLBACK" if kind else "COMMIT")


def append(path: Path, text: str) -> None:
    """Append whole lines to a JSON-lines file: one write, unless the system takes less."""
    descriptor = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
    try:
        data = text.encode("utf-8")
        while data:
            data = data[os.write(descriptor, data) :]
    finally:
        os.close(descriptor)
