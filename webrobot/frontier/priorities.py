"""Which URLs to fetch first. Pure logic: no Scrapy, no I/O.

A request's priority (Scrapy's ``Request.priority``, higher first) is::

    rank * RANK_STEP  +  sitemap adjustment  -  depth * DEPTH_PRIORITY

* **rank**: a site config's ``[[priorities]]`` tables rank URLs by a regular
  expression on the path (with its query); the first match wins, others rank 0.
  One rank outweighs ``RANK_STEP`` (1,000) levels of depth, so ranks decide and
  breadth-first order (``DEPTH_PRIORITY = 1``, subtracted by Scrapy's depth
  middleware) still holds *within* a rank.
* **sitemap adjustment**: a sitemap's ``<priority>`` (0.0 to 1.0, default 0.5)
  moves a URL up to ``weight`` levels of depth earlier (1.0) or later (0.0).

Priority only orders the frontier. It never bypasses politeness: each site's
requests still wait for that site's delay, Crawl-delay and concurrency limit.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from urllib.parse import urlsplit

RANK_STEP = 1000
DEFAULT_SITEMAP_PRIORITY = 0.5


@dataclass(frozen=True)
class PriorityRule:
    pattern: str
    rank: int

    def matches(self, path_and_query: str) -> bool:
        return re.search(self.pattern, path_and_query) is not None


@dataclass(frozen=True)
class PriorityRules:
    rules: tuple[PriorityRule, ...] = ()
    sitemap_weight: int = 5

    def rank(self, url: str) -> int:
        if not self.rules:
            return 0
        parts = urlsplit(url)
        target = parts.path + (f"?{parts.query}" if parts.query else "")
        for rule in self.rules:
            if rule.matches(target):
                return rule.rank
        return 0

    def sitemap_adjustment(self, sitemap_priority: float | None) -> int:
        if sitemap_priority is None or not self.sitemap_weight:
            return 0
        return round((sitemap_priority - DEFAULT_SITEMAP_PRIORITY) * 2 * self.sitemap_weight)

    def priority(self, url: str, sitemap_priority: float | None = None) -> tuple[int, int]:
        """``(rank, priority to add to the request's)`` for ``url``."""
        rank = self.rank(url)
        return rank, rank * RANK_STEP + self.sitemap_adjustment(sitemap_priority)
