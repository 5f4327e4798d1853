"""Obey what a page says about itself, for any spider: ``noindex`` drops the
page's items, ``nofollow`` drops the requests its callback yields.

:class:`~webrobot.middlewares.metarobots.MetaRobotsMiddleware` (a downloader
middleware) records the directives for webrobot in ``response.meta["robots"]``;
this spider middleware, closest to the spider, enforces them on whatever the
callback yields (a ``Spider``'s parse, a ``CrawlSpider``'s rules, a
``SitemapSpider``'s callbacks), so a user's own spider gets them without code.
It runs before the duplicate-content middleware, so a ``noindex`` first copy
keeps its links and a ``nofollow`` first copy its item.

Counted once per page whose items (``webrobot/meta/noindex``) or requests
(``webrobot/meta/nofollow``) were withheld, and logged at DEBUG. The request
meta key ``dont_obey_meta_robots`` opts one page out.
"""

from __future__ import annotations

import logging
import weakref
from typing import TYPE_CHECKING, Any

from scrapy.exceptions import NotConfigured
from scrapy.spidermiddlewares.base import BaseSpiderMiddleware

from webrobot.metarobots import ALLOW_ALL, RobotsPolicy, policy
from webrobot.middlewares.metarobots import META_KEY, OPT_OUT_KEY, flag_page
from webrobot.settings_model import read

if TYPE_CHECKING:
    from typing import Self

    from scrapy import Request
    from scrapy.crawler import Crawler
    from scrapy.http import Response

logger = logging.getLogger(__name__)


class MetaRobotsSpiderMiddleware(BaseSpiderMiddleware):
    def __init__(self, crawler: Crawler) -> None:
        if not read(crawler.settings, "WEBROBOT_META_ROBOTS_ENABLED"):
            raise NotConfigured("WEBROBOT_META_ROBOTS_ENABLED is off")
        super().__init__(crawler)
        self._verdicts: weakref.WeakKeyDictionary[Response, RobotsPolicy] = (
            weakref.WeakKeyDictionary()
        )
        # Pages already counted, per directive.
        self._counted: dict[str, weakref.WeakSet[Response]] = {
            "noindex": weakref.WeakSet(),
            "nofollow": weakref.WeakSet(),
        }

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> Self:
        return cls(crawler)

    def _verdict(self, response: Response) -> RobotsPolicy:
        verdict = self._verdicts.get(response)
        if verdict is None:
            directives = response.meta.get(META_KEY) if not response.meta.get(OPT_OUT_KEY) else None
            verdict = policy(directives) if directives else ALLOW_ALL
            self._verdicts[response] = verdict
        return verdict

    def _withheld(self, response: Response, directive: str, message: str) -> None:
        pages = self._counted[directive]
        if response in pages:
            return
        pages.add(response)
        assert self.crawler.stats is not None
        self.crawler.stats.inc_value(f"webrobot/meta/{directive}")
        logger.debug(message, response.url, response.meta.get(META_KEY))
        flag_page(self.crawler, response, directive)

    def get_processed_item(self, item: Any, response: Response | None) -> Any:
        if response is None or self._verdict(response).index:
            return item
        self._withheld(response, "noindex", "Not indexing %s: robots directives %s")
        return None

    def get_processed_request(self, request: Request, response: Response | None) -> Request | None:
        if response is None or self._verdict(response).follow:
            return request
        self._withheld(response, "nofollow", "Following no link of %s: robots directives %s")
        return None
