"""A spider for the image tests (``scrapy runspider tests/imagespider.py``): each
page's images described through the crawl, one item per image."""

from __future__ import annotations

from typing import Any

import scrapy

from webrobot.extract.imagefetch import ImageFetcher
from webrobot.extract.images import page_images
from webrobot.extract.page import SourcePage


class ImageSpider(scrapy.Spider):
    name = "imagespider"

    def __init__(self, *args: Any, start: str = "", **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.start_urls = [start]
        self.fetcher: ImageFetcher | None = None

    async def parse(self, response: Any) -> list[dict[str, Any]]:
        if self.fetcher is None:
            self.fetcher = ImageFetcher.from_crawler(self.crawler)
        page = SourcePage(url=response.url, html=response.text, root=response.selector.root)
        described = await self.fetcher.describe(page_images(page), page_url=response.url)
        # the second page shows the same logo: described from memory, not fetched again
        again = await self.fetcher.describe(described[:1], page_url=response.url)
        return [*described, {**again[0], "again": True}]
