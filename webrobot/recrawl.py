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
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from scrapy.extensions.httpcache import RFC2616Policy
from scrapy.utils.httpobj import urlparse_cached

from webrobot.metarobots import product_token
from webrobot.middlewares.metarobots import response_directives
from webrobot.settings_model import read

if TYPE_CHECKING:
    from scrapy import Request
    from scrapy.http import Response
    from scrapy.settings import BaseSettings

VALIDATORS = ((b"ETag", b"If-None-Match"), (b"Last-Modified", b"If-Modified-Since"))


def conditional_headers(stored_headers: dict[bytes, bytes]) -> dict[bytes, bytes]:
    """Request headers that ask whether a stored response changed (pure)."""
    return {ask: stored_headers[have] for have, ask in VALIDATORS if stored_headers.get(have)}


class RevalidatePolicy(RFC2616Policy):
    def __init__(self, settings: BaseSettings) -> None:
        super().__init__(settings)
        self.agent = product_token(settings.get("ROBOTSTXT_USER_AGENT"), settings.get("USER_AGENT"))
        self.obey_meta = read(settings, "WEBROBOT_META_ROBOTS_ENABLED")

    def should_cache_request(self, request: Request) -> bool:
        if request.meta.get("dont_obey_robotstxt") or urlparse_cached(request).path == "/robots.txt":
            return False
        return super().should_cache_request(request)

    def should_cache_response(self, response: Response, request: Request) -> bool:
        if response.status != 200 or not super().should_cache_response(response, request):
            return False
        if not any(response.headers.get(have) for have, _ in VALIDATORS):
            return False
        return not (self.obey_meta and self._noarchive(response))

    def _noarchive(self, response: Response) -> bool:
        try:
            return "noarchive" in response_directives(response, self.agent)
        except Exception:  # noqa: BLE001 - unreadable: the header alone decides
            values = b",".join(response.headers.getlist("X-Robots-Tag")).lower()
            return b"noarchive" in values

    def is_cached_response_fresh(self, cachedresponse: Response, request: Request) -> bool:
        stored = {have: cachedresponse.headers.get(have) for have, _ in VALIDATORS}
        for name, value in conditional_headers(stored).items():  # type: ignore[arg-type]
            request.headers[name] = value
        return False
