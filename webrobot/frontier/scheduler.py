"""webrobot's scheduler: one frontier (:mod:`webrobot.frontier.queues`) in memory, or
crash-safe on disk under ``JOBDIR``.

``WEBROBOT_FRONTIER`` picks the mode: ``"auto"`` (the default) is ``"sqlite"``
when ``JOBDIR`` is set and ``"memory"`` otherwise.

In memory it behaves as Scrapy's scheduler does without ``JOBDIR``, at a
fraction of the memory: a queued request is a compact tuple
(:mod:`webrobot.frontier.compactrequest`), the request is built again when it is
leased. On disk it
differs from Scrapy's ``JOBDIR`` queues, which lose what a crash catches in
flight (a popped request is gone from disk while it is downloaded, and the
visited set is written only at close):

* **Leases.** :meth:`next_request` leases a request; it stays in the database
  until Scrapy's engine is *done* with it: its response went through the
  spider (its links are queued, its items written), or its failure was
  handled, or its redirect or retry was queued. No Scrapy signal marks that
  moment, so the scheduler compares the requests it leased with the engine's
  in-progress set, which the engine empties exactly then
  (``ExecutionEngine._slot.inprogress``, private, present in Scrapy 2.13 to
  2.19, checked at open), each time the engine asks for a request and every
  ``WEBROBOT_FRONTIER_COMMIT_INTERVAL`` seconds. The acknowledgements are
  committed at once, with everything else written since the last commit.
* **One transaction for all.** The visited-URL keys, the content
  fingerprints and the marks of items written move with the requests
  (:mod:`webrobot.frontier.journal`), so after a SIGKILL the next run starts from one
  consistent state: the requests that were leased are queued again, the rest
  is as committed. The dupefilter and the content index do not keep their
  own checkpoint files in this mode.
* **A leased request handed back stays leased.** The robots.txt middleware
  hands back a request whose site's robots.txt is being fetched and holds it
  (with ``JOBDIR`` new requests enter the frontier first, see
  :class:`JobFrontierAddon`); it stays leased in the database while held, so a
  SIGKILL during a robots.txt deferral loses nothing.
* **Failures.** A request whose ``_webrobot_failed`` meta key is set when it
  is done (:class:`webrobot.report.failures.PageFailureMiddleware`) is
  kept as failed; ``-s WEBROBOT_RETRY_FAILED=True`` queues them again when
  the job resumes.
* **A full disk.** A write that fails for want of space, here or in any
  writer of the crawl (:mod:`webrobot.job.diskstate`), rolls back the open
  transaction and freezes the frontier: nothing more is committed, so every
  request whose outcome may not be fully written stays pending for the resumed
  job, and the crawl closes with ``disk_full``.
* Requests that cannot be pickled stay in memory, counted in
  ``scheduler/unserializable`` (as Scrapy does).
"""

from __future__ import annotations

import logging
import pickle
import sqlite3
from collections import deque
from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

from scrapy import signals
from scrapy.core.scheduler import BaseScheduler
from scrapy.exceptions import CloseSpider
from scrapy.utils.asyncio import create_looping_call
from scrapy.utils.job import job_dir
from scrapy.utils.misc import build_from_crawler, load_object
from scrapy.utils.request import request_from_dict

from webrobot import signals as webrobot_signals
from webrobot.compat import engine_in_progress
from webrobot.frontier.compactrequest import RequestCodec
from webrobot.frontier.journal import JobJournal
from webrobot.frontier.leases import LeaseTracker
from webrobot.frontier.queues import (
    Frontier,
    FrontierError,
    MemoryFrontier,
    SpillingFrontier,
    resolve_mode,
)
from webrobot.frontier.sqlitefrontier import SqliteFrontier
from webrobot.job.diskspace import FINISH_REASON as DISK_FULL
from webrobot.job.diskspace import is_disk_error
from webrobot.job.diskstate import disk_of
from webrobot.settingsmodel.parse import read

if TYPE_CHECKING:
    from typing import Self

    from scrapy import Request, Spider
    from scrapy.crawler import Crawler
    from scrapy.settings import BaseSettings

logger = logging.getLogger(__name__)

FRONTIER_FILE = "webrobot-frontier.sqlite"
#: request meta: why the request failed for good (set by the failure middleware)
FAILED_KEY = webrobot_signals.FAILED_META
STATS = "webrobot/frontier/"
#: Finish reason of a crawl whose frontier file cannot be opened (not for want of space).
OPEN_FAILED = "frontier_error"


@runtime_checkable
class SeedableDupeFilter(Protocol):
    """A ``DUPEFILTER_CLASS`` the crash-safe frontier can work with: seeded with the keys of
    the URLs earlier runs of the job visited, and asked for each request's key, which the
    frontier database keeps beside it. webrobot's visited-URL filter is one; another class
    (Scrapy's own, a user's) keeps the job in memory."""

    def seed(self, keys: Iterable[bytes]) -> None: ...

    def request_key_seen(self, request: Request) -> tuple[bool, bytes]: ...


def frontier_mode(settings: BaseSettings) -> str:
    """``"memory"`` or ``"sqlite"``, from ``WEBROBOT_FRONTIER`` and ``JOBDIR``."""
    return resolve_mode(read(settings, "WEBROBOT_FRONTIER"), job_dir(settings))


class FrontierScheduler(BaseScheduler):
    def __init__(self, crawler: Crawler) -> None:
        settings = crawler.settings
        self.crawler = crawler
        self.stats = crawler.stats
        self.df = build_from_crawler(load_object(settings["DUPEFILTER_CLASS"]), crawler)
        self.mode = frontier_mode(settings)
        jobdir = job_dir(settings)
        self.path: Path | None = (
            Path(jobdir, FRONTIER_FILE) if self.mode == "sqlite" and jobdir else None
        )
        self.sync: str = read(settings, "WEBROBOT_FRONTIER_SYNC")
        self.commit_interval = max(read(settings, "WEBROBOT_FRONTIER_COMMIT_INTERVAL"), 0.05)
        self.retry_failed = read(settings, "WEBROBOT_RETRY_FAILED")
        memory_limit = read(settings, "WEBROBOT_FRONTIER_MEMORY_REQUESTS")
        self.frontier: Frontier = (
            SpillingFrontier(memory_limit, read(settings, "WEBROBOT_FRONTIER_SPILL_DIR") or None)
            if memory_limit > 0
            else MemoryFrontier()
        )
        self._spill_said = False
        self.codec = RequestCodec()  # in memory: compact tuples, requests built when leased
        self.disk: SqliteFrontier | None = None
        self.journal = JobJournal.of(crawler)
        self.leases: LeaseTracker[int, Request] = LeaseTracker()  # entry ids of leased requests
        self._local: deque[Request] = deque()  # requests that could not be pickled
        self._logged_unserializable = False
        self._loop: Any = None
        self.spider: Spider | None = None

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> Self:
        return cls(crawler)

    # -- life cycle --------------------------------------------------------------
    def open(self, spider: Spider) -> Any:
        self.spider = spider
        self.codec.spider = spider
        result = self.df.open()
        if self.path is None:
            return result
        if self._engine_in_progress() is None:
            raise RuntimeError(
                "The crash-safe frontier needs Scrapy's ExecutionEngine._slot.inprogress "
                "(Scrapy 2.13-2.19) to know when a request is done; set WEBROBOT_FRONTIER=memory"
            )
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            disk = SqliteFrontier(self.path, synchronous=self.sync)
            recovered = disk.recover(retry_failed=self.retry_failed)
        except (FrontierError, ValueError, sqlite3.Error, OSError) as exc:
            self._cannot_open(exc)
            return result
        seeded = self._seed_dupefilter(disk)
        self.frontier = self.disk = disk
        disk_state = disk_of(self.crawler)
        disk.on_write_error = lambda exc: disk_state.write_failed(
            "frontier database", self.path, exc
        )
        disk_state.on_failure(disk.freeze)
        self.journal.attach(disk)
        assert self.stats is not None
        self.stats.set_value(STATS + "recovered/queued", recovered.queued)
        self.stats.set_value(STATS + "recovered/requeued", recovered.requeued)
        self.stats.set_value(STATS + "recovered/visited", recovered.visited)
        if recovered.retried:
            self.stats.set_value(STATS + "recovered/retried", recovered.retried)
        if recovered.resumed:
            logger.info(
                "Resumed the frontier of this job from %s: %d requests queued (%d of them were in "
                "flight when the last run stopped and are queued again%s), %d URLs visited%s",
                self.path, recovered.queued, recovered.requeued,
                f", {recovered.retried} failed ones retried" if recovered.retried else "",
                recovered.visited,
                f", {recovered.failed} failed for good (WEBROBOT_RETRY_FAILED=True retries them)"
                if recovered.failed else "",
            )  # fmt: skip
        else:
            logger.info("Crash-safe frontier of this job: %s", self.path)
        if not seeded and recovered.visited:
            logger.warning(
                "DUPEFILTER_CLASS %s cannot be given the visited URLs of this job: pages of "
                "earlier runs may be fetched again", type(self.df).__name__,
            )  # fmt: skip
        self.crawler.signals.connect(self.leases.scheduled, signal=signals.request_scheduled)
        self.crawler.signals.connect(self.leases.gone, signal=signals.request_dropped)
        self.crawler.signals.connect(self.leases.gone, signal=webrobot_signals.request_refused)
        self._loop = create_looping_call(self._tick)
        self._loop.start(self.commit_interval, now=False)
        return result

    def _cannot_open(self, exc: BaseException) -> None:
        """The frontier of this job cannot be opened: one ERROR line, and the crawl
        closes as the spider opens, before any request (a full disk: ``disk_full``,
        the same command resumes once there is space; anything else:
        ``frontier_error``). The file is left as it was. (Scrapy skips part of its
        start-up when ``open`` itself raises ``CloseSpider``, hence the signal.)"""
        if is_disk_error(exc):
            disk_of(self.crawler).write_failed("frontier database", self.path, exc, close=False)
            reason = DISK_FULL
        else:
            message = f"Cannot open the frontier of this job: {exc}"
            logger.error("webrobot cannot start: %s", message)
            assert self.stats is not None
            self.stats.set_value(STATS + "error", message)
            reason = OPEN_FAILED

        def close(spider: Spider) -> None:
            raise CloseSpider(reason)

        self.crawler.signals.connect(close, signal=signals.spider_opened, weak=False)

    def _seed_dupefilter(self, disk: SqliteFrontier) -> bool:
        if not isinstance(self.df, SeedableDupeFilter):
            return False
        self.df.seed(disk.visited_keys())
        return True

    def close(self, reason: str) -> Any:
        if self._loop is not None and self._loop.running:
            self._loop.stop()
        if self.disk is not None:
            self._acknowledge_finished()
            self._commit()
            left, leased = len(self.disk), self.disk.leased  # parked ones are leased too
            self.disk.close()
            assert self.stats is not None
            self.stats.set_value(STATS + "disk_bytes", self.disk.disk_bytes())
            self.journal.close()
            logger.info(
                "Closed the frontier of this job (%s): %d requests queued, %d in hand kept for the "
                "next run", reason, left, leased,
            )  # fmt: skip
        spilled = self.frontier.spilled if isinstance(self.frontier, SpillingFrontier) else 0
        if spilled and self.stats is not None:
            self.stats.set_value(STATS + "memory/spilled", spilled)
        if self.disk is None:
            self.frontier.close()  # removes what it spilled to disk
        if self._local:
            logger.warning(
                "%d requests that could not be written to the frontier are dropped",
                len(self._local),
            )
        return self.df.close(reason)

    # -- Scrapy's scheduler interface --------------------------------------------
    def has_pending_requests(self) -> bool:
        return bool(self.leases.waiting or self._local or len(self.frontier))

    def __len__(self) -> int:
        return self.leases.waiting + len(self._local) + len(self.frontier)

    def enqueue_request(self, request: Request) -> bool:
        assert self.stats is not None
        if self.disk is None:
            if not request.dont_filter and self.df.request_seen(request):
                self.df.log(request, self.spider)
                return False
            packed = self.codec.pack(request)
            if packed is request:
                self.stats.inc_value(STATS + "memory/as_request")
            self.frontier.push(request.priority, packed)
            frontier = self.frontier
            if isinstance(frontier, SpillingFrontier) and frontier.spilled and not self._spill_said:
                self._spill_said = True
                logger.info(
                    "Frontier: more than %d requests queued; the next ones wait on disk "
                    "(WEBROBOT_FRONTIER_MEMORY_REQUESTS) and come back in order",
                    frontier.limit,
                )
            self.stats.inc_value("scheduler/enqueued/memory")
            self.stats.inc_value("scheduler/enqueued")
            return True
        if self.leases.handed_back(request):  # leased, handed back by a middleware: still ours
            return True
        key: bytes | None = None
        if not request.dont_filter:
            seen, key = self.df.request_key_seen(request)
            if seen:
                self.df.log(request, self.spider)
                return False
        try:
            payload = pickle.dumps(request.to_dict(spider=self.spider), protocol=4)
        except Exception as exc:  # noqa: BLE001 - pickle raises many types; kept in memory instead
            return self._keep_local(request, exc)
        self.disk.push(request.priority, payload, key)
        self.stats.inc_value("scheduler/enqueued/disk")
        self.stats.inc_value("scheduler/enqueued")
        return True

    def next_request(self) -> Request | None:
        assert self.stats is not None
        if self.disk is None:
            leased = self.frontier.lease()
            if leased is None:
                return None
            self.stats.inc_value("scheduler/dequeued/memory")
            self.stats.inc_value("scheduler/dequeued")
            return self.codec.unpack(leased[1])
        request = self.leases.next_waiting()
        if request is not None:
            self.stats.inc_value("scheduler/dequeued")
            return request
        if self._local:
            self.stats.inc_value("scheduler/dequeued/memory")
            self.stats.inc_value("scheduler/dequeued")
            return self._local.popleft()
        self._acknowledge_finished(commit=False)  # committed with the lease below: one commit
        while True:
            leased = self.disk.lease()
            if leased is None:
                self._commit()
                return None
            entry, payload = leased
            try:
                request = self.codec.pin_callbacks(
                    request_from_dict(pickle.loads(payload), spider=self.spider)
                )
                if entry < self.disk.first_new_entry:
                    # Queued by an earlier run: this run's crawl report never counted it in.
                    request.meta.pop(webrobot_signals.REPORT_FRONTIER_META, None)
            except Exception as exc:  # noqa: BLE001 - a request this code can no longer build
                self.disk.ack(entry, failed=f"unreadable: {type(exc).__name__}")
                self.stats.inc_value(STATS + "unreadable")
                logger.error("Set aside a queued request that cannot be read back: %s", exc)
                continue
            break
        # Committed before the request can reach a server: after a crash, a request
        # fetched and not finished is counted as re-queued, never as plain queued.
        self._commit()
        if self.disk.frozen:  # the lease could not be committed: the request must not go out
            return None
        self.leases.handed_out(entry, request)
        self.stats.inc_value("scheduler/dequeued/disk")
        self.stats.inc_value("scheduler/dequeued")
        return request

    # -- leases ---------------------------------------------------------------------
    def _engine_in_progress(self) -> set[Request] | None:
        return engine_in_progress(self.crawler.engine)

    def _acknowledge_finished(self, *, commit: bool = True) -> None:
        if not self.leases or self.disk is None:
            return
        inprogress = self._engine_in_progress()
        if inprogress is None:
            return
        done = self.leases.done(inprogress)
        if not done:
            return
        assert self.stats is not None
        for entry, request in done:
            failed = request.meta.get(FAILED_KEY)
            self.disk.ack(entry, failed=str(failed) if failed else None)
            self.journal.settle(request.url)
            self.leases.forget(entry)
        self.stats.inc_value(STATS + "acked", len(done))
        if commit:
            self._commit()

    def _commit(self) -> None:
        if self.disk is not None and self.disk.dirty:
            self.journal.flush_feeds()
            self.disk.commit()

    def _tick(self) -> None:
        self._acknowledge_finished()
        self._commit()

    def _keep_local(self, request: Request, exc: Exception) -> bool:
        assert self.stats is not None
        if not self._logged_unserializable:
            self._logged_unserializable = True
            logger.warning(
                "Cannot write %s to the frontier (%s): kept in memory only, lost if the crawl "
                "stops (no more such requests will be logged; stats: scheduler/unserializable)",
                request, exc,
            )  # fmt: skip
        self.stats.inc_value("scheduler/unserializable")
        self._local.append(request)
        self.stats.inc_value("scheduler/enqueued/memory")
        self.stats.inc_value("scheduler/enqueued")
        return True


class CrashSafeJob:
    """Add-on: with the crash-safe frontier, new requests of a site whose robots.txt is being
    decided enter the frontier (where a crash cannot lose them) instead of this process's memory."""

    def __init__(self, crawler: Crawler) -> None:
        self.crawler = crawler

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> Self:
        return cls(crawler)

    def update_settings(self, settings: BaseSettings) -> None:
        hold_new_requests_in_frontier(settings)


def durable_frontier(settings: BaseSettings) -> bool:
    """True when the scheduler keeps this job's state in its frontier database."""
    try:
        if read(settings, "SCHEDULER") != "webrobot.frontier.scheduler.FrontierScheduler":
            return False
        return resolve_mode(read(settings, "WEBROBOT_FRONTIER"), job_dir(settings)) == "sqlite"
    except ValueError:  # a value that cannot be used: the add-on's check reports it
        return False


def hold_new_requests_in_frontier(settings: BaseSettings) -> None:
    """With the crash-safe frontier, ``WEBROBOT_ROBOTS_HOLD_NEW_REQUESTS = False`` (at the
    project's priority, so a site config or ``-s`` still wins); run by :class:`webrobot.Addon`
    and by :class:`CrashSafeJob`."""
    from scrapy.settings import SETTINGS_PRIORITIES

    name = "WEBROBOT_ROBOTS_HOLD_NEW_REQUESTS"
    if (
        durable_frontier(settings)
        and (settings.getpriority(name) or 0) <= SETTINGS_PRIORITIES["project"]
    ):
        settings.set(name, False, priority="project")
