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

The links of pages are judged with the same scope (:class:`CrawlScope`) before
they are scheduled, by the link gate (:mod:`webrobot.urls.linkgate`), for any
spider: a link out of scope never takes a place among ``CONCURRENT_REQUESTS``
nor a DNS look-up. This downloader middleware judges what no spider
middleware sees: start requests and redirect targets. A page requisite (meta key
``webrobot_requisite``) passes off-site within ``WEBROBOT_REQUISITES_MAX_HOPS``
embeds of its page (:func:`webrobot.urls.scope.requisite_refusal`). Requests
with ``dont_filter=True`` or the ``allow_offsite`` meta key (Scrapy's own opt-out) pass. The scope and the
config's ``allow`` / ``deny`` patterns see the canonical URL
(:mod:`webrobot.urls.canonical`), so an alias cannot slip past a pattern.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from scrapy import signals
from scrapy.exceptions import NotConfigured
from scrapy.utils.misc import build_from_crawler, load_object

from webrobot.settingsmodel.parse import read
from webrobot.signals import HOPS_META, REQUISITE_META
from webrobot.urls.canonical import Canonicalizer, canonicalizer_for
from webrobot.urls.refusals import Refuser
from webrobot.urls.scope import DOMAIN, OFFSITE, SiteScope, requisite_refusal
from webrobot.urls.upgrademiddleware import upgrade_rules
from webrobot.wiring import per_crawler

if TYPE_CHECKING:
    from typing import Self

    from scrapy import Request
    from scrapy.crawler import Crawler

logger = logging.getLogger(__name__)
REDIRECT_SEED = "webrobot/scope/redirect_seed"


class SiteScopeMiddleware:
    """Refuses requests outside the spider's scope: other sites, deny patterns, URLs not allowed."""

    def __init__(self, crawler: Crawler) -> None:
        if not read(crawler.settings, "WEBROBOT_SCOPE_ENABLED"):
            raise NotConfigured("WEBROBOT_SCOPE_ENABLED is off")
        self.crawler = crawler
        self.refuser = Refuser(crawler)
        self.redirect_seeds = read(crawler.settings, "WEBROBOT_SCOPE_REDIRECT_SEEDS")
        self._canonicalizer: Canonicalizer | None = None
        self.max_hops = read(crawler.settings, "WEBROBOT_REQUISITES_MAX_HOPS")
        self._crawl_scope = CrawlScope.of(crawler)
        # The link gate judges links with the same scope: set it up before any page.
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
        if reason is not None and request.meta.get(REQUISITE_META) is not None:
            reason = requisite_refusal(reason, int(request.meta.get(HOPS_META) or 1), self.max_hops)
        if reason is not None:
            raise self.refuser.refuse(request, reason)

    def _redirected_start(self, request: Request) -> bool:
        """A redirect of a start request, before its first page."""
        meta = request.meta
        return bool(
            self.redirect_seeds and meta.get("is_start_request") and meta.get("redirect_urls")
        )

    def _scope(self) -> SiteScope | None:
        return self._crawl_scope.get()


class CrawlScope:
    """The one :class:`SiteScope` of a crawl, shared by every component that judges
    scope (this middleware for start requests and redirects, the link gate for the
    links of pages, the requisites for frames), so that a redirect seed added here
    is in scope there too.

    It is the spider's ``scope`` (the ``webrobot`` spider's, from its site config);
    for any other spider, one made from its ``allowed_domains``, else its
    ``start_urls``' hosts (none of either: no limit, as with Scrapy's offsite
    filter); put in ``WEBROBOT_SCOPE``'s mode, with the learnt https upgrades and
    the scope shared by the workers of a distributed crawl."""

    def __init__(self, crawler: Crawler) -> None:
        self.crawler = crawler
        self.mode = read(crawler.settings, "WEBROBOT_SCOPE")
        self.upgrades = read(crawler.settings, "WEBROBOT_UPGRADE_ENABLED")
        self._own_scope: SiteScope | None = None
        self._moded: SiteScope | None = None

    @classmethod
    def of(cls, crawler: Crawler) -> CrawlScope:
        """The crawl's one instance."""
        return per_crawler(crawler, CrawlScope, cls)

    def get(self) -> SiteScope | None:
        """The crawl's scope now (``None``: no limit, or no spider yet)."""
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
