"""Ctrl-C without waiting out the downloads: what the downloader does when the crawl stops.

Scrapy's graceful stop waits until every request the downloader holds is done: the
ones in flight (each up to ``DOWNLOAD_TIMEOUT``) and the ones queued in a site's slot,
which still go out one by one at the site's polite pace (36 s on a real blog at the
default pace). When the crawl is asked to stop (:meth:`LetGo.stop`, called by
``scrapy crawl`` at the first Ctrl-C or SIGTERM):

* every request queued in a slot, not started, is let go at once, and so is any that
  reaches a slot afterwards;
* the downloads in flight get ``WEBROBOT_SHUTDOWN_GRACE`` seconds to finish; those
  still running are then cancelled (their connection is closed);
* a request let go ends with :class:`DownloadLetGo` (an ``IgnoreRequest``), marked
  with the ``_webrobot_let_go`` meta key (the page budget gives its page back). With
  the crash-safe frontier (``JOBDIR``) it is first handed back to the scheduler, where
  it keeps its lease: the frontier keeps it for the next run, which fetches it. With
  Scrapy's own ``JOBDIR`` queues a copy is queued again (``dont_filter``), written to
  disk at close. Without ``JOBDIR`` nothing is kept, as nothing resumes. A request the
  engine downloads for a component (robots.txt, a requisite: Scrapy's
  ``NO_CALLBACK``) is not the frontier's and is only dropped.

Counted in ``webrobot/shutdown/let_go`` (and ``.../let_go/queued``,
``.../let_go/in_flight``).
"""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING, Any

from scrapy.exceptions import IgnoreRequest
from scrapy.http.request import NO_CALLBACK
from scrapy.utils.asyncio import is_asyncio_available

from webrobot.compat import call_later, fail_queued_downloads
from webrobot.frontier.scheduler import durable_frontier
from webrobot.settingsmodel.parse import read
from webrobot.signals import LET_GO_META

if TYPE_CHECKING:
    from collections.abc import Coroutine

    from scrapy import Request
    from scrapy.crawler import Crawler
    from scrapy.http import Response

logger = logging.getLogger(__name__)

STATS = "webrobot/shutdown/let_go"
#: Seconds between two looks at whether the engine has stopped taking requests.
ENGINE_STOP_POLL = 0.01


class DownloadLetGo(IgnoreRequest):
    """A download let go because the crawl is stopping (Ctrl-C, SIGTERM)."""


class LetGo:
    """The downloads of one downloader, each of which can be let go when the crawl stops."""

    def __init__(self, crawler: Crawler) -> None:
        self.crawler = crawler
        self.grace = float(read(crawler.settings, "WEBROBOT_SHUTDOWN_GRACE"))
        #: webrobot's crash-safe frontier keeps the request under its lease.
        self.hand_back = durable_frontier(crawler.settings)
        #: Another scheduler with ``JOBDIR`` (Scrapy's disk queues) gets it queued again.
        self.requeue = not self.hand_back and bool(crawler.settings.get("JOBDIR"))
        self.asked = False
        self.stopping = False
        self._tasks: dict[Request, asyncio.Future[Response]] = {}

    @property
    def in_flight(self) -> int:
        return len(self._tasks)

    async def download(self, coro: Coroutine[Any, Any, Response], request: Request) -> Response:
        """Run the download ``coro`` of ``request`` so that :meth:`stop` can cancel it."""
        if not is_asyncio_available():  # a Twisted reactor without asyncio: waited for
            return await coro
        task = asyncio.ensure_future(coro)
        self._tasks[request] = task
        try:
            return await task
        except asyncio.CancelledError:
            if self.stopping and task.cancelled():
                raise self.let_go(request, "in_flight") from None
            raise
        finally:
            self._tasks.pop(request, None)

    def let_go(self, request: Request, where: str) -> DownloadLetGo:
        """``request`` is let go: handed back to the frontier when it keeps a job; the
        error its download ends with."""
        stats = self.crawler.stats
        if stats is not None:
            stats.inc_value(STATS)
            stats.inc_value(f"{STATS}/{where}")
        engine = self.crawler.engine
        if request.callback is not NO_CALLBACK:
            if self.hand_back:
                # The same request object: the scheduler knows it by its lease and keeps it.
                engine.crawl(request)
            elif self.requeue:
                # Scrapy's JOBDIR queues: a copy its dupefilter lets in, written at close.
                engine.crawl(request.replace(dont_filter=True))
        request.meta[LET_GO_META] = True  # not fetched: what it spent is given back
        return DownloadLetGo(f"let go as the crawl stops: {request.url}")

    def stop(self) -> tuple[int, int]:
        """The crawl is asked to stop: let go of the queued requests as soon as the engine
        has stopped taking requests from the scheduler (a request handed back before
        that would go out again), of those in flight after the grace period. Returns
        how many are queued and how many are in flight now."""
        queued = sum(len(slot.queue) for slot in self._slots())
        if not self.asked:
            self.asked = True
            self._when_engine_stopped()
        return queued, self.in_flight

    def _slots(self) -> list[Any]:
        downloader = getattr(self.crawler.engine, "downloader", None)
        return list(getattr(downloader, "slots", {}).values())

    def _when_engine_stopped(self) -> None:
        if getattr(self.crawler.engine, "running", False):  # its stop starts on the next turn
            call_later(ENGINE_STOP_POLL, self._when_engine_stopped)
            return
        self.stopping = True
        self.fail_queued()
        if self.in_flight:
            call_later(self.grace, self._cancel_in_flight)

    def fail_queued(self) -> int:
        """Let go of every request waiting in a slot's queue (none started)."""
        return fail_queued_downloads(self.crawler.engine, lambda r: self.let_go(r, "queued"))

    def _cancel_in_flight(self) -> None:
        tasks = list(self._tasks.values())
        if tasks:
            logger.info("Letting go of %d downloads in flight (crawl stopping)", len(tasks))
        for task in tasks:
            task.cancel()
