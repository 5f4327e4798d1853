"""The thread that delivers what waits in a monitor folder: the webhook's events, the
digests of :mod:`webrobot.monitor.notify`.

A daemon thread opens the folder's queue (its own SQLite connection), sends what is
due, oldest first, and sleeps until the next try or until woken; a failed try is due
again after :func:`backoff`. Closing gives it a last ``wait`` seconds; what is left
stays in the folder for the next crawl. What to send and how is the subclass's.
"""

from __future__ import annotations

import logging
import threading
import time
from abc import ABC, abstractmethod
from collections.abc import Callable
from pathlib import Path
from typing import Generic, Protocol, TypeVar

logger = logging.getLogger(__name__)

FIRST_WAIT = 1.0


def backoff(attempts: int, ceiling: float) -> float:
    """Seconds to wait after the ``attempts``-th failure (1, 2, 4... up to ``ceiling``)."""
    return float(min(ceiling, FIRST_WAIT * 2 ** max(0, attempts - 1)))


class Queue(Protocol):
    """What the thread asks of a folder's queue."""

    def waiting(self) -> int: ...
    def next_try(self) -> float | None: ...
    def close(self) -> None: ...


Q = TypeVar("Q", bound=Queue)


class DeliveryThread(ABC, Generic[Q]):
    """One crawl's delivery thread; subclasses say what to open and how to send."""

    #: the thread's name, and what waits, for the log
    name = "webrobot-delivery"
    what = "deliveries"

    def __init__(
        self, folder: str | Path, *, ceiling: float = 300.0,
        count: Callable[[str], None] | None = None,
    ) -> None:  # fmt: skip
        self.folder = Path(folder)
        self.ceiling = ceiling
        self.count = count or (lambda key: None)
        self._wake = threading.Event()
        self._drain_until: float | None = None
        self._thread = threading.Thread(target=self._run, name=self.name, daemon=True)
        self._failing = False
        self.left = 0

    def start(self) -> None:
        self._thread.start()

    def wake(self) -> None:
        """More is waiting in the folder."""
        self._wake.set()

    def close(self, wait: float) -> int:
        """Deliver for at most ``wait`` more seconds, then stop; returns what is left
        (-1 when the thread failed)."""
        self._drain_until = time.monotonic() + wait
        self._wake.set()
        self._thread.join(max(0.0, wait) + self.join_margin())
        return self.left

    def join_margin(self) -> float:
        """Seconds one send in progress may still take when the wait is over."""
        return 1.0

    def draining_over(self) -> bool:
        return self._drain_until is not None and time.monotonic() >= self._drain_until

    @abstractmethod
    def _open(self) -> Q:
        """The queue, opened in the delivery thread (its own connection)."""

    @abstractmethod
    def _send_due(self, queue: Q) -> bool:
        """Send what is due; True when anything was delivered."""

    def _run(self) -> None:
        queue = self._open()
        try:
            while True:
                draining = self._drain_until is not None
                if self.draining_over():
                    break
                sent_any = self._send_due(queue)
                if draining and not queue.waiting():
                    break
                if sent_any:
                    continue
                next_try = queue.next_try()
                pause = 1.0 if next_try is None else max(0.05, min(1.0, next_try - time.time()))
                if draining:
                    pause = min(pause, max(0.0, (self._drain_until or 0) - time.monotonic()))
                self._wake.wait(pause)
                self._wake.clear()
            self.left = queue.waiting()
        except Exception:  # the thread's last resort: its end logged, never silent
            logger.exception(
                "The %s thread stopped; %s wait in %s", self.name, self.what, self.folder
            )
            self.left = -1
        finally:
            queue.close()
