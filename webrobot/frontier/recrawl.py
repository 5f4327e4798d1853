"""Conditional re-crawls through Scrapy's HttpCacheMiddleware.

``HTTPCACHE_ENABLED = True`` with a persistent ``HTTPCACHE_DIR`` (Scrapy's
filesystem storage) and this policy (webrobot's default ``HTTPCACHE_POLICY``):

* a page is stored only when it can be revalidated: a 200 with an ``ETag`` or
  ``Last-Modified`` (storing others would only fill the disk);
* on the next crawl every stored page is revalidated, never served from the
  cache unasked: the request carries ``If-None-Match`` / ``If-Modified-Since``,
  and a ``304 Not Modified`` hands the stored page to the spider (so its links
  are followed) without downloading it again. The report counts it as
  *unchanged*. Scrapy's plain RFC 2616 policy would instead skip pages it thinks
  are still fresh (10% of their age for a ``Last-Modified``), so a re-crawl
  would not see whether they changed;
* a page whose robots directives say ``noarchive`` (meta or X-Robots-Tag) is
  never stored: the cache is a stored copy of the body;
* robots.txt never goes through the cache: its fetches carry
  ``dont_obey_robotstxt`` (and may carry ``dont_cache``), and the robots.txt
  middleware keeps its own expiry rules.

With ``WEBROBOT_RECRAWL_INTERVAL`` > 0 (or ``recrawl_interval`` in a site
config) a re-crawl checks only the stored pages that are **due**
(:mod:`webrobot.frontier.freshness`): a page not due is handed to the spider from the
cache without any request to the site (its links are still followed); a due
page is revalidated as above. Every 200 is then stored (a page without
validators is re-downloaded when due and compared by MD5), and each check
updates the page's record in a SQLite file (``WEBROBOT_FRESHNESS_DB``, by
default ``freshness.sqlite`` in the cache folder): changed pages get a shorter
interval, unchanged ones a longer one. Sitemap files are always checked; a
page's sitemap ``lastmod`` later than its last check makes it due at once. The
outcome of each page (``new``, ``changed``, ``unchanged``, ``not_due``) is put
in ``request.meta["_freshness"]`` for the freshness counter
(:class:`webrobot.frontier.freshnesstap.FreshnessTapMiddleware`).
"""

from __future__ import annotations

import hashlib
import time
from pathlib import Path
from typing import TYPE_CHECKING

from scrapy.extensions.httpcache import RFC2616Policy
from scrapy.utils.httpobj import urlparse_cached
from scrapy.utils.project import data_path

from webrobot.frontier.freshness import NOT_DUE, FreshnessRules
from webrobot.frontier.freshnessstore import FreshnessStore
from webrobot.pages.metarobots import product_token
from webrobot.pages.pagerules import response_directives
from webrobot.settingsmodel.parse import read

if TYPE_CHECKING:
    from scrapy import Request
    from scrapy.http import Response
    from scrapy.settings import BaseSettings

#: request meta: what the freshness rules made of this page (see the module docstring)
OUTCOME_KEY = "_freshness"
#: request meta: why a stored page was checked (``interval``, ``lastmod``, ``changefreq``)
DUE_KEY = "_freshness_due"

VALIDATORS = ((b"ETag", b"If-None-Match"), (b"Last-Modified", b"If-Modified-Since"))


def conditional_headers(stored_headers: dict[bytes, bytes]) -> dict[bytes, bytes]:
    """Request headers that ask whether a stored response changed (pure)."""
    return {ask: stored_headers[have] for have, ask in VALIDATORS if stored_headers.get(have)}


class RevalidatePolicy(RFC2616Policy):
    def __init__(self, settings: BaseSettings) -> None:
        super().__init__(settings)
        self.agent = product_token(settings.get("ROBOTSTXT_USER_AGENT"), settings.get("USER_AGENT"))
        self.obey_meta = read(settings, "WEBROBOT_META_ROBOTS_ENABLED")
        self.clock = time.time
        self.rules = FreshnessRules(
            interval=read(settings, "WEBROBOT_RECRAWL_INTERVAL"),
            min_interval=read(settings, "WEBROBOT_RECRAWL_MIN_INTERVAL"),
            max_interval=read(settings, "WEBROBOT_RECRAWL_MAX_INTERVAL"),
            factor=read(settings, "WEBROBOT_RECRAWL_FACTOR"),
        )
        self.store: FreshnessStore | None = None
        if self.rules.enabled:
            path = read(settings, "WEBROBOT_FRESHNESS_DB") or str(
                Path(data_path(settings.get("HTTPCACHE_DIR") or "httpcache", createdir=True))
                / "freshness.sqlite"
            )
            self.store = FreshnessStore(path)

    def should_cache_request(self, request: Request) -> bool:
        if (
            request.meta.get("dont_obey_robotstxt")
            or urlparse_cached(request).path == "/robots.txt"
        ):
            return False
        return super().should_cache_request(request)

    def should_cache_response(self, response: Response, request: Request) -> bool:
        if response.status != 200:
            return False
        if self.store is not None:
            self._checked(request, hashlib.md5(response.body, usedforsecurity=False).hexdigest())
        if self.store is not None:
            # Due-ness needs a stored copy of every page, validators or not.
            if b"no-store" in self._parse_cachecontrol(response):
                return False
        elif not super().should_cache_response(response, request) or not any(
            response.headers.get(have) for have, _ in VALIDATORS
        ):
            return False
        return not (self.obey_meta and self._noarchive(response))

    def is_cached_response_valid(
        self, cachedresponse: Response, response: Response, request: Request
    ) -> bool:
        valid = super().is_cached_response_valid(cachedresponse, response, request)
        if valid and response.status == 304 and self.store is not None:
            self._checked(request, None)
        return valid

    def _checked(self, request: Request, md5: str | None) -> None:
        assert self.store is not None
        if request.meta.get("_sitemap") or OUTCOME_KEY in request.meta:
            return  # a sitemap, or a 304 whose stored copy is being re-stored: already counted
        record = self.store.get(request.url)
        outcome, record = self.rules.checked(
            record, self.clock(), md5, request.meta.get("sitemap_changefreq")
        )
        self.store.put(request.url, record)
        request.meta[OUTCOME_KEY] = outcome

    def _noarchive(self, response: Response) -> bool:
        try:
            return "noarchive" in response_directives(response, self.agent)
        except Exception:  # noqa: BLE001 - unreadable: the header alone decides
            values = b",".join(response.headers.getlist("X-Robots-Tag")).lower()
            return b"noarchive" in values

    def is_cached_response_fresh(self, cachedresponse: Response, request: Request) -> bool:
        if self.store is not None and not request.meta.get("_sitemap"):
            due = self.rules.due(
                self.store.get(request.url), self.clock(),
                request.meta.get("sitemap_lastmod"), request.meta.get("sitemap_changefreq"),
            )  # fmt: skip
            if due is None:
                request.meta[OUTCOME_KEY] = NOT_DUE
                return True  # handed over from the cache: no request to the site
            request.meta[DUE_KEY] = due
        stored = {have: cachedresponse.headers.get(have) for have, _ in VALIDATORS}
        for name, value in conditional_headers(stored).items():  # type: ignore[arg-type]
            request.headers[name] = value
        return False
