"""What a webhook receiver's answer means for the event it was about.

Pure: no Scrapy, no I/O. A 2xx takes the event. A 4xx says the request itself is
wrong, so sending the same event again gets the same answer: the event becomes a
*dead letter*, set aside so the events behind it are not held for ever. The
exceptions say "later": 408 (Request Timeout), 425 (Too Early) and 429 (Too Many
Requests). Everything else (no answer, a redirect, a 5xx) is a failure of the
moment, tried again with backoff.
"""

from __future__ import annotations

from enum import Enum

#: 4xx answers that say "try again later", not "never".
LATER = frozenset({408, 425, 429})


class Outcome(Enum):
    DELIVERED = "delivered"
    RETRY = "retry"
    DEAD_LETTER = "dead_letter"


def outcome(status: int | None) -> Outcome:
    """The answer's meaning; ``None`` is no answer (refused, reset, timed out)."""
    if status is None:
        return Outcome.RETRY
    if 200 <= status < 300:
        return Outcome.DELIVERED
    if 400 <= status < 500 and status not in LATER:
        return Outcome.DEAD_LETTER
    return Outcome.RETRY
