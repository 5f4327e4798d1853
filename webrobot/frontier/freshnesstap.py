"""Count what each re-crawled page turned out to be: ``new``, ``changed``,
``unchanged`` or ``not_due`` (stats ``webrobot/freshness/<outcome>``, and
``webrobot/freshness/due/<reason>`` for why a stored page was checked).

Placed just outside Scrapy's ``HttpCacheMiddleware`` (900), so it sees the
response after the cache policy (:class:`webrobot.frontier.recrawl.RevalidatePolicy`)
has recorded the outcome in the request's meta.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from scrapy.exceptions import NotConfigured

from webrobot.frontier.recrawl import DUE_KEY, OUTCOME_KEY
from webrobot.settingsmodel.parse import read

if TYPE_CHECKING:
    from typing import Self

    from scrapy import Request
    from scrapy.crawler import Crawler
    from scrapy.http import Response


class FreshnessTapMiddleware:
    """Counts what each re-crawled page turned out to be: new, changed, unchanged or not due."""

    def __init__(self, crawler: Crawler) -> None:
        settings = crawler.settings
        if (
            not settings.getbool("HTTPCACHE_ENABLED")
            or read(settings, "WEBROBOT_RECRAWL_INTERVAL") <= 0
        ):
            raise NotConfigured(
                "re-crawl intervals are off (HTTPCACHE_ENABLED, WEBROBOT_RECRAWL_INTERVAL)"
            )
        self.crawler = crawler

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> Self:
        return cls(crawler)

    def process_response(self, request: Request, response: Response) -> Response:
        outcome = request.meta.pop(OUTCOME_KEY, None)
        stats = self.crawler.stats
        assert stats is not None
        if outcome is not None:
            stats.inc_value(f"webrobot/freshness/{outcome}")
        due = request.meta.pop(DUE_KEY, None)
        if due is not None:
            stats.inc_value(f"webrobot/freshness/due/{due}")
        return response
