"""Give each new request its priority (:mod:`webrobot.frontier.priorities`): the rank
of the site config's first matching ``[[priorities]]`` pattern, times 1,000,
plus the adjustment of a sitemap ``<priority>``. Added to the request's own
priority, so Scrapy's depth middleware (``DEPTH_PRIORITY``) keeps breadth-first
order within a rank whatever the middleware order.

Works on start requests and on links; the frontier (in memory, on disk or in
Redis) orders by ``Request.priority``, and politeness per site is applied after
it, by the downloader. Each request's rank is kept in meta (``_priority_rank``)
and counted per rank (``webrobot/priority/rank/<rank>``) for the crawl report.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from scrapy.exceptions import NotConfigured
from scrapy.spidermiddlewares.base import BaseSpiderMiddleware

from webrobot.frontier.priorities import PriorityRules
from webrobot.settingsmodel.parse import read

if TYPE_CHECKING:
    from typing import Self

    from scrapy import Request
    from scrapy.crawler import Crawler
    from scrapy.http import Response

#: request meta: the rank this middleware gave the request (set once)
RANK_KEY = "_priority_rank"


class PriorityMiddleware(BaseSpiderMiddleware):
    """Gives each new request its priority: the site config's rank and the sitemap's priority."""

    def __init__(self, crawler: Crawler) -> None:
        if not read(crawler.settings, "WEBROBOT_PRIORITIES_ENABLED"):
            raise NotConfigured("WEBROBOT_PRIORITIES_ENABLED is off")
        super().__init__(crawler)
        self.weight = read(crawler.settings, "WEBROBOT_SITEMAP_PRIORITY_WEIGHT")
        self._rules: PriorityRules | None = None

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> Self:
        return cls(crawler)

    def rules(self) -> PriorityRules:
        if self._rules is None:
            config = getattr(self.crawler.spider, "config", None)
            self._rules = PriorityRules(tuple(getattr(config, "priorities", ()) or ()), self.weight)
        return self._rules

    def get_processed_request(self, request: Request, response: Response | None) -> Request | None:
        if RANK_KEY in request.meta:
            return request
        rank, added = self.rules().priority(request.url, request.meta.get("sitemap_priority"))
        request.priority += added
        request.meta[RANK_KEY] = rank
        assert self.crawler.stats is not None
        self.crawler.stats.inc_value(f"webrobot/priority/rank/{rank}")
        return request
