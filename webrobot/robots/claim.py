"""Several workers, one robots.txt fetch per site.

A cache shared by several worker processes (``claim`` in its interface, see
:mod:`webrobot.robots.cache`) lets one worker fetch a site's robots.txt while
the others wait: before fetching, a worker claims the site; if another worker
holds the claim, this one looks at the cache every ``cache.poll_interval``
seconds until that worker's decision is there (it is then obeyed here as if
fetched here, ``webrobot/robots/reused``), or until the claim is free (its
worker stopped), and then claims and fetches itself. A worker that keeps
failing to fetch keeps its claim while it retries, so the site's robots.txt
is not fetched by every worker in turn; if it obeys the expired rules
meanwhile (stale use) it says so with its claim, and the waiting workers obey
them too. Decisions another worker stored are announced (``robots_resolved``)
the first time this worker uses them, so that its downloader knows the
site's Crawl-delay.

With the in-process cache there is nothing to claim and
:class:`ClaimCoordinator` is not used.
"""

from __future__ import annotations

import logging
import time
from time import monotonic
from typing import TYPE_CHECKING

from scrapy.utils.asyncio import call_later
from scrapy.utils.defer import maybe_deferred_to_future
from twisted.internet.defer import Deferred

from webrobot.robots import policy
from webrobot.robots.cache import SharedDeferrals
from webrobot.robots.held import duration

if TYPE_CHECKING:
    from collections.abc import Callable

    from scrapy.statscollectors import StatsCollector

    from webrobot.robots.cache import SharedRobotsCache
    from webrobot.robots.held import PendingSite
    from webrobot.robots.policy import RobotsDecision

logger = logging.getLogger(__name__)

#: Sites whose announced decision is remembered (then forgotten and re-announced).
ANNOUNCED_REMEMBERED = 100_000


class ClaimCoordinator:
    def __init__(self, shared: SharedRobotsCache, stats: StatsCollector, stale_max: float) -> None:
        self.shared = shared
        self.stats = stats
        self.stale_max = stale_max
        self._announced: dict[str, float] = {}  # site -> fetched_at of the decision announced

    def needs_announcing(self, decision: RobotsDecision) -> bool:
        """Whether this worker has not yet announced this decision of its site."""
        return self._announced.get(decision.site) != decision.fetched_at

    def announced(self, decision: RobotsDecision) -> None:
        if len(self._announced) >= ANNOUNCED_REMEMBERED:
            self._announced.clear()
        self._announced[decision.site] = decision.fetched_at

    def shared_deferral_wait(self, pending: PendingSite) -> float:
        """Take over the site's shared deferral (another worker deferred the site
        and stopped: keep its schedule); seconds until its next attempt is due."""
        shared = self.shared
        state = shared.deferral(pending.site) if isinstance(shared, SharedDeferrals) else None
        if state is None:
            return 0.0
        first, attempts, next_attempt = state
        now_wall = time.time()
        if pending.deferral is None or pending.deferral.attempts < attempts:
            pending.deferral = policy.Deferral(first_failure=monotonic() - max(0.0, now_wall - first),
                                               attempts=attempts)  # fmt: skip
        return max(0.0, next_attempt - now_wall)

    def note_deferral(self, pending: PendingSite, delay: float) -> None:
        """Share this worker's deferral of the site (its first failure, attempts, next attempt)."""
        deferral = pending.deferral
        if deferral is None or not isinstance(self.shared, SharedDeferrals):
            return
        now_wall = time.time()
        first = now_wall - deferral.elapsed(monotonic())
        self.shared.note_deferral(pending.site, first, deferral.attempts, now_wall + delay)

    def mark_stale(self, site: str, stale: bool) -> None:
        """Tell the waiting workers whether this worker obeys expired rules."""
        self.shared.claim(site, stale=stale)

    async def claim_or_wait(
        self,
        pending: PendingSite,
        current: Callable[[], bool],
        obey_stale: Callable[[RobotsDecision], None],
    ) -> RobotsDecision | None:
        """Claim the site's fetch (None: fetch it here), or wait for the
        decision of the worker that holds the claim (returned). ``current``
        says whether the wait still matters; ``obey_stale`` is called when the
        fetching worker obeys expired rules, which this worker then obeys too."""
        shared, site, waited = self.shared, pending.site, False
        while current():
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
                    "ago meanwhile", site, duration(time.time() - stale.fetched_at),
                )  # fmt: skip
                pending.stale_mode = True
                obey_stale(stale)
            tick: Deferred[None] = Deferred()
            pending.timer = call_later(shared.poll_interval, tick.callback, None)
            await maybe_deferred_to_future(tick)
            pending.timer = None
        return None
