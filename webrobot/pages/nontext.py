"""Responses that are not pages never reach a callback that expects a page.

A link extractor follows every ``<a href>``: a ``.maff`` archive, a PDF, an
image whose extension is not in ``WEBROBOT_IGNORED_EXTENSIONS``. Its download
is stopped at its headers (:mod:`webrobot.pages.contenttypegate`), and Scrapy
hands the callback a binary ``Response``, on which ``response.css(...)`` raises
``NotSupported: Response content isn't text``: a traceback per file in the
user's own spider. The ``webrobot`` spider counts such responses as not HTML
(``webrobot/page/non_html``) and reads no further; this spider middleware does
the same for any spider, before its callback: a response that is not text, or
whose download was stopped at its headers, is counted in
``webrobot/page/non_html`` and dropped (the first one logged at INFO).

It is dropped the way Scrapy's ``HttpErrorMiddleware`` drops an error page: a
:class:`NotAPage` (an ``IgnoreRequest``) goes to the request's errback if it
has one, and is otherwise swallowed here.

A spider that wants such responses gets them:

* the ``dont_check_type`` request meta key (the download is not stopped at
  its headers either), for one request;
* ``WEBROBOT_NON_HTML_ITEMS = True``, for the whole crawl (files are then
  downloaded in full);
* documents (PDFs) downloaded whole, when the crawl mines them (``documents`` in
  ``WEBROBOT_EXTRACT``: :mod:`webrobot.extract.documentintake`);
* sitemaps (gzipped ones are binary) and a ``SitemapSpider``'s sitemap
  requests always pass, and so does every response of a spider that reads
  files itself (a ``reads_non_html = True`` class attribute: the ``webrobot``
  spider, which makes an item of each file when asked).
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

from scrapy.exceptions import IgnoreRequest, NotConfigured
from scrapy.http import TextResponse

from webrobot.pages.contenttypes import mime_type
from webrobot.settingsmodel.parse import read
from webrobot.signals import SITEMAP_META
from webrobot.urls.documents import documents_accepted, is_document

if TYPE_CHECKING:
    from collections.abc import Iterable
    from typing import Self

    from scrapy.crawler import Crawler
    from scrapy.http import Response

logger = logging.getLogger(__name__)

NON_HTML = "webrobot/page/non_html"


class NotAPage(IgnoreRequest):
    """A response that is not a page, kept from the callback."""


class NonTextMiddleware:
    """Keeps responses that are not pages from callbacks that expect a page, and counts them."""

    def __init__(self, crawler: Crawler) -> None:
        if read(crawler.settings, "WEBROBOT_NON_HTML_ITEMS"):
            raise NotConfigured("WEBROBOT_NON_HTML_ITEMS is on: callbacks get every file")
        self.crawler = crawler
        self._logged = False

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> Self:
        return cls(crawler)

    def process_spider_input(self, response: Response) -> None:
        if isinstance(response, TextResponse) and "download_stopped" not in response.flags:
            return
        spider = self.crawler.spider
        if getattr(spider, "reads_non_html", False):
            return
        meta = response.meta
        if meta.get("dont_check_type") or meta.get(SITEMAP_META) is not None:
            return
        if self._taken_in_document(response):
            return
        callback = getattr(response.request, "callback", None)
        if getattr(callback, "__name__", "") == "_parse_sitemap":  # SitemapSpider's own
            return
        assert self.crawler.stats is not None
        self.crawler.stats.inc_value(NON_HTML)
        if not self._logged:
            self._logged = True
            logger.info(
                "Not a page, not given to the spider: %s (%s); further ones are counted in %s",
                response.url[:200], _content_type(response), NON_HTML,
            )  # fmt: skip
        raise NotAPage(f"not a page: {response.url[:200]}")

    def _taken_in_document(self, response: Response) -> bool:
        """A whole document (PDF) of a crawl that mines documents: the spider's to read."""
        if documents_accepted(self.crawler) is None or "download_stopped" in response.flags:
            return False
        return is_document(mime_type(_content_type(response)), response.body)

    def process_spider_exception(
        self, response: Response, exception: Exception
    ) -> Iterable[Any] | None:
        if isinstance(exception, NotAPage):
            return []
        return None


def _content_type(response: Response) -> str:
    raw = response.headers.get(b"Content-Type")
    return raw.decode("latin-1") if raw else "no Content-Type"
