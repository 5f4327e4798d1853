"""Webhook delivery: each event POSTed as JSON, at least once, off the crawl's thread.

A daemon thread takes the due events from the outbox (the monitor's SQLite file),
POSTs each with an ``Idempotency-Key`` header (the event's ``id``) and marks it
delivered on a 2xx answer. A 4xx other than 408, 425 and 429 refuses the event for
good: it goes to the dead letters (``dead-letters.jsonl`` beside the outbox, or a
shared crawl's list in Redis), logged and counted, and the events behind it go on.
Anything else (a refused connection, a time-out, a redirect, a 5xx, a 408, 425 or
429) is tried again later, the wait doubling from 1 s up to a ceiling, the events
behind it waiting to keep the order; after ``retries`` tries the event is *parked*
(out of the queue, kept in the store, logged and counted) and the events behind it
go on, so one event the receiver chokes on stalls nothing; ``scrapy
webrobot-replay`` puts the parked events back in the queue. What an answer means is
:mod:`webrobot.monitor.answers`. Events not delivered when the crawl closes stay in
the outbox: the next crawl with the same folder sends them first.
"""

from __future__ import annotations

import logging
import time
import urllib.error
import urllib.request
from collections.abc import Callable
from pathlib import Path

from webrobot.monitor.answers import Outcome, outcome
from webrobot.monitor.delivery import DeliveryThread, backoff
from webrobot.monitor.outbox import EventOutbox, Outbox, Pending

__all__ = ["WebhookSender", "backoff"]

logger = logging.getLogger(__name__)


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    """A redirect is a failed try: urllib would follow a 301, 302 or 303 to a POST as a
    GET without the event, and take that page's 200 for a delivery."""

    def redirect_request(self, *args: object, **kwargs: object) -> None:
        return None


_OPENER = urllib.request.build_opener(_NoRedirect)


class WebhookSender(DeliveryThread[EventOutbox]):
    """The webhook's delivery thread of one crawl."""

    name = "webrobot-webhook"
    what = "events"

    def __init__(
        self, folder: str | Path, url: str, *, timeout: float = 10.0, ceiling: float = 300.0,
        user_agent: str = "webrobot", count: Callable[[str], None] | None = None,
        outbox: Callable[[], EventOutbox] | None = None, retries: int = 0,
    ) -> None:  # fmt: skip
        """``outbox`` opens the outbox in the delivery thread (default: the folder's; a
        shared crawl's is in Redis); ``retries`` tries of a failing event before it is
        parked (0: never)."""
        super().__init__(folder, ceiling=ceiling, count=count)
        self.open_outbox: Callable[[], EventOutbox] = outbox or (lambda: Outbox(self.folder))
        self.url = url
        self.timeout = timeout
        self.user_agent = user_agent
        self.retries = retries
        self._parked_told = False

    def join_margin(self) -> float:
        return self.timeout + 1

    def _open(self) -> EventOutbox:
        return self.open_outbox()

    def _send_due(self, outbox: EventOutbox) -> bool:
        sent_any = False
        for pending in outbox.due(time.time()):
            if self.draining_over():
                break
            status, problem = self._post(pending)
            answer = outcome(status)
            if answer is Outcome.DELIVERED:
                outbox.delivered(pending.seq)
                self.count("webrobot/monitor/webhook/delivered")
                sent_any = True
                self._taken()
            elif answer is Outcome.DEAD_LETTER:
                try:
                    where = outbox.dead(pending)
                except OSError as exc:  # the dead letters cannot be written: keep it, in order
                    logger.error("The monitor's webhook %s refused event %s for good (status "
                                 "%s), and it cannot be set aside: %s; trying again later",
                                 self.url, pending.id, status, exc)  # fmt: skip
                    self.count("webrobot/monitor/webhook/failed")
                    outbox.failed(pending.seq, time.time() + self.ceiling)
                    break
                self.count("webrobot/monitor/webhook/dead_letter")
                logger.error(
                    "The monitor's webhook %s refused event %s for good (status %s); "
                    "it is set aside in %s and the events after it go on",
                    self.url, pending.id, status, where,
                )  # fmt: skip
                sent_any = True  # the next ones are due now
                self._taken()
            else:
                self.count("webrobot/monitor/webhook/failed")
                if not self._failing:
                    logger.warning(
                        "The monitor's webhook %s refused an event (%s); trying again later",
                        self.url, problem,
                    )  # fmt: skip
                    self._failing = True
                if self.retries and pending.attempts + 1 >= self.retries:
                    self._park(outbox, pending, problem)
                    sent_any = True  # the next ones are due now
                    continue
                outbox.failed(
                    pending.seq, time.time() + backoff(pending.attempts + 1, self.ceiling)
                )
                break  # keep the order: the next ones wait for this one's next try
        return sent_any

    def _park(self, outbox: EventOutbox, pending: Pending, problem: str) -> None:
        """The event failed its last try: set it aside so the events behind it go on."""
        outbox.park(pending, problem, time.time())
        self.count("webrobot/monitor/webhook/parked")
        if not self._parked_told:
            logger.warning(
                "The monitor's webhook %s failed event %s %d times (%s); it is parked and the "
                "events after it go on: scrapy webrobot-replay sends the parked events again",
                self.url, pending.id, pending.attempts + 1, problem,
            )  # fmt: skip
            self._parked_told = True

    def _taken(self) -> None:
        """The receiver answered an event for good: it is back, if it was failing."""
        if self._failing:
            logger.info("The monitor's webhook %s takes events again", self.url)
            self._failing = False

    def _post(self, pending: Pending) -> tuple[int | None, str]:
        """The receiver's status (None: no answer) and what went wrong, for the log."""
        request = urllib.request.Request(
            self.url, data=pending.body.encode("utf-8"), method="POST",
            headers={"Content-Type": "application/json", "Idempotency-Key": pending.id,
                     "User-Agent": self.user_agent},
        )  # fmt: skip
        try:
            with _OPENER.open(request, timeout=self.timeout) as answer:
                answer.read(65536)
                return int(answer.status), f"status {answer.status}"
        except urllib.error.HTTPError as exc:
            return int(exc.code), f"status {exc.code}"
        except (OSError, ValueError) as exc:
            return None, str(getattr(exc, "reason", exc))
