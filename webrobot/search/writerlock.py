"""Who holds an index's writer lock, and whether that lock is stale (no Scrapy here).

tantivy keeps one writer per index with an advisory lock on
``.tantivy-writer.lock``; the kernel drops the lock when its holder dies. Next to
it the writer records who it is (:data:`OWNER`: pid, the process's start time and
its parent), and removes the record when it closes cleanly. So a new writer can
tell, in one line:

* a record whose process is gone (or whose pid now names another process): the
  lock was left by a dead process, it is stale and is taken over;
* a lock still held by a live writer whose crawl has died (an *orphan*, as an
  older release could leave behind): it is asked to finish (SIGTERM: it commits
  what it has and exits), and, if it has not within a deadline, killed; its
  spool stays on disk, so nothing it had been handed is lost;
* a lock held by a live writer whose crawl is alive: a real second writer,
  refused.
"""

from __future__ import annotations

import json
import os
import signal
import time
from dataclasses import dataclass
from pathlib import Path

#: The writer's record, in the index folder.
OWNER = ".webrobot-writer.json"


@dataclass(frozen=True)
class Owner:
    pid: int
    start: str  # the process's start time, in clock ticks since boot (/proc/PID/stat)
    parent: int
    parent_start: str


def process_start(pid: int) -> str | None:
    """The start time of process ``pid`` (to tell it from a later one with the same
    pid), or None when there is no such process (or it is a zombie)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    fields = stat.rsplit(")", 1)[1].split()
    if fields[0] in ("Z", "X"):  # exited, waiting for its parent to reap it
        return None
    return fields[19]


def parent_of(pid: int) -> int | None:
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    return int(stat.rsplit(")", 1)[1].split()[1])


def record(folder: Path) -> None:
    """Say that this process now holds the writer lock of the index in ``folder``."""
    pid, parent = os.getpid(), os.getppid()
    owner = {
        "pid": pid,
        "start": process_start(pid) or "",
        "parent": parent,
        "parent_start": process_start(parent) or "",
    }
    tmp = folder / (OWNER + ".tmp")
    tmp.write_text(json.dumps(owner))
    tmp.replace(folder / OWNER)


def release(folder: Path) -> None:
    (folder / OWNER).unlink(missing_ok=True)


def read(folder: Path) -> Owner | None:
    try:
        data = json.loads((folder / OWNER).read_text())
        return Owner(int(data["pid"]), str(data["start"]), int(data["parent"]),
                     str(data["parent_start"]))  # fmt: skip
    except (OSError, ValueError, KeyError, TypeError):
        return None


def alive(pid: int, start: str) -> bool:
    """Whether ``pid`` still names the process that started at ``start``."""
    now = process_start(pid)
    return now is not None and (not start or now == start)


def stale(folder: Path) -> Owner | None:
    """The record of a writer that died without closing (its lock is stale), if any."""
    owner = read(folder)
    if owner is None or owner.pid == os.getpid() or alive(owner.pid, owner.start):
        return None
    return owner


def orphan(folder: Path) -> Owner | None:
    """The record of a live writer whose crawl has died, if any."""
    owner = read(folder)
    if owner is None or owner.pid == os.getpid() or not alive(owner.pid, owner.start):
        return None
    if parent_of(owner.pid) == owner.parent and alive(owner.parent, owner.parent_start):
        return None  # its crawl is alive: a real second writer
    return owner


def end_orphan(owner: Owner, grace: float = 60.0) -> None:
    """Ask an orphaned writer to finish, then kill it if it has not within ``grace`` s."""
    for sig, wait in ((signal.SIGTERM, grace), (signal.SIGKILL, 10.0)):
        try:
            os.kill(owner.pid, sig)
        except ProcessLookupError:
            return
        deadline = time.monotonic() + wait
        while time.monotonic() < deadline:
            if not alive(owner.pid, owner.start):
                return
            time.sleep(0.05)
