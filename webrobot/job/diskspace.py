"""When the disk runs out: the disk guard's decisions (no Scrapy, no I/O).

The guard (:mod:`webrobot.resources.diskguard`) reads the free space of every
folder the crawl writes, on a timer, and gives each reading to a
:class:`DiskWatch`, which says what to do:

``pause``
    a folder's free space fell below the threshold: no new request starts;
``resume``
    every folder has enough again: the crawl goes on;
``give_up``
    the crawl has been paused for longer than the timeout: close it
    (finish reason :data:`FINISH_REASON`).

The threshold is an absolute floor (``min_free_bytes``) and, optionally, a
share of the file system's size (``min_free_fraction``): a folder is low when
its free space is below either. As in Heritrix's ``DiskSpaceMonitor``, space
is what an unprivileged process may use (``f_bavail``), not what root could.

:func:`is_disk_error` tells a write that failed for want of space or because
the device failed (``ENOSPC``, ``EDQUOT``, ``EIO``, and the same errors as
SQLite and the index library word them) from any other error.
"""

from __future__ import annotations

import errno
from dataclasses import dataclass, field

#: The finish reason of a crawl closed because a folder it writes is full.
FINISH_REASON = "disk_full"
#: errno values of a write that failed for want of space or a failing device.
DISK_ERRNOS = frozenset({errno.ENOSPC, errno.EDQUOT, errno.EIO, errno.EFBIG})
#: How libraries that do not raise OSError word the same errors (lower case).
DISK_MESSAGES = (
    "database or disk is full",  # SQLite's SQLITE_FULL
    "disk i/o error",  # SQLite's SQLITE_IOERR
    "no space left on device",  # strerror(ENOSPC), as Rust's io::Error prints it
    "disk quota exceeded",  # strerror(EDQUOT)
    "input/output error",  # strerror(EIO)
)
MB = 1024 * 1024


def is_disk_error(exc: BaseException | None) -> bool:
    """Did ``exc`` (or an exception it was raised from) fail for want of disk space
    or because the device failed?"""
    seen = 0
    while exc is not None and seen < 8:
        number = getattr(exc, "errno", None)
        if isinstance(number, int) and number in DISK_ERRNOS:
            return True
        text = str(exc).lower()
        if any(message in text for message in DISK_MESSAGES):
            return True
        exc = exc.__cause__ or exc.__context__
        seen += 1
    return False


def describe_error(exc: BaseException) -> str:
    """``No space left on device`` rather than ``[Errno 28] No space left on device: '/x'``."""
    strerror = getattr(exc, "strerror", None)
    if isinstance(strerror, str) and strerror:
        return strerror
    return str(exc) or type(exc).__name__


def megabytes(n: float) -> str:
    return f"{n / MB:.1f} MB" if n < 10 * MB else f"{n / MB:.0f} MB"


@dataclass(frozen=True, slots=True)
class Reading:
    """One folder's free space: ``free`` bytes usable of ``total``."""

    folder: str
    free: int
    total: int


@dataclass(frozen=True, slots=True)
class Threshold:
    min_free_bytes: int = 500 * MB
    min_free_fraction: float = 0.0

    def floor(self, total: int) -> int:
        """The free bytes a file system of ``total`` bytes must keep."""
        return max(self.min_free_bytes, int(self.min_free_fraction * total))

    def low(self, reading: Reading) -> bool:
        return reading.free < self.floor(reading.total)

    def text(self, total: int) -> str:
        if self.min_free_fraction and self.floor(total) > self.min_free_bytes:
            return f"{megabytes(self.floor(total))} ({self.min_free_fraction:.1%} of the disk)"
        return megabytes(self.floor(total))


@dataclass(frozen=True, slots=True)
class Decision:
    action: str  # "pause", "resume", "give_up" or "" (nothing changes)
    reading: Reading | None = None  # the low folder (pause, give_up)
    paused_for: float = 0.0  # seconds the crawl was paused (resume, give_up)


@dataclass
class DiskWatch:
    """The guard's state: paused or not, since when, how often (see module doc)."""

    threshold: Threshold = field(default_factory=Threshold)
    timeout: float = 600.0  # seconds paused before giving up (0: never)
    paused_since: float | None = None
    pauses: int = 0
    paused_seconds: float = 0.0  # finished pauses
    low: Reading | None = None  # the folder that caused the current pause

    @property
    def paused(self) -> bool:
        return self.paused_since is not None

    def check(self, readings: list[Reading], now: float) -> Decision:
        low = next((r for r in readings if self.threshold.low(r)), None)
        if self.paused_since is None:
            if low is None:
                return Decision("")
            self.paused_since, self.low = now, low
            self.pauses += 1
            return Decision("pause", low)
        waited = now - self.paused_since
        if low is None:
            self.paused_seconds += waited
            self.paused_since = self.low = None
            return Decision("resume", None, waited)
        self.low = low
        if self.timeout > 0 and waited >= self.timeout:
            return Decision("give_up", low, waited)
        return Decision("")

    def total_paused(self, now: float) -> float:
        """Seconds paused so far, the current pause included."""
        current = now - self.paused_since if self.paused_since is not None else 0.0
        return self.paused_seconds + current

    def pause_message(self, reading: Reading) -> str:
        return (
            f"Low disk space in {reading.folder}: {megabytes(reading.free)} free, below the "
            f"threshold of {self.threshold.text(reading.total)} (WEBROBOT_DISK_MIN_FREE_MB, "
            f"WEBROBOT_DISK_MIN_FREE_FRACTION): no new request starts until space is freed"
            + (f"; closing after {self.timeout:g} s" if self.timeout > 0 else "")
        )

    def give_up_message(self, reading: Reading, waited: float) -> str:
        return (
            f"Disk space in {reading.folder} still low after {waited:.0f} s "
            f"({megabytes(reading.free)} free, threshold {self.threshold.text(reading.total)}; "
            f"WEBROBOT_DISK_FULL_TIMEOUT={self.timeout:g}): closing the crawl ({FINISH_REASON})"
        )
