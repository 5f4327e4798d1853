"""The links of a page are judged before they go anywhere near the scheduler.

A page can hold 100,000 links to other sites. Scrapy's scheduler keeps a queue
per download slot, so each off-site link used to cost a queue of its own
before the scope filter (a downloader middleware) refused it when it came out;
the cost grew faster than the number of links. Here each link the spider
yields is checked, in the order of cost, as it is yielded:

1. the crawl's scope (sites, ``allowed_domains``, the config's ``allow`` /
   ``deny``) and the global blocklist, on the canonical URL: the scope of any
   spider, the ``webrobot`` spider's from its site config, another's from its
   ``allowed_domains`` or ``start_urls`` (the one scope of the crawl,
   :class:`~webrobot.urls.scopemiddleware.CrawlScope`, which the downloader
   middleware uses too);
2. the URL trap rules (too long, too many path segments, a repeated segment:
   :class:`~webrobot.urls.trapmiddleware.TrapCheck`);
3. a path extension that says the target is not a page
   (``WEBROBOT_IGNORED_EXTENSIONS``: Scrapy's ``IGNORED_EXTENSIONS`` plus
   saved web pages, ``.mht`` / ``.mhtml``), except links to documents
   (``.pdf``) when the crawl takes documents in (:mod:`webrobot.urls.documents`);
4. the page's link budget: at most ``WEBROBOT_MAX_LINKS_PER_PAGE`` links of
   one page go on (0: no cap). A sitemap is not a page: its URLs have their
   own limit (``WEBROBOT_SITEMAP_MAX_URLS``), and sitemap requests are not
   judged by their extension.

Every refusal goes through :class:`~webrobot.urls.refusals.Refuser`
(``webrobot/url/refused/<reason>``), so it is counted, logged once per site
and shown in the crawl report. A link refused for good (scope, blocklist,
extension) first goes through the duplicate filter (the visited store, shared
by the workers of a distributed crawl), as it did when the scheduler saw it:
a URL is refused and counted once, however many pages link to it, and a
second occurrence is dropped as a duplicate. Links that pass are dropped by
the same filter when they are scheduled, before any queue work; a link over
the cap is not marked visited (another page may still lead to it).

Why here, before the scheduler: a link refused in a downloader middleware has
already taken a place among ``CONCURRENT_REQUESTS`` and had its host name
resolved by the network guard (which runs first there), so a page linking to
hundreds of other sites held the crawl's own pages back while their names were
looked up. Judged here, a refused link costs no queue, no download slot, no
DNS look-up and no politeness delay. The order is the downloader's (scope,
blocklist, traps; robots.txt is decided later, when the request is scheduled),
so a link gets the reason it would have got there. The downloader middlewares
still check the same rules for what no spider middleware sees: start requests,
redirect targets and retries.
A request with ``dont_filter`` or ``allow_offsite`` skips the scope check, as
in the downloader middleware.
"""

from __future__ import annotations

import weakref
from typing import TYPE_CHECKING

from scrapy.spidermiddlewares.base import BaseSpiderMiddleware
from scrapy.utils.url import url_has_any_extension

from webrobot.settingsmodel.parse import ConfigError, read
from webrobot.settingsmodel.startup import non_negative_setting, setting_error
from webrobot.signals import SITEMAP_META
from webrobot.urls.blocklist import BlocklistError
from webrobot.urls.blocklistmiddleware import crawl_blocklist
from webrobot.urls.canonical import Canonicalizer, canonicalizer_for
from webrobot.urls.documents import documents_accepted, has_document_extension
from webrobot.urls.refusals import Refuser
from webrobot.urls.scopemiddleware import CrawlScope
from webrobot.urls.trapmiddleware import TrapCheck
from webrobot.urls.traps import BINARY_EXTENSION, BLOCKLIST

if TYPE_CHECKING:
    from typing import Self

    from scrapy import Request
    from scrapy.crawler import Crawler
    from scrapy.http import Response

#: Refusal reason (``webrobot/url/refused/<reason>``); BINARY_EXTENSION is in urls.traps.
PAGE_CAP = "page_link_cap"


class LinkGateMiddleware(BaseSpiderMiddleware):
    """Refuses a page's links out of scope, blocklisted, traps, files or over the per-page cap,
    before the scheduler."""

    def __init__(self, crawler: Crawler) -> None:
        super().__init__(crawler)
        settings = crawler.settings
        try:
            self.cap = non_negative_setting(crawler, "WEBROBOT_MAX_LINKS_PER_PAGE")
        except ConfigError as exc:
            raise setting_error(crawler, exc) from None
        self.extensions = {
            "." + str(ext).strip().lower().lstrip(".")
            for ext in read(settings, "WEBROBOT_IGNORED_EXTENSIONS")
            if str(ext).strip()
        }
        try:
            self.blocklist = crawl_blocklist(crawler)
        except BlocklistError as exc:  # the blocklist middleware reports it the same way
            raise setting_error(crawler, exc) from None
        self.scope = CrawlScope.of(crawler) if read(settings, "WEBROBOT_SCOPE_ENABLED") else None
        self.traps = TrapCheck.of(crawler)
        self.refuser = Refuser(crawler)
        self._canonicalizer: Canonicalizer | None = None
        self._passed: weakref.WeakKeyDictionary[Response, int] = weakref.WeakKeyDictionary()

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> Self:
        return cls(crawler)

    def get_processed_request(self, request: Request, response: Response | None) -> Request | None:
        if response is None:  # a start request: the downloader middlewares judge it
            return request
        spider = self.crawler.spider
        if self._canonicalizer is None:
            self._canonicalizer = canonicalizer_for(getattr(spider, "config", None))
        canonical = self._canonicalizer(request.url)
        scope = self.scope.get() if self.scope is not None else None
        if scope is not None and not (request.dont_filter or request.meta.get("allow_offsite")):
            reason = scope.refusal(canonical)
            if reason is not None:
                if not self._seen(request):
                    self.refuser.refuse(request, reason)
                return None
        if self.blocklist:
            match = self.blocklist.match(canonical)
            if match is not None:
                if not self._seen(request):
                    self.refuser.refuse(request, BLOCKLIST, f"blocked by {match}")
                return None
        if self.traps is not None:
            trap = self.traps.refusal(request.url)
            if trap is not None:
                if not self._seen(request):
                    self.traps.refuse(request, *trap)
                return None
        sitemap = (
            response.meta.get(SITEMAP_META) is not None
            or request.meta.get(SITEMAP_META) is not None
        )
        if (
            self.extensions and not sitemap
            and url_has_any_extension(request.url, self.extensions)
            and not self._document_followed(request)
        ):  # fmt: skip
            if not self._seen(request):
                self.refuser.refuse(
                    request, BINARY_EXTENSION, "the extension says it is not a page"
                )
            return None
        if self.cap and not sitemap:
            passed = self._passed.get(response, 0)
            if passed >= self.cap:
                self.refuser.refuse(
                    request,
                    PAGE_CAP,
                    f"{response.url[:200]} has more than {self.cap} links to follow",
                )
                return None
            self._passed[response] = passed + 1
        return request

    def _document_followed(self, request: Request) -> bool:
        """A link to a document when the crawl takes documents in: followed, with the
        document size cap as its download limit."""
        cap = documents_accepted(self.crawler)
        if cap is None or not has_document_extension(request.url):
            return False
        if cap:
            request.meta.setdefault("download_maxsize", cap)
        return True

    def _seen(self, request: Request) -> bool:
        """Mark a refused link visited; True (and logged as a duplicate) if it already was."""
        if request.dont_filter:
            return False
        engine = self.crawler.engine
        dupefilter = getattr(engine.scheduler if engine is not None else None, "df", None)
        if dupefilter is None or not dupefilter.request_seen(request):
            return False
        dupefilter.log(request, self.crawler.spider)
        return True
