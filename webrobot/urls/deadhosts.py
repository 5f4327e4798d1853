"""The crawl's dead hosts: which download errors say a host is dead, the one record
of the hosts given up on, and its memory from one crawl to the next (Scrapy glue
around :mod:`webrobot.urls.deadpolicy` and :mod:`webrobot.urls.deadmemory`).

:func:`failure_kind` reads a download's exception: a name the resolver says does
not exist (:data:`~webrobot.urls.deadpolicy.NO_SUCH_NAME`; told from a resolver
that could not be reached, which is none of these, by what the resolver answered:
:func:`webrobot.urls.resolver.name_answer`) or a refused connection
(:data:`~webrobot.urls.deadpolicy.REFUSED`), whichever download handler raised it.

:class:`DeadHosts` is the crawl's one record (``DeadHosts.of(crawler)``). Hosts are
given up (:meth:`DeadHosts.give_up`) by the robots.txt middleware (its policy:
two tries of a name that does not exist, seconds of refusals), the page-failure
recorder and the fetchers of requisites (:meth:`DeadHosts.download_failed`). Each
is counted once in ``webrobot/hosts/dead/<kind>``; the first is logged at WARNING,
the others at DEBUG, and the close says them all in one line with their count. They
go into report.json (``dead_hosts``) and report.html ("Hosts given up"). When no page
could be fetched and a host was given up the crawl closes as soon as it is idle,
with reason ``nothing_fetched`` (not a worker of a shared crawl, which fetches only
its share; the ``scrapy crawl`` command then exits with a status that says why:
:mod:`webrobot.job.exitstatus`).

Requisites (the images of mining, the archive's requisites) are not requested on a
host known dead (:meth:`DeadHosts.skip`), in this crawl or an earlier one: the hosts
given up are kept in ``WEBROBOT_DEAD_HOSTS_FILE`` (JSON; a relative path is in the
project's ``.scrapy/`` folder, as ``HTTPCACHE_DIR`` is), written when the spider
closes, merged with what another crawl wrote meanwhile, each host kept
``WEBROBOT_DEAD_HOSTS_EXPIRY`` seconds from when it was last found dead. A resolver
that could not be reached says nothing of the name: such a host is not given up,
so it is not remembered either. Listeners (:meth:`DeadHosts.listen`) hear of each
host given up, so that what waits on it can stop waiting.

Counted besides: ``webrobot/hosts/dead/remembered`` (hosts read from the memory),
``webrobot/hosts/dead/skipped`` (requisites not requested because their host is
dead) and ``webrobot/hosts/dead/skipped_remembered`` (those of them whose host was
remembered from an earlier crawl).
"""

from __future__ import annotations

import errno
import json
import logging
import os
import socket
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from scrapy import exceptions as scrapy_exceptions
from scrapy import signals as scrapy_signals
from scrapy.exceptions import CloseSpider
from scrapy.utils.conf import closest_scrapy_cfg, get_config
from scrapy.utils.project import DATADIR_CFG_SECTION, inside_project
from twisted.internet.error import ConnectionRefusedError as TxConnectionRefusedError

from webrobot import signals
from webrobot.compat import name_not_resolved
from webrobot.settingsmodel.parse import read
from webrobot.urls import resolver
from webrobot.urls.deadmemory import DeadHostMemory, RememberedHost, host_keys
from webrobot.urls.deadpolicy import (
    NO_SUCH_NAME,
    REASONS,
    REFUSED,
    DeadBook,
    DeadHost,
    DeadHostPolicy,
    host_label,
    url_host,
)
from webrobot.wiring import find_per_crawler, per_crawler

if TYPE_CHECKING:
    from collections.abc import Iterator

    from scrapy.crawler import Crawler

logger = logging.getLogger(__name__)

STATS_PREFIX = "webrobot/hosts/dead/"
#: Hosts named in the closing line; the rest are counted, and listed in the report.
NAMED_AT_CLOSE = 5

Listener = Callable[[str, str], None]

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


def memory_path(value: str) -> Path | None:
    """The file of ``WEBROBOT_DEAD_HOSTS_FILE``: a relative path is in the project's
    data folder as Scrapy's ``data_path`` finds it (``.scrapy/`` beside
    ``scrapy.cfg``, or the ``[datadir]`` it names), in ``.scrapy/`` of the working
    folder outside a project. Nothing is created here: only a crawl that found dead
    hosts writes."""
    if not value.strip():
        return None
    path = Path(value).expanduser()
    if path.is_absolute():
        return path
    if inside_project():
        config = get_config()
        if config.has_option(DATADIR_CFG_SECTION, "default"):
            return Path(config.get(DATADIR_CFG_SECTION, "default"), path)
        scrapy_cfg = closest_scrapy_cfg()
        if scrapy_cfg:
            return Path(scrapy_cfg).parent / ".scrapy" / path
    return Path(".scrapy", path)


class DeadHosts:
    """The crawl's hosts given up on as dead, the policy that decides it, and the
    memory of the hosts found dead by earlier crawls."""

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
        self.memory = DeadHostMemory(read(settings, "WEBROBOT_DEAD_HOSTS_EXPIRY"))
        self.path = memory_path(read(settings, "WEBROBOT_DEAD_HOSTS_FILE"))
        self._listeners: list[Listener] = []
        #: Requisites not asked, per host (host_label()'s spelling).
        self.skipped: dict[str, int] = {}
        #: The remembered hosts that kept a requisite from being asked.
        self._recalled: dict[str, RememberedHost] = {}
        #: Hosts that failed once as dead, not given up yet (failing()): kind and URL.
        self._failing: dict[str, tuple[str, str]] = {}
        if self.path is not None:
            remembered = self.memory.load(self._read(self.path), time.time())
            if remembered:
                self.stats.set_value(STATS_PREFIX + "remembered", remembered)
                logger.info(
                    "%d hosts remembered dead from earlier crawls (%s): their requisites "
                    "are not asked", remembered, self.path,
                )  # fmt: skip
        crawler.signals.connect(self._spider_idle, signal=scrapy_signals.spider_idle)
        crawler.signals.connect(self._spider_closed, signal=scrapy_signals.spider_closed)
        crawler.signals.connect(self._robots_resolved, signal=signals.robots_resolved)
        crawler.signals.connect(self._report_part, signal=signals.report_parts)

    # -- telling ------------------------------------------------------------------
    def kind(self, exc: BaseException, url: str) -> str | None:
        """What ``exc``, a failed download of ``url``, says of its host (:func:`failure_kind`)."""
        return failure_kind(exc, url_host(url)[0])

    def label(self, kind: str, url: str) -> str:
        """The host of ``url`` as a dead one of ``kind`` is named (``h``, or ``h:port``)."""
        host, port = url_host(url)
        return host_label(kind, host, port)

    # -- asking -------------------------------------------------------------------
    def known(self, url: str) -> DeadHost | None:
        """The record of ``url``'s host if this crawl gave it up (its name does not
        resolve, or its port refused), else None: a request to it would fail the same way."""
        host, port = url_host(url)
        return self.book.get(host_label(NO_SUCH_NAME, host, port)) or self.book.get(
            host_label(REFUSED, host, port)
        )

    def lookup(self, url: str) -> RememberedHost | None:
        """What is known of ``url``'s host if it counts as dead now, given up by this
        crawl or remembered from an earlier one, or (for requisites only: they are not
        worth a wait) a host that failed once as dead and waits for its next try."""
        now = time.time()
        found = self.memory.lookup(url, now)
        if found is None and self._failing:
            host, port = url_host(url)
            for kind in (NO_SUCH_NAME, REFUSED):
                if host_label(kind, host, port) in self._failing:
                    return RememberedHost(kind, now, "failing: not given up yet")
        return found

    def skip(self, url: str) -> str | None:
        """The kind of dead host that keeps the requisite ``url`` from being requested,
        counted; ``None``: request it."""
        host = self.lookup(url)
        keys = host_keys(url)
        if host is None or keys is None:
            return None
        label = keys[0] if host.reason == NO_SUCH_NAME else keys[1]
        self.skipped[label] = self.skipped.get(label, 0) + 1
        self.stats.inc_value(STATS_PREFIX + "skipped")
        if host.remembered:
            self.stats.inc_value(STATS_PREFIX + "skipped_remembered")
            self._recalled.setdefault(label, host)
        return host.reason

    def listen(self, listener: Listener) -> None:
        """Call ``listener(url, kind)`` for each host given up from now on."""
        self._listeners.append(listener)

    # -- learning -----------------------------------------------------------------
    def give_up(
        self, url: str, kind: str, tries: int, seconds: float, detail: str = "", requests: int = 0
    ) -> DeadHost:
        """Record that ``url``'s host is dead (``kind``): counted once per host, logged
        at WARNING for the first host, said again with the others when the spider closes."""
        dead = DeadHost(self.label(kind, url), kind, tries, seconds, detail)
        if not self.book.give_up(dead):
            return self.book.get(dead.host) or dead
        self.stats.inc_value(f"{STATS_PREFIX}{kind}")
        self.memory.found(url, kind, time.time(), detail)
        over = f" over {seconds:.1f} s" if seconds > 0 else ""
        held = f"; {requests} request{'s' * (requests != 1)} for it not crawled" if requests else ""
        first = len(self.book.hosts) == 1
        logger.log(
            logging.WARNING if first else logging.DEBUG,
            "Gave up on %s (%d %s%s)%s%s", dead.line(), tries, "try" if tries == 1 else "tries",
            over, held, " (further hosts given up are counted, and named when the crawl ends)"
            if first else "",
        )  # fmt: skip
        for listener in list(self._listeners):
            listener(url, kind)
        return dead

    def failing(self, url: str, kind: str | None) -> None:
        """``url``'s host failed once as a dead host of ``kind`` (None: another failure)
        and is tried again by its policy. A requisite is not worth that wait: what
        waits on the host stops now (listeners) and later requisites on it are not
        asked, but the host is not given up (nor remembered) before its policy says
        so, or the crawl ends first."""
        if kind is None:
            return
        label = self.label(kind, url)
        if label in self._failing or label in self.book.hosts:
            return
        self._failing[label] = (kind, url)
        for listener in list(self._listeners):
            listener(url, kind)

    def _robots_resolved(self, site: str = "", outcome: str | None = None, **_: Any) -> None:
        # A name that failed once and then answered is not failing any more.
        if self._failing and site and outcome != "unreachable":
            for kind in (NO_SUCH_NAME, REFUSED):
                self._failing.pop(self.label(kind, site), None)

    def download_failed(self, url: str, exc: BaseException) -> str | None:
        """A requisite's download failed with ``exc``: the kind of dead host it says its
        host is (the host given up), else ``None``."""
        kind = self.kind(exc, url)
        if kind is not None:
            self.give_up(url, kind, 1, 0.0, f"{type(exc).__name__}: {exc}")
        return kind

    # -- the crawl ----------------------------------------------------------------
    def pages_answered(self) -> int:
        """Responses to anything but robots.txt so far."""
        responses = int(self.stats.get_value("downloader/response_count", 0) or 0)
        return responses - int(self.stats.get_value("robotstxt/response_count", 0) or 0)

    def _spider_idle(self) -> None:
        # Only when the crawl is idle: a request held elsewhere (robots.txt still being
        # asked) keeps the crawl open, whatever this says.
        if self.book.hosts and not self.shared and self.pages_answered() <= 0:
            raise CloseSpider(NOTHING_FETCHED)

    def rows(self) -> list[dict[str, object]]:
        """report.json's ``dead_hosts``: the hosts given up by this crawl, then the
        remembered ones that kept a requisite from being asked."""
        rows = []
        for dead in self.book.hosts.values():
            rows.append({**dead.row(), "skipped": self.skipped.get(dead.host, 0)})
        for label, host in self._recalled.items():
            if label in self.book.hosts:
                continue
            rows.append({
                "host": label, "kind": host.reason, "reason": REASONS.get(host.reason, host.reason),
                "tries": 0, "seconds": 0.0, "detail": host.detail[:300], "remembered": True,
                "found": round(host.found, 3), "skipped": self.skipped.get(label, 0),
            })  # fmt: skip
        return rows

    def _report_part(self, finished: bool = False, **_: Any) -> dict[str, object]:
        if finished:
            self._end_failing()
        return {"dead_hosts": self.rows()}

    def _end_failing(self) -> None:
        """The crawl ends before the next try of hosts that failed once as dead. A name
        the resolver says does not exist: that answer stands (counted, listed,
        remembered). A refused port only when the crawl finished with nothing held
        for it: one closed with requests held for it keeps them for the next run."""
        finished = self.stats.get_value("finish_reason") == "finished"
        for label, (kind, url) in list(self._failing.items()):
            if label not in self.book.hosts and (kind == NO_SUCH_NAME or finished):
                self.give_up(url, kind, 1, 0.0, "no further try: the crawl ended")
        self._failing.clear()

    def closing_line(self) -> str | None:
        """The one line that says every dead host at the close, None: there were none."""
        hosts = list(self.book.hosts.values())
        if not hosts and not self._recalled:
            return None
        parts = []
        if hosts:
            kinds: dict[str, int] = {}
            for dead in hosts:
                kinds[dead.reason] = kinds.get(dead.reason, 0) + 1
            names = ", ".join(dead.host for dead in hosts[:NAMED_AT_CLOSE])
            more = f" and {len(hosts) - NAMED_AT_CLOSE} more" if len(hosts) > NAMED_AT_CLOSE else ""
            parts.append(
                f"Gave up on {len(hosts)} dead host{'s' * (len(hosts) != 1)} "
                f"({'; '.join(f'{reason}: {n}' for reason, n in kinds.items())}): {names}{more}"
            )
        recalled = [label for label in self._recalled if label not in self.book.hosts]
        if recalled:
            parts.append(
                f"{len(recalled)} host{'s' * (len(recalled) != 1)} remembered dead from an "
                "earlier crawl not asked"
            )
        skipped = sum(self.skipped.values())
        if skipped:
            parts.append(f"{skipped} requisite{'s' * (skipped != 1)} on them not requested")
        kept = f"; remembered in {self.path}" if self.path is not None and hosts else ""
        return "; ".join(parts) + kept + " (each host in the report: Hosts given up)"

    def _spider_closed(self) -> None:
        self._end_failing()  # (done already if the report asked for its part)
        line = self.closing_line()
        if line is not None:
            logger.log(logging.WARNING if self.book.hosts else logging.INFO, "%s", line)
        if self.path is None or not self.memory.hosts:
            return
        now = time.time()
        # Another crawl of the project may have written hosts meanwhile: keep them too.
        self.memory.load(self._read(self.path), now)
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            partial = self.path.with_name(f"{self.path.name}.{os.getpid()}.tmp")
            partial.write_text(json.dumps(self.memory.to_json(now), indent=0), "utf-8")
            partial.replace(self.path)
        except OSError as exc:
            logger.warning("Dead hosts memory %s not written: %s", self.path, exc)

    @staticmethod
    def _read(path: Path) -> Any:
        try:
            return json.loads(path.read_text("utf-8"))
        except FileNotFoundError:
            return None
        except (OSError, ValueError) as exc:
            logger.warning("Dead hosts memory %s not read (%s); starting without it", path, exc)
            return None
