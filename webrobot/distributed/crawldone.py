"""When a worker of a shared crawl may close: done means done for everyone.

A worker with nothing to do does not close while the shared frontier holds
requests or any worker holds a lease (other workers' pages may still add
links); it closes when the crawl has had neither for ``WEBROBOT_REDIS_IDLE_CLOSE``
seconds (0: never, it waits for seeds). The scheduler says what it sees at
each ``spider_idle``; the clock is given, so this is tested without waiting.
"""

from __future__ import annotations


class CrawlDone:
    def __init__(self, idle_close: float) -> None:
        self.idle_close = idle_close
        self._since: float | None = None  # when the crawl was first seen with no work

    def done_for(self, *, work: bool, now: float) -> float | None:
        """Seconds the whole crawl has been done, once that is ``idle_close`` or more;
        None while this worker must wait. ``work``: something is queued or leased in the
        crawl, or in this worker's hands (the done time starts again after it)."""
        if work:
            self._since = None
            return None
        if self.idle_close <= 0:
            return None  # wait for more seeds, forever
        if self._since is None:
            self._since = now
        done = now - self._since
        return done if done >= self.idle_close else None
