"""The crawl within its open-file limit: Scrapy's HTTP/1.1 download handler with
a keep-alive pool bounded in all, and "too many open files" as back-pressure.

Scrapy keeps idle keep-alive connections in a Twisted ``HTTPConnectionPool``:
at most ``CONCURRENT_REQUESTS_PER_DOMAIN`` per host, each for 240 s, but no
bound in all. A crawl of thousands of sites keeps one descriptor per site it
has visited in the last four minutes, and under a limit of 1024 new connections
then fail with "Too many open files" (``ConnectBindError``), which Scrapy treats
as the site's network error: retried, backed off, given up.

Here (:class:`KeepAliveDownloadHandler`):

* the pool holds at most :attr:`~webrobot.politeness.descriptors.DescriptorPlan.max_idle`
  idle connections (what the limit leaves after ``WEBROBOT_FD_RESERVE`` and the
  concurrency, at most ``WEBROBOT_MAX_IDLE_CONNECTIONS``); past it, those of sites
  with nothing queued in the downloader go first, then the least recently used;
* at start the soft limit is raised to the hard one (``WEBROBOT_RAISE_FD_LIMIT``),
  and a limit too low for ``CONCURRENT_REQUESTS`` lowers the concurrency, with one
  warning (:func:`descriptor_plan`);
* a download that fails because the process is out of descriptors is not the
  site's failure: idle connections are closed, the download waits and tries again
  (new downloads wait too), counted in ``webrobot/descriptors/exhausted`` and said
  once; no retry, backoff or failure is charged to the site.
"""

from __future__ import annotations

import codecs
import logging
from collections import OrderedDict
from collections.abc import Callable, Hashable
from time import monotonic
from typing import TYPE_CHECKING, Any

from scrapy.utils.asyncio import sleep
from twisted.web.client import HTTPConnectionPool

from webrobot.compat import (
    idle_connections,
    idle_timeouts,
    replace_connection_pool,
    sourceless_stack,
)
from webrobot.politeness.descriptors import DescriptorPlan, exhausted, plan, victims
from webrobot.settingsmodel.parse import read
from webrobot.urls.sitekey import site_key
from webrobot.wiring import per_crawler

if TYPE_CHECKING:
    from scrapy import Request
    from scrapy.crawler import Crawler
    from scrapy.http import Response

# Scrapy's TLS modules name their deprecated aliases' module through inspect.stack(),
# about 135 ms of CPU at every crawl's start with the source of every frame read:
# imported here without it (webrobot.compat.sourceless_stack says why it is the same).
with sourceless_stack():
    from scrapy.core.downloader.handlers.http11 import HTTP11DownloadHandler

logger = logging.getLogger(__name__)

#: Python imports a codec the first time it is used. The first page in that codec may be
#: decoded while every descriptor is taken by a connection ("Too many open files"), and
#: the import would fail the page: the codecs pages are read in are loaded here, with the
#: handler, before any connection is made.
PRELOADED_CODECS = ("utf-8", "cp1252", "latin-1", "ascii", "utf-16", "iso8859-15")
for _codec in PRELOADED_CODECS:
    codecs.lookup(_codec)

#: First wait after "too many open files", doubling up to the longest.
EXHAUSTED_FIRST_WAIT, EXHAUSTED_LONGEST_WAIT = 0.05, 1.0
#: A download out of descriptors for this long in all fails with its error.
EXHAUSTED_GIVE_UP = 120.0
#: Idle connections closed at once to free descriptors after "too many open files".
EXHAUSTED_FREE = 32


def soft_limit(raise_to_hard: bool) -> int:
    """The process's open-file limit (soft), raised to the hard limit first when
    asked and allowed; 0 where the platform has none."""
    try:
        import resource
    except ImportError:  # not a Unix
        return 0
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if raise_to_hard and hard != soft:
        target = hard if hard != resource.RLIM_INFINITY else max(soft, 1 << 20)
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
        except (ValueError, OSError):
            return soft if soft != resource.RLIM_INFINITY else 0
        logger.info("Open-file limit raised from %d to %d (the hard limit)", soft, target)
        soft = target
    return soft if soft != resource.RLIM_INFINITY else 0


def descriptor_plan(crawler: Crawler) -> DescriptorPlan:
    """The crawl's :class:`DescriptorPlan` (made once; the warning of a low limit
    is logged then)."""
    return per_crawler(crawler, DescriptorPlan, _made_plan)


def _made_plan(crawler: Crawler) -> DescriptorPlan:
    settings = crawler.settings
    made = plan(
        soft_limit(read(settings, "WEBROBOT_RAISE_FD_LIMIT")),
        read(settings, "WEBROBOT_FD_RESERVE"),
        read(settings, "CONCURRENT_REQUESTS"),
        read(settings, "WEBROBOT_MAX_IDLE_CONNECTIONS"),
    )
    if made.warning:
        logger.warning(made.warning)
    if crawler.stats is not None and made.limit:
        crawler.stats.set_value("webrobot/descriptors/limit", made.limit)
        crawler.stats.set_value("webrobot/descriptors/max_idle", made.max_idle)
    return made


class BoundedConnectionPool(HTTPConnectionPool):
    """Twisted's pool with at most ``max_idle`` idle connections in all (0: none
    kept). ``queued(key)`` says whether the site of a pool key has requests
    waiting; idle connections of sites without go first."""

    def __init__(
        self,
        reactor: Any,
        max_idle: int,
        queued: Callable[[Hashable], bool] | None = None,
        closing: Callable[[int], None] | None = None,
    ) -> None:
        super().__init__(reactor, persistent=True)
        self.max_idle = max_idle
        self.queued = queued or (lambda key: True)
        self.closing = closing  # told how many idle connections it closes
        #: idle connection -> its pool key, least recently used first
        self._order: OrderedDict[Any, Hashable] = OrderedDict()
        self.closed = 0  # idle connections this pool closed to stay in bounds

    def _putConnection(self, key: Hashable, connection: Any) -> None:
        before = list(idle_connections(self).get(key, ()))
        super()._putConnection(key, connection)
        timeouts = idle_timeouts(self)
        for old in before:  # the per-host cap may have closed one
            if old not in timeouts:
                self._order.pop(old, None)
        if connection in timeouts:
            self._order[connection] = key
            self._order.move_to_end(connection)
        self.close_idle(len(self._order) - self.max_idle)

    def _removeConnection(self, key: Hashable, connection: Any) -> None:
        super()._removeConnection(key, connection)  # the idle timeout, or closed here
        self._order.pop(connection, None)

    def getConnection(self, key: Hashable, endpoint: Any) -> Any:
        before = list(idle_connections(self).get(key, ()))
        result = super().getConnection(key, endpoint)
        timeouts = idle_timeouts(self)
        for old in before:  # taken for a request, or found closed
            if old not in timeouts:
                self._order.pop(old, None)
        return result

    def close_idle(self, count: int) -> int:
        """Close ``count`` idle connections (see :func:`victims`); how many closed."""
        if count <= 0 or not self._order:
            return 0
        chosen = victims(self._order, count, lambda c: bool(self.queued(self._order[c])))
        timeouts = idle_timeouts(self)
        for connection in chosen:
            key = self._order[connection]
            timer = timeouts.get(connection)
            if timer is not None and timer.active():
                timer.cancel()
            self._removeConnection(key, connection)
        self.closed += len(chosen)
        if self.closing is not None and chosen:
            self.closing(len(chosen))
        return len(chosen)

    def closeCachedConnections(self) -> Any:
        self._order.clear()
        return super().closeCachedConnections()

    @property
    def idle(self) -> int:
        return len(self._order)


def pool_site(key: Hashable) -> str | None:
    """The site of a Twisted pool key ``(scheme, host, port)``; None for another
    kind of key (a proxy's)."""
    if not (isinstance(key, tuple) and len(key) == 3):
        return None
    scheme, host, port = key
    if isinstance(scheme, bytes):
        scheme = scheme.decode("ascii", "replace")
    if isinstance(host, bytes):
        host = host.decode("ascii", "replace")
    if scheme not in ("http", "https") or not isinstance(port, int):
        return None
    if ":" in str(host):  # IPv6
        host = f"[{host}]"
    return site_key(f"{scheme}://{host}:{port}/")


class KeepAliveDownloadHandler(HTTP11DownloadHandler):
    """See the module doc."""

    def __init__(self, crawler: Crawler) -> None:
        super().__init__(crawler)
        self.crawler = crawler
        self.plan = descriptor_plan(crawler)
        max_idle = read(crawler.settings, "WEBROBOT_MAX_IDLE_CONNECTIONS")
        if self.plan.limit:
            max_idle = self.plan.max_idle
        elif max_idle <= 0:
            max_idle = 1 << 30  # no limit known, none set
        from twisted.internet import reactor

        pool = BoundedConnectionPool(reactor, max_idle, self._queued, self._closed_idle)
        self.pool: BoundedConnectionPool | None = (
            pool if replace_connection_pool(self, pool) else None
        )
        self._sites: dict[Hashable, str | None] = {}
        self._paused_until = 0.0
        self._said = False

    def _queued(self, key: Hashable) -> bool:
        """Whether the downloader has requests of the key's site waiting."""
        if key not in self._sites:
            if len(self._sites) > 100_000:
                self._sites.clear()
            self._sites[key] = pool_site(key)
        site = self._sites[key]
        if site is None:
            return True  # not a site's connection (a proxy's): only its age counts
        engine = getattr(self.crawler, "engine", None)
        slots = getattr(getattr(engine, "downloader", None), "slots", {})
        slot = slots.get(site)
        return bool(slot is not None and slot.queue)

    async def download_request(self, request: Request) -> Response:
        wait, waited = EXHAUSTED_FIRST_WAIT, 0.0
        while True:
            pause = self._paused_until - monotonic()
            if pause > 0:
                await sleep(pause)
            try:
                return await super().download_request(request)
            except Exception as exc:  # any download error; all but EMFILE re-raised
                if not exhausted(exc) or waited >= EXHAUSTED_GIVE_UP:
                    raise
                self._out_of_descriptors(exc, wait)
            await sleep(wait)
            waited += wait
            wait = min(wait * 2, EXHAUSTED_LONGEST_WAIT)

    def _out_of_descriptors(self, exc: BaseException, wait: float) -> None:
        stats = self.crawler.stats
        assert stats is not None
        stats.inc_value("webrobot/descriptors/exhausted")
        freed = self.pool.close_idle(EXHAUSTED_FREE) if self.pool is not None else 0
        self._paused_until = max(self._paused_until, monotonic() + wait)
        if not self._said:
            self._said = True
            logger.warning(
                "Out of open files (%s): downloads wait and try again (never counted "
                "against a site); %d idle connections closed. The limit is %d: raise it "
                "(ulimit -n) or lower CONCURRENT_REQUESTS / WEBROBOT_MAX_IDLE_CONNECTIONS",
                exc, freed, self.plan.limit,
            )  # fmt: skip

    def _closed_idle(self, count: int) -> None:
        if self.crawler.stats is not None:
            self.crawler.stats.inc_value("webrobot/descriptors/idle_closed", count)
