"""One way for every component to refuse a request: counted by reason, logged
so a person can follow it (first refusal per site and reason at INFO, the rest
at DEBUG), and announced with the ``request_refused`` signal for the report.

The first refusals of a reason are announced at INFO for the first
:data:`SITES_ANNOUNCED` sites only; then one line says so and the rest go to
DEBUG: a page linking to 100,000 other sites, or a crawl of 4,096 sites, would
otherwise write (and remember) one INFO line per site. Every refusal is still
counted and signalled."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from scrapy.exceptions import IgnoreRequest

from webrobot import signals
from webrobot.urls.sitekey import request_site

if TYPE_CHECKING:
    from scrapy import Request
    from scrapy.crawler import Crawler

logger = logging.getLogger(__name__)
STATS_PREFIX = "webrobot/url/refused/"
#: Sites per reason whose first refusal is logged at INFO.
SITES_ANNOUNCED = 50


class Refuser:
    def __init__(self, crawler: Crawler, stats_prefix: str = STATS_PREFIX) -> None:
        self.crawler = crawler
        self.stats_prefix = stats_prefix
        self._announced: dict[str, set[str]] = {}  # reason -> sites announced at INFO

    def refuse(
        self, request: Request, reason: str, detail: str = "", stat: str | None = None,
        *, said: bool = False,
    ) -> IgnoreRequest:  # fmt: skip
        """Count, log and signal one refusal; returns the exception to raise.

        ``reason`` is the short name the log and the report show; the stat
        counted is ``stats_prefix + reason`` unless ``stat`` names another key
        (e.g. Scrapy's own ``robotstxt/forbidden``). ``said``: the reason was said
        already where it was decided (a host given up as dead: the crawl's record of
        dead hosts says each), so the refusal is logged at DEBUG only.
        """
        site = request_site(request)
        assert self.crawler.stats is not None
        self.crawler.stats.inc_value(stat or self.stats_prefix + reason)
        sites = self._announced.get(reason)
        if sites is None:
            sites = self._announced[reason] = set()
        if not said and len(sites) < SITES_ANNOUNCED and site not in sites:
            sites.add(site)
            logger.info(
                "Refusing %s URLs of %s (first: %s)%s; further ones are logged at DEBUG",
                reason, site, request.url[:200], f": {detail}" if detail else "",
            )  # fmt: skip
            if len(sites) == SITES_ANNOUNCED:
                logger.info(
                    "Refused %s URLs of %d sites: the first refusal of further sites is logged "
                    "at DEBUG too (all are counted in %s)",
                    reason, SITES_ANNOUNCED, stat or self.stats_prefix + reason,
                )  # fmt: skip
        else:
            logger.debug("Refused (%s): %s", reason, request.url[:200])
        self.crawler.signals.send_catch_log(
            signal=signals.request_refused, request=request, reason=reason, site=site
        )
        return IgnoreRequest(f"webrobot refused {request.url[:200]}: {reason}")
