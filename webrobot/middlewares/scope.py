"""Keep the crawl on its sites: refuse requests outside the spider's scope.

A downloader middleware (not a spider middleware) so start requests and
redirect targets are checked too. Requests with ``dont_filter=True`` or the
``allow_offsite`` meta key (Scrapy's own opt-out) pass. The scope and the
config's ``allow`` / ``deny`` patterns see the canonical URL
(:mod:`webrobot.canonical`), so an alias cannot slip past a pattern.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from scrapy.exceptions import NotConfigured

from webrobot.canonical import Canonicalizer, canonicalizer_for
from webrobot.refusals import Refuser
from webrobot.scope import SiteScope

if TYPE_CHECKING:
    from typing import Self

    from scrapy import Request
    from scrapy.crawler import Crawler


class SiteScopeMiddleware:
    def __init__(self, crawler: Crawler) -> None:
        if not crawler.settings.getbool("WEBROBOT_SCOPE_ENABLED"):
            raise NotConfigured("WEBROBOT_SCOPE_ENABLED is off")
        self.crawler = crawler
        self.refuser = Refuser(crawler)
        self._canonicalizer: Canonicalizer | None = None

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> Self:
        return cls(crawler)

    def process_request(self, request: Request) -> None:
        if request.dont_filter or request.meta.get("allow_offsite"):
            return
        scope: SiteScope | None = getattr(self.crawler.spider, "scope", None)
        if scope is None:
            return
        if self._canonicalizer is None:
            self._canonicalizer = canonicalizer_for(getattr(self.crawler.spider, "config", None))
        reason = scope.refusal(self._canonicalizer(request.url))
        if reason is not None:
            raise self.refuser.refuse(request, reason)
