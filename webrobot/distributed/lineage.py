"""Links of a page taken again after its lease expired: queued even if marked visited.

On a Redis Cluster a page's links are marked visited in one step and queued
in the next (their visited buckets live in other slots than the frontier, see
:mod:`.frontier`). A worker killed between the two leaves links marked but not
queued; its lease was not acknowledged, so the page is fetched again by
another worker once the lease expires. This spider middleware marks the links
that page yields (:data:`~.frontier.REQUEUE_KEY`) so the scheduler queues them
whatever their visited mark says. Pages taken for the first time are left
alone, and on one Redis (where marking and queueing are one script) the mark
is ignored.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from scrapy import Request

from webrobot.distributed.frontier import RECLAIMED_KEY, REQUEUE_KEY

if TYPE_CHECKING:
    from collections.abc import AsyncIterator, Iterable, Iterator
    from typing import Self

    from scrapy.crawler import Crawler
    from scrapy.http import Response


class ReclaimedPageLinks:
    """Marks the links of a page taken again after its lease expired, so they are queued
    even if marked visited."""

    def __init__(self, crawler: Crawler) -> None:
        self.crawler = crawler

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> Self:
        return cls(crawler)

    @staticmethod
    def _mark(response: Response, result: Any) -> Any:
        if isinstance(result, Request) and response.meta.get(RECLAIMED_KEY):
            result.meta[REQUEUE_KEY] = True
        return result

    def process_spider_output(self, response: Response, result: Iterable[Any]) -> Iterator[Any]:
        for r in result:
            yield self._mark(response, r)

    async def process_spider_output_async(
        self, response: Response, result: AsyncIterator[Any]
    ) -> AsyncIterator[Any]:
        async for r in result:
            yield self._mark(response, r)
