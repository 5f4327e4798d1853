"""Keep the crawl on its sites: refuse requests outside the spider's scope.

The ``webrobot`` spider's scope comes from its site config; any other spider's
from its ``allowed_domains`` (those domains and their subdomains) or else its
``start_urls`` (their hosts, any scheme). ``WEBROBOT_SCOPE`` (a site config's
``scope``) says what a start URL brings into scope: ``host`` (default),
``origin`` (scheme, host and port) or ``domain`` (the registered domain and
its subdomains); see :mod:`webrobot.urls.scope`.

A start URL's redirects before its first page bring their target into scope
(``WEBROBOT_SCOPE_REDIRECT_SEEDS``, on by default; counted as
``webrobot/scope/redirect_seed``, logged once per target): the crawl of
``http://example.com/`` that lands on ``https://www.example.com/`` crawls
``www.example.com``; in a shared crawl every worker learns it
(``WEBROBOT_SCOPE_SHARE_CLASS``, :mod:`webrobot.distributed.scope`). Once a host is known to have moved to https
(:mod:`webrobot.urls.upgrademiddleware`), the https form of its in-scope http
URLs is in scope too, whatever its port.

A downloader middleware (not a spider middleware) so start requests and
redirect targets are checked too. Requests with ``dont_filter=True`` or the
``allow_offsite`` meta key (Scrapy's own opt-out) pass. The scope and the
config's ``allow`` / ``deny`` patterns see the canonical URL
(:mod:`webrobot.urls.canonical`), so an alias cannot slip past a pattern.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from scrapy import signals
from scrapy.exceptions import NotConfigured
from scrapy.utils.misc import build_from_crawler, load_object

from webrobot.refusals import Refuser
from webrobot.settings_model import read
from webrobot.urls.canonical import Canonicalizer, canonicalizer_for
from webrobot.urls.scope import DOMAIN, OFFSITE, SiteScope
from webrobot.urls.upgrademiddleware import upgrade_rules

if TYPE_CHECKING:
    from typing import Self

    from scrapy import Request
    from scrapy.crawler import Crawler

logger = logging.getLogger(__name__)
REDIRECT_SEED = "webrobot/scope/redirect_seed"


class SiteScopeMiddleware:
    def __init__(self, crawler: Crawler) -> None:
        if not read(crawler.settings, "WEBROBOT_SCOPE_ENABLED"):
            raise NotConfigured("WEBROBOT_SCOPE_ENABLED is off")
        self.crawler = crawler
        self.refuser = Refuser(crawler)
        self.mode = read(crawler.settings, "WEBROBOT_SCOPE")
        self.redirect_seeds = read(crawler.settings, "WEBROBOT_SCOPE_REDIRECT_SEEDS")
        self.upgrades = read(crawler.settings, "WEBROBOT_UPGRADE_ENABLED")
        self._canonicalizer: Canonicalizer | None = None
        self._own_scope: SiteScope | None = None
        self._moded: SiteScope | None = None
        # The link gate judges links with the spider's scope: set it up before any page.
        crawler.signals.connect(self._scope, signal=signals.spider_opened)

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
        url = self._canonicalizer(request.url)
        reason = scope.refusal(url)
        if reason == OFFSITE and self._redirected_start(request) and scope.add(url):
            assert self.crawler.stats is not None
            self.crawler.stats.inc_value(REDIRECT_SEED)
            logger.info(
                "A start URL redirects to %s: its %s is in the crawl's scope now",
                request.url, "registered domain" if scope.mode == DOMAIN else scope.mode,
            )  # fmt: skip
            reason = scope.refusal(url)
        if reason is not None:
            raise self.refuser.refuse(request, reason)

    def _redirected_start(self, request: Request) -> bool:
        """A redirect of a start request, before its first page."""
        meta = request.meta
        return bool(
            self.redirect_seeds and meta.get("is_start_request") and meta.get("redirect_urls")
        )

    def _scope(self) -> SiteScope | None:
        """The spider's ``scope`` (the ``webrobot`` spider's, from its site config);
        for any other spider, its ``allowed_domains``, else its ``start_urls``' hosts
        (none of either: no limit, as with Scrapy's offsite filter)."""
        spider = self.crawler.spider
        scope: SiteScope | None = getattr(spider, "scope", None)
        if scope is None and spider is not None:
            if self._own_scope is None:
                domains = [d for d in getattr(spider, "allowed_domains", None) or () if d]
                starts = [
                    u for u in getattr(spider, "start_urls", None) or () if isinstance(u, str)
                ]
                if not domains and not starts:
                    return None
                self._own_scope = SiteScope(start_urls=starts, allowed_domains=domains)
            scope = self._own_scope
        if scope is not None and scope is not self._moded:
            if scope.mode != self.mode:
                domain_of = None
                if self.mode == DOMAIN:
                    from webrobot.urls.domains import registered_domain

                    domain_of = registered_domain
                scope.set_mode(self.mode, domain_of)
            if self.upgrades:
                scope.upgrades = upgrade_rules(self.crawler)
            share = read(self.crawler.settings, "WEBROBOT_SCOPE_SHARE_CLASS")
            if share:
                scope.shared = build_from_crawler(load_object(share), self.crawler)
            self._moded = scope
        return scope
