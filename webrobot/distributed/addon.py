"""The switch: with ``WEBROBOT_REDIS_URL`` set, a crawl's frontier and visited-URL
set live in Redis, so every worker started with the same settings shares them.
Empty (the default), this add-on changes nothing and everything stays in-process.

It replaces the components at the project's priority rather than Scrapy's
``"addon"`` priority, because webrobot's own defaults (``settings.py``) are
project settings and an add-on's priority is lower; a component that a site
config or ``-s`` sets explicitly (spider or command-line priority) still wins.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from scrapy.settings import SETTINGS_PRIORITIES

from webrobot.optional import MissingExtra, require_redis
from webrobot.settingsmodel.parse import SettingValueError, read
from webrobot.settingsmodel.startup import setting_error

if TYPE_CHECKING:
    from typing import Self

    from scrapy.crawler import Crawler
    from scrapy.settings import BaseSettings

#: Setting -> the Redis-backed component used when WEBROBOT_REDIS_URL is set.
REDIS_COMPONENTS: dict[str, object] = {
    "SCHEDULER": "webrobot.distributed.scheduler.RedisLeaseScheduler",
    "DUPEFILTER_CLASS": "webrobot.distributed.dupefilter.RedisVisitedFilter",
    "WEBROBOT_ROBOTS_CACHE_CLASS": "webrobot.distributed.robotscache.RedisRobotsCache",
    "WEBROBOT_POLITENESS_CLASS": "webrobot.distributed.politeness.SharedPoliteness",
    "WEBROBOT_CONTENT_INDEX_CLASS": "webrobot.distributed.contentdupes.RedisContentDupes",
    "WEBROBOT_PAGE_BUDGET_CLASS": "webrobot.distributed.budget.RedisPageBudget",
    # Snapshots, events and the webhook's outbox, one of each per crawl.
    "WEBROBOT_MONITOR_STORE_CLASS": "webrobot.distributed.monitorstore.RedisMonitorStore",
    # The hosts start URLs' redirects brought into scope, known to every worker.
    "WEBROBOT_SCOPE_SHARE_CLASS": "webrobot.distributed.scope.RedisScopeShare",
    # New requests of a site being decided go to the shared frontier, not this worker's memory.
    "WEBROBOT_ROBOTS_HOLD_NEW_REQUESTS": False,
}


def redis_enabled(settings: BaseSettings) -> bool:
    try:
        return bool(read(settings, "WEBROBOT_REDIS_URL").strip())
    except SettingValueError:
        return False  # the add-on's settings check reports it, and the crawl stops


#: Order of the spider middleware a shared crawl adds (a page taken again after its lease
#: expired queues its links even if they are marked visited: the cluster's two-step finish).
RECLAIMED_PAGE_LINKS_ORDER = 20


def apply_redis_components(settings: BaseSettings) -> None:
    """Swap in the Redis components (MissingExtra when webrobot[redis] is not installed)."""
    require_redis()
    project = SETTINGS_PRIORITIES["project"]
    for name, component in REDIS_COMPONENTS.items():
        if (settings.getpriority(name) or 0) <= project:
            settings.set(name, component, priority="project")
    # Imported here: this module is loaded by every crawl, and lineage imports redis.
    from webrobot.distributed.lineage import ReclaimedPageLinks

    settings.set_in_component_priority_dict(
        "SPIDER_MIDDLEWARES", ReclaimedPageLinks, RECLAIMED_PAGE_LINKS_ORDER
    )


def switch_to_redis(crawler: Crawler, settings: BaseSettings) -> None:
    """The Redis components when ``WEBROBOT_REDIS_URL`` is set; without the ``redis``
    extra, the one line of a bad setting naming it (the crawl stops before any request)."""
    if not redis_enabled(settings):
        return
    try:
        apply_redis_components(settings)
    except MissingExtra as exc:
        setting_error(crawler, exc)


class RedisCrawl:
    def __init__(self, crawler: Crawler) -> None:
        self.crawler = crawler

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> Self:
        return cls(crawler)

    def update_settings(self, settings: BaseSettings) -> None:
        switch_to_redis(self.crawler, settings)
