"""The crawl's dead hosts: which download errors say a host is dead, and the one
record of the hosts given up on (Scrapy glue around :mod:`webrobot.urls.deadpolicy`).

:func:`failure_kind` reads a download's exception: a name the resolver says does
not exist (:data:`~webrobot.urls.deadpolicy.NO_SUCH_NAME`; told from a resolver
that could not be reached, which is none of these, by what the resolver answered:
:func:`webrobot.urls.resolver.name_answer`) or a refused connection
(:data:`~webrobot.urls.deadpolicy.REFUSED`), whichever download handler raised it.

:class:`DeadHosts` is the crawl's one record (``DeadHosts.of(crawler)``): the
policy read from the settings, :meth:`DeadHosts.give_up` (logged once per host
at WARNING, counted once per host in ``webrobot/hosts/dead/<kind>``), and
:meth:`DeadHosts.known` for anything that would wait on a host. Its hosts go into
report.json (``dead_hosts``), and when no page could be fetched and a host was
given up the crawl closes as soon as it is idle, with reason ``nothing_fetched``
(not a worker of a shared crawl, which fetches only its share)
(the ``scrapy crawl`` command then exits with a status that says why:
:mod:`webrobot.exitstatus`).
"""

from __future__ import annotations

import errno
import logging
import socket
from typing import TYPE_CHECKING
from urllib.parse import urlsplit

from scrapy import exceptions as scrapy_exceptions
from scrapy import signals as scrapy_signals
from scrapy.exceptions import CloseSpider
from twisted.internet.error import ConnectionRefusedError as TxConnectionRefusedError

from webrobot import signals
from webrobot.compat import name_not_resolved
from webrobot.settingsmodel.parse import read
from webrobot.urls import resolver
from webrobot.urls.deadpolicy import (
    NO_SUCH_NAME,
    REFUSED,
    DeadBook,
    DeadHost,
    DeadHostPolicy,
    host_label,
)
from webrobot.wiring import find_per_crawler, per_crawler

if TYPE_CHECKING:
    from collections.abc import Iterator

    from scrapy.crawler import Crawler

logger = logging.getLogger(__name__)

#: Finish reason of a crawl that fetched no page and gave up on a host.
NOTHING_FETCHED = "nothing_fetched"

_REFUSED_CLASSES: tuple[type[BaseException], ...] = (
    TxConnectionRefusedError,
    ConnectionRefusedError,
) + tuple(
    cls
    for cls in (getattr(scrapy_exceptions, "DownloadConnectionRefusedError", None),)
    if isinstance(cls, type)
)


def _chain(exc: BaseException) -> Iterator[BaseException]:
    seen: set[int] = set()
    current: BaseException | None = exc
    while current is not None and id(current) not in seen:
        seen.add(id(current))
        yield current
        current = current.__cause__ or current.__context__


def failure_kind(exc: BaseException, host: str) -> str | None:
    """:data:`NO_SUCH_NAME`, :data:`REFUSED`, or None (another error, a resolver
    that failed to answer included) for a download of ``host`` that failed with ``exc``."""
    chain = list(_chain(exc))
    for error in chain:
        if isinstance(error, socket.gaierror):  # handlers that resolve by themselves
            code = error.errno
            return NO_SUCH_NAME if code in resolver.NO_NAME_ERRNOS else None
    if name_not_resolved(exc):
        answer = resolver.name_answer(host)
        for error in chain:
            answer = answer or resolver.dns_answer(str(error))
        return NO_SUCH_NAME if answer == NO_SUCH_NAME else None
    for error in chain:
        if isinstance(error, _REFUSED_CLASSES):
            return REFUSED
        if isinstance(error, OSError) and error.errno == errno.ECONNREFUSED:
            return REFUSED
    return None


def url_host(url: str) -> tuple[str, int | None]:
    """``http://H:8080/x`` -> ``('h', 8080)``; the scheme's port when none is given."""
    parts = urlsplit(url)
    try:
        port = parts.port
    except ValueError:
        port = None
    if port is None:
        port = {"http": 80, "https": 443}.get(parts.scheme)
    return (parts.hostname or ""), port


class DeadHosts:
    """The crawl's hosts given up on as dead, and the policy that decides it."""

    @classmethod
    def of(cls, crawler: Crawler) -> DeadHosts:
        """The crawl's one record."""
        return per_crawler(crawler, DeadHosts, cls)

    @classmethod
    def find(cls, crawler: Crawler) -> DeadHosts | None:
        """The crawl's record if anything made one (None: no host failed that way)."""
        return find_per_crawler(crawler, DeadHosts)

    def __init__(self, crawler: Crawler) -> None:
        self.crawler = crawler
        assert crawler.stats is not None
        self.stats = crawler.stats
        settings = crawler.settings
        self.policy = DeadHostPolicy(
            name_retry=read(settings, "WEBROBOT_DEAD_NAME_RETRY"),
            refused_max=read(settings, "WEBROBOT_DEAD_REFUSED_MAX"),
        )
        self.book = DeadBook()
        # A worker of a shared crawl fetches a share of it: whether the crawl fetched
        # anything is the shared crawl's to say (WEBROBOT_REDIS_IDLE_CLOSE), not this worker's.
        self.shared = bool(read(settings, "WEBROBOT_REDIS_URL").strip())
        crawler.signals.connect(self._spider_idle, signal=scrapy_signals.spider_idle)
        crawler.signals.connect(self._report_part, signal=signals.report_parts)

    def kind(self, exc: BaseException, url: str) -> str | None:
        """What ``exc``, a failed download of ``url``, says of its host (:func:`failure_kind`)."""
        return failure_kind(exc, url_host(url)[0])

    def label(self, kind: str, url: str) -> str:
        """The host of ``url`` as a dead one of ``kind`` is named (``h``, or ``h:port``)."""
        host, port = url_host(url)
        return host_label(kind, host, port)

    def known(self, url: str) -> DeadHost | None:
        """The record of ``url``'s host if it was given up on (its name does not
        resolve, or its port refused), else None: a request to it would fail the same way."""
        host, port = url_host(url)
        return self.book.get(host_label(NO_SUCH_NAME, host, port)) or self.book.get(
            host_label(REFUSED, host, port)
        )

    def give_up(
        self, url: str, kind: str, tries: int, seconds: float, detail: str = "", requests: int = 0
    ) -> DeadHost:
        """Record that ``url``'s host is dead (``kind``): logged and counted once per host."""
        dead = DeadHost(self.label(kind, url), kind, tries, seconds, detail)
        if self.book.give_up(dead):
            self.stats.inc_value(f"webrobot/hosts/dead/{kind}")
            over = f" over {seconds:.1f} s" if seconds > 0 else ""
            held = (
                f"; {requests} request{'s' * (requests != 1)} for it not crawled"
                if requests
                else ""
            )
            logger.warning(
                "Gave up on %s (%d %s%s)%s", dead.line(), tries,
                "try" if tries == 1 else "tries", over, held,
            )  # fmt: skip
        return self.book.get(dead.host) or dead

    def pages_answered(self) -> int:
        """Responses to anything but robots.txt so far."""
        responses = int(self.stats.get_value("downloader/response_count", 0) or 0)
        return responses - int(self.stats.get_value("robotstxt/response_count", 0) or 0)

    def _spider_idle(self) -> None:
        # Only when the crawl is idle: a request held elsewhere (robots.txt still being
        # asked) keeps the crawl open, whatever this says.
        if self.book.hosts and not self.shared and self.pages_answered() <= 0:
            raise CloseSpider(NOTHING_FETCHED)

    def _report_part(self) -> dict[str, object]:
        return {"dead_hosts": [dead.row() for dead in self.book.hosts.values()]}
