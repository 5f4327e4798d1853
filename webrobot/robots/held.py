"""Requests held per site while its robots.txt is decided, and their timers.

A request awaited inside ``process_request`` stays in the downloader's
``active`` set, which the engine counts against ``CONCURRENT_REQUESTS``: a few
hundred requests of one deferred site would stop every other site. So a
request whose site is not resolved is never kept inside the downloader:

* when the engine schedules a request (``request_scheduled`` signal) for a
  site whose robots.txt is being fetched or retried, it is *held* in a
  per-site list (:class:`PendingSite`) instead of entering the scheduler;
* a request that reaches ``process_request`` first (it was scheduled before
  the site was known) starts the fetch and is handed back to the engine,
  which schedules it again, and so it is held as above;
* when the site resolves, held requests go back to the engine
  (``engine.crawl``) in their original order and priority, or, if the site
  counts as disallowed, are refused one by one (counted, logged, signalled).

The requests handed back after being held had passed the duplicate filter
already, so on their way back they carry ``dont_filter`` through the
scheduler (restored before anything else looks at it: middlewares below
priority 100 see them twice). Requests made with ``engine.download_async``
(not scheduled) wait inside ``process_request`` instead; they are rare. While
anything is held the spider is kept open (``spider_idle`` +
``DontCloseSpider``).

With ``WEBROBOT_ROBOTS_HOLD_NEW_REQUESTS = False`` (the distributed add-on
sets it), a new request for a site being decided is not held at scheduling
but enters the scheduler (a shared frontier, where no worker's death can lose
it); it is held when it comes back from the scheduler.

A site whose robots.txt fails is retried with a growing interval
(:class:`Backoff`); while it has rules fetched before that have not been
expired too long, those are obeyed meanwhile (stale use); after
``WEBROBOT_ROBOTS_DEFER_MAX`` seconds of failures it counts as disallowed. A
host name that does not resolve (:attr:`RobotsFetch.unresolved
<webrobot.robots.fetch.RobotsFetch.unresolved>`: Twisted's ``DNSLookupError`` or
Scrapy's ``CannotResolveHostError``, recognised by class) has its own, shorter
limit, ``WEBROBOT_ROBOTS_DNS_DEFER_MAX``: a name that does not exist rarely
comes back within the hour a struggling server gets. A host that is dead
(:mod:`webrobot.urls.deadpolicy`: the resolver says its name does not exist, or
its port refuses connections) is given up in seconds instead: a name after two
tries ``WEBROBOT_DEAD_NAME_RETRY`` apart, a refused port after
``WEBROBOT_DEAD_REFUSED_MAX``; a resolver that cannot be reached keeps the
longer limit.

When the crawl has nothing left but held requests (the engine is idle and only
held sites keep it open), :class:`HeldOnlyClock` starts; after
``WEBROBOT_ROBOTS_HELD_ONLY_MAX`` seconds of that the crawl closes with reason
``held_sites_only`` instead of waiting out each site's own limit. Holding a
struggling site is right while the crawl has other work; once it has none, a
person waits for nothing but a server that may be gone.

If the spider closes with requests held (shutdown, a timeout, ``held_sites_only``),
a ``JOBDIR`` job keeps them in ``JOBDIR/webrobot-robots-held.pickle``
(:class:`HeldFile`) and schedules them again on resume.
"""

from __future__ import annotations

import logging
import os
import pickle
import time
from dataclasses import dataclass, field
from time import monotonic
from typing import TYPE_CHECKING

from scrapy.utils.request import request_from_dict
from twisted.internet.defer import Deferred

from webrobot.robots import policy
from webrobot.urls.deadpolicy import NO_SUCH_NAME, DeadHostPolicy, Streak

if TYPE_CHECKING:
    from collections.abc import Callable, Iterable
    from pathlib import Path

    from scrapy import Spider
    from scrapy.http import Request
    from scrapy.utils.asyncio import CallLaterResult

    from webrobot.robots.fetch import RobotsFetch
    from webrobot.robots.policy import RobotsDecision

logger = logging.getLogger(__name__)

#: Under ``JOBDIR``: the requests still held when the spider closed, for the next run.
HELD_FILE = "webrobot-robots-held.pickle"
#: Sites named in a closing line (the report lists them all).
HELD_NAMED = 5


@dataclass(eq=False)
class PendingSite:
    """A site whose robots.txt is being fetched, or will be again after a failure."""

    site: str
    robots_url: str
    trigger: Request | None = None
    stale: RobotsDecision | None = None  # the expired decision, kept while re-fetches fail
    stale_mode: bool = False  # obeying ``stale`` while retrying in the background
    held: list[Request] = field(default_factory=list)
    waiters: list[Deferred[RobotsDecision | None]] = field(default_factory=list)
    fetching: bool = False
    timer: CallLaterResult | None = None
    deferral: policy.Deferral | None = None
    last_reason: str = ""  # the status or error of the last failed attempt
    last_detail: str = ""
    gives_up_at: float | None = None  # monotonic; None: no limit (or not failing)
    streak: Streak = field(default_factory=Streak)  # the failures of one kind in a row

    def wait(self) -> Deferred[RobotsDecision | None]:
        waiter: Deferred[RobotsDecision | None] = Deferred()
        self.waiters.append(waiter)
        return waiter

    def wake(self, decision: RobotsDecision | None) -> None:
        waiters, self.waiters = self.waiters, []
        for waiter in waiters:
            waiter.callback(decision)

    def take_held(self, which: Callable[[Request], bool]) -> list[Request]:
        """Take the held requests ``which`` selects (for another part to refuse: the
        requisites of a host found dead, which nobody waits for)."""
        taken = [request for request in self.held if which(request)]
        if taken:
            self.held = [request for request in self.held if not which(request)]
        return taken

    def cancel_timer(self) -> None:
        if self.timer is not None:
            self.timer.cancel()
            self.timer = None


def duration(seconds: float) -> str:
    """A wait as people read it: ``'45 s'``, ``'12 min'``, ``'3.0 h'``."""
    if seconds >= 2 * 86400:
        return f"{seconds / 86400:.1f} d"
    if seconds >= 2 * 3600:
        return f"{seconds / 3600:.1f} h"
    if seconds >= 120:
        return f"{seconds / 60:.0f} min"
    return f"{seconds:.3g} s"


def count(n: int, word: str) -> str:
    """``'1 site'``, ``'3 sites'``."""
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def site_line(pending: PendingSite, attempts: int, since: float) -> str:
    """``http://h:80 (DownloadConnectionRefusedError: ...; 7 attempts over 3 min)``."""
    detail = f": {pending.last_detail[:120]}" if pending.last_detail else ""
    return (
        f"{pending.site} ({pending.last_reason or 'no answer yet'}{detail}; "
        f"{count(attempts, 'attempt')} over {duration(since)})"
    )


class GaveUpSites:
    """The sites given up on in this crawl (their robots.txt never answered), the
    first :data:`HELD_NAMED` described for the crawl's last line."""

    def __init__(self) -> None:
        self.sites = 0
        self.named: list[str] = []

    def add(self, pending: PendingSite, attempts: int, since: float) -> None:
        self.sites += 1
        if len(self.named) < HELD_NAMED:
            self.named.append(site_line(pending, attempts, since))

    def line(self) -> str:
        """``Gave up on 2 unreachable sites whose robots.txt never answered; ...``."""
        more = f" and {self.sites - HELD_NAMED} more" if self.sites > HELD_NAMED else ""
        return (
            f"Gave up on {count(self.sites, 'unreachable site')} whose robots.txt never "
            f"answered; their requests were not crawled: {'; '.join(self.named)}{more}"
        )


def held_only_line(held: list[PendingSite], now: float, limit: float, *, kept: bool) -> str:
    """The line of a crawl closed with nothing left but ``held`` (``now``: monotonic):
    which sites could not be reached, why, and what became of their requests."""
    requests = sum(len(pending.held) for pending in held)
    named = [
        site_line(
            pending,
            pending.deferral.attempts if pending.deferral else 0,
            pending.deferral.elapsed(now) if pending.deferral else 0.0,
        )
        for pending in sorted(held, key=lambda p: -len(p.held))[:HELD_NAMED]
    ]
    more = f" and {len(held) - HELD_NAMED} more" if len(held) > HELD_NAMED else ""
    fate = (
        "kept for the next run of the job"
        if kept
        else "not crawled (with JOBDIR they are kept for a resume)"
    )
    return (
        f"Closed after {duration(limit)} with nothing left but {count(requests, 'request')} "
        f"held for {count(len(held), 'unreachable site')} (WEBROBOT_ROBOTS_HELD_ONLY_MAX): "
        f"{'; '.join(named)}{more}; their requests are {fate}"
    )


def held_row(pending: PendingSite, now: float) -> dict[str, object]:
    """A held site as report.json's ``held`` lists it (``now``: monotonic)."""
    deferral = pending.deferral
    return {
        "site": pending.site,
        "reason": pending.last_reason,
        "detail": pending.last_detail[:300],
        "attempts": deferral.attempts if deferral else 0,
        "held_seconds": round(deferral.elapsed(now), 3) if deferral else 0.0,
        "requests": len(pending.held),
        "gives_up_in": None
        if pending.gives_up_at is None
        else round(max(0.0, pending.gives_up_at - now), 3),
    }


def held_rows(pendings: Iterable[PendingSite], now: float) -> list[dict[str, object]]:
    """The sites still held (or deferred without stale rules), by site, as report.json's
    ``held`` lists them."""
    return [
        held_row(pending, now)
        for pending in sorted(pendings, key=lambda p: p.site)
        if pending.held or (pending.deferral is not None and not pending.stale_mode)
    ]


class HeldFile:
    """Held requests kept across runs of a ``JOBDIR`` job."""

    def __init__(self, path: Path) -> None:
        self.path = path

    def load(self, spider: Spider | None) -> list[Request] | None:
        """The requests the last run still held (None: nothing to resume)."""
        path = self.path
        if not path.exists():
            return None
        try:
            requests = [
                request_from_dict(pickle.loads(data), spider=spider)
                for data in pickle.loads(path.read_bytes())
            ]
        except Exception:  # a damaged file: say so, keep it, crawl on
            aside = path.with_name(path.name + ".bad")
            os.replace(path, aside)
            logger.exception(
                "Cannot resume the requests held for robots.txt (file kept as %s)", aside
            )
            return None
        path.unlink()
        return requests

    def save(self, held: list[Request], spider: Spider | None) -> int:
        """Keep held requests for the next run (the scheduler's queue is closed
        by now); returns how many could be kept."""
        saved: list[bytes] = []
        for request in held:
            try:
                saved.append(pickle.dumps(request.to_dict(spider=spider), protocol=4))
            except Exception:  # noqa: BLE001, S112 - not serialisable: not kept (as in Scrapy's disk queue)
                continue
        temp = self.path.with_name(self.path.name + ".tmp")
        try:
            temp.write_bytes(pickle.dumps(saved, protocol=4))
            os.replace(temp, self.path)
        except OSError:
            logger.exception("Cannot keep the requests held for robots.txt in %s", self.path)
            return 0
        return len(saved)


@dataclass(frozen=True)
class AfterFailure:
    """What to do after a failed robots.txt attempt: ``action`` is ``"stale"``
    (obey ``pending.stale`` and retry in ``delay``), ``"retry"`` (keep holding,
    retry in ``delay``) or ``"give_up"`` (the site counts as unreachable)."""

    action: str
    delay: float
    reason: str
    elapsed: float = 0.0
    #: The site's limit (``WEBROBOT_ROBOTS_DEFER_MAX`` or, for a name that does not
    #: resolve, ``WEBROBOT_ROBOTS_DNS_DEFER_MAX``), seconds from its first failure; 0: none.
    limit: float = 0.0
    #: The dead host's kind (:mod:`webrobot.urls.deadpolicy`) when the failures say
    #: the host is dead, and how many tries in a row said so.
    dead: str | None = None
    tries: int = 0


class Backoff:
    """Retry timing for failed robots.txt fetches."""

    def __init__(
        self,
        *,
        base: float,
        cap: float,
        defer_max: float,
        stale_max: float,
        dns_defer_max: float = 0.0,
        dead: DeadHostPolicy | None = None,
        known_dead: Callable[[str], bool] | None = None,
    ) -> None:
        self.dead = dead
        self.known_dead = known_dead  # a URL whose host was given up already
        self.base = base
        self.cap = cap
        self.defer_max = defer_max
        self.stale_max = stale_max
        self.dns_defer_max = dns_defer_max

    def after_failure(self, pending: PendingSite, result: RobotsFetch) -> AfterFailure:
        now_wall, now = time.time(), monotonic()
        reason = str(result.status) if result.status is not None else (result.error or "error")
        retry_after = policy.parse_retry_after(result.headers.get("retry-after"), now_wall)
        if pending.deferral is None:
            pending.deferral = policy.Deferral(first_failure=now)
        deferral = pending.deferral
        stale = pending.stale
        if stale is not None and stale.usable_stale(now_wall, self.stale_max):
            delay = deferral.failed(
                now, base=self.base, cap=self.cap, defer_max=0, retry_after=retry_after
            )
            assert delay is not None
            return AfterFailure("stale", delay, reason)
        kind = result.dead if self.dead is not None else None
        tries, since = pending.streak.failed(kind, now)
        if kind is not None and self.dead is not None:
            usual = deferral.failed(
                now, base=self.base, cap=self.cap, defer_max=0, retry_after=retry_after
            )
            assert usual is not None
            known = self.known_dead is not None and self.known_dead(pending.robots_url)
            delay = self.dead.next_try(kind, tries, since, usual, known=known)
            if delay is None:
                return AfterFailure("give_up", 0.0, reason, since, since, kind, tries)
            limit = since + delay if kind == NO_SUCH_NAME else self.dead.refused_max
            return AfterFailure("retry", delay, reason, since, limit, kind, tries)
        defer_max = self.defer_max
        if result.unresolved and self.dns_defer_max > 0:
            defer_max = min(defer_max, self.dns_defer_max) if defer_max > 0 else self.dns_defer_max
        delay = deferral.failed(
            now, base=self.base, cap=self.cap, defer_max=defer_max, retry_after=retry_after
        )
        if delay is None:
            return AfterFailure("give_up", 0.0, reason, deferral.elapsed(now), defer_max)
        return AfterFailure("retry", delay, reason, deferral.elapsed(now), defer_max)


class HeldOnlyClock:
    """How long the crawl has had nothing left but held requests.

    :meth:`idle` is called when the engine is idle with requests held; the clock
    starts then and runs until :meth:`work` (a request scheduled that is not held,
    which includes held requests released). ``limit`` 0: the clock never ends the crawl."""

    def __init__(self, limit: float) -> None:
        self.limit = limit
        self.since: float | None = None

    def idle(self, now: float) -> tuple[bool, float | None]:
        """(whether the clock started now, seconds left before the crawl closes:
        None without a limit, 0 or less when it is time to close)."""
        started = self.since is None
        if started:
            self.since = now
        if self.limit <= 0:
            return started, None
        assert self.since is not None
        return started, self.limit - (now - self.since)

    def work(self) -> bool:
        """Other work came: stop the clock; True when it was running."""
        running = self.since is not None
        self.since = None
        return running
