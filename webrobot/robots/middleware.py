"""robots.txt with status semantics, expiry, deferral and stale use.

Replaces Scrapy's ``RobotsTxtMiddleware`` (which parses any body whatever its
status, allows everything on errors, caches forever and ignores
Crawl-delay). One decision per site is kept in the
``WEBROBOT_ROBOTS_CACHE_CLASS`` cache. This module is the Scrapy glue; each
part of the job lives in its own module:

* :mod:`webrobot.robots.fetch`: the robots.txt request, its
  redirects and its body limit;
* :mod:`webrobot.robots.decide`: a fetched body becomes a decision
  (parser, lifetime, Crawl-delay);
* :mod:`webrobot.robots.held`: the requests held per site while it
  is decided, and the ``JOBDIR`` file that keeps them across runs;
* :mod:`webrobot.robots.claim`: with a cache shared by several
  workers, one worker fetches and the others wait.
* :mod:`webrobot.robots.heldlifecycle`: what becomes of the held requests
  when the crawl opens, idles and closes.
"""

from __future__ import annotations

import logging
import time
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Self

from scrapy import signals as scrapy_signals
from scrapy.exceptions import IgnoreRequest, NotConfigured
from scrapy.utils.asyncio import call_later
from scrapy.utils.defer import deferred_from_coro, maybe_deferred_to_future
from scrapy.utils.httpobj import urlparse_cached
from scrapy.utils.job import job_dir
from scrapy.utils.misc import build_from_crawler, load_object

from webrobot import signals
from webrobot.compat import wake_engine
from webrobot.robots import policy
from webrobot.robots.cache import PeekableRobotsCache, SharedRobotsCache
from webrobot.robots.claim import ClaimCoordinator
from webrobot.robots.decide import RobotsDecider
from webrobot.robots.fetch import RobotsFetch, RobotsFetcher
from webrobot.robots.held import (
    HELD_FILE,
    Backoff,
    GaveUpSites,
    HeldFile,
    HeldOnlyClock,
    PendingSite,
    duration,
)
from webrobot.robots.heldlifecycle import HeldRequestsLifeCycle
from webrobot.seen.dupefilter import visited_filter
from webrobot.settingsmodel.parse import read
from webrobot.urls.deadhosts import DeadHosts
from webrobot.urls.deadpolicy import REASONS
from webrobot.urls.refusals import Refuser
from webrobot.urls.sitekey import request_site, robots_url, site_key

if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Self

    from scrapy.crawler import Crawler
    from scrapy.http import Request
    from scrapy.robotstxt import RobotParser
    from twisted.python.failure import Failure

    from webrobot.robots.cache import RobotsCache
    from webrobot.robots.policy import RobotsDecision

logger = logging.getLogger(__name__)

#: Refusal reasons, which are also the stat keys (Scrapy's, and ours).
#: refusal reason (log, signal, report) -> stats key counted
FORBIDDEN = policy.REFUSED_FORBIDDEN
GAVE_UP = policy.REFUSED_GAVE_UP
REFUSAL_STATS = {FORBIDDEN: "robotstxt/forbidden", GAVE_UP: "webrobot/robots/deferred_gave_up"}


class RobotsMiddleware(HeldRequestsLifeCycle):
    """Obeys robots.txt: holds a site's requests until its robots.txt is decided, then refuses what
    it disallows."""

    def __init__(self, crawler: Crawler) -> None:
        settings = crawler.settings
        if not read(settings, "ROBOTSTXT_OBEY"):
            raise NotConfigured("ROBOTSTXT_OBEY is off")
        self.crawler = crawler
        assert crawler.stats is not None
        self.stats = crawler.stats
        self.decider = RobotsDecider(crawler)
        self.auth_policy: str = read(settings, "WEBROBOT_ROBOTS_AUTH_POLICY")
        self.fetcher = RobotsFetcher(
            crawler,
            max_redirects=read(settings, "WEBROBOT_ROBOTS_MAX_REDIRECTS"),
            parse_limit=read(settings, "WEBROBOT_ROBOTS_PARSE_LIMIT"),
        )
        self.stale_max = read(settings, "WEBROBOT_ROBOTS_STALE_MAX")
        self.backoff = Backoff(
            base=read(settings, "WEBROBOT_ROBOTS_BACKOFF_BASE"),
            cap=read(settings, "WEBROBOT_ROBOTS_BACKOFF_MAX"),
            defer_max=read(settings, "WEBROBOT_ROBOTS_DEFER_MAX"),
            stale_max=self.stale_max,
            dns_defer_max=read(settings, "WEBROBOT_ROBOTS_DNS_DEFER_MAX"),
            dead=DeadHosts.of(crawler).policy,
            known_dead=lambda url: DeadHosts.of(crawler).known(url) is not None,
        )
        self.dead_hosts = DeadHosts.of(crawler)
        cache_class = read(settings, "WEBROBOT_ROBOTS_CACHE_CLASS")
        self.cache: RobotsCache = build_from_crawler(load_object(cache_class), crawler)
        # Only caches shared with other workers can say "another worker is fetching".
        self.shared = self.cache if isinstance(self.cache, SharedRobotsCache) else None
        self.claims = (
            ClaimCoordinator(self.shared, self.stats, self.stale_max)
            if self.shared is not None
            else None
        )
        self.hold_new = read(settings, "WEBROBOT_ROBOTS_HOLD_NEW_REQUESTS")
        # A shared crawl (Redis) ends when its shared frontier is done, whichever worker
        # holds what (WEBROBOT_REDIS_IDLE_CLOSE): no worker closes on its own for this.
        shared = bool(read(settings, "WEBROBOT_REDIS_URL").strip())
        self.gave_up = GaveUpSites()  # their robots.txt never answered
        self.held_only = HeldOnlyClock(
            0 if shared else read(settings, "WEBROBOT_ROBOTS_HELD_ONLY_MAX")
        )
        # A decision this process holds is looked up without I/O (a cache without
        # ``peek`` is only asked when a request is dequeued).
        self.peek = self.cache.peek if isinstance(self.cache, PeekableRobotsCache) else None
        self.refuser = Refuser(crawler)
        self.pending: dict[str, PendingSite] = {}
        self._closed = False
        jobdir = job_dir(settings)
        self.held_file: HeldFile | None = HeldFile(Path(jobdir, HELD_FILE)) if jobdir else None
        crawler.signals.connect(self._spider_opened, signal=scrapy_signals.spider_opened)
        # Strong references: these run for every request and every chunk received.
        crawler.signals.connect(
            self._request_scheduled, signal=scrapy_signals.request_scheduled, weak=False
        )
        crawler.signals.connect(self._spider_idle, signal=scrapy_signals.spider_idle)
        crawler.signals.connect(self._spider_closed, signal=scrapy_signals.spider_closed)
        crawler.signals.connect(self._report_part, signal=signals.report_parts)
        crawler.signals.connect(
            self._bytes_received, signal=scrapy_signals.bytes_received, weak=False
        )

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> Self:
        return cls(crawler)

    @property
    def parser_cls(self) -> type[RobotParser]:
        """The ``ROBOTSTXT_PARSER`` class in use."""
        return self.decider.parser_cls

    # -- requests -------------------------------------------------------------
    def _applies(self, request: Request) -> bool:
        if request.meta.get("dont_obey_robotstxt"):
            return False
        return urlparse_cached(request).scheme in ("http", "https")

    def _request_scheduled(self, request: Request) -> None:
        if self.held_only.since is not None:
            self._other_work(request)
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
        if self.peek is not None:
            self._refuse_early(request, site or request_site(request))
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
                raise IgnoreRequest(
                    f"robots.txt of {site} was not resolved before the spider closed"
                )
        self._check(decision, request)
        return None

    def _check(self, decision: RobotsDecision, request: Request) -> None:
        def allowed(decision: RobotsDecision) -> bool:
            user_agent = (
                self.decider.user_agent
                or request.headers.get(b"User-Agent")
                or self.decider.default_user_agent
            )
            return bool(self.decider.parser(decision).allowed(request.url, user_agent))

        reason = policy.refusal(decision, allowed)
        if reason is not None:
            raise self.refuse(request, reason, decision)

    def refuse(self, request: Request, reason: str, decision: RobotsDecision) -> IgnoreRequest:
        """Count, log and signal that ``decision`` refuses ``request`` for ``reason``
        (a ``robotspolicy.REFUSED_*`` reason); returns the exception to raise."""
        return self.refuser.refuse(
            request, reason, policy.refusal_detail(decision), REFUSAL_STATS[reason]
        )

    def _refuse_early(self, request: Request, site: str) -> None:
        """Refuse a request being scheduled that the site's decision, already held in
        this process, disallows: it is refused as its dequeuing would have refused it
        (same reason, stats key, log and signal) without taking frontier space (or, in
        a shared crawl, a lease). It is first marked visited, as the scheduler would
        have marked it, so that it is refused once; a request already visited goes on
        to the scheduler, which drops it as a duplicate, as before."""
        agent = self.decider.user_agent  # without it, the request's own User-Agent decides
        if not agent or self.peek is None or policy.is_robots_txt(request.url):
            return
        if not site.startswith(("http://", "https://")):
            return
        decision = self._usable(site, self.peek)
        if decision is None:
            return
        url = request.url
        reason = policy.refusal(
            decision, lambda decision: bool(self.decider.parser(decision).allowed(url, agent))
        )
        if reason is None:
            return
        if not request.dont_filter and not request.meta.get("_robots_requeued"):
            visited = visited_filter(self.crawler)
            if visited is None or visited.mark_visited(request) is not False:
                return  # a duplicate, or a filter that cannot say: the scheduler decides
        request.meta.pop("_robots_requeued", None)
        raise self.refuse(request, reason, decision)

    def _usable(
        self, site: str, lookup: Callable[[str], RobotsDecision | None] | None = None
    ) -> RobotsDecision | None:
        """The decision that applies to the site now, or None if it must be (re)fetched."""
        now = time.time()
        decision = (lookup or self.cache.get)(site)
        if decision is not None and decision.fresh(now):
            if self.claims is not None and self.claims.needs_announcing(decision):
                self._announce(decision, reused=True)  # stored by another worker
            return decision
        pending = self.pending.get(site)
        stale = pending.stale if pending is not None and pending.stale_mode else None
        if stale is not None and stale.usable_stale(now, self.stale_max):
            return stale
        return None

    # -- fetching ----------------------------------------------------------------
    def _pending_for(self, site: str, trigger: Request) -> PendingSite:
        pending = self.pending.get(site)
        if pending is None:
            pending = PendingSite(site, robots_url(trigger.url), trigger=trigger)
            previous = self.cache.get(site)
            if previous is not None:
                self.stats.inc_value("webrobot/robots/expired_refetch")
                logger.debug("robots.txt of %s expired; fetching it again", site)
                if previous.outcome != policy.UNREACHABLE:
                    pending.stale = previous
            self.pending[site] = pending
            self._launch(pending)
        return pending

    def _launch(self, pending: PendingSite) -> None:
        pending.fetching = True
        done = deferred_from_coro(self._fetch(pending))
        done.addErrback(self._fetch_crashed, pending)

    def _current(self, pending: PendingSite) -> bool:
        return not self._closed and self.pending.get(pending.site) is pending

    async def _fetch(self, pending: PendingSite) -> None:
        if self.claims is not None:

            def obey_stale(stale: RobotsDecision) -> None:
                pending.wake(stale)
                self._release(pending, stale)

            decision = await self.claims.claim_or_wait(
                pending, lambda: self._current(pending), obey_stale
            )
            if decision is not None:
                pending.fetching = False
                self._resolve(pending, decision, reused=True)
                return
            if not self._current(pending):
                pending.fetching = False
                return
            wait = self.claims.shared_deferral_wait(pending)
            if wait > 0:  # another worker deferred the site and died: keep its schedule
                pending.fetching = False
                self._retry_in(pending, wait)
                return
        result = await self._download(pending.robots_url)
        self._settle(pending, result)

    async def _download(self, url: str) -> RobotsFetch:
        return await self.fetcher.download(url)

    def _bytes_received(self, data: bytes, request: Request) -> None:
        self.fetcher.bytes_received(data, request)

    def _fetch_crashed(self, failure: Failure, pending: PendingSite) -> None:
        # A bug, not a network problem; never leave the site's requests held for ever.
        logger.error(
            "Error while handling the robots.txt of %s", pending.site,
            exc_info=(failure.type, failure.value, failure.getTracebackObject()),
        )  # fmt: skip
        if self.pending.get(pending.site) is pending:
            self._resolve(
                pending,
                self.decider.unreachable(pending.site, None, pending.robots_url, "internal error"),
            )

    # -- outcomes -------------------------------------------------------------------
    def _settle(self, pending: PendingSite, result: RobotsFetch) -> None:
        pending.fetching = False
        if not self._current(pending):
            return
        outcome = self.decider.classify(pending.site, result, self.auth_policy)
        if outcome == policy.DEFER:
            self._failed(pending, result)
        else:
            self._resolve(
                pending, self.decider.decide(pending.site, pending.trigger, outcome, result)
            )
            self._reuse_for_target(pending, result, outcome)

    def _reuse_for_target(self, pending: PendingSite, result: RobotsFetch, outcome: str) -> None:
        """A robots.txt that redirected through other origins' own robots.txt URLs
        (``http://h/robots.txt`` -> ``https://h/robots.txt`` -> ``https://www.h/robots.txt``,
        as a site that moved to TLS and to www answers) is their answer too: asking
        any of them would end at the same response. Their decisions are made from it
        instead of asking the same files again. In a shared crawl the decisions go into
        the shared cache, so another worker about to ask one of those origins finds its
        answer there (a worker already fetching one stores the same answer again)."""
        if not result.hops or result.status is None:
            return
        for url in result.chain[1:]:
            target = site_key(url)
            if target == pending.site or robots_url(url) != url:
                continue
            if target in self.pending or self.cache.get(target) is not None:
                continue
            decision = self.decider.decide(
                target, pending.trigger, outcome, replace(result, hops=0)
            )
            self.cache.put(target, decision)
            assert self.crawler.stats is not None
            self.crawler.stats.inc_value("webrobot/robots/shared_by_redirect")
            self._announce(decision)

    def _resolve(
        self, pending: PendingSite, decision: RobotsDecision, *, reused: bool = False
    ) -> None:
        site = pending.site
        if self.pending.get(site) is pending:
            del self.pending[site]
        pending.cancel_timer()
        if not reused:
            self.cache.put(site, decision)
        self._announce(decision, reused=reused)
        pending.wake(decision)
        self._release(pending, decision)

    def _announce(self, decision: RobotsDecision, *, reused: bool = False) -> None:
        """Count, log and signal a decision this worker starts obeying."""
        if self.claims is not None:
            if reused and not self.claims.needs_announcing(decision):
                return  # already obeyed here (seen by a request while this worker waited)
            self.claims.announced(decision)
        self.decider.announce(decision, reused=reused)

    def _failed(self, pending: PendingSite, result: RobotsFetch) -> None:
        plan = self.backoff.after_failure(pending, result)
        reason, delay = plan.reason, plan.delay
        said = "host name does not resolve" if result.unresolved else reason
        pending.last_reason = REASONS[plan.dead] if plan.dead else said
        pending.last_detail = result.detail
        pending.gives_up_at = (
            time.monotonic() - plan.elapsed + plan.limit if plan.limit > 0 else None
        )
        if plan.action == "stale":
            stale = pending.stale
            assert stale is not None
            self.stats.inc_value("webrobot/robots/stale_used")
            if self.claims is not None:
                self.claims.mark_stale(pending.site, True)  # the waiting workers obey it too
            if not pending.stale_mode:
                pending.stale_mode = True
                logger.info(
                    "robots.txt of %s failed on re-fetch (%s); obeying the copy fetched %s ago "
                    "while retrying (next in %s)",
                    pending.site, reason, duration(time.time() - stale.fetched_at), duration(delay),
                )  # fmt: skip
            self._retry_in(pending, delay)
            pending.wake(stale)
            self._release(pending, stale)
            return
        if pending.stale_mode and self.claims is not None:
            self.claims.mark_stale(pending.site, False)
        pending.stale_mode = False
        attempts = pending.deferral.attempts if pending.deferral else 0
        if plan.action == "give_up":
            why = f"robots.txt unreachable for {duration(plan.elapsed)} (last: {reason})"
            if plan.dead is not None:  # said once, by the crawl's record of dead hosts
                why = self.dead_hosts.give_up(
                    pending.robots_url, plan.dead, plan.tries, plan.elapsed, result.detail, len(pending.held)
                ).line()  # fmt: skip
            else:
                logger.warning(
                    "Giving up on the robots.txt of %s after %s and %d attempts (last: %s): "
                    "the site counts as disallowed",
                    pending.site, duration(plan.elapsed), attempts, reason,
                )  # fmt: skip
                self.gave_up.add(pending, attempts, plan.elapsed)
            self._resolve(
                pending, self.decider.unreachable(pending.site, result.status, result.url, why, plan.dead)
            )  # fmt: skip
            return
        self.dead_hosts.failing(pending.robots_url, plan.dead)  # requisites need not wait on it
        self.stats.inc_value("webrobot/robots/deferred")
        if self.claims is not None:  # a worker that takes over keeps this schedule
            self.claims.note_deferral(pending, delay)
        if unresolved := result.unresolved:
            self.stats.inc_value("webrobot/robots/deferred_dns")
        # A name that does not resolve is said at every attempt: few, and the wait is short.
        log = logger.info if attempts == 1 or unresolved else logger.debug
        log(
            "robots.txt of %s failed (%s%s); holding its requests, attempt %d in %s%s",
            pending.site, pending.last_reason,
            f": {result.detail[:200]}" if result.detail else "", attempts + 1, duration(delay),
            f", giving up in {duration(plan.limit - plan.elapsed)}"
            if plan.limit > 0 and (unresolved or plan.dead) else "",
        )  # fmt: skip
        self.crawler.signals.send_catch_log(
            signal=signals.site_deferred,
            site=pending.site,
            seconds=delay,
            attempt=attempts,
            reason=reason,
            status=result.status,
            gives_up_in=plan.limit - plan.elapsed if plan.limit > 0 else None,
        )
        self._retry_in(pending, delay)

    def _retry_in(self, pending: PendingSite, delay: float) -> None:
        pending.cancel_timer()
        pending.timer = call_later(delay, self._retry, pending)

    def _retry(self, pending: PendingSite) -> None:
        pending.timer = None
        if not self._current(pending) or pending.fetching:
            return
        self._launch(pending)

    def _release(self, pending: PendingSite, decision: RobotsDecision) -> None:
        held, pending.held = pending.held, []
        if not held:
            return
        if decision.refuses_everything:
            reason = GAVE_UP if decision.outcome == policy.UNREACHABLE else FORBIDDEN
            said, stat = bool(decision.dead), REFUSAL_STATS[reason]  # a dead host's: said with it
            for request in held:
                self.refuser.refuse(request, reason, decision.reason, stat, said=said)
            (logger.debug if said else logger.info)(
                "Dropped %d requests held for %s: %s", len(held), pending.site, decision.reason
            )
        else:
            for request in held:
                self.crawler.engine.crawl(request)
        self._wake_engine()

    def _wake_engine(self) -> None:
        # Let the engine look at its scheduler (or notice it is idle) now rather
        # than at its next 5 s heartbeat.
        wake_engine(self.crawler.engine)
