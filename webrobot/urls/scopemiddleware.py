"""Keep the crawl on its sites: refuse requests outside the spider's scope.

The ``webrobot`` spider's scope comes from its site config; any other spider's
from its ``allowed_domains`` (those domains and their subdomains) or else its
``start_urls`` (those sites: scheme, host and port).

A downloader middleware (not a spider middleware) so start requests and
redirect targets are checked too. A page requisite (meta key
``webrobot_requisite``) passes off-site within ``WEBROBOT_REQUISITES_MAX_HOPS``
embeds of its page (:func:`webrobot.urls.scope.requisite_refusal`). Requests
with ``dont_filter=True`` or the ``allow_offsite`` meta key (Scrapy's own opt-out) pass. The scope and the
config's ``allow`` / ``deny`` patterns see the canonical URL
(:mod:`webrobot.urls.canonical`), so an alias cannot slip past a pattern.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from scrapy.exceptions import NotConfigured

from webrobot.settings_model import read
from webrobot.signals import HOPS_META, REQUISITE_META
from webrobot.urls.canonical import Canonicalizer, canonicalizer_for
from webrobot.urls.refusals import Refuser
from webrobot.urls.scope import SiteScope, requisite_refusal

if TYPE_CHECKING:
    from typing import Self

    from scrapy import Request
    from scrapy.crawler import Crawler


class SiteScopeMiddleware:
    def __init__(self, crawler: Crawler) -> None:
        if not read(crawler.settings, "WEBROBOT_SCOPE_ENABLED"):
            raise NotConfigured("WEBROBOT_SCOPE_ENABLED is off")
        self.crawler = crawler
        self.refuser = Refuser(crawler)
        self._canonicalizer: Canonicalizer | None = None
        self._own_scope: SiteScope | None = None
        self.max_hops = read(crawler.settings, "WEBROBOT_REQUISITES_MAX_HOPS")

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> Self:
        return cls(crawler)

    def process_request(self, request: Request) -> None:
        if request.dont_filter or request.meta.get("allow_offsite"):
            return
        scope = self._scope()
        if scope is None:
            return
        if self._canonicalizer is None:
            self._canonicalizer = canonicalizer_for(getattr(self.crawler.spider, "config", None))
        reason = scope.refusal(self._canonicalizer(request.url))
        if reason is not None and request.meta.get(REQUISITE_META) is not None:
            reason = requisite_refusal(reason, int(request.meta.get(HOPS_META) or 1), self.max_hops)
        if reason is not None:
            raise self.refuser.refuse(request, reason)

    def _scope(self) -> SiteScope | None:
        """The spider's ``scope`` (the ``webrobot`` spider's, from its site config);
        for any other spider, its ``allowed_domains``, else its ``start_urls``' sites
        (none of either: no limit, as with Scrapy's offsite filter)."""
        spider = self.crawler.spider
        scope: SiteScope | None = getattr(spider, "scope", None)
        if scope is not None or spider is None:
            return scope
        if self._own_scope is None:
            domains = [d for d in getattr(spider, "allowed_domains", None) or () if d]
            starts = [u for u in getattr(spider, "start_urls", None) or () if isinstance(u, str)]
            if not domains and not starts:
                return None
            self._own_scope = SiteScope(start_urls=starts, allowed_domains=domains)
        return self._own_scope
