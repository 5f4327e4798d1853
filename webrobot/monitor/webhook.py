"""Webhook delivery: each event POSTed as JSON, at least once, off the crawl's thread.

A daemon thread takes the due events from the outbox (the monitor's SQLite file),
POSTs each with an ``Idempotency-Key`` header (the event's ``id``) and marks it
delivered on a 2xx answer. Anything else (a refused connection, a time-out, a 5xx,
a 4xx) is tried again later, the wait doubling from 1 s up to a ceiling. Events
not delivered when the crawl closes stay in the outbox: the next crawl with the
same folder sends them first.
"""

from __future__ import annotations

import logging
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Callable
from pathlib import Path

from webrobot.monitor.store import EventOutbox, Outbox, Pending

logger = logging.getLogger(__name__)

FIRST_WAIT = 1.0


def backoff(attempts: int, ceiling: float) -> float:
    """Seconds to wait after the ``attempts``-th failure (1, 2, 4... up to ``ceiling``)."""
    return float(min(ceiling, FIRST_WAIT * 2 ** max(0, attempts - 1)))


class WebhookSender:
    """The delivery thread of one crawl."""

    def __init__(
        self, folder: str | Path, url: str, *, timeout: float = 10.0, ceiling: float = 300.0,
        user_agent: str = "webrobot", count: Callable[[str], None] | None = None,
        outbox: Callable[[], EventOutbox] | None = None,
    ) -> None:  # fmt: skip
        """``outbox`` opens the outbox in the delivery thread (default: the folder's)."""
        self.folder = Path(folder)
        self.open_outbox: Callable[[], EventOutbox] = outbox or (lambda: Outbox(self.folder))
        self.url = url
        self.timeout = timeout
        self.ceiling = ceiling
        self.user_agent = user_agent
        self.count = count or (lambda key: None)
        self._wake = threading.Event()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="webrobot-webhook", daemon=True)
        self._failing = False
        self.left = 0

    def start(self) -> None:
        self._thread.start()

    def wake(self) -> None:
        """New events are in the outbox."""
        self._wake.set()

    def close(self, wait: float) -> int:
        """Deliver for at most ``wait`` more seconds, then stop; returns the events left."""
        deadline = time.monotonic() + wait
        self._drain_until = deadline
        self._wake.set()
        self._thread.join(max(0.0, wait) + self.timeout + 1)
        return self.left

    _drain_until: float | None = None

    def _run(self) -> None:
        outbox = self.open_outbox()
        try:
            while True:
                draining = self._drain_until is not None
                if draining and time.monotonic() >= (self._drain_until or 0):
                    break
                sent_any = self._send_due(outbox)
                waiting = outbox.waiting()
                if draining and not waiting:
                    break
                if sent_any:
                    continue
                next_try = outbox.next_try()
                pause = 1.0 if next_try is None else max(0.05, min(1.0, next_try - time.time()))
                if draining:
                    pause = min(pause, max(0.0, (self._drain_until or 0) - time.monotonic()))
                self._wake.wait(pause)
                self._wake.clear()
            self.left = outbox.waiting()
        except Exception:
            logger.exception(
                "The webhook's delivery thread stopped; events wait in %s", self.folder
            )
            self.left = -1
        finally:
            outbox.close()

    def _send_due(self, outbox: EventOutbox) -> bool:
        sent_any = False
        for pending in outbox.due(time.time()):
            if self._drain_until is not None and time.monotonic() >= self._drain_until:
                break
            if self._post(pending):
                outbox.delivered(pending.seq)
                self.count("webrobot/monitor/webhook/delivered")
                sent_any = True
                if self._failing:
                    logger.info("The monitor's webhook %s takes events again", self.url)
                    self._failing = False
            else:
                self.count("webrobot/monitor/webhook/failed")
                outbox.failed(
                    pending.seq, time.time() + backoff(pending.attempts + 1, self.ceiling)
                )
                break  # keep the order: the next ones wait for this one's next try
        return sent_any

    def _post(self, pending: Pending) -> bool:
        request = urllib.request.Request(
            self.url, data=pending.body.encode("utf-8"), method="POST",
            headers={"Content-Type": "application/json", "Idempotency-Key": pending.id,
                     "User-Agent": self.user_agent},
        )  # fmt: skip
        try:
            with urllib.request.urlopen(request, timeout=self.timeout) as answer:
                answer.read(65536)
                ok = 200 <= answer.status < 300
                problem = f"status {answer.status}"
        except urllib.error.HTTPError as exc:
            ok, problem = False, f"status {exc.code}"
        except (OSError, ValueError) as exc:
            ok, problem = False, str(getattr(exc, "reason", exc))
        if not ok and not self._failing:
            logger.warning(
                "The monitor's webhook %s refused an event (%s); trying again later",
                self.url,
                problem,
            )
            self._failing = True
        return ok
