"""Keep the crawl on its sites: refuse requests outside the spider's scope.

A downloader middleware (not a spider middleware) so start requests and
redirect targets are checked too. Requests with ``dont_filter=True`` or the
``allow_offsite`` meta key (Scrapy's own opt-out) pass.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from scrapy.exceptions import IgnoreRequest, NotConfigured

from webrobot.scope import SiteScope
from webrobot.sitekey import site_key

if TYPE_CHECKING:
    from typing_extensions import Self

    from scrapy import Request
    from scrapy.crawler import Crawler

logger = logging.getLogger(__name__)


class SiteScopeMiddleware:
    def __init__(self, crawler: Crawler) -> None:
        if not crawler.settings.getbool("WEBROBOT_SCOPE_ENABLED"):
            raise NotConfigured("WEBROBOT_SCOPE_ENABLED is off")
        self.crawler = crawler
        self.stats = crawler.stats
        self._logged: set[tuple[str, str]] = set()

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> Self:
        return cls(crawler)

    def process_request(self, request: Request) -> None:
        if request.dont_filter or request.meta.get("allow_offsite"):
            return
        scope: SiteScope | None = getattr(self.crawler.spider, "scope", None)
        if scope is None:
            return
        reason = scope.refusal(request.url)
        if reason is None:
            return
        self.stats.inc_value(f"webrobot/url/refused/{reason}")
        site = site_key(request.url)
        if (site, reason) not in self._logged:
            self._logged.add((site, reason))
            logger.info("Refusing %s URLs of %s (first: %s); further ones are counted only",
                        reason, site, request.url)
        else:
            logger.debug("Refused (%s): %s", reason, request.url)
        raise IgnoreRequest(f"webrobot refused {request.url}: {reason}")
