"""Where the robots middleware keeps one decision per site.

The class is named by ``WEBROBOT_ROBOTS_CACHE_CLASS``, so a crawl of many
worker processes can share decisions (a Redis-backed cache, say). The
interface is three methods:

``get(site) -> RobotsDecision | None``
    The decision cached for ``site`` (a :func:`webrobot.urls.sitekey.site_key`),
    fresh or expired, or None. Expired entries are returned on purpose: the
    middleware re-fetches and keeps the old rules while the re-fetch fails.
``put(site, decision)``
    Store (replace) the decision. A cache that serialises must store every
    field of :class:`~webrobot.robots.policy.RobotsDecision` except ``parser``,
    which the middleware rebuilds from ``body``.
``__len__()``
    How many sites are cached (for stats and tests).

and a ``from_crawler(crawler)`` class method. The in-process default below
keeps the ``WEBROBOT_ROBOTS_CACHE_SITES`` most recently used sites.

A cache that can answer from this process alone has ``peek(site)``
(:class:`PeekableRobotsCache`). A cache shared by several worker processes
also says who fetches (:class:`SharedRobotsCache`):

``claim(site) -> bool``
    True: this worker may fetch the site's robots.txt now; its claim lasts
    until it stores a decision for the site (``put``) or gives the claim up
    (``release``), and expires on its own if the worker dies. False: another worker holds the
    claim; look at ``get`` again after ``poll_interval`` seconds.
``claim(site, stale=True)``
    The claiming worker tells the others it obeys the site's expired decision
    while it retries a failed re-fetch (RFC 9309 stale use); ``stale=False``
    that it no longer does.
``stale_in_use(site) -> bool``
    Does the claiming worker obey the expired decision? Then the waiting
    workers do too.
``release(site)``
    Give a claim up without a decision.
``poll_interval``
    Seconds between two looks while another worker fetches.

and it may share a site's robots.txt deferral, so that a worker taking over
keeps the schedule of one that stopped (:class:`SharedDeferrals`: ``deferral``,
``note_deferral``).

These optional parts are :func:`~typing.runtime_checkable` protocols: the
middleware asks ``isinstance(cache, SharedRobotsCache)`` once, when it is built.
"""

from __future__ import annotations

from collections import OrderedDict
from typing import TYPE_CHECKING, Protocol, runtime_checkable

from webrobot.settingsmodel.parse import read

if TYPE_CHECKING:
    from typing import Self

    from scrapy.crawler import Crawler

    from webrobot.robots.policy import RobotsDecision

DEFAULT_MAX_SITES = 10_000


class RobotsCache(Protocol):
    def get(self, site: str) -> RobotsDecision | None: ...

    def put(self, site: str, decision: RobotsDecision) -> None: ...

    def __len__(self) -> int: ...


@runtime_checkable
class PeekableRobotsCache(RobotsCache, Protocol):
    """A cache that can answer from this process alone (optional: a page's links are
    then checked against a known decision before they are queued)."""

    def peek(self, site: str) -> RobotsDecision | None:
        """The decision this process holds for ``site`` (expired or not), with no I/O."""
        ...


@runtime_checkable
class SharedRobotsCache(RobotsCache, Protocol):
    """A cache shared by several workers: one fetches a site's robots.txt, the others wait."""

    poll_interval: float

    def claim(self, site: str, *, stale: bool | None = None) -> bool: ...

    def stale_in_use(self, site: str) -> bool: ...

    def release(self, site: str) -> None: ...


@runtime_checkable
class SharedDeferrals(Protocol):
    """A shared cache that also keeps each site's robots.txt deferral (optional: a
    worker that takes a site over then keeps the schedule of the one that stopped)."""

    def deferral(self, site: str) -> tuple[float, int, float] | None:
        """The site's shared robots.txt deferral: (first failure, attempts, next
        attempt), Unix times; None when no worker is deferring it."""
        ...

    def note_deferral(
        self, site: str, first_failure: float, attempts: int, next_attempt: float
    ) -> None: ...


class LruRobotsCache:
    """In-process, bounded: the least recently used site goes first (0: unbounded)."""

    def __init__(self, max_sites: int = DEFAULT_MAX_SITES) -> None:
        self.max_sites = max_sites
        self._entries: OrderedDict[str, RobotsDecision] = OrderedDict()

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> Self:
        return cls(read(crawler.settings, "WEBROBOT_ROBOTS_CACHE_SITES"))

    def get(self, site: str) -> RobotsDecision | None:
        decision = self._entries.get(site)
        if decision is not None:
            self._entries.move_to_end(site)
        return decision

    def peek(self, site: str) -> RobotsDecision | None:
        return self._entries.get(site)

    def put(self, site: str, decision: RobotsDecision) -> None:
        self._entries[site] = decision
        self._entries.move_to_end(site)
        if self.max_sites > 0:
            while len(self._entries) > self.max_sites:
                self._entries.popitem(last=False)

    def __len__(self) -> int:
        return len(self._entries)
