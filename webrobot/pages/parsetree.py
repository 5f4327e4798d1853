"""Free each page's parse tree as soon as its callback's output is consumed
(a spider middleware).

``response.selector`` makes a reference cycle (Scrapy's ``Selector`` keeps the
response, the response caches the selector), so a parsed page, its lxml tree
and its lxml parser are freed only by Python's cyclic garbage collector, and
responses live long enough to reach its oldest generation, which it rarely
collects. Memory then depends on how often the collector happens to run:
with ``CONCURRENT_ITEMS = 16`` a 20,000-page benchmark crawl peaked at 170 MB
instead of 142 MB. Dropping the cached selector once the callback is done
breaks the cycle, and the page goes when its last reference does (131 MB).
Anything that asks for ``response.selector`` later just parses again.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from typing import Self

    from scrapy.crawler import Crawler
    from scrapy.http import Response


def release_parse_tree(response: Response | None) -> None:
    if getattr(response, "_cached_selector", None) is not None:
        response._cached_selector = None  # type: ignore[union-attr]


class ReleaseParseTreeMiddleware:
    """Frees each page's parse tree as soon as its callback's output is consumed."""

    def __init__(self, crawler: Crawler) -> None:
        self.crawler = crawler

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> Self:
        return cls(crawler)

    def process_spider_output(self, response: Response, result: Iterable[Any]) -> Iterable[Any]:
        try:
            yield from result
        finally:
            release_parse_tree(response)

    async def process_spider_output_async(
        self, response: Response, result: AsyncIterator[Any]
    ) -> AsyncIterator[Any]:
        try:
            async for output in result:
                yield output
        finally:
            release_parse_tree(response)
