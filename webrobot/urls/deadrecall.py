"""The crawl's memory of dead requisite hosts: thin glue around
:mod:`webrobot.urls.deadmemory`.

One :class:`DeadHostRecall` per crawl (:meth:`DeadHostRecall.of`), made by whichever part
fetches requisites first (the images of mining, the archive's requisites). It
learns that a host is dead from

* the robots.txt of its site failing with a name that does not resolve or a
  refused connection (the ``site_deferred`` signal), which is how an embed's host
  is usually first asked;
* a requisite's own download failing so (:meth:`DeadHostRecall.download_failed`).

Those parts then ask :meth:`DeadHostRecall.lookup` before they request a requisite, and
do not request one whose host is dead. Listeners (:meth:`DeadHostRecall.listen`) hear
of each host found dead, so that what waits on it can stop waiting.

The memory is read at the start from ``WEBROBOT_DEAD_HOSTS_FILE`` (JSON; a relative
path is in the project's ``.scrapy/`` folder, as ``HTTPCACHE_DIR`` is) and written
back when the spider closes, merged with what another crawl wrote meanwhile, each
host kept ``WEBROBOT_DEAD_HOSTS_EXPIRY`` seconds from when it was last found dead.

Counted: ``webrobot/deadhosts/found/<reason>`` (hosts found dead by this crawl),
``webrobot/deadhosts/remembered`` (hosts read from the memory),
``webrobot/deadhosts/skipped`` (requisites not requested because their host is
dead) and ``webrobot/deadhosts/skipped_remembered`` (those of them whose host was
remembered from an earlier crawl).
"""

from __future__ import annotations

import json
import logging
import os
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, Self

from scrapy import signals as scrapy_signals
from scrapy.utils.conf import closest_scrapy_cfg, get_config
from scrapy.utils.project import DATADIR_CFG_SECTION, inside_project

from webrobot import signals
from webrobot.compat import name_not_resolved
from webrobot.settingsmodel.parse import read
from webrobot.urls.deadmemory import (
    NO_SUCH_NAME,
    REFUSED,
    DeadHostMemory,
    RememberedHost,
    dead_reason,
)
from webrobot.wiring import per_crawler

if TYPE_CHECKING:
    from scrapy.crawler import Crawler

logger = logging.getLogger(__name__)

STATS_PREFIX = "webrobot/deadhosts/"
#: What each reason means, in the log.
SAID = {NO_SUCH_NAME: "the name does not resolve", REFUSED: "the connection is refused"}

Listener = Callable[[str, str], None]


def memory_path(value: str) -> Path | None:
    """The file of ``WEBROBOT_DEAD_HOSTS_FILE``: a relative path is in the project's
    data folder as Scrapy's ``data_path`` finds it (``.scrapy/`` beside
    ``scrapy.cfg``, or the ``[datadir]`` it names), in ``.scrapy/`` of the working
    folder outside a project. Nothing is created here (Scrapy's ``data_path``
    makes the folder): only a crawl that found dead hosts writes."""
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


def error_reason(exc: BaseException) -> str | None:
    """The dead host's reason a download error gives, if any."""
    if name_not_resolved(exc):
        return NO_SUCH_NAME
    seen: set[int] = set()
    current: BaseException | None = exc
    while current is not None and id(current) not in seen:
        reason = dead_reason(type(current).__name__)
        if reason is not None:
            return reason
        seen.add(id(current))
        current = current.__cause__
    return None


class DeadHostRecall:
    """The crawl's dead requisite hosts: found, remembered, asked about."""

    @classmethod
    def of(cls, crawler: Crawler) -> Self:
        return per_crawler(crawler, cls, cls)

    def __init__(self, crawler: Crawler) -> None:
        self.crawler = crawler
        assert crawler.stats is not None
        self.stats = crawler.stats
        settings = crawler.settings
        self.memory = DeadHostMemory(read(settings, "WEBROBOT_DEAD_HOSTS_EXPIRY"))
        self.path = memory_path(read(settings, "WEBROBOT_DEAD_HOSTS_FILE"))
        self._listeners: list[Listener] = []
        self._told: set[str] = set()
        if self.path is not None:
            remembered = self.memory.load(self._read(self.path), time.time())
            if remembered:
                self.stats.set_value(STATS_PREFIX + "remembered", remembered)
                logger.info(
                    "%d requisite hosts remembered dead from earlier crawls (%s): "
                    "their requisites are not asked", remembered, self.path,
                )  # fmt: skip
        crawler.signals.connect(self._site_deferred, signal=signals.site_deferred)
        crawler.signals.connect(self._spider_closed, signal=scrapy_signals.spider_closed)

    # -- asking ---------------------------------------------------------------------
    def lookup(self, url: str) -> RememberedHost | None:
        """What is known of ``url``'s host, if it counts as dead now."""
        return self.memory.lookup(url, time.time())

    def skip(self, url: str) -> str | None:
        """The reason not to request the requisite ``url`` (its host is dead), counted;
        ``None``: request it."""
        host = self.lookup(url)
        if host is None:
            return None
        self.stats.inc_value(STATS_PREFIX + "skipped")
        if host.remembered:
            self.stats.inc_value(STATS_PREFIX + "skipped_remembered")
        return host.reason

    def listen(self, listener: Listener) -> None:
        """Call ``listener(url, reason)`` for each host found dead from now on."""
        self._listeners.append(listener)

    # -- learning -------------------------------------------------------------------
    def found(self, url: str, reason: str, detail: str = "") -> None:
        """``url``'s host is dead for ``reason``."""
        if not self.memory.found(url, reason, time.time(), detail):
            return
        self.stats.inc_value(f"{STATS_PREFIX}found/{reason}")
        if reason not in self._told:
            self._told.add(reason)
            logger.info(
                "Requisite host of %s is dead (%s): its requisites are not asked again "
                "(further ones are counted in %sfound/%s)",
                url[:200], SAID.get(reason, reason), STATS_PREFIX, reason,
            )  # fmt: skip
        for listener in list(self._listeners):
            listener(url, reason)

    def download_failed(self, url: str, exc: BaseException) -> str | None:
        """A requisite's download failed with ``exc``: its host's reason if that says
        the host is dead (noted), else ``None``."""
        reason = error_reason(exc)
        if reason is not None:
            self.found(url, reason, f"{type(exc).__name__}: {exc}")
        return reason

    def _site_deferred(self, site: str, reason: str, **_: Any) -> None:
        dead = dead_reason(reason)
        if dead is not None:
            self.found(site, dead, f"robots.txt: {reason}")

    # -- the file -------------------------------------------------------------------
    def _read(self, path: Path) -> Any:
        try:
            return json.loads(path.read_text("utf-8"))
        except FileNotFoundError:
            return None
        except (OSError, ValueError) as exc:
            logger.warning("Dead hosts memory %s not read (%s); starting without it", path, exc)
            return None

    def _spider_closed(self) -> None:
        found = self.memory.found_now()
        if found:
            by_reason: dict[str, int] = {}
            for host in found.values():
                by_reason[host.reason] = by_reason.get(host.reason, 0) + 1
            logger.info(
                "%d requisite hosts found dead (%s)%s",
                len(found),
                ", ".join(f"{SAID.get(r, r)}: {n}" for r, n in sorted(by_reason.items())),
                f"; remembered in {self.path}" if self.path is not None else "",
            )
        if self.path is None or (not found and not self.memory.hosts):
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
