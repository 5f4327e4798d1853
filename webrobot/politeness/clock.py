"""Each site's next allowed request time, from every source that slows it down.

Pure logic: :class:`webrobot.politeness.downloader.SiteDownloader` asks :meth:`reserve`
before starting each request of a site, and reports responses and robots.txt
delays; nothing here knows about Scrapy. The sources, the largest of which
wins:

``download_delay`` / ``autothrottle``
    the slot's delay (``DOWNLOAD_DELAY``, a ``DOWNLOAD_SLOTS`` entry, or what
    AutoThrottle made of it), passed in by the downloader;
``crawl_delay`` / ``request_rate``
    from the site's robots.txt (already capped by the robots middleware);
``backoff``
    while a site keeps failing (429, any 5xx, or no answer at all: a network
    error, reported as status 0), the interval doubles from ``backoff_base``
    up to ``backoff_max``, stretched by a random share of up to ``jitter``
    (drawn once per failure, so that sites, and workers, that failed together
    do not come back in step); any other answer resets it;
``retry_after``
    a failing page's ``Retry-After`` (capped by ``retry_after_max``): no
    request to the site starts before it has passed.

The class is named by ``WEBROBOT_POLITENESS_CLASS`` so that many worker
processes can share one reservation per site (a Redis-backed version, say).
The interface is ``from_crawler(crawler)`` plus the three methods of
:class:`Politeness`. ``now`` is the caller's monotonic clock; a shared
implementation may use its own clock instead. It may also have a
``finished(site)`` method, which the downloader then calls when each download
that ``reserve`` let start has ended (the shared implementation uses it to keep
requests of several workers to one site from overlapping), and a
``departed(site, now)`` method, which it calls on the reactor's next turn after
each start: about when the request was written. A process busy between the
reservation and the send (a slow callback, a blocking call) sends the request
late; the interval then counts from when it left, as the site saw it.
"""

from __future__ import annotations

import math
import random as _random
from collections import OrderedDict
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

from webrobot.settingsmodel.parse import read

if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Self

    from scrapy.crawler import Crawler

#: Statuses that slow the whole site down: 429, every 5xx, and 0 (no response: a network error).
THROTTLE_STATUSES = frozenset({0, 429, *range(500, 600)})
#: The status reported for a download that got no response (connection refused, timeout...).
NO_RESPONSE = 0
DEFAULT_MAX_SITES = 100_000


class Politeness(Protocol):
    def set_robots_delay(self, site: str, seconds: float | None, source: str | None) -> None:
        """The interval robots.txt asks for (None: none); replaces the previous one."""

    def note_response(self, site: str, status: int, retry_after: float | None, now: float) -> None:
        """A response of the site arrived (``retry_after`` in seconds, or None)."""

    def reserve(
        self, site: str, base_delay: float, base_source: str, now: float
    ) -> tuple[float, str]:
        """Ask to start a request now.

        Returns ``(0, source)`` and records the start when it may start, else
        ``(seconds to wait, source)`` and records nothing. ``source`` names
        what set the time (one of the sources above).
        """
        ...


@dataclass
class _Site:
    last_start: float = -math.inf
    robots_delay: float = 0.0
    robots_source: str = "crawl_delay"
    penalty_until: float = -math.inf
    strikes: int = 0
    jitter: float = 0.0  # this strike's stretch of the backoff, 0 to the policy's jitter


class SitePoliteness:
    """In-process reservations for up to ``max_sites`` sites (least recently used forgotten)."""

    def __init__(
        self,
        *,
        retry_after_max: float = 600.0,
        backoff_base: float = 1.0,
        backoff_max: float = 60.0,
        max_sites: int = DEFAULT_MAX_SITES,
        jitter: float = 0.0,
        random: Callable[[], float] = _random.random,
    ) -> None:
        self.retry_after_max = retry_after_max
        self.backoff_base = backoff_base
        self.backoff_max = backoff_max
        self.jitter = max(0.0, jitter)
        self._random = random
        self.max_sites = max_sites
        self._sites: OrderedDict[str, _Site] = OrderedDict()

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> Self:
        settings = crawler.settings
        return cls(
            retry_after_max=read(settings, "WEBROBOT_POLITENESS_RETRY_AFTER_MAX"),
            backoff_base=read(settings, "WEBROBOT_POLITENESS_BACKOFF_BASE"),
            backoff_max=read(settings, "WEBROBOT_POLITENESS_BACKOFF_MAX"),
            max_sites=read(settings, "WEBROBOT_POLITENESS_SITES"),
            jitter=read(settings, "WEBROBOT_POLITENESS_BACKOFF_JITTER"),
        )

    def _site(self, site: str) -> _Site:
        state = self._sites.get(site)
        if state is None:
            state = self._sites[site] = _Site()
            if self.max_sites > 0 and len(self._sites) > self.max_sites:
                self._sites.popitem(last=False)
        else:
            self._sites.move_to_end(site)
        return state

    def set_robots_delay(self, site: str, seconds: float | None, source: str | None) -> None:
        state = self._site(site)
        state.robots_delay = max(0.0, seconds or 0.0)
        state.robots_source = source or "crawl_delay"

    def note_response(self, site: str, status: int, retry_after: float | None, now: float) -> None:
        state = self._site(site)
        if status not in THROTTLE_STATUSES:
            state.strikes = 0
            return
        state.strikes += 1
        state.jitter = self.jitter * self._random() if self.jitter else 0.0
        if retry_after is not None and retry_after > 0:
            wait = (
                min(retry_after, self.retry_after_max) if self.retry_after_max > 0 else retry_after
            )
            state.penalty_until = max(state.penalty_until, now + wait)

    def interval(self, site: str, base_delay: float, base_source: str) -> tuple[float, str]:
        """The minimum time between two request starts of the site, and its source."""
        state = self._site(site)
        interval, source = base_delay, base_source
        if state.robots_delay > interval:
            interval, source = state.robots_delay, state.robots_source
        if state.strikes:
            backoff = self.backoff_base * 2.0 ** min(state.strikes - 1, 62) * (1.0 + state.jitter)
            if self.backoff_max > 0:
                backoff = min(backoff, self.backoff_max)
            if backoff > interval:
                interval, source = backoff, "backoff"
        return interval, source

    def reserve(
        self, site: str, base_delay: float, base_source: str, now: float
    ) -> tuple[float, str]:
        interval, source = self.interval(site, base_delay, base_source)
        state = self._sites[site]
        start_at = state.last_start + interval
        if state.penalty_until > start_at:
            start_at, source = state.penalty_until, "retry_after"
        wait = start_at - now
        if wait > 0:
            return wait, source
        state.last_start = now
        return 0.0, source

    def departed(self, site: str, now: float) -> None:
        """A request of ``site`` that :meth:`reserve` let start left at ``now``."""
        state = self._sites.get(site)
        if state is not None and now > state.last_start:
            state.last_start = now

    def __len__(self) -> int:
        return len(self._sites)
