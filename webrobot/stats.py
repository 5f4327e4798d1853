"""The crawl's stats collector: Scrapy's in-memory one without its per-access shim.

Scrapy 2.19's ``StatsCollector.__getattribute__`` wraps every method to warn
about the deprecated ``spider`` argument, and runs on every attribute access,
``self._stats`` inside each method included, each time trying a missing
``_cached_...`` attribute first. A crawl touches the stats about 100 times
per page: that shim alone was about 3 % of webrobot's CPU in a profile of the
benchmark crawl. The methods and what they store are Scrapy's own.
"""

from __future__ import annotations

from scrapy.statscollectors import MemoryStatsCollector


class StatsCollector(MemoryStatsCollector):
    """``STATS_CLASS``: :class:`scrapy.statscollectors.MemoryStatsCollector`,
    with plain attribute access (a ``spider`` argument is accepted and ignored,
    without the deprecation warning)."""

    __getattribute__ = object.__getattribute__
