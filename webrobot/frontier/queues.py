"""The crawl frontier: requests waiting to be fetched, in one of two modes.

Pure logic; no Scrapy. The durable mode is :mod:`webrobot.frontier.sqlitefrontier`. :class:`webrobot.frontier.scheduler.FrontierScheduler`
is the Scrapy glue that turns requests into payloads and back.

Both modes keep the same order: higher ``priority`` first, first in, first out
within a priority (the order of Scrapy's own priority queue, which with
``DEPTH_PRIORITY = 1`` is breadth-first). Both give each request the same life:

``pending``
    queued (:meth:`Frontier.push`);
``leased``
    handed to the crawler (:meth:`Frontier.lease`) and not finished yet;
``acknowledged``
    finished (:meth:`Frontier.ack`): fetched and processed, refused, or failed
    for good (then kept, with its reason, so that a later run can retry it).

:class:`MemoryFrontier`
    payloads in one FIFO queue per priority; the scheduler stores a compact
    tuple per request (:mod:`webrobot.frontier.compactrequest`: URL, an interned
    referer, a shared shape of callback, priority and meta keys, the meta
    values) and builds the request when it is leased. A leased entry is only
    counted. Nothing survives the process.
:class:`~webrobot.frontier.sqlitefrontier.SqliteFrontier`
    an SQLite database in WAL mode (``JOBDIR/webrobot-frontier.sqlite``):
    pickled requests, their states, and in the same transactions the visited
    URL keys, the content fingerprints, the keys of URLs whose item is in the
    feed, and the committed size of each feed file. Writes accumulate in one
    open transaction; :meth:`SqliteFrontier.commit` makes them durable together,
    so the file is consistent at every commit: after a SIGKILL the next run
    sees the state of the last commit, with the requests that were leased then
    back in ``pending`` (:meth:`SqliteFrontier.recover`).

A payload is whatever the glue stores: a compact tuple (or, for a request
that does not fit one, the request object) in memory, pickled bytes on disk.
"""

from __future__ import annotations

import bisect
import os
import pickle
import shutil
import tempfile
from collections import deque
from pathlib import Path
from typing import Any, Protocol


class FrontierError(RuntimeError):
    """A frontier database that cannot be used (foreign, newer format, unreadable)."""


class Frontier(Protocol):
    """What the scheduler needs from a frontier, whatever keeps it."""

    durable: bool

    def push(self, priority: int, payload: Any, key: bytes | None = None) -> int:
        """Queue ``payload``; ``key`` (a visited-URL key) is recorded with it. Returns its entry id."""
        ...

    def lease(self) -> tuple[int, Any] | None:
        """The next pending entry ``(id, payload)``, now leased; None when nothing is pending."""
        ...

    def ack(self, entry: int, failed: str | None = None) -> None:
        """The leased entry is finished (``failed``: the reason it failed for good)."""
        ...

    def __len__(self) -> int:
        """Pending entries."""
        ...

    @property
    def leased(self) -> int: ...

    def commit(self) -> None: ...

    def close(self) -> None: ...


# -- in memory ----------------------------------------------------------------


class MemoryFrontier:
    """Pending payloads in one FIFO deque per priority, highest priority first.

    The order of a heap on ``(-priority, arrival)`` at a pointer per entry
    (there are few distinct priorities: the depth, with ``DEPTH_PRIORITY``).
    Nothing is kept of a leased entry but a count, so an entry's id is given
    when it is leased; :meth:`push` returns the pending count.
    """

    durable = False

    def __init__(self) -> None:
        self._queues: dict[int, deque[Any]] = {}
        self._priorities: list[int] = []  # the keys of _queues, highest first
        self._pending = 0
        self._leases = 0
        self._leased = 0

    def push(self, priority: int, payload: Any, key: bytes | None = None) -> int:
        queue = self._queues.get(priority)
        if queue is None:
            queue = self._queues[priority] = deque()
            bisect.insort(self._priorities, -priority)
        queue.append(payload)
        self._pending += 1
        return self._pending

    def lease(self) -> tuple[int, Any] | None:
        if not self._pending:
            return None
        priority = -self._priorities[0]
        queue = self._queues[priority]
        payload = queue.popleft()
        if not queue:
            del self._queues[priority]
            del self._priorities[0]
        self._pending -= 1
        self._leases += 1
        self._leased += 1
        return self._leases, payload

    def lease_priority(self) -> int | None:
        """The priority of the entry :meth:`lease` would return next."""
        return -self._priorities[0] if self._priorities else None

    def ack(self, entry: int, failed: str | None = None) -> None:
        self._leased = max(0, self._leased - 1)

    def __len__(self) -> int:
        return self._pending

    @property
    def leased(self) -> int:
        return self._leased

    def commit(self) -> None:
        pass

    def close(self) -> None:
        self._queues.clear()
        self._priorities.clear()
        self._pending = self._leased = 0


class SpillFile:
    """A FIFO of pickled payloads in one append-only file (a length, then the
    pickle, per record); read back in order, emptied when read to its end."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._file = path.open("w+b")
        self._read_at = 0
        self.count = 0

    def append(self, payload: Any) -> None:
        data = pickle.dumps(payload, protocol=pickle.HIGHEST_PROTOCOL)
        end = self._file.seek(0, os.SEEK_END)
        try:
            self._file.write(len(data).to_bytes(4, "little") + data)
            self._file.flush()
        except OSError:  # a full disk: no half record stays behind
            self._file.seek(end)
            self._file.truncate()
            raise
        self.count += 1

    def take(self, limit: int) -> list[Any]:
        """Up to ``limit`` payloads, the oldest first."""
        out: list[Any] = []
        self._file.seek(self._read_at)
        while self.count and len(out) < limit:
            size = int.from_bytes(self._file.read(4), "little")
            out.append(pickle.loads(self._file.read(size)))
            self.count -= 1
        self._read_at = self._file.tell()
        if not self.count:  # read to its end: start again from an empty file
            self._file.seek(0)
            self._file.truncate()
            self._read_at = 0
        return out

    def close(self) -> None:
        self._file.close()
        self.path.unlink(missing_ok=True)


class SpillingFrontier(MemoryFrontier):
    """A :class:`MemoryFrontier` that keeps at most ``limit`` payloads in memory:
    past it, new ones go to a file per priority in ``folder`` (a fresh temporary
    folder in it, removed at close), and come back in batches, in order, when
    the ones in memory before them are leased. The order is the same as without
    a limit: within a priority, once some of it is on disk, the newer ones go
    to disk behind them. A payload that cannot be pickled (a whole request)
    stays in memory."""

    def __init__(self, limit: int, folder: str | None = None) -> None:
        super().__init__()
        self.limit = limit
        self._root = folder
        self._folder: Path | None = None
        self._spills: dict[int, SpillFile] = {}
        self._in_memory = 0
        self.spilled = 0  # payloads written to disk in all
        self.refilled = 0  # payloads read back
        self.kept = 0  # payloads past the bound kept in memory (not picklable, disk full)

    @property
    def on_disk(self) -> int:
        return sum(spill.count for spill in self._spills.values())

    def _spill(self, priority: int) -> SpillFile:
        spill = self._spills.get(priority)
        if spill is None:
            if self._folder is None:
                self._folder = Path(tempfile.mkdtemp(prefix="webrobot-frontier-", dir=self._root))
            spill = self._spills[priority] = SpillFile(self._folder / f"{priority}.spill")
        return spill

    def push(self, priority: int, payload: Any, key: bytes | None = None) -> int:
        spill = self._spills.get(priority)
        if (spill is not None and spill.count) or (0 < self.limit <= self._in_memory):
            try:
                self._spill(priority).append(payload)
            except (pickle.PicklingError, TypeError, AttributeError, OSError):
                self.kept += 1  # not picklable, or the disk is full: kept in memory below
            else:
                self.spilled += 1
                if priority not in self._queues:  # its first entry is on disk
                    self._queues[priority] = deque()
                    bisect.insort(self._priorities, -priority)
                self._pending += 1
                return self._pending
        self._in_memory += 1
        return super().push(priority, payload, key)

    def lease(self) -> tuple[int, Any] | None:
        if not self._pending:
            return None
        priority = -self._priorities[0]
        queue = self._queues[priority]
        spill = self._spills.get(priority)
        if not queue and spill is not None and spill.count:
            batch = spill.take(max(1, min(self.limit // 4 or 10_000, 10_000)))
            queue.extend(batch)
            self.refilled += len(batch)
            self._in_memory += len(batch)
        leased = super().lease()
        if leased is not None:
            self._in_memory -= 1
        if spill is not None and spill.count and priority not in self._queues:
            # its memory part is empty but more waits on disk: keep the priority
            self._queues[priority] = deque()
            bisect.insort(self._priorities, -priority)
        return leased

    def close(self) -> None:
        super().close()
        for spill in self._spills.values():
            spill.close()
        self._spills.clear()
        self._in_memory = 0
        if self._folder is not None:
            shutil.rmtree(self._folder, ignore_errors=True)
            self._folder = None


#: ``WEBROBOT_FRONTIER`` values.
FRONTIER_MODES = ("auto", "memory", "sqlite")


def resolve_mode(setting: str, jobdir: str | None) -> str:
    """``"memory"`` or ``"sqlite"``: ``"auto"`` is ``"sqlite"`` exactly when there is a job directory."""
    mode = setting.strip().lower() or "auto"
    if mode not in FRONTIER_MODES:
        raise ValueError(
            f"setting WEBROBOT_FRONTIER: expected one of {', '.join(FRONTIER_MODES)}, got {setting!r}"
        )
    if mode == "auto":
        return "sqlite" if jobdir else "memory"
    if mode == "sqlite" and not jobdir:
        raise ValueError("setting WEBROBOT_FRONTIER: 'sqlite' needs a JOBDIR to keep its file in")
    return mode
