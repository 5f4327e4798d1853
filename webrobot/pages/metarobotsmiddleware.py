"""Listen to what a page says about itself: robots meta elements and ``X-Robots-Tag``.

:class:`MetaRobotsMiddleware` records, for every response, the directives that
apply to webrobot (lower case, deduplicated) in ``response.meta["robots"]``:
the ``X-Robots-Tag`` headers of any response, plus the head's
``<meta name="robots">`` / ``<meta name="webrobot">`` of HTML ones. The head is
read with a cheap scan of the decoded text (which the spider's parse reuses),
never a second DOM.

:class:`~webrobot.pages.metarobotsspidermiddleware.MetaRobotsSpiderMiddleware`
enforces ``noindex`` (no item) and ``nofollow`` (no request) for any spider.
:func:`~webrobot.pages.pagerules.page_rules` is what the ``webrobot`` spider also asks: ``rel="nofollow"``
links skipped, ``noarchive`` -> no stored copy of the body. Pipelines that save
page bodies must skip items with ``"noarchive" in item.meta_robots``.

``WEBROBOT_META_ROBOTS_ENABLED = False`` switches all of it off; the request
meta key ``dont_obey_meta_robots`` opts one request out.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from scrapy.exceptions import NotConfigured

from webrobot import signals
from webrobot.pages.metarobots import (
    dedupe,
    headers_directives,
    product_token,
)
from webrobot.pages.pagerules import META_KEY, OPT_OUT_KEY, response_directives
from webrobot.settingsmodel.parse import read
from webrobot.urls.sitekey import site_key

if TYPE_CHECKING:
    from typing import Self

    from scrapy import Request
    from scrapy.crawler import Crawler
    from scrapy.http import Response


logger = logging.getLogger(__name__)


class MetaRobotsMiddleware:
    """Reads what a page says about itself (robots meta elements, X-Robots-Tag) into
    ``response.meta``."""

    def __init__(self, crawler: Crawler) -> None:
        settings = crawler.settings
        if not read(settings, "WEBROBOT_META_ROBOTS_ENABLED"):
            raise NotConfigured("WEBROBOT_META_ROBOTS_ENABLED is off")
        self.crawler = crawler
        self.agent = product_token(
            read(settings, "ROBOTSTXT_USER_AGENT"), read(settings, "USER_AGENT")
        )

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> Self:
        return cls(crawler)

    def process_response(self, request: Request, response: Response) -> Response:
        if request.meta.get(OPT_OUT_KEY):
            return response
        directives = self.directives(response)
        if directives:
            # request.meta is response.meta: the download handler ties them.
            request.meta[META_KEY] = directives
            self.crawler.signals.send_catch_log(
                signal=signals.page_directives,
                response=response,
                directives=directives,
                site=site_key(response.url),
            )
        return response

    def directives(self, response: Response) -> list[str]:
        """The directives for us in ``response``'s headers and, for HTML, its head."""
        try:
            return response_directives(response, self.agent)
        except Exception as exc:  # noqa: BLE001 - undecodable bytes must not cost the page
            assert self.crawler.stats is not None
            self.crawler.stats.inc_value("webrobot/meta/unreadable")
            logger.warning("Cannot read the robots meta of %s: %s", response.url, exc)
            values = [v.decode("latin-1") for v in response.headers.getlist("X-Robots-Tag")]
            return dedupe(headers_directives(values, self.agent)) if values else []
