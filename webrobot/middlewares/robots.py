"""robots.txt with status semantics, expiry, deferral and stale use.

Replaces Scrapy's ``RobotsTxtMiddleware`` (which parses any body whatever its
status, allows everything on errors, caches forever and ignores
Crawl-delay). What each answer means is decided in
:mod:`webrobot.robotspolicy`; the rules are read by the ``ROBOTSTXT_PARSER``
class (or the first-match parser when ``WEBROBOT_ROBOTS_MATCHING =
"first-match"``); one decision per site is kept in the
``WEBROBOT_ROBOTS_CACHE_CLASS`` cache.

Holding requests without starving other sites
----------------------------------------------
A request awaited inside ``process_request`` stays in the downloader's
``active`` set, which the engine counts against ``CONCURRENT_REQUESTS``: a few
hundred requests of one deferred site would stop every other site. So a
request whose site is not resolved is never kept inside the downloader:

* when the engine schedules a request (``request_scheduled`` signal) for a
  site whose robots.txt is being fetched or retried, it is *held* in a
  per-site list instead of entering the scheduler;
* a request that reaches ``process_request`` first (it was scheduled before
  the site was known) starts the fetch and is handed back to the engine,
  which schedules it again, and so it is held as above;
* when the site resolves, held requests go back to the engine
  (``engine.crawl``) in their original order and priority, or, if the site
  counts as disallowed, are refused one by one (counted, logged, signalled).

The requests handed back had passed the duplicate filter already, so on
their way back they carry ``dont_filter`` through the scheduler (restored
here before anything else looks at it: middlewares below priority 100 see
them twice). Requests made with ``engine.download_async`` (not scheduled)
wait inside ``process_request`` instead; they are rare. While anything is
held the spider is kept open (``spider_idle`` + ``DontCloseSpider``). If it
closes anyway (shutdown, a timeout), a ``JOBDIR`` job keeps what is held in
``JOBDIR/webrobot-robots-held.pickle`` and schedules it again on resume (the
scheduler's own queue is closed before ``spider_closed``).

Several workers, one decision
-----------------------------
A cache shared by several worker processes (``claim`` in its interface, see
:mod:`webrobot.robotscache`) lets one worker fetch a site's robots.txt while
the others wait: before fetching, a worker claims the site; if another worker
holds the claim, this one looks at the cache every ``cache.poll_interval``
seconds until that worker's decision is there (it is then obeyed here as if
fetched here, ``webrobot/robots/reused``), or until the claim is free (its
worker stopped), and then claims and fetches itself. A worker that keeps
failing to fetch keeps its claim while it retries, so the site's robots.txt
is not fetched by every worker in turn; if it obeys the expired rules
meanwhile (stale use) it says so with its claim, and the waiting workers obey
them too. Decisions another worker stored are
announced here (``robots_resolved``) the first time this worker uses them,
so that its downloader knows the site's Crawl-delay.

With ``WEBROBOT_ROBOTS_HOLD_NEW_REQUESTS = False`` (the distributed add-on
sets it), a new request for a site being decided is not held at scheduling
but enters the scheduler (a shared frontier, where no worker's death can lose
it); it is held when it comes back from the scheduler.

The robots.txt request itself is ``engine.download_async`` with
``dont_obey_robotstxt``, ``allow_offsite``, ``dont_redirect`` (redirects are
followed here, at most ``WEBROBOT_ROBOTS_MAX_REDIRECTS`` hops) and
``dont_retry`` (the only retries are this module's backoff). Its body is cut
after ``WEBROBOT_ROBOTS_PARSE_LIMIT`` bytes (``StopDownload`` from
``bytes_received``).
"""

from __future__ import annotations

import logging
import os
import pickle
import time
from dataclasses import dataclass, field
from pathlib import Path
from time import monotonic
from typing import TYPE_CHECKING, Any, cast
from urllib.parse import urljoin, urlsplit

from scrapy import signals as scrapy_signals
from scrapy.exceptions import (
    DontCloseSpider,
    IgnoreRequest,
    NotConfigured,
    StopDownload,
)
from scrapy.http import Request
from scrapy.http.request import NO_CALLBACK
from scrapy.utils.asyncio import call_later
from scrapy.utils.defer import deferred_from_coro, maybe_deferred_to_future
from scrapy.utils.httpobj import urlparse_cached
from scrapy.utils.job import job_dir
from scrapy.utils.misc import build_from_crawler, load_object
from scrapy.utils.request import request_from_dict
from twisted.internet.defer import Deferred
from w3lib.url import safe_url_string

from webrobot import robotspolicy as policy
from webrobot import signals
from webrobot.refusals import Refuser
from webrobot.robotsparsers import (
    DEFAULT_PARSE_LIMIT,
    FirstMatchRobotParser,
    decode_robots_body,
    truncate_body,
)
from webrobot.robotspolicy import RobotsDecision
from webrobot.sitekey import request_site, robots_url, site_key

if TYPE_CHECKING:
    from typing import Self

    from scrapy.crawler import Crawler
    from scrapy.http import Response
    from scrapy.robotstxt import RobotParser
    from scrapy.utils.asyncio import CallLaterResult
    from twisted.python.failure import Failure

    from webrobot.robotscache import RobotsCache, SharedRobotsCache

logger = logging.getLogger(__name__)

#: Refusal reasons, which are also the stat keys (Scrapy's, and ours).
#: refusal reason (log, signal, report) -> stats key counted
FORBIDDEN = "robots_txt"
GAVE_UP = "robots_unreachable"
REFUSAL_STATS = {FORBIDDEN: "robotstxt/forbidden", GAVE_UP: "webrobot/robots/deferred_gave_up"}
MATCHING_MODES = ("rfc9309", "first-match")
#: A decision lives at least this long, so the requests released by a
#: robots.txt fetch are checked against it even if the server said max-age=0.
MIN_LIFETIME = 1.0
#: Sites whose announced decision is remembered (shared caches; then forgotten and re-announced).
ANNOUNCED_REMEMBERED = 100_000
_HEADERS = ("cache-control", "expires", "date", "retry-after", "content-type", "location")
#: Under ``JOBDIR``: the requests still held when the spider closed, for the next run.
HELD_FILE = "webrobot-robots-held.pickle"


@dataclass
class _Fetch:
    """What one robots.txt attempt got, after redirects."""

    url: str
    status: int | None = None
    headers: dict[str, str] = field(default_factory=dict)
    body: bytes = b""
    stopped: bool = False
    error: str | None = None
    detail: str = ""
    redirect_problem: str | None = None  # "limit", "loop", "no_location", "bad_location"
    hops: int = 0


@dataclass(eq=False)
class _Pending:
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

    def wait(self) -> Deferred[RobotsDecision | None]:
        waiter: Deferred[RobotsDecision | None] = Deferred()
        self.waiters.append(waiter)
        return waiter

    def wake(self, decision: RobotsDecision | None) -> None:
        waiters, self.waiters = self.waiters, []
        for waiter in waiters:
            waiter.callback(decision)


def _duration(seconds: float) -> str:
    if seconds >= 2 * 86400:
        return f"{seconds / 86400:.1f} d"
    if seconds >= 2 * 3600:
        return f"{seconds / 3600:.1f} h"
    if seconds >= 120:
        return f"{seconds / 60:.0f} min"
    return f"{seconds:.3g} s"


class RobotsMiddleware:
    def __init__(self, crawler: Crawler) -> None:
        settings = crawler.settings
        if not settings.getbool("ROBOTSTXT_OBEY"):
            raise NotConfigured("ROBOTSTXT_OBEY is off")
        self.crawler = crawler
        assert crawler.stats is not None
        self.stats = crawler.stats
        mode = (settings.get("WEBROBOT_ROBOTS_MATCHING") or "rfc9309").strip().lower()
        if mode not in MATCHING_MODES:
            raise ValueError(f"WEBROBOT_ROBOTS_MATCHING must be one of {MATCHING_MODES}, got {mode!r}")
        self.parser_cls: type[RobotParser] = (
            FirstMatchRobotParser
            if mode == "first-match"
            else load_object(settings.get("ROBOTSTXT_PARSER"))
        )
        build_from_crawler(self.parser_cls, crawler, b"")  # a parser that cannot work fails now
        self.auth_policy = (settings.get("WEBROBOT_ROBOTS_AUTH_POLICY") or "disallow").strip().lower()
        if self.auth_policy not in policy.AUTH_POLICIES:
            raise ValueError(
                f"WEBROBOT_ROBOTS_AUTH_POLICY must be one of {policy.AUTH_POLICIES}, "
                f"got {self.auth_policy!r}"
            )
        self.user_agent: str = settings.get("ROBOTSTXT_USER_AGENT") or ""
        self.default_user_agent: str = settings.get("USER_AGENT") or ""
        self.max_redirects = settings.getint("WEBROBOT_ROBOTS_MAX_REDIRECTS", 5)
        self.parse_limit = settings.getint("WEBROBOT_ROBOTS_PARSE_LIMIT", DEFAULT_PARSE_LIMIT)
        self.ttl = settings.getfloat("WEBROBOT_ROBOTS_TTL", 86400.0)
        self.min_ttl = max(settings.getfloat("WEBROBOT_ROBOTS_MIN_TTL", 60.0), MIN_LIFETIME)
        self.defer_max = settings.getfloat("WEBROBOT_ROBOTS_DEFER_MAX", 3600.0)
        self.backoff_base = settings.getfloat("WEBROBOT_ROBOTS_BACKOFF_BASE", 2.0)
        self.backoff_max = settings.getfloat("WEBROBOT_ROBOTS_BACKOFF_MAX", 600.0)
        self.stale_max = settings.getfloat("WEBROBOT_ROBOTS_STALE_MAX", 30 * 86400.0)
        self.max_crawl_delay = settings.getfloat("WEBROBOT_ROBOTS_MAX_CRAWL_DELAY", 60.0)
        cache_class = settings.get("WEBROBOT_ROBOTS_CACHE_CLASS", "webrobot.robotscache.LruRobotsCache")
        self.cache: RobotsCache = build_from_crawler(load_object(cache_class), crawler)
        # Only caches shared with other workers can say "another worker is fetching".
        self.shared: SharedRobotsCache | None = (
            cast("SharedRobotsCache", self.cache) if callable(getattr(self.cache, "claim", None)) else None
        )
        self._announced: dict[str, float] = {}  # site -> fetched_at of the decision announced
        self.hold_new = settings.getbool("WEBROBOT_ROBOTS_HOLD_NEW_REQUESTS", True)
        self.refuser = Refuser(crawler)
        self.pending: dict[str, _Pending] = {}
        self._closed = False
        jobdir = job_dir(settings)
        self.held_path: Path | None = Path(jobdir, HELD_FILE) if jobdir else None
        crawler.signals.connect(self._spider_opened, signal=scrapy_signals.spider_opened)
        # Strong references: these run for every request and every chunk received.
        crawler.signals.connect(self._request_scheduled, signal=scrapy_signals.request_scheduled, weak=False)
        crawler.signals.connect(self._spider_idle, signal=scrapy_signals.spider_idle)
        crawler.signals.connect(self._spider_closed, signal=scrapy_signals.spider_closed)
        crawler.signals.connect(self._bytes_received, signal=scrapy_signals.bytes_received, weak=False)

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> Self:
        return cls(crawler)

    # -- requests -------------------------------------------------------------
    def _applies(self, request: Request) -> bool:
        if request.meta.get("dont_obey_robotstxt"):
            return False
        return urlparse_cached(request).scheme in ("http", "https")

    def _request_scheduled(self, request: Request) -> None:
        if self._closed or request.meta.get("dont_obey_robotstxt"):
            return
        # Only a site being decided holds requests: most requests need no site key here.
        site = request_site(request) if self.pending else ""
        pending = self.pending.get(site) if site else None
        hold = self.hold_new or request.meta.get("_robots_requeued", False)
        if pending is not None and hold and self._usable(site) is None:
            pending.held.append(request)
            self.stats.inc_value("webrobot/robots/held")
            raise IgnoreRequest(f"held until the robots.txt of {site} is resolved")
        request.meta["_robots_via_scheduler"] = True
        if request.meta.pop("_robots_requeued", False) and not request.dont_filter:
            # It passed the duplicate filter before it was held: let it through once.
            request.meta["_robots_dont_filter"] = False
            request.dont_filter = True

    async def process_request(self, request: Request) -> Request | None:
        meta = request.meta
        if "_robots_dont_filter" in meta:
            request.dont_filter = meta.pop("_robots_dont_filter")
        via_scheduler = meta.pop("_robots_via_scheduler", False)
        if not self._applies(request):
            return None
        site = request_site(request)
        decision = self._usable(site)
        if decision is None:
            if self._closed:
                raise IgnoreRequest(f"robots.txt of {site} unknown and the spider has closed")
            pending = self._pending_for(site, request)
            if via_scheduler:
                meta["_robots_requeued"] = True
                return request  # scheduled again, and held by _request_scheduled
            decision = await maybe_deferred_to_future(pending.wait())
            if decision is None:
                raise IgnoreRequest(f"robots.txt of {site} was not resolved before the spider closed")
        self._check(decision, request)
        return None

    def _check(self, decision: RobotsDecision, request: Request) -> None:
        if decision.allows_everything:
            return
        if decision.refuses_everything:
            reason = GAVE_UP if decision.outcome == policy.UNREACHABLE else FORBIDDEN
            raise self.refuser.refuse(request, reason, decision.reason, REFUSAL_STATS[reason])
        parser = self._parser(decision)
        user_agent = self.user_agent or request.headers.get(b"User-Agent") or self.default_user_agent
        if not parser.allowed(request.url, user_agent):
            raise self.refuser.refuse(request, FORBIDDEN, decision.summary, REFUSAL_STATS[FORBIDDEN])

    # -- decisions --------------------------------------------------------------
    def _usable(self, site: str) -> RobotsDecision | None:
        """The decision that applies to the site now, or None if it must be (re)fetched."""
        now = time.time()
        decision = self.cache.get(site)
        if decision is not None and decision.fresh(now):
            if self.shared is not None and self._announced.get(site) != decision.fetched_at:
                self._announce(decision, reused=True)  # stored by another worker
            return decision
        pending = self.pending.get(site)
        stale = pending.stale if pending is not None and pending.stale_mode else None
        if stale is not None and stale.usable_stale(now, self.stale_max):
            return stale
        return None

    def _parser(self, decision: RobotsDecision) -> RobotParser:
        if decision.parser is None:  # a cache that stores bytes only
            decision.parser = build_from_crawler(self.parser_cls, self.crawler, decision.body)
        return decision.parser

    def _agent(self) -> str:
        return self.user_agent or self.default_user_agent

    # -- fetching ----------------------------------------------------------------
    def _pending_for(self, site: str, trigger: Request) -> _Pending:
        pending = self.pending.get(site)
        if pending is None:
            pending = _Pending(site, robots_url(trigger.url), trigger=trigger)
            previous = self.cache.get(site)
            if previous is not None:
                self.stats.inc_value("webrobot/robots/expired_refetch")
                logger.debug("robots.txt of %s expired; fetching it again", site)
                if previous.outcome != policy.UNREACHABLE:
                    pending.stale = previous
            self.pending[site] = pending
            self._launch(pending)
        return pending

    def _launch(self, pending: _Pending) -> None:
        pending.fetching = True
        done = deferred_from_coro(self._fetch(pending))
        done.addErrback(self._fetch_crashed, pending)

    async def _fetch(self, pending: _Pending) -> None:
        if self.shared is not None:
            decision = await self._claim_or_wait(pending, self.shared)
            if decision is not None:
                pending.fetching = False
                self._resolve(pending, decision, reused=True)
                return
            if self._closed or self.pending.get(pending.site) is not pending:
                pending.fetching = False
                return
            wait = self._shared_deferral_wait(pending, self.shared)
            if wait > 0:  # another worker deferred the site and died: keep its schedule
                pending.fetching = False
                self._retry_in(pending, wait)
                return
        result = await self._download(pending.robots_url)
        self._settle(pending, result)

    def _shared_deferral_wait(self, pending: _Pending, shared: SharedRobotsCache) -> float:
        """Take over the site's shared deferral (see the shared cache); seconds
        until its next attempt is due."""
        state = shared.deferral(pending.site) if hasattr(shared, "deferral") else None
        if state is None:
            return 0.0
        first, attempts, next_attempt = state
        now_wall = time.time()
        if pending.deferral is None or pending.deferral.attempts < attempts:
            pending.deferral = policy.Deferral(first_failure=monotonic() - max(0.0, now_wall - first),
                                               attempts=attempts)  # fmt: skip
        return max(0.0, next_attempt - now_wall)

    async def _claim_or_wait(self, pending: _Pending, shared: SharedRobotsCache) -> RobotsDecision | None:
        """With a shared cache: claim the site's fetch (None: fetch it here), or
        wait for the decision of the worker that holds the claim (returned)."""
        site, waited = pending.site, False
        while not self._closed and self.pending.get(site) is pending:
            decision = shared.get(site)
            if decision is not None and decision.fresh(time.time()):
                return decision
            if shared.claim(site):
                # A decision stored between the look and the claim is used, not fetched again.
                decision = shared.get(site)
                if decision is not None and decision.fresh(time.time()):
                    shared.release(site)
                    return decision
                return None
            if not waited:
                waited = True
                self.stats.inc_value("webrobot/robots/waited")
                logger.debug("robots.txt of %s is being fetched by another worker; waiting", site)
            stale = pending.stale
            if (
                not pending.stale_mode and stale is not None
                and stale.usable_stale(time.time(), self.stale_max) and shared.stale_in_use(site)
            ):  # fmt: skip
                # The fetching worker's re-fetch failed and it obeys the expired rules: so do we.
                self.stats.inc_value("webrobot/robots/stale_used")
                logger.info(
                    "robots.txt of %s: another worker's re-fetch failed; obeying the copy fetched %s "
                    "ago meanwhile", site, _duration(time.time() - stale.fetched_at),
                )  # fmt: skip
                pending.stale_mode = True
                pending.wake(stale)
                self._release(pending, stale)
            tick: Deferred[None] = Deferred()
            pending.timer = call_later(shared.poll_interval, tick.callback, None)
            await maybe_deferred_to_future(tick)
            pending.timer = None
        return None

    def _fetch_crashed(self, failure: Failure, pending: _Pending) -> None:
        # A bug, not a network problem; never leave the site's requests held for ever.
        logger.error(
            "Error while handling the robots.txt of %s", pending.site,
            exc_info=(failure.type, failure.value, failure.getTracebackObject()),
        )  # fmt: skip
        if self.pending.get(pending.site) is pending:
            now = time.time()
            self._resolve(pending, RobotsDecision(
                pending.site, policy.UNREACHABLE, None, now,
                policy.expires_at(now, None, self.ttl, self.min_ttl),
                url=pending.robots_url, summary="nothing allowed", reason="internal error",
            ))  # fmt: skip

    async def _download(self, url: str) -> _Fetch:
        site = site_key(url)  # the site whose robots.txt this is, whatever the redirects
        seen = {url}
        hops = 0
        while True:
            request = Request(
                url,
                callback=NO_CALLBACK,
                meta={
                    "dont_obey_robotstxt": True,
                    "allow_offsite": True,
                    "dont_redirect": True,
                    "dont_retry": True,
                    signals.ROBOTS_FETCH_META: site,  # whose robots.txt, for the crawl report
                },
            )
            self.stats.inc_value("robotstxt/request_count")
            try:
                response: Response = await self.crawler.engine.download_async(request)
            except IgnoreRequest as exc:
                return _Fetch(url, error="IgnoreRequest", detail=str(exc), hops=hops)
            except Exception as exc:  # noqa: BLE001 - every network error defers the site
                return _Fetch(url, error=type(exc).__name__, detail=str(exc) or repr(exc), hops=hops)
            self.stats.inc_value("robotstxt/response_count")
            self.stats.inc_value(f"robotstxt/response_status_count/{response.status}")
            headers = {}
            for name in _HEADERS:
                values = response.headers.getlist(name)
                if values:
                    headers[name] = b", ".join(values).decode("latin-1")
            result = _Fetch(
                url, response.status, headers, response.body,
                stopped="download_stopped" in response.flags, hops=hops,
            )  # fmt: skip
            if not 300 <= response.status < 400:
                return result
            location = headers.get("location", "").strip()
            if not location:
                result.redirect_problem = "no_location"
                return result
            target = urljoin(url, safe_url_string(location))
            if urlsplit(target).scheme not in ("http", "https"):
                result.redirect_problem = "bad_location"
            elif target in seen:
                result.redirect_problem = "loop"
            elif hops >= self.max_redirects:
                result.redirect_problem = "limit"
            if result.redirect_problem:
                result.detail = target
                return result
            seen.add(target)
            hops += 1
            url = target

    def _bytes_received(self, data: bytes, request: Request) -> None:
        if not request.meta.get(signals.ROBOTS_FETCH_META) or self.parse_limit <= 0:
            return
        received = request.meta.get("_robots_bytes", 0) + len(data)
        request.meta["_robots_bytes"] = received
        if received > self.parse_limit:
            raise StopDownload(fail=False)  # the rest would not be parsed (RFC 9309 2.5)

    # -- outcomes -------------------------------------------------------------------
    def _settle(self, pending: _Pending, result: _Fetch) -> None:
        pending.fetching = False
        if self._closed or self.pending.get(pending.site) is not pending:
            return
        self.stats.inc_value("webrobot/robots/fetched")
        if result.error is not None:
            self.stats.inc_value(f"webrobot/robots/error/{result.error}")
            if result.error == "IgnoreRequest":
                logger.warning(
                    "The robots.txt request of %s was refused by another component (%s); "
                    "treating the site as having no robots.txt", pending.site, result.detail,
                )  # fmt: skip
                outcome = policy.UNAVAILABLE
            else:
                outcome = policy.DEFER
        else:
            assert result.status is not None
            self.stats.inc_value(f"webrobot/robots/status/{result.status}")
            if result.redirect_problem:
                outcome = policy.UNAVAILABLE
                problem = result.redirect_problem
                stat = "redirect_limit" if problem in ("limit", "loop") else "redirect_invalid"
                self.stats.inc_value(f"webrobot/robots/{stat}")
                logger.info(
                    "robots.txt of %s: redirect %s after %d hops (to %s); treating it as unavailable",
                    pending.site, problem.replace("_", " "), result.hops, result.detail[:200],
                )  # fmt: skip
            else:
                outcome = policy.classify_status(result.status, self.auth_policy)
        if outcome == policy.DEFER:
            self._failed(pending, result)
        else:
            self._resolve(pending, self._decide(pending, outcome, result))

    def _decide(self, pending: _Pending, outcome: str, result: _Fetch) -> RobotsDecision:
        now = time.time()
        headers = result.headers
        lifetime = policy.freshness_lifetime(
            headers.get("cache-control"), headers.get("expires"), headers.get("date"), now
        )
        decision = RobotsDecision(
            site=pending.site,
            outcome=outcome,
            status=result.status,
            fetched_at=now,
            expires_at=policy.expires_at(now, lifetime, self.ttl, self.min_ttl),
            url=result.url,
            reason=f"robots.txt answered {result.status}" if result.status else result.error or "",
        )
        if outcome == policy.UNAVAILABLE:
            decision.summary = "no restrictions"
        elif outcome == policy.FORBIDDEN:
            decision.summary = "nothing allowed"
        if outcome != policy.RULES:
            return decision
        body, truncated = truncate_body(result.body, self.parse_limit)
        decision.body = body
        try:
            parser = build_from_crawler(self.parser_cls, self.crawler, body)
        except Exception:  # any ROBOTSTXT_PARSER class; ours never raise here
            logger.exception("robots.txt of %s could not be parsed; treating it as empty", pending.site)
            self.stats.inc_value("webrobot/robots/body/unparsable")
            parser = build_from_crawler(self.parser_cls, self.crawler, b"")
        decision.parser = parser
        content_type = headers.get("content-type", "")
        self._log_problems(pending.site, parser, body, truncated or result.stopped, content_type)
        agent = self._agent()
        request_rate = getattr(parser, "request_rate", None)
        delay = policy.effective_crawl_delay(
            parser.crawl_delay(agent),
            request_rate(agent) if request_rate else None,
            self.max_crawl_delay,
        )
        if delay is not None:
            decision.crawl_delay, decision.crawl_delay_source = delay.seconds, delay.source
            if delay.capped:
                self.stats.inc_value("webrobot/robots/crawl_delay_capped")
                logger.info(
                    "robots.txt of %s asks for %s of %s s; capped to %s s "
                    "(WEBROBOT_ROBOTS_MAX_CRAWL_DELAY)",
                    pending.site, delay.source.replace("_", "-"), delay.declared, delay.seconds,
                )  # fmt: skip
        summary = getattr(parser, "summary", None)
        decision.summary = summary(agent) if summary else f"parsed by {type(parser).__name__}"
        self.crawler.signals.send_catch_log(
            signal=scrapy_signals.robots_parsed,
            robotparser=parser,
            request=pending.trigger,
        )
        return decision

    def _log_problems(
        self, site: str, parser: Any, body: bytes, truncated: bool, content_type: str
    ) -> None:
        problems = getattr(parser, "problems", None)
        if problems is None:
            problems = decode_robots_body(body, 0)[1]
        problems = list(problems)
        if truncated and "truncated" not in problems:
            problems.append("truncated")
        if "html" in content_type.lower() and "html" not in problems:
            problems.append("html")
        unknown = getattr(parser, "invalid_lines", 0)
        if unknown:
            problems.append("unknown_lines")
        if not problems:
            return
        for problem in problems:
            self.stats.inc_value(f"webrobot/robots/body/{problem}")
        logger.info(
            "robots.txt of %s: %s%s; parsed what could be parsed",
            site, ", ".join(p.replace("_", " ") for p in problems if p != "unknown_lines"),
            f"{', ' if len(problems) > 1 else ''}{unknown} lines not understood" if unknown else "",
        )  # fmt: skip

    def _resolve(self, pending: _Pending, decision: RobotsDecision, *, reused: bool = False) -> None:
        site = pending.site
        if self.pending.get(site) is pending:
            del self.pending[site]
        if pending.timer is not None:
            pending.timer.cancel()
            pending.timer = None
        if not reused:
            self.cache.put(site, decision)
        self._announce(decision, reused=reused)
        pending.wake(decision)
        self._release(pending, decision)

    def _announce(self, decision: RobotsDecision, *, reused: bool = False) -> None:
        """Count, log and signal a decision this worker starts obeying."""
        site = decision.site
        if self.shared is not None:
            if reused and self._announced.get(site) == decision.fetched_at:
                return  # already obeyed here (seen by a request while this worker waited)
            if len(self._announced) >= ANNOUNCED_REMEMBERED:
                self._announced.clear()
            self._announced[site] = decision.fetched_at
        self.stats.inc_value(f"webrobot/robots/outcome/{decision.outcome}")
        if reused:
            self.stats.inc_value("webrobot/robots/reused")
        delay = ""
        if decision.crawl_delay:
            source = (decision.crawl_delay_source or "crawl_delay").replace("_", "-")
            delay = f"; {source} {decision.crawl_delay:g} s"
        logger.info(
            "robots.txt of %s: %s -> %s (%s%s); next check in %s%s",
            site, decision.status if decision.status is not None else decision.reason, decision.outcome,
            decision.summary, delay, _duration(decision.expires_at - decision.fetched_at),
            " (fetched by another worker)" if reused else "",
        )  # fmt: skip
        self.crawler.signals.send_catch_log(
            signal=signals.robots_resolved,
            site=site,
            status=decision.status,
            outcome=decision.outcome,
            rules=decision.summary,
            fetched_at=decision.fetched_at,
            expires=decision.expires_at,
            crawl_delay=decision.crawl_delay,
            crawl_delay_source=decision.crawl_delay_source,
            url=decision.url,
        )

    def _failed(self, pending: _Pending, result: _Fetch) -> None:
        now_wall, now = time.time(), monotonic()
        reason = str(result.status) if result.status is not None else (result.error or "error")
        retry_after = policy.parse_retry_after(result.headers.get("retry-after"), now_wall)
        if pending.deferral is None:
            pending.deferral = policy.Deferral(first_failure=now)
        deferral = pending.deferral
        stale = pending.stale
        if stale is not None and stale.usable_stale(now_wall, self.stale_max):
            delay = deferral.failed(
                now, base=self.backoff_base, cap=self.backoff_max, defer_max=0, retry_after=retry_after
            )
            assert delay is not None
            self.stats.inc_value("webrobot/robots/stale_used")
            if self.shared is not None:
                self.shared.claim(pending.site, stale=True)  # the waiting workers obey it too
            if not pending.stale_mode:
                pending.stale_mode = True
                logger.info(
                    "robots.txt of %s failed on re-fetch (%s); obeying the copy fetched %s ago "
                    "while retrying (next in %s)",
                    pending.site, reason, _duration(now_wall - stale.fetched_at), _duration(delay),
                )  # fmt: skip
            self._retry_in(pending, delay)
            pending.wake(stale)
            self._release(pending, stale)
            return
        if pending.stale_mode and self.shared is not None:
            self.shared.claim(pending.site, stale=False)
        pending.stale_mode = False
        delay = deferral.failed(
            now,
            base=self.backoff_base,
            cap=self.backoff_max,
            defer_max=self.defer_max,
            retry_after=retry_after,
        )
        if delay is None:
            elapsed = deferral.elapsed(now)
            logger.warning(
                "Giving up on the robots.txt of %s after %s and %d attempts (last: %s): "
                "the site counts as disallowed",
                pending.site, _duration(elapsed), deferral.attempts, reason,
            )  # fmt: skip
            self._resolve(pending, RobotsDecision(
                pending.site, policy.UNREACHABLE, result.status, now_wall,
                policy.expires_at(now_wall, None, self.ttl, self.min_ttl), url=result.url,
                summary="nothing allowed",
                reason=f"robots.txt unreachable for {_duration(elapsed)} (last: {reason})",
            ))  # fmt: skip
            return
        self.stats.inc_value("webrobot/robots/deferred")
        if self.shared is not None and hasattr(self.shared, "note_deferral"):
            self.shared.note_deferral(pending.site, now_wall - deferral.elapsed(now), deferral.attempts, now_wall + delay)
        log = logger.info if deferral.attempts == 1 else logger.debug
        log(
            "robots.txt of %s failed (%s%s); holding its requests, attempt %d in %s",
            pending.site, reason, f": {result.detail[:200]}" if result.detail else "",
            deferral.attempts + 1, _duration(delay),
        )  # fmt: skip
        self.crawler.signals.send_catch_log(
            signal=signals.site_deferred,
            site=pending.site,
            seconds=delay,
            attempt=deferral.attempts,
            reason=reason,
            status=result.status,
        )
        self._retry_in(pending, delay)

    def _retry_in(self, pending: _Pending, delay: float) -> None:
        if pending.timer is not None:
            pending.timer.cancel()
        pending.timer = call_later(delay, self._retry, pending)

    def _retry(self, pending: _Pending) -> None:
        pending.timer = None
        if self._closed or self.pending.get(pending.site) is not pending or pending.fetching:
            return
        self._launch(pending)

    def _release(self, pending: _Pending, decision: RobotsDecision) -> None:
        held, pending.held = pending.held, []
        if not held:
            return
        if decision.refuses_everything:
            reason = GAVE_UP if decision.outcome == policy.UNREACHABLE else FORBIDDEN
            for request in held:
                self.refuser.refuse(request, reason, decision.reason, REFUSAL_STATS[reason])
            logger.info("Dropped %d requests held for %s: %s", len(held), pending.site, decision.reason)
        else:
            for request in held:
                self.crawler.engine.crawl(request)
        self._wake_engine()

    def _wake_engine(self) -> None:
        # Let the engine look at its scheduler (or notice it is idle) now rather
        # than at its next 5 s heartbeat; there is no public call for this.
        slot = getattr(self.crawler.engine, "_slot", None)
        if slot is not None:
            slot.nextcall.schedule()

    # -- life cycle ---------------------------------------------------------------
    def _spider_opened(self) -> None:
        """A resumed ``JOBDIR`` job: schedule again what the last run still held."""
        path = self.held_path
        if path is None or not path.exists():
            return
        try:
            requests = [
                request_from_dict(pickle.loads(data), spider=self.crawler.spider)
                for data in pickle.loads(path.read_bytes())
            ]
        except Exception:  # a damaged file: say so, keep it, crawl on
            aside = path.with_name(path.name + ".bad")
            os.replace(path, aside)
            logger.exception("Cannot resume the requests held for robots.txt (file kept as %s)", aside)
            return
        path.unlink()
        for request in requests:
            self.crawler.engine.crawl(request)
        self.stats.inc_value("webrobot/robots/held_resumed", len(requests))
        logger.info("Resumed %d requests held for robots.txt when the job stopped", len(requests))

    def _save_held(self, held: list[Request]) -> int:
        """Keep held requests under ``JOBDIR`` for the next run (the scheduler's
        queue is closed by now); returns how many could be kept."""
        assert self.held_path is not None
        saved: list[bytes] = []
        for request in held:
            try:
                saved.append(pickle.dumps(request.to_dict(spider=self.crawler.spider), protocol=4))
            except Exception:  # noqa: BLE001, S112 - not serialisable: not kept (as in Scrapy's disk queue)
                continue
        temp = self.held_path.with_name(self.held_path.name + ".tmp")
        try:
            temp.write_bytes(pickle.dumps(saved, protocol=4))
            os.replace(temp, self.held_path)
        except OSError:
            logger.exception("Cannot keep the requests held for robots.txt in %s", self.held_path)
            return 0
        return len(saved)

    def _spider_idle(self) -> None:
        if any(pending.held for pending in self.pending.values()):
            raise DontCloseSpider("requests are held until robots.txt answers")

    def _spider_closed(self) -> None:
        self._closed = True
        held: list[Request] = []
        for pending in self.pending.values():
            if pending.timer is not None:
                pending.timer.cancel()
                pending.timer = None
            held += pending.held
            pending.held = []
            pending.wake(None)
        if not held:
            return
        self.stats.inc_value("webrobot/robots/held_at_close", len(held))
        # Not held at scheduling (a shared frontier): the frontier still leases them.
        shared_frontier = not self.hold_new
        kept = self._save_held(held) if self.held_path is not None and not shared_frontier else 0
        if kept:
            logger.info(
                "The spider closed with %d requests still held for robots.txt; %d kept in %s for "
                "the next run of the job", len(held), kept, self.held_path,
            )  # fmt: skip
        if kept < len(held):
            logger.warning(
                "The spider closed with %d requests still held for robots.txt%s",
                len(held) - kept, "" if shared_frontier else "; they are lost",
            )  # fmt: skip
