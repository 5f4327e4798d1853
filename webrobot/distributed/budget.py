"""One page budget per site for all workers: ``WEBROBOT_PAGE_BUDGET_CLASS`` in Redis mode.

``WEBROBOT_MAX_PAGES_PER_SITE`` (or a site config's ``max_pages``) bounds what
a *crawl* takes from a site, so with several workers it is counted once, in
Redis: ``<crawl>:budget`` is a hash of site -> pages spent, and taking a page
is one script (check and increment), so N workers never spend more than the
budget between them. Like the in-process budget, every fetch counts, a page
fetched again because its worker died included. If Redis fails, the page is
let through (logged once, counted in ``webrobot/redis/error_count``).
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

import redis

from webrobot.distributed import scripts
from webrobot.distributed.dupefilter import crawl_spider_name
from webrobot.distributed.keys import CrawlKeys, redis_from_settings
from webrobot.urls.budget import PageBudget

if TYPE_CHECKING:
    from typing import Self

    from scrapy.crawler import Crawler

logger = logging.getLogger(__name__)

# KEYS: budget   ARGV: site, limit   -> 1 taken, 0 spent
_SPEND = """
local used = tonumber(redis.call('HGET', KEYS[1], ARGV[1]) or '0')
if used >= tonumber(ARGV[2]) then return 0 end
redis.call('HINCRBY', KEYS[1], ARGV[1], 1)
return 1
"""


class RedisPageBudget(PageBudget):
    def __init__(self, server: redis.Redis, key: str, limit: int, stats: object = None) -> None:
        super().__init__(limit)
        self.server = server
        self.key = key
        self.stats = stats
        self._spend = scripts.register(server, _SPEND)
        self._warned = False

    @classmethod
    def from_crawler(cls, crawler: Crawler, limit: int) -> Self:
        keys = CrawlKeys.from_settings(crawler.settings, crawl_spider_name(crawler))
        return cls(redis_from_settings(crawler.settings), keys.budget, limit, crawler.stats)

    def spend(self, site: str) -> bool:
        if not self.limit:
            return True
        try:
            return bool(self._spend(keys=[self.key], args=[site, self.limit]))
        except redis.RedisError as exc:
            inc = getattr(self.stats, "inc_value", None)
            if inc is not None:
                inc("webrobot/redis/error_count")
            log = logger.debug if self._warned else logger.warning
            self._warned = True
            log("Redis error in the shared page budget (the page is let through): %s", exc)
            return True

    def left(self, site: str) -> int | None:
        if not self.limit:
            return None
        used = self.server.hget(self.key, site)
        return max(0, self.limit - int(used or 0))
