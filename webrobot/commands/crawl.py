"""``scrapy crawl`` with clear failures and an exit status that says why
(:mod:`webrobot.job.exitstatus` holds the table): an unknown or broken site, a bad spider
argument, or a setting whose text does not parse (``-s DEPTH_LIMIT=abc``, or
Scrapyd's ``setting=``; checked against :mod:`webrobot.settingsmodel.model`) prints
one line and exits with status 2 instead of a traceback. A value the add-on
refuses when the crawler starts closes the spider with reason ``config_error``,
which exits with status 2 too. A crawl closed because a folder it writes is full
(finish reason ``disk_full``) exits with status 1, as one whose shared Redis
could not be used (``redis_unavailable``). A crawl closed with nothing left but
requests held for unreachable sites (``held_sites_only``), or that gave up on
sites whose robots.txt never answered, ends with one line naming those sites and
their errors. A crawl that fetched no page because its hosts were given up as dead
names each of them in a line of its own (``no-such-host.invalid: the name does not
resolve``; at most ten, the report lists them all) and exits with 6 (every name does
not resolve), 7 (a host refused) or 8 (given up for another reason); one that fetched
pages exits 0, its dead hosts said in one line of the log.

Every value is checked and every component built before the spider opens
(:func:`webrobot.settingsmodel.startup.refuse_to_open`): a crawl that cannot start opens no feed,
index or report, and its error is the last line on the terminal, once.

Ctrl-C (SIGINT, or SIGTERM) lets the downloads go (:mod:`webrobot.politeness.letgo`:
queued ones at once, those in flight after ``WEBROBOT_SHUTDOWN_GRACE``, kept in the
``JOBDIR`` frontier), prints on the terminal (stderr) at once what it lets go and waits
for (then the feed, report and index being written), also when ``LOG_FILE`` takes the
log away from the terminal, and the crawl exits with 128 + the signal's number (130,
143 for SIGTERM), after a second Ctrl-C too.

Under Scrapyd the job's log is ``LOG_FILE`` and stderr goes to Scrapyd's own
log, so when ``LOG_FILE`` is set the line is also logged at ERROR there.
"""

from __future__ import annotations

import asyncio
import logging
import sys
from typing import TYPE_CHECKING, Any

from scrapy.commands.crawl import Command as ScrapyCrawlCommand
from twisted.internet.defer import Deferred

from webrobot import compat
from webrobot.frontier.scheduler import OPEN_FAILED as FRONTIER_ERROR
from webrobot.job import exitstatus
from webrobot.job.diskspace import FINISH_REASON as DISK_FULL
from webrobot.politeness.letgo import LetGo
from webrobot.robots.held import count
from webrobot.robots.heldlifecycle import HELD_ONLY
from webrobot.settingsmodel.checks import (
    misspelt_setting_message,
    misspelt_settings,
    text_problem,
    unknown_setting_message,
    unknown_settings,
)
from webrobot.settingsmodel.parse import error_lines
from webrobot.settingsmodel.startup import COMMAND_SAYS_ERRORS, StartupError, scrapy_setting_names
from webrobot.urls.deadhosts import DeadHosts
from webrobot.urls.sitekey import request_site

if TYPE_CHECKING:
    import argparse

    from scrapy import Spider
    from scrapy.crawler import Crawler
    from scrapy.statscollectors import StatsCollector

logger = logging.getLogger(__name__)

#: Hosts given up as dead named on the terminal by a crawl that fetched nothing.
DEAD_LINES = 10


class Command(ScrapyCrawlCommand):
    _last_crawler: Crawler | None = None
    #: The signal that asked the crawl to stop (Ctrl-C: SIGINT), if one did.
    stop_signal: int | None = None
    bad_settings: tuple[str, ...] = ()
    unknown_settings: tuple[str, ...] = ()

    def _create_crawler(self, spidercls: type[Spider] | str) -> Crawler:
        self._last_crawler = super()._create_crawler(spidercls)
        # A start-up error is printed by run(), last: logged too only into a LOG_FILE.
        setattr(self._last_crawler, COMMAND_SAYS_ERRORS, True)
        return self._last_crawler

    def process_options(self, args: list[str], opts: argparse.Namespace) -> None:
        assert self.settings is not None
        names = [item.split("=", 1)[0] for item in opts.set if "=" in item]
        defaults = {name: self.settings.get(name) for name in names}
        super().process_options(args, opts)
        bad: list[str] = []
        for name, default in defaults.items():
            value = self.settings.get(name)
            problem = text_problem(name, value, default)
            if problem:
                bad.append(str(problem))
                # Back to the default so that logging can start and report it;
                # no crawl runs (see run()).
                self.settings.set(name, default, priority="cmdline")
        self.bad_settings = tuple(bad)
        # Said in the log by the add-on; on the terminal too when the log goes to a file.
        self.unknown_settings = tuple(
            unknown_setting_message(name, closest) for name, closest in unknown_settings(names)
        ) + tuple(
            misspelt_setting_message(name, closest)
            for name, closest in misspelt_settings(names, scrapy_setting_names())
        )

    def _fail(self, message: str) -> None:
        print(f"webrobot: {message}", file=sys.stderr)
        if self.settings is not None and self.settings.get("LOG_FILE"):
            logger.error("webrobot cannot start: %s", message)
        self.exitcode = 2

    def _last_word(self, message: str) -> None:
        """The crawl's last line, on the terminal and, with ``LOG_FILE``, in the log."""
        print(f"webrobot: {message}", file=sys.stderr)
        if self.settings is not None and self.settings.get("LOG_FILE"):
            logger.warning("%s", message)

    def _stopping(self, signum: int) -> None:
        """The first Ctrl-C: let go of the downloads (:mod:`webrobot.politeness.letgo`)
        and say what the crawl still waits for before it stops."""
        self.stop_signal = signum
        crawler = self._last_crawler
        engine = getattr(crawler, "engine", None)
        letgo = getattr(getattr(engine, "downloader", None), "letgo", None)
        active = getattr(getattr(engine, "downloader", None), "active", None) or ()
        in_hand = compat.engine_in_progress(engine) or set()
        job = bool(self.settings and self.settings.get("JOBDIR"))
        sites = sorted({request_site(r) for r in active})
        named = ", ".join(sites[:3]) + (f" and {len(sites) - 3} more" if len(sites) > 3 else "")
        waits = []
        if isinstance(letgo, LetGo):
            queued, in_flight = letgo.stop()
            if queued:
                kept = " (kept for the next run)" if letgo.hand_back else ""
                waits.append(f"{count(queued, 'queued request')} let go{kept}")
            if in_flight:
                kept = ", kept for the next run" if letgo.hand_back else ""
                waits.append(
                    f"waiting for {count(in_flight, 'download')} in flight ({named}; at most "
                    f"WEBROBOT_SHUTDOWN_GRACE = {letgo.grace:g} s, then let go{kept})"
                )
        elif active:
            timeout = self.settings.getfloat("DOWNLOAD_TIMEOUT") if self.settings else 0
            waits.append(
                f"waiting for {count(len(active), 'download')} in progress ({named}; each at "
                f"most DOWNLOAD_TIMEOUT = {timeout:g} s)"
            )
        if not waits and in_hand:
            waits.append(f"waiting for {count(len(in_hand), 'response')} being processed")
        waits.append("then writing the feed, the report and the index")
        print(
            f"webrobot: stopping (Ctrl-C): {'; '.join(waits)}; press Ctrl-C again to stop at "
            f"once{' (the JOBDIR job resumes where it stopped)' if job else ''}",
            file=sys.stderr,
            flush=True,
        )

    def _crawl(self, args: list[str], opts: argparse.Namespace) -> None:
        """Scrapy's ``crawl``, where a crawl refused before it opened
        (:class:`~webrobot.settingsmodel.startup.StartupError`) is no traceback: run() says why."""
        if len(args) != 1:
            super().run(args, opts)  # Scrapy's usage errors
            return
        assert self.crawler_process is not None
        started = self.crawler_process.crawl(self._create_crawler(args[0]), **opts.spargs)
        if isinstance(started, Deferred):
            started.addErrback(lambda failure: failure.trap(StartupError) and None)
        elif isinstance(started, asyncio.Future):
            started.add_done_callback(_startup_error_said)
        self.crawler_process.start()
        if self.crawler_process.bootstrap_failed and not isinstance(
            getattr(getattr(self._last_crawler, "spider", None), "config_error", None),
            Exception,
        ):
            self.exitcode = 1

    def _dead_end(self, stats: StatsCollector) -> None:
        """The exit status of a crawl that fetched nothing
        (:func:`exitstatus.nothing_fetched`), and then one line per host given up as
        dead (at most :data:`DEAD_LINES`: the report lists them all). A crawl that
        fetched pages says its dead hosts in one line (the log's closing line, on the
        terminal too when ``LOG_FILE`` takes the log away)."""
        crawler = self._last_crawler
        dead = DeadHosts.find(crawler) if crawler is not None else None
        book = dead.book if dead is not None else None
        reason = stats.get_value("finish_reason")
        if self.exitcode or reason in (DISK_FULL, FRONTIER_ERROR, "redis_unavailable"):
            return
        if dead is not None and dead.shared:
            return  # a worker of a shared crawl fetches a share: its own count says nothing
        pages = int(stats.get_value("downloader/response_count", 0) or 0) - int(
            stats.get_value("robotstxt/response_count", 0) or 0
        )
        failures = int(stats.get_value("webrobot/robots/deferred_gave_up", 0) or 0) + int(
            stats.get_value("webrobot/page/failed", 0) or 0
        )
        status = exitstatus.nothing_fetched(
            pages, book.kinds() if book else [], failures,
            held_only=stats.get_value("finish_reason") == HELD_ONLY,
        )  # fmt: skip
        if status is None:
            line = dead.closing_line() if dead is not None else None
            if line is not None and self.settings is not None and self.settings.get("LOG_FILE"):
                print(f"webrobot: {line}", file=sys.stderr)  # (the log says it on the terminal)
            return
        lines = book.lines() if book else []
        for line in lines[:DEAD_LINES]:
            print(f"webrobot: {line}", file=sys.stderr)
        if len(lines) > DEAD_LINES:
            print(
                f"webrobot: and {len(lines) - DEAD_LINES} more hosts given up (the report "
                "lists them all: Hosts given up)",
                file=sys.stderr,
            )
        self.exitcode = status.code
        self._last_word(f"nothing was fetched: exit status {status.code} ({status.name})")

    def run(self, args: list[str], opts: argparse.Namespace) -> None:
        if self.crawler_process is not None:
            compat.on_shutdown_signal(self.crawler_process, self._stopping)
        if self.settings is not None and self.settings.get("LOG_FILE"):
            for line in self.unknown_settings:
                print(f"webrobot: warning: {line}", file=sys.stderr)
        if self.bad_settings:
            for problem in self.bad_settings:
                self._fail(problem)
            return
        if len(args) == 1 and self.crawler_process is not None:
            loader = self.crawler_process.spider_loader
            try:
                loader.load(args[0])
            except KeyError as exc:
                known = ", ".join(sorted(loader.list()))
                self._fail(f"{exc.args[0]} (known spiders: {known})")
                return
        self._crawl(args, opts)
        spider = getattr(self._last_crawler, "spider", None)
        error = getattr(spider, "config_error", None)
        if error is not None:
            # Found before the spider opened (nothing was opened: no feed, index or
            # report), or by a part that starts when it opens: said last on the
            # terminal, where a person looks, whether or not the log went to LOG_FILE.
            for line in error_lines(error):
                print(f"webrobot: cannot start: {line}", file=sys.stderr)
            self.exitcode = exitstatus.USAGE.code
        stats = getattr(self._last_crawler, "stats", None)
        if self.stop_signal is not None and not self.exitcode:
            # Stopped by Ctrl-C or SIGTERM (finish reason "shutdown"), or at once by a
            # second one: the status a shell gives a program a signal ended, 128 + its number.
            self.exitcode = exitstatus.stopped_by(self.stop_signal).code
        if stats is not None and stats.get_value("finish_reason") == DISK_FULL:
            self.exitcode = exitstatus.RESOURCE.code  # a folder the crawl writes is full
            what = stats.get_value("webrobot/disk/failed") or "a write failed"
            print(
                f"webrobot: the crawl stopped for want of disk space ({what}); free some and run "
                "the same command to resume",
                file=sys.stderr,
            )
        if stats is not None and stats.get_value("finish_reason") == HELD_ONLY:
            self._last_word(str(stats.get_value("webrobot/robots/held_only_closed") or HELD_ONLY))
        elif stats is not None and stats.get_value("webrobot/robots/gave_up_sites"):
            self._last_word(str(stats.get_value("webrobot/robots/gave_up_sites")))
        if stats is not None and error is None:
            self._dead_end(stats)
        if stats is not None and stats.get_value("finish_reason") == FRONTIER_ERROR:
            self.exitcode = exitstatus.USAGE.code  # the job's frontier file cannot be read
            print(f"webrobot: {stats.get_value('webrobot/frontier/error')}", file=sys.stderr)
        if stats is not None and stats.get_value("finish_reason") == "redis_unavailable":
            self.exitcode = exitstatus.RESOURCE.code  # the shared crawl's Redis could not be used
            message = stats.get_value("webrobot/redis/error")
            if message:
                print(f"webrobot: {message}", file=sys.stderr)


def _startup_error_said(task: asyncio.Future[Any]) -> None:
    """The crawl's task is done: a :class:`~webrobot.settingsmodel.startup.StartupError` is said by
    run(), once; any other error is logged with its traceback, as asyncio would."""
    if task.cancelled():
        return
    error = task.exception()
    if error is not None and not isinstance(error, StartupError):
        logger.error("The crawl failed", exc_info=error)
