"""The monitor's memory between crawls: one SQLite file in ``WEBROBOT_MONITOR_DIR``.

No Scrapy, no network. ``monitor.sqlite3`` keeps each page's snapshot and the
matches already told, and every event with two marks: written to
``events.jsonl`` yet, delivered to the webhook yet (the outbox). A page's new
snapshot and its events are one transaction, so a crawl killed at any moment
leaves either both or neither; events the kill kept from ``events.jsonl`` are
written when the folder is next opened, once (a line already there is not
written again).
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol, Self, runtime_checkable

from webrobot.monitor.database import Transaction, append, open_database
from webrobot.monitor.feed import ENTRIES, atom
from webrobot.monitor.outbox import EventOutbox, Outbox
from webrobot.monitor.retention import Retention
from webrobot.monitor.schedule import Check
from webrobot.monitor.snapshot import Snapshot
from webrobot.monitor.template import Template

if TYPE_CHECKING:
    from collections.abc import Callable

    from scrapy.crawler import Crawler

EVENTS = "events.jsonl"
FEED = "events.atom"


@dataclass(frozen=True)
class PageRecord:
    snapshot: Snapshot
    matches: frozenset[str]
    #: The stored form as read: a shared store records a page only if it still holds this.
    stored: str = ""


@dataclass(frozen=True)
class SiteTemplate:
    """A site's stored template (:mod:`webrobot.monitor.template`)."""

    template: Template
    #: The stored form as read: a shared store keeps a new one only if it still holds this.
    stored: str = ""


@runtime_checkable
class PageStore(Protocol):
    """The monitor's memory, as the monitor uses it: what every store declares and
    implements (:class:`MonitorStore`, one folder in SQLite; a shared crawl's
    :class:`~webrobot.distributed.monitorstore.RedisMonitorStore`), so that one
    contract test runs against each (``tests/test_monitor_store_contract.py``).
    ``WEBROBOT_MONITOR_STORE_CLASS`` names a class that implements it."""

    @classmethod
    def open(cls, crawler: Crawler, folder: Path, webhook: bool) -> Self:
        """The store of ``folder`` for this crawl (``webhook``: events also wait for it)."""
        ...

    def close(self) -> None: ...

    def get(self, url: str) -> PageRecord | None:
        """The page's record, or None for a page the monitor does not know."""
        ...

    def urls(self) -> Iterator[str]:
        """Every page the monitor knows, oldest first."""
        ...

    def __len__(self) -> int: ...

    def record(
        self, url: str, snapshot: Snapshot, matches: Iterable[str], time: str,
        events: Iterable[dict[str, Any]], expected: PageRecord | None = None,
    ) -> bool:  # fmt: skip
        """Keep the page's snapshot and its events at once, if its record is still
        ``expected`` (what the events were judged against); False, and nothing kept, if not."""
        ...

    def forget(
        self, url: str, events: Iterable[dict[str, Any]], expected: PageRecord | None = None
    ) -> bool:
        """The page is gone: drop it and keep its events, as :meth:`record`."""
        ...

    def recent(self, count: int) -> list[dict[str, Any]]:
        """The newest ``count`` events, newest first."""
        ...

    def write_feed(self, title: str, updated: str) -> Path:
        """``events.atom`` in the monitor folder: the newest events, replaced whole."""
        ...

    def write_log(self) -> None:
        """Write the events not yet in the store's event log."""
        ...

    def outbox(self) -> Callable[[], EventOutbox]:
        """What the webhook's thread opens to take the events waiting for it."""
        ...

    def check(self, url: str) -> Check | None:
        """The page's last check and re-check interval (:mod:`webrobot.monitor.schedule`),
        or None (never scheduled)."""
        ...

    def set_check(self, url: str, check: Check) -> None: ...

    def due(self, now: float) -> Iterator[str]:
        """The known pages due for a re-check at ``now`` (never scheduled: due), oldest first."""
        ...

    def compact(self) -> int:
        """Drop the old events the store no longer needs; returns how many."""
        ...

    def rotate_log(self, max_bytes: int, max_age: float, files: int, now: float) -> bool:
        """Rotate the store's event log if it is bigger than ``max_bytes`` or its first
        event older than ``max_age`` seconds (0: no limit), ``files`` rotated files kept;
        True when rotated."""
        ...

    def shared_by_workers(self) -> bool:
        """Whether several workers share this memory: they do not hold pages for the end
        of their crawl (each worker's end comes at its own time)."""
        ...

    def template(self, site: str) -> SiteTemplate | None:
        """The template last learnt for ``site`` (``https://host``), or None."""
        ...

    def templates(self) -> dict[str, Template]:
        """Every site's template, by site."""
        ...

    def keep_template(
        self, site: str, template: Template, time: str, events: Iterable[dict[str, Any]],
        expected: SiteTemplate | None = None,
    ) -> bool:  # fmt: skip
        """Keep the site's template and its events at once, if its stored template is still
        ``expected``; False, and nothing kept, if not."""
        ...


def write_feed(folder: Path, store: PageStore, title: str, updated: str) -> Path:
    """``events.atom`` in ``folder``: ``store``'s newest events as an Atom feed, replaced whole."""
    path = folder / FEED
    text = atom(store.recent(ENTRIES), title=title, feed_id=f"urn:webrobot:monitor:{title}",
                updated=updated)  # fmt: skip
    part = path.with_name(path.name + ".part")
    part.write_text(text, "utf-8")
    os.replace(part, path)
    return path


class MonitorStore(Retention):
    """Snapshots and events of one monitor folder (one thread; the webhook opens its own
    :class:`Outbox`): a :class:`PageStore`.

    ``WEBROBOT_MONITOR_STORE_CLASS`` names the store a crawl uses; a shared crawl's
    (:mod:`webrobot.distributed.monitorstore`) implements the same protocol in Redis.
    One process owns a folder, so :meth:`record` and :meth:`forget` never find the
    page changed under them here; a shared store compares ``expected`` first.
    """

    @classmethod
    def open(cls, crawler: Crawler, folder: Path, webhook: bool) -> Self:
        return cls(folder, webhook=webhook)

    def outbox(self) -> Callable[[], EventOutbox]:
        """What the webhook's thread opens to take the events waiting for it."""
        folder = self.folder
        return lambda: Outbox(folder)

    def __init__(self, folder: str | Path, webhook: bool = False) -> None:
        self.folder = Path(folder)
        self.folder.mkdir(parents=True, exist_ok=True)
        self.webhook = webhook
        self._db = open_database(self.folder)
        self.events_path = self.folder / EVENTS
        self._whole = False  # does events.jsonl end with a whole line this process wrote?
        self.write_log()

    def close(self) -> None:
        self._db.close()

    def get(self, url: str) -> PageRecord | None:
        row = self._db.execute(
            "SELECT snapshot, matches FROM pages WHERE url = ?", (url,)
        ).fetchone()
        if row is None:
            return None
        try:
            snapshot = Snapshot.from_json(json.loads(row[0]))
            matches = frozenset(str(m) for m in json.loads(row[1]))
        except (ValueError, TypeError, AttributeError):
            snapshot, matches = Snapshot(), frozenset()
        return PageRecord(snapshot, matches)

    def urls(self) -> Iterator[str]:
        """Every page the monitor knows, oldest first."""
        for (url,) in self._db.execute("SELECT url FROM pages ORDER BY first_seen, url").fetchall():
            yield url

    def __len__(self) -> int:
        return int(self._db.execute("SELECT count(*) FROM pages").fetchone()[0])

    def _add_events(self, events: Iterable[dict[str, Any]]) -> int:
        count = 0
        for event in events:
            body = json.dumps(event, ensure_ascii=False, sort_keys=False)
            self._db.execute(
                "INSERT INTO events (id, body, pending) VALUES (?, ?, ?)",
                (event["id"], body, 1 if self.webhook else 0),
            )
            count += 1
        return count

    def record(
        self, url: str, snapshot: Snapshot, matches: Iterable[str], time: str,
        events: Iterable[dict[str, Any]], expected: PageRecord | None = None,
    ) -> bool:  # fmt: skip
        """Keep the page's snapshot and its events, in one transaction; True when kept
        (always here: ``expected``, what the events were judged against, is for a shared store)."""
        with self._transaction():
            self._db.execute(
                "INSERT INTO pages (url, snapshot, matches, first_seen, last_seen) "
                "VALUES (?, ?, ?, ?, ?) ON CONFLICT (url) DO UPDATE SET "
                "snapshot = excluded.snapshot, matches = excluded.matches, last_seen = excluded.last_seen",
                (url, json.dumps(snapshot.to_json(), ensure_ascii=False, separators=(",", ":")),
                 json.dumps(sorted(matches)), time, time),
            )  # fmt: skip
            logged = self._add_events(events)
        if logged:
            self.write_log()
        return True

    def forget(
        self, url: str, events: Iterable[dict[str, Any]], expected: PageRecord | None = None
    ) -> bool:
        """The page is gone: drop it, keep its events (True, as :meth:`record`)."""
        with self._transaction():
            self._db.execute("DELETE FROM pages WHERE url = ?", (url,))
            self._db.execute("DELETE FROM checks WHERE url = ?", (url,))
            self._add_events(events)
        self.write_log()
        return True

    def shared_by_workers(self) -> bool:
        return False

    # -- site templates

    def template(self, site: str) -> SiteTemplate | None:
        """The template last learnt for ``site`` (``https://host``), or None."""
        row = self._db.execute("SELECT template FROM templates WHERE site = ?", (site,)).fetchone()
        return None if row is None else SiteTemplate(Template.from_text(row[0]), row[0])

    def templates(self) -> dict[str, Template]:
        """Every site's template, by site."""
        rows = self._db.execute("SELECT site, template FROM templates ORDER BY site").fetchall()
        return {site: Template.from_text(text) for site, text in rows}

    def keep_template(
        self, site: str, template: Template, time: str, events: Iterable[dict[str, Any]],
        expected: SiteTemplate | None = None,
    ) -> bool:  # fmt: skip
        """Keep the site's template and its events, in one transaction; True when kept
        (always here; ``expected`` is for a shared store, as in :meth:`record`)."""
        with self._transaction():
            self._db.execute(
                "INSERT INTO templates (site, template, learnt) VALUES (?, ?, ?) "
                "ON CONFLICT (site) DO UPDATE SET template = excluded.template, "
                "learnt = excluded.learnt",
                (site, template.to_text(), time),
            )
            logged = self._add_events(events)
        if logged:
            self.write_log()
        return True

    def recent(self, count: int) -> list[dict[str, Any]]:
        """The newest ``count`` events, newest first."""
        rows = self._db.execute("SELECT body FROM events ORDER BY seq DESC LIMIT ?", (count,))
        out = []
        for (body,) in rows.fetchall():
            try:
                out.append(json.loads(body))
            except ValueError:
                continue
        return out

    def write_feed(self, title: str, updated: str) -> Path:
        """``events.atom``: the newest events as an Atom feed, replaced whole."""
        return write_feed(self.folder, self, title, updated)

    def _transaction(self) -> Transaction:
        return Transaction(self._db)

    def write_log(self) -> None:
        """Append the events not yet in ``events.jsonl``, then mark them written. After a
        kill between the two, lines already at the file's end are not written twice."""
        rows = self._db.execute(
            "SELECT seq, id, body FROM events WHERE logged = 0 ORDER BY seq"
        ).fetchall()
        if not rows:
            return
        # Only the first write of this process can follow a kill: later ones follow our own.
        present, lines = set(), ""
        if not self._whole:
            present = self._ids_at_end(len(rows))
            if self._ends_without_newline():
                lines = "\n"  # a line a kill cut short stays alone on its line
        lines += "".join(body + "\n" for _, event_id, body in rows if event_id not in present)
        if lines:
            append(self.events_path, lines)
        self._whole = True
        with self._transaction():
            self._db.executemany(
                "UPDATE events SET logged = 1 WHERE seq = ?", [(r[0],) for r in rows]
            )

    def _ends_without_newline(self) -> bool:
        try:
            with self.events_path.open("rb") as f:
                f.seek(-1, os.SEEK_END)
                return f.read(1) != b"\n"
        except OSError:
            return False

    def _ids_at_end(self, count: int) -> set[str]:
        """The ids among the last ``count`` whole lines of ``events.jsonl``."""
        try:
            with self.events_path.open("rb") as f:
                f.seek(0, os.SEEK_END)
                size = f.tell()
                f.seek(max(0, size - 64 * 1024 * max(1, count)))
                tail = f.read().splitlines()[-(count + 1) :]  # and a last line a kill cut short
        except OSError:
            return set()
        ids = set()
        for line in tail:
            try:
                ids.add(str(json.loads(line)["id"]))
            except (ValueError, KeyError, TypeError):
                continue
        return ids
