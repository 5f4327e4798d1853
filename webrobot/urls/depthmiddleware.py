"""``DEPTH_LIMIT`` with counted refusals: Scrapy's ``DepthMiddleware`` still sets
``request.meta["depth"]`` and the breadth-first priority, but a link deeper
than the limit is refused through :class:`~webrobot.urls.refusals.Refuser`
(``webrobot/url/refused/depth``, logged, signalled per site) instead of being
dropped with only Scrapy's ``depth/request_ignored_count``.

A spider middleware, because the depth of a link is known where the link is
made; :class:`webrobot.urls.trapmiddleware.UrlTrapMiddleware` checks the same
limit on the downloader side for requests that bypass spider middlewares.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from scrapy.spidermiddlewares.depth import DepthMiddleware

from webrobot.urls.refusals import Refuser
from webrobot.urls.traps import DEPTH

if TYPE_CHECKING:
    from typing import Self

    from scrapy import Request
    from scrapy.crawler import Crawler
    from scrapy.http import Response


class DepthLimitMiddleware(DepthMiddleware):
    """Scrapy's depth bookkeeping, with links deeper than DEPTH_LIMIT refused and counted per site."""

    def __init__(self, crawler: Crawler) -> None:
        settings = crawler.settings
        # Scrapy's class keeps assigning depths and priorities; the limit is ours.
        super().__init__(
            maxdepth=0,
            stats=crawler.stats,
            verbose_stats=settings.getbool("DEPTH_STATS_VERBOSE"),
            prio=settings.getint("DEPTH_PRIORITY"),
        )
        self.crawler = crawler
        self.limit = settings.getint("DEPTH_LIMIT")
        self.refuser = Refuser(crawler)

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> Self:
        return cls(crawler)

    def get_processed_request(self, request: Request, response: Response | None) -> Request | None:
        processed = super().get_processed_request(request, response)
        if processed is None or not self.limit:
            return processed
        depth = processed.meta.get("depth", 0)
        if depth > self.limit:
            self.refuser.refuse(processed, DEPTH, f"depth {depth} > DEPTH_LIMIT {self.limit}")
            return None
        return processed
