"""What the crawl did, per site: counters and the live state of each site
(:class:`CrawlTally`), read by the progress line (:mod:`webrobot.report.progressline`),
the report (:mod:`webrobot.report.document`, its health checks in
:mod:`webrobot.report.health`) and the metrics (:mod:`webrobot.report.metricsmodel`).
Pure logic: no Scrapy, no I/O; times are passed in (seconds since the crawl started).

The Scrapy glue that feeds it is :mod:`webrobot.report.collector`.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Collection, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from webrobot.report.givenup import on_dead_host, site_labels
from webrobot.report.kinds import PAGE, ROBOTS

#: robots_resolved outcome meaning the robot gave up on a site's robots.txt
ROBOTS_UNREACHABLE = "unreachable"
#: page flags counted per site (webrobot.signals.page_flagged, or inferred)
PAGE_FLAGS = ("duplicate", "noindex", "nofollow")
#: reason of an IgnoreRequest that no component counted as a refusal
IGNORED = "ignored"
#: site states shown in the progress line, in display order
SITE_STATES = ("active", "waiting_robots", "deferred", "exhausted")


@dataclass
class RobotsRecord:
    """A site's robots.txt as the crawl saw it."""

    fetches: int = 0  # robots.txt requests sent (redirects and retries included)
    in_flight: int = 0  # robots.txt requests in the downloader now
    status: int | None = None  # status of the last final robots.txt response
    outcome: str | None = None
    rules: str | None = None
    fetched_at: float | None = None  # epoch seconds
    expires: float | None = None  # epoch seconds
    crawl_delay: float | None = None
    resolved: bool = False
    errors: Counter[str] = field(default_factory=Counter)


@dataclass
class SiteTally:
    """Counters of one site (scheme://host:port)."""

    # the frontier: scheduled - dupe-filtered - taken out by the engine
    scheduled: int = 0
    filtered: int = 0
    dequeued: int = 0
    in_downloader: int = 0  # requests (not robots.txt) between downloader queue and result
    # requests sent by kind (webrobot.report.kinds; each retry and redirect hop counts)
    sent: Counter[str] = field(default_factory=Counter)
    # responses received by kind, any status (304 included)
    received: Counter[str] = field(default_factory=Counter)
    unchanged: int = 0  # pages answered 304 Not Modified
    bytes: int = 0  # body bytes received (robots.txt included)
    items: int = 0
    items_dropped: int = 0
    refused: Counter[str] = field(default_factory=Counter)
    errors: Counter[str] = field(default_factory=Counter)
    failed: int = 0  # requests (not robots.txt) that got no response, or a status >= 400
    status: Counter[int] = field(default_factory=Counter)
    flags_signalled: Counter[str] = field(default_factory=Counter)
    flags_inferred: Counter[str] = field(default_factory=Counter)
    delay: float | None = None  # the download delay last applied to the site
    deferrals: int = 0
    deferred_seconds: float = 0.0
    deferred_from: float | None = None  # crawl seconds; None: not deferred now
    deferred_until: float = 0.0
    deferred_reason: str = ""  # why the current deferral started, shown while it lasts
    gives_up_at: float | None = None  # crawl seconds when a held site counts as unreachable
    first_at: float | None = None  # crawl seconds of the first request sent
    last_at: float | None = None  # crawl seconds of the last response
    robots: RobotsRecord = field(default_factory=RobotsRecord)

    @property
    def requests(self) -> int:
        """Page requests sent (each retry and redirect hop counts)."""
        return self.sent[PAGE]

    @property
    def responses(self) -> int:
        """Page responses received, any status (304 included)."""
        return self.received[PAGE]

    @property
    def fetches(self) -> int:
        """Requests of every kind but robots.txt sent: what the error rate is out of."""
        return sum(n for kind, n in self.sent.items() if kind != ROBOTS)

    @property
    def frontier(self) -> int:
        return max(0, self.scheduled - self.filtered - self.dequeued)

    @property
    def crawled(self) -> bool:
        """Was anything of this site requested (not only refused)?"""
        robots = self.robots
        return bool(self.fetches or self.in_downloader or robots.fetches or robots.in_flight
                    or self.deferrals)  # fmt: skip

    def state(self, now: float) -> str:
        if self.deferred_from is not None and now < self.deferred_until:
            return "deferred"
        if self.robots.in_flight:
            return "waiting_robots"
        if self.frontier or self.in_downloader:
            return "active"
        return "exhausted"

    def _end_deferral(self, now: float) -> None:
        if self.deferred_from is not None:
            self.deferred_seconds += max(0.0, min(now, self.deferred_until) - self.deferred_from)
            self.deferred_from = None


class Timeline:
    """Page responses per time bucket and site. Buckets start one second wide and
    double (merging pairs) whenever the crawl outgrows ``max_buckets``."""

    def __init__(self, max_buckets: int = 120, width: float = 1.0) -> None:
        self.max_buckets = max_buckets
        self.width = width
        self.counts: dict[str, list[int]] = {}

    def add(self, site: str, at: float, n: int = 1) -> None:
        index = int(max(0.0, at) // self.width)
        while index >= self.max_buckets:
            self._widen()
            index = int(max(0.0, at) // self.width)
        row = self.counts.setdefault(site, [])
        if len(row) <= index:
            row.extend([0] * (index + 1 - len(row)))
        row[index] += n

    def _widen(self) -> None:
        self.width *= 2
        for site, row in self.counts.items():
            self.counts[site] = [sum(row[i : i + 2]) for i in range(0, len(row), 2)]

    def as_dict(self) -> dict[str, Any]:
        length = max((len(row) for row in self.counts.values()), default=0)
        return {
            "bucket_seconds": self.width,
            "sites": {s: row + [0] * (length - len(row)) for s, row in sorted(self.counts.items())},
        }


#: Pages that failed for good listed by URL in the report (all are counted).
MAX_FAILED_LISTED = 1000


class CrawlTally:
    """Every per-site event of a crawl. ``now`` arguments are seconds since the
    crawl started (a monotonic clock), ``wall`` ones epoch seconds."""

    def __init__(self, timeline: Timeline | None = None) -> None:
        self.sites: dict[str, SiteTally] = {}
        self.timeline = timeline or Timeline()
        self.flag_signals_seen: set[str] = set()
        self.failed_pages: list[dict[str, str]] = []  # the first MAX_FAILED_LISTED
        self.failed_total = 0
        #: Crawl seconds when the crawl closes for having nothing left but held requests
        #: (None: it has other work, or no such limit).
        self.held_only_closes_at: float | None = None
        self.held_only = False
        #: Hosts known dead (given up, or failed once as dead), as ``dead_hosts`` names them.
        self.dead_hosts: set[str] = set()

    def site(self, key: str) -> SiteTally:
        tally = self.sites.get(key)
        if tally is None:
            tally = self.sites[key] = SiteTally()
        return tally

    def given_up_only(self, key: str, labels: Collection[str] = ()) -> bool:
        """Is ``key`` a site whose host is dead (known here, or among ``labels``) and
        of which nothing but robots.txt was requested? Such a host is listed under
        "Hosts given up" only, not among the sites (:mod:`webrobot.report.givenup`)."""
        tally = self.sites.get(key)
        if tally is None or tally.fetches or tally.in_downloader or tally.frontier:
            return False
        return on_dead_host(key, self.dead_hosts) or on_dead_host(key, labels)

    def given_up_sites(self, labels: Collection[str] = ()) -> set[str]:
        """The site keys :meth:`given_up_only` says are not sites of the crawl."""
        return {key for key in self.sites if self.given_up_only(key, labels)}

    # -- dead hosts ----------------------------------------------------------
    def host_dead(self, label: str) -> None:
        """The host ``label`` (``dead_hosts``' spelling) was given up, or failed once, as dead."""
        self.dead_hosts.add(label)

    # -- the frontier ------------------------------------------------------
    def scheduled(self, site: str) -> None:
        self.site(site).scheduled += 1

    def filtered(self, site: str) -> None:
        self.site(site).filtered += 1

    def dequeued(self, site: str) -> None:
        self.site(site).dequeued += 1

    # -- the downloader ------------------------------------------------------
    def reached_downloader(self, site: str, robots: bool) -> None:
        tally = self.site(site)
        if robots:
            tally.robots.in_flight += 1
        else:
            tally.in_downloader += 1

    def left_downloader(self, site: str, kind: str, now: float) -> None:
        """A request of ``kind`` (:mod:`webrobot.report.kinds`) left the downloader."""
        tally = self.site(site)
        tally.sent[kind] += 1
        if kind == ROBOTS:
            tally.robots.in_flight = max(0, tally.robots.in_flight - 1)
            tally.robots.fetches += 1
            return
        tally.in_downloader = max(0, tally.in_downloader - 1)
        if tally.first_at is None:
            tally.first_at = now

    def downloaded(
        self,
        site: str,
        status: int,
        size: int,
        kind: str,
        now: float,
        delay: float | None = None,
    ) -> None:
        """A raw response to a request of ``kind``, before any middleware turned it
        into something else."""
        tally = self.site(site)
        tally.bytes += size
        tally.received[kind] += 1
        if delay is not None:
            tally.delay = delay
        if kind == ROBOTS:
            return
        tally.status[status] += 1
        tally.last_at = now
        if status == 304:
            tally.unchanged += kind == PAGE
        elif status >= 400:
            tally.failed += 1
            tally.errors[f"HTTP {status}"] += 1
        if kind == PAGE:
            self.timeline.add(site, now)

    def download_error(self, site: str, error: str, robots: bool) -> None:
        tally = self.site(site)
        if robots:
            tally.robots.errors[error] += 1
        else:
            tally.failed += 1
            tally.errors[error] += 1

    # -- robots.txt ----------------------------------------------------------
    def robots_response(self, site: str, status: int, wall: float, rules: str | None = None,
                        crawl_delay: float | None = None) -> None:  # fmt: skip
        """The final robots.txt response (after redirects), as the crawl saw it."""
        robots = self.site(site).robots
        robots.status = status
        robots.fetched_at = wall
        if rules is not None and robots.rules is None:
            robots.rules = rules
        if crawl_delay is not None and robots.crawl_delay is None:
            robots.crawl_delay = crawl_delay

    def robots_parsed(self, site: str, now: float) -> None:
        """Rules are in use for the site (Scrapy's robots_parsed signal)."""
        tally = self.site(site)
        tally.robots.resolved = True
        tally._end_deferral(now)

    def robots_resolved(self, site: str, now: float, info: Mapping[str, Any]) -> None:
        """webrobot.signals.robots_resolved: what the robots.txt middleware decided."""
        tally = self.site(site)
        robots = tally.robots
        outcome = info.get("outcome")
        if outcome is not None:
            robots.outcome = str(outcome)
        robots.resolved = robots.outcome != ROBOTS_UNREACHABLE
        for name in ("status", "rules", "fetched_at", "expires", "crawl_delay"):
            if info.get(name) is not None:
                setattr(robots, name, info[name])
        tally._end_deferral(now)
        tally.gives_up_at = None
        if self.dead_hosts and robots.resolved:  # it answered after all: not dead
            self.dead_hosts.difference_update(site_labels(site))

    def deferred(
        self, site: str, now: float, delay: float, reason: str = "",
        gives_up_in: float | None = None,
    ) -> None:  # fmt: skip
        tally = self.site(site)
        tally.gives_up_at = None if gives_up_in is None else now + max(0.0, gives_up_in)
        if tally.deferred_from is None or now >= tally.deferred_until:
            tally._end_deferral(now)
            tally.deferrals += 1
            tally.deferred_from = now
        tally.deferred_until = max(tally.deferred_until, now + max(0.0, delay))
        tally.deferred_reason = reason or tally.deferred_reason

    def held_sites_only(self, now: float, closes_in: float | None, active: bool) -> None:
        """webrobot.signals.held_sites_only: nothing but held requests is left (or work came)."""
        self.held_only = active
        self.held_only_closes_at = now + closes_in if active and closes_in is not None else None

    def held(self, now: float) -> list[tuple[str, str, float | None]]:
        """Sites held after failed robots.txt attempts: (site, reason, seconds until they
        are given up, the crawl's closing included; None: no limit), soonest first."""
        rows = []
        for key, tally in self.sites.items():
            if tally.robots.resolved or not tally.deferrals or tally.robots.outcome:
                continue
            if self.given_up_only(key):
                continue
            ends = [t for t in (tally.gives_up_at, self.held_only_closes_at) if t is not None]
            rows.append((key, tally.deferred_reason, max(0.0, min(ends) - now) if ends else None))
        rows.sort(key=lambda row: (row[2] is None, row[2] or 0.0, row[0]))
        return rows

    def deferral_reasons(self, now: float) -> Counter[str]:
        """Sites deferred right now, by the reason their robots.txt failed."""
        return Counter(
            tally.deferred_reason or "unknown"
            for key, tally in self.sites.items()
            if (tally.crawled or tally.frontier)
            and tally.state(now) == "deferred"
            and not self.given_up_only(key)
        )

    # -- decisions -----------------------------------------------------------
    def refused(self, site: str, reason: str) -> None:
        self.site(site).refused[reason] += 1

    def item_scraped(self, site: str, meta_robots: Iterable[str] = ()) -> None:
        tally = self.site(site)
        tally.items += 1
        for flag in set(meta_robots) & {"noindex", "nofollow"}:
            tally.flags_inferred[flag] += 1

    def item_dropped(self, site: str, message: str) -> None:
        tally = self.site(site)
        tally.items_dropped += 1
        text = message.lower()
        if "duplicate" in text:
            tally.flags_inferred["duplicate"] += 1
        elif "noindex" in text:
            tally.flags_inferred["noindex"] += 1

    def page_flagged(self, site: str, flag: str) -> None:
        self.flag_signals_seen.add(flag)
        self.site(site).flags_signalled[flag] += 1

    def page_failed(self, site: str, url: str, reason: str) -> None:
        self.failed_total += 1
        if len(self.failed_pages) < MAX_FAILED_LISTED:
            self.failed_pages.append({"url": url, "site": site, "reason": reason})

    def spider_error(self, site: str, error: str) -> None:
        self.site(site).errors[f"spider {error}"] += 1

    # -- reading -------------------------------------------------------------
    def flag_count(self, tally: SiteTally, flag: str) -> int:
        """The page_flagged count once any component sends it, else what the
        items and dropped items tell."""
        if flag in self.flag_signals_seen:
            return tally.flags_signalled[flag]
        return tally.flags_inferred[flag]

    def frontier(self) -> int:
        return sum(t.frontier for t in self.sites.values())

    def in_downloader(self) -> int:
        """Requests (robots.txt included) queued in or going through the downloader."""
        return sum(t.in_downloader + t.robots.in_flight for t in self.sites.values())

    def states(self, now: float) -> Counter[str]:
        """How many sites are in each state (sites never requested, and dead hosts of
        which only robots.txt was asked, left out)."""
        out: Counter[str] = Counter({state: 0 for state in SITE_STATES})
        for key, tally in self.sites.items():
            if (tally.crawled or tally.frontier) and not self.given_up_only(key):
                out[tally.state(now)] += 1
        return out

    def received(self) -> Counter[str]:
        """Responses received so far, by kind (:mod:`webrobot.report.kinds`)."""
        out: Counter[str] = Counter()
        for tally in self.sites.values():
            out.update(tally.received)
        return out

    def totals(self) -> tuple[int, int, Counter[str]]:
        """(page responses, items, refusals by reason) so far."""
        refused: Counter[str] = Counter()
        for tally in self.sites.values():
            refused.update(tally.refused)
        return (
            sum(t.responses for t in self.sites.values()),
            sum(t.items for t in self.sites.values()),
            refused,
        )


def ignored_reason(message: str) -> str:
    """Refusal reason of an IgnoreRequest that did not go through the Refuser."""
    return "robots_txt" if "robots.txt" in message else IGNORED
