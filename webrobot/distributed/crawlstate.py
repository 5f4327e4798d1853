"""A shared crawl's state as a whole: what is in it, adding seeds, starting over.

Used by ``scrapy webrobot-seed`` (and tests); the workers use the scheduler.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from scrapy import Request

if TYPE_CHECKING:
    import redis

    from webrobot.distributed.dupefilter import RedisVisitedFilter
    from webrobot.distributed.frontier import LeasedFrontier
    from webrobot.distributed.keys import CrawlKeys


@dataclass
class CrawlStatus:
    queued: int
    leased: int
    visited: int
    dead: int

    def __str__(self) -> str:
        return (
            f"{self.queued} requests queued, {self.leased} leased, "
            f"{self.visited} URLs visited, {self.dead} set aside"
        )


def crawl_status(frontier: LeasedFrontier, visited: RedisVisitedFilter) -> CrawlStatus:
    queued, leased = frontier.counts()
    dead = int(frontier.server.llen(frontier.keys.dead))
    return CrawlStatus(queued, leased, len(visited.digests), dead)


def reset_crawl(server: redis.Redis, keys: CrawlKeys, *, monitor: bool = False) -> int:
    """Delete every key of the crawl but the monitor's memory (with ``monitor``, that
    too); returns how many there were."""
    spared = (keys.monitor + ":").encode()
    found = [
        key
        for pattern in keys.patterns()
        for key in server.scan_iter(match=pattern, count=1000)
        if monitor or not (key if isinstance(key, bytes) else str(key).encode()).startswith(spared)
    ]
    deleted = 0
    for start in range(0, len(found), 1000):
        # (A cluster client splits a multi-key DEL by slot.)
        deleted += int(server.delete(*found[start : start + 1000]))
    return deleted


def seed_crawl(frontier: LeasedFrontier, visited: RedisVisitedFilter, urls: list[str]) -> int:
    """Queue a start request (depth 0, the spider's default callback) per URL
    not visited yet; returns how many were queued."""
    queued = 0
    for url in urls:
        request = Request(url, meta={"is_start_request": True})  # may open a private network
        slot = visited.visited_slot(request)
        queued += frontier.add(frontier.encode(request), request.priority, slot)
    return queued
