"""Notices by e-mail and chat through Apprise: one digest per crawl, at least once.

When a crawl closes, the events it added to the monitor folder (those after the
last digest, a killed crawl's included) become one digest (:mod:`webrobot.monitor.digest`)
per Apprise URL of ``WEBROBOT_MONITOR_NOTIFY``, kept in the folder's SQLite file
(table ``notices``) until Apprise reports it sent. A daemon thread sends them,
so the crawl is never held; one that fails is tried again, the wait doubling from
1 s up to a ceiling, and what is left when the crawl closes is sent first by the
next crawl with the same folder. The folder keeps a key of each URL, never the
URL itself (it may carry a password).

apprise is optional (``pip install 'webrobot[notify]'``): imported when a
sender starts.
"""

from __future__ import annotations

import hashlib
import json
import logging
import time
import warnings
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from webrobot.monitor.database import SCHEMA as _EVENTS_SCHEMA
from webrobot.monitor.database import connect
from webrobot.monitor.delivery import DeliveryThread, backoff
from webrobot.monitor.digest import digest
from webrobot.optional import require

logger = logging.getLogger(__name__)

FEATURE = "Notices by e-mail and chat (WEBROBOT_MONITOR_NOTIFY)"
_SCHEMA = """
CREATE TABLE IF NOT EXISTS notices (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    target TEXT NOT NULL,
    title TEXT NOT NULL,
    body TEXT NOT NULL,
    attempts INTEGER NOT NULL DEFAULT 0,
    next_try REAL NOT NULL DEFAULT 0
);
CREATE TABLE IF NOT EXISTS notice_marks (name TEXT PRIMARY KEY, seq INTEGER NOT NULL);
"""


@contextmanager
def _quiet() -> Iterator[None]:
    """Apprise loads its plugins on first use, and one imports the standard library's
    ``imghdr``, which warns that it is deprecated: a warning about Apprise's insides,
    not about the crawl, so it is not shown."""
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", r"'imghdr' is deprecated", DeprecationWarning)
        yield


def apprise_module() -> Any:
    """apprise, or :class:`webrobot.optional.MissingExtra` naming the ``notify`` extra."""
    with _quiet():
        return require("apprise", "notify", FEATURE)


def target_key(url: str) -> str:
    """What the folder keeps of an Apprise URL."""
    return hashlib.sha256(url.encode("utf-8")).hexdigest()[:16]


def bad_urls(urls: Sequence[str]) -> list[str]:
    """The URLs Apprise cannot use (an unknown scheme, a missing part)."""
    apprise = apprise_module()
    with _quiet():
        return [url for url in urls if not apprise.Apprise().add(url)]


class Notices:
    """The notices of one monitor folder (one connection per thread)."""

    def __init__(self, folder: str | Path) -> None:
        self._db = connect(Path(folder))
        self._db.executescript(_EVENTS_SCHEMA + _SCHEMA)

    def close(self) -> None:
        self._db.close()

    def start(self) -> None:
        """From now on: events already in the folder were told before notices were on."""
        self._db.execute(
            "INSERT OR IGNORE INTO notice_marks (name, seq) "
            "SELECT 'digested', coalesce(max(seq), 0) FROM events"
        )

    def add_digest(self, crawl: str, urls: Sequence[str], notes: Sequence[str] = ()) -> int:
        """One digest per URL of the events since the last digest (and the summary's
        ``notes``); returns their number."""
        self._db.execute("BEGIN IMMEDIATE")
        try:
            row = self._db.execute(
                "SELECT seq FROM notice_marks WHERE name = 'digested'"
            ).fetchone()
            mark = int(row[0]) if row else 0
            rows = self._db.execute(
                "SELECT seq, body FROM events WHERE seq > ? ORDER BY seq", (mark,)
            ).fetchall()
            told = []
            for _, body in rows:
                try:
                    told.append(json.loads(body))
                except ValueError:
                    continue
            notice = digest(told, crawl, notes)
            if notice is not None:
                self._db.executemany(
                    "INSERT INTO notices (target, title, body) VALUES (?, ?, ?)",
                    [(target_key(url), *notice) for url in urls],
                )
            if rows:
                self._db.execute(
                    "INSERT OR REPLACE INTO notice_marks (name, seq) VALUES ('digested', ?)",
                    (rows[-1][0],),
                )
            self._db.execute("COMMIT")
        except BaseException:  # any way out (Ctrl-C too) rolls the transaction back; re-raised
            self._db.execute("ROLLBACK")
            raise
        return len(told)

    def due(self, now: float) -> list[tuple[int, str, str, str, int]]:
        return self._db.execute(
            "SELECT seq, target, title, body, attempts FROM notices WHERE next_try <= ? "
            "ORDER BY seq LIMIT 20",
            (now,),
        ).fetchall()

    def waiting(self) -> int:
        return int(self._db.execute("SELECT count(*) FROM notices").fetchone()[0])

    def next_try(self) -> float | None:
        row = self._db.execute("SELECT min(next_try) FROM notices").fetchone()
        return None if row is None or row[0] is None else float(row[0])

    def delivered(self, seq: int) -> None:
        self._db.execute("DELETE FROM notices WHERE seq = ?", (seq,))

    def failed(self, seq: int, next_try: float) -> None:
        self._db.execute(
            "UPDATE notices SET attempts = attempts + 1, next_try = ? WHERE seq = ?",
            (next_try, seq),
        )


class NotifySender(DeliveryThread[Notices]):
    """The thread that sends a folder's notices through Apprise."""

    name = "webrobot-notify"
    what = "notices"

    def __init__(
        self, folder: str | Path, urls: Sequence[str], *, ceiling: float = 300.0,
        count: Callable[[str], None] | None = None,
    ) -> None:  # fmt: skip
        super().__init__(folder, ceiling=ceiling, count=count)
        apprise = apprise_module()
        self.targets: dict[str, Any] = {}
        for url in urls:
            client = apprise.Apprise()
            with _quiet():
                client.add(url)
            self.targets[target_key(url)] = client

    def join_margin(self) -> float:
        return 60.0  # one Apprise send (an e-mail's SMTP exchange) in progress

    def _open(self) -> Notices:
        return Notices(self.folder)

    def _send_due(self, notices: Notices) -> bool:
        sent = False
        for seq, target, title, body, attempts in notices.due(time.time()):
            if self.draining_over():
                break
            client = self.targets.get(target)
            if client is None:  # an Apprise URL no longer in WEBROBOT_MONITOR_NOTIFY
                notices.delivered(seq)
                self.count("webrobot/monitor/notify/dropped")
                continue
            try:
                with _quiet():
                    ok = bool(client.notify(body=body, title=title))
            except Exception as exc:  # noqa: BLE001 - a plugin's own failure is a failed try
                logger.debug("Apprise failed: %s", exc)
                ok = False
            if ok:
                notices.delivered(seq)
                self.count("webrobot/monitor/notify/delivered")
                sent = True
                if self._failing:
                    logger.info("Notices are sent again")
                    self._failing = False
            else:
                self.count("webrobot/monitor/notify/failed")
                notices.failed(seq, time.time() + backoff(attempts + 1, self.ceiling))
                if not self._failing:
                    logger.warning("A notice could not be sent through Apprise; trying again later")
                    self._failing = True
        return sent
