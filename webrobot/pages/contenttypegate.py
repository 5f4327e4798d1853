"""Stop unwanted downloads at their headers.

A response whose headers declare a type that is not a page (see
:mod:`webrobot.pages.contenttypes`) or a ``Content-Length`` over
``DOWNLOAD_MAXSIZE`` is stopped when its headers arrive
(``headers_received`` + ``StopDownload(fail=False)``): the rest of its body is
never downloaded, and the spider gets the headers only, with the
``download_stopped`` flag, and counts the page as not HTML. A linked 40 MB PDF
costs a few hundred bytes. ``WEBROBOT_NON_HTML_ITEMS = True`` (for a site
config that wants items for its files) lets such bodies through, and so does
a crawl that takes documents in (``documents`` in ``WEBROBOT_EXTRACT``) for
the documents' types, up to ``WEBROBOT_DOCUMENT_MAX_BYTES``.

robots.txt requests, sitemap requests (XML, perhaps gzipped, read by their
own rules) and requests with the ``dont_check_type`` meta key are left alone. Counted: ``webrobot/download/stopped/type`` and
``webrobot/download/stopped/too_large``.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from scrapy import signals
from scrapy.exceptions import NotConfigured, StopDownload

from webrobot.pages.contenttypes import OTHER, declared_kind, mime_type
from webrobot.settingsmodel.parse import read
from webrobot.signals import ROBOTS_FETCH_META, SITEMAP_META
from webrobot.urls.documents import documents_accepted, is_document_type

if TYPE_CHECKING:
    from typing import Self

    from scrapy import Request
    from scrapy.crawler import Crawler
    from scrapy.http import Headers

logger = logging.getLogger(__name__)


class ContentTypeGate:
    """Stops downloads whose headers say they are not pages, or too big.

    An extension: listens to ``headers_received`` for every download."""

    def __init__(self, crawler: Crawler) -> None:
        settings = crawler.settings
        if not read(settings, "WEBROBOT_STOP_UNWANTED_DOWNLOADS"):
            raise NotConfigured("WEBROBOT_STOP_UNWANTED_DOWNLOADS is off")
        self.crawler = crawler
        assert crawler.stats is not None
        self.stats = crawler.stats
        self.non_html_items = read(settings, "WEBROBOT_NON_HTML_ITEMS")
        self.maxsize = read(settings, "DOWNLOAD_MAXSIZE")
        self._logged: set[str] = set()
        crawler.signals.connect(self.headers_received, signal=signals.headers_received)

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> Self:
        return cls(crawler)

    def headers_received(self, headers: Headers, body_length: int, request: Request) -> None:
        meta = request.meta
        if meta.get(ROBOTS_FETCH_META) or meta.get(SITEMAP_META) or meta.get("dont_check_type"):
            return
        maxsize = meta.get("download_maxsize", self.maxsize)
        if maxsize and body_length > maxsize:
            self._stop(
                "too_large",
                request,
                f"{body_length} bytes announced, DOWNLOAD_MAXSIZE is {maxsize}",
            )
        if self.non_html_items:
            return
        raw = headers.get(b"Content-Type")
        content_type = raw.decode("latin-1") if raw else ""
        if declared_kind(content_type) == OTHER:
            cap = documents_accepted(self.crawler)
            if cap is not None and is_document_type(mime_type(content_type)):
                if cap and body_length > cap:
                    self._stop(
                        "too_large", request, f"a document of {body_length} bytes, over {cap}"
                    )
                return  # a document the crawl takes in: downloaded whole
            self._stop("type", request, f"declared {content_type.split(';')[0].strip()!r}")

    def _stop(self, why: str, request: Request, detail: str) -> None:
        self.stats.inc_value(f"webrobot/download/stopped/{why}")
        if why not in self._logged:
            self._logged.add(why)
            logger.info(
                "Stopping downloads at their headers (%s), first: %s (%s); further ones are counted",
                why.replace("_", " "), request.url[:200], detail,
            )  # fmt: skip
        raise StopDownload(fail=False)
