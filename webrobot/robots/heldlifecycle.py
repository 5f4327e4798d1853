"""The robots.txt middleware's held requests over the crawl's life (Scrapy glue).

Requests wait, held per site, while their site's robots.txt is decided
(:mod:`webrobot.robots.held`). This part of
:class:`~webrobot.robots.middleware.RobotsMiddleware` deals with them when the
crawl opens, idles and closes: a resumed ``JOBDIR`` job schedules again what the
last run held; a crawl with nothing left but held requests closes after
``WEBROBOT_ROBOTS_HELD_ONLY_MAX`` (the held-only clock); report.json lists the
sites still held; at close the held requests are kept in ``JOBDIR`` for the next
run, or counted and said lost.
"""

from __future__ import annotations

import logging
import time
from typing import TYPE_CHECKING

from scrapy.exceptions import CloseSpider, DontCloseSpider

from webrobot import signals
from webrobot.robots.held import (
    GaveUpSites,
    HeldFile,
    HeldOnlyClock,
    PendingSite,
    count,
    duration,
    held_only_line,
    held_rows,
)
from webrobot.urls.sitekey import request_site

if TYPE_CHECKING:
    from collections.abc import Callable

    from scrapy.crawler import Crawler
    from scrapy.http import Request
    from scrapy.statscollectors import StatsCollector

    from webrobot.robots.policy import RobotsDecision

logger = logging.getLogger("webrobot.robots.middleware")  # one logger for the middleware

#: Close reason of a crawl that had nothing left but held requests for
#: ``WEBROBOT_ROBOTS_HELD_ONLY_MAX`` seconds.
HELD_ONLY = "held_sites_only"


class HeldRequestsLifeCycle:
    """The open, idle, close and report handlers of
    :class:`~webrobot.robots.middleware.RobotsMiddleware`, which sets the state below."""

    crawler: Crawler
    stats: StatsCollector
    pending: dict[str, PendingSite]
    held_file: HeldFile | None
    held_only: HeldOnlyClock
    gave_up: GaveUpSites
    hold_new: bool
    _closed: bool

    if TYPE_CHECKING:

        def _usable(
            self, site: str, lookup: Callable[[str], RobotsDecision | None] | None = None
        ) -> RobotsDecision | None: ...

    def _spider_opened(self) -> None:
        """A resumed ``JOBDIR`` job: schedule again what the last run still held."""
        if self.held_file is None:
            return
        requests = self.held_file.load(self.crawler.spider)
        if requests is None:
            return
        for request in requests:
            self.crawler.engine.crawl(request)
        self.stats.inc_value("webrobot/robots/held_resumed", len(requests))
        logger.info("Resumed %d requests held for robots.txt when the job stopped", len(requests))

    def _held_sites(self) -> list[PendingSite]:
        return [pending for pending in self.pending.values() if pending.held]

    def _spider_idle(self) -> None:
        held = self._held_sites()
        if not held:
            return
        now = time.monotonic()
        started, left = self.held_only.idle(now)
        if started:
            self.crawler.signals.send_catch_log(
                signal=signals.held_sites_only,
                sites=[pending.site for pending in held],
                closes_in=left,
                active=True,
            )
            if left is not None:
                logger.info(
                    "Nothing is left but requests held for %s whose robots.txt keeps "
                    "failing: the crawl closes in %s unless other work comes "
                    "(WEBROBOT_ROBOTS_HELD_ONLY_MAX)",
                    count(len(held), "site"), duration(left),
                )  # fmt: skip
        if left is None or left > 0:
            raise DontCloseSpider("requests are held until robots.txt answers")
        raise CloseSpider(HELD_ONLY)  # said in _spider_closed, if the crawl does close for it

    def _other_work(self, request: Request) -> None:
        """A request was scheduled while only held requests were left: unless it is
        about to be held itself, the crawl has work again and the clock stops."""
        site = request_site(request)
        pending = self.pending.get(site)
        if (
            pending is not None
            and self._usable(site) is None
            and (self.hold_new or request.meta.get("_robots_requeued", False))
        ):
            return
        if self.held_only.work():
            self.crawler.signals.send_catch_log(
                signal=signals.held_sites_only, sites=[], closes_in=None, active=False
            )

    def _report_part(self) -> dict[str, object]:
        """``held`` in report.json: the sites still held when the report is written."""
        return {"held": held_rows(self.pending.values(), time.monotonic())}

    def _spider_closed(self, reason: str = "") -> None:
        if reason == HELD_ONLY:
            sites = self._held_sites()
            message = held_only_line(
                sites, time.monotonic(), self.held_only.limit,
                kept=self.held_file is not None or not self.hold_new,
            )  # fmt: skip
            logger.warning("%s", message)
            self.stats.set_value("webrobot/robots/held_only_closed", message)
            self.stats.set_value("webrobot/robots/held_only_sites", len(sites))
        elif self.gave_up.sites:
            self.stats.set_value("webrobot/robots/gave_up_sites", self.gave_up.line())
        self._closed = True
        held: list[Request] = []
        for pending in self.pending.values():
            pending.cancel_timer()
            held += pending.held
            pending.held = []
            pending.wake(None)
        if not held:
            return
        self.stats.inc_value("webrobot/robots/held_at_close", len(held))
        # Not held at scheduling (a shared frontier): the frontier still leases them.
        shared_frontier = not self.hold_new
        keep = self.held_file is not None and not shared_frontier
        kept = self.held_file.save(held, self.crawler.spider) if keep and self.held_file else 0
        if kept:
            logger.info(
                "The spider closed with %d requests still held for robots.txt; %d kept in %s for "
                "the next run of the job", len(held), kept, self.held_file.path if self.held_file else "",
            )  # fmt: skip
        if kept < len(held):
            logger.warning(
                "The spider closed with %d requests still held for robots.txt%s",
                len(held) - kept, "" if shared_frontier else "; they are lost",
            )  # fmt: skip
