"""The events waiting for the webhook: what a delivery thread needs of an outbox
(:class:`EventOutbox`), and one monitor folder's (:class:`Outbox`, in its SQLite file).

No Scrapy, no network.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

from webrobot.monitor.database import Transaction, append, open_database

#: The events the webhook's receiver refused for good (a 4xx: :mod:`webrobot.monitor.answers`),
#: one JSON line each, as ``events.jsonl`` holds them.
DEAD_LETTERS = "dead-letters.jsonl"


@dataclass(frozen=True)
class Pending:
    """An event waiting for the webhook."""

    seq: int
    id: str
    body: str
    attempts: int


class EventOutbox(Protocol):
    """What the delivery thread needs of an outbox (:class:`Outbox`, or a shared crawl's)."""

    def due(self, now: float, limit: int = 100) -> list[Pending]: ...
    def waiting(self) -> int: ...
    def next_try(self) -> float | None: ...
    def delivered(self, seq: int) -> None: ...
    def failed(self, seq: int, next_try: float) -> None: ...
    def dead(self, pending: Pending) -> str:
        """Set the event aside for good (refused by the receiver): out of the queue, into
        the dead letters; returns where they are, for the log."""
        ...

    def park(self, pending: Pending, problem: str, now: float) -> None:
        """Set aside an event the receiver kept failing (5xx, time-outs) after its
        retries: out of the queue, so the events behind it go on; kept for :meth:`replay`."""
        ...

    def parked(self) -> int:
        """How many events are parked."""
        ...

    def replay(self) -> int:
        """Put every parked event back in the queue, in its first order, its tries
        reset; returns how many."""
        ...

    def close(self) -> None: ...


class Outbox:
    """The events waiting for the webhook, for the delivery thread (its own connection)."""

    def __init__(self, folder: str | Path) -> None:
        self.folder = Path(folder)
        self._db = open_database(self.folder)
        self._lock = threading.Lock()

    def close(self) -> None:
        self._db.close()

    def due(self, now: float, limit: int = 100) -> list[Pending]:
        """The waiting events from the oldest on, up to the first not due yet: the later
        ones wait for it, so the order holds."""
        rows = self._db.execute(
            "SELECT seq, id, body, attempts, next_try FROM events WHERE pending = 1 "
            "ORDER BY seq LIMIT ?",
            (limit,),
        ).fetchall()
        out = []
        for seq, event_id, body, attempts, next_try in rows:
            if next_try > now:
                break
            out.append(Pending(seq, event_id, body, attempts))
        return out

    def waiting(self) -> int:
        return int(self._db.execute("SELECT count(*) FROM events WHERE pending = 1").fetchone()[0])

    def next_try(self) -> float | None:
        """When the oldest waiting event is due (the others wait for it)."""
        row = self._db.execute(
            "SELECT next_try FROM events WHERE pending = 1 ORDER BY seq LIMIT 1"
        ).fetchone()
        return None if row is None or row[0] is None else float(row[0])

    def delivered(self, seq: int) -> None:
        self._db.execute("UPDATE events SET pending = 0 WHERE seq = ?", (seq,))

    def failed(self, seq: int, next_try: float) -> None:
        self._db.execute(
            "UPDATE events SET attempts = attempts + 1, next_try = ? WHERE seq = ?", (next_try, seq)
        )

    def park(self, pending: Pending, problem: str, now: float) -> None:
        with Transaction(self._db):
            self._db.execute(
                "INSERT OR REPLACE INTO parked (seq, id, body, attempts, parked_at, problem) "
                "VALUES (?, ?, ?, ?, ?, ?)",
                (pending.seq, pending.id, pending.body, pending.attempts + 1, now, problem[:500]),
            )
            self._db.execute("UPDATE events SET pending = 0 WHERE seq = ?", (pending.seq,))

    def parked(self) -> int:
        return int(self._db.execute("SELECT count(*) FROM parked").fetchone()[0])

    def replay(self) -> int:
        with Transaction(self._db):
            count = int(self._db.execute("SELECT count(*) FROM parked").fetchone()[0])
            self._db.execute(
                "UPDATE events SET pending = 1, attempts = 0, next_try = 0 "
                "WHERE seq IN (SELECT seq FROM parked)"
            )
            # an event whose row was compacted away comes back from the parked copy
            self._db.execute(
                "INSERT INTO events (seq, id, body, logged, pending) SELECT seq, id, body, 1, 1 "
                "FROM parked WHERE seq NOT IN (SELECT seq FROM events)"
            )
            self._db.execute("DELETE FROM parked")
        return count

    def dead(self, pending: Pending) -> str:
        """Append the event to ``dead-letters.jsonl``, then take it out of the outbox (a
        kill in between sends it once more, so a line may come twice: replay is keyed)."""
        path = self.folder / DEAD_LETTERS
        append(path, pending.body.rstrip("\n") + "\n")
        self.delivered(pending.seq)
        return str(path)
