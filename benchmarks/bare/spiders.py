"""``bare``: follow every link, one item per page."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from scrapy.http import Response
from scrapy.linkextractors import LinkExtractor
from scrapy.spiders import CrawlSpider, Rule


class BareSpider(CrawlSpider):
    name = "bare"
    rules = (Rule(LinkExtractor(), callback="parse_item", follow=True),)

    def __init__(self, *args: Any, start_urls: str = "", **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.start_urls = [url for url in start_urls.split(",") if url]

    def parse_start_url(self, response: Response, **kwargs: Any) -> Iterator[dict[str, Any]]:
        return self.parse_item(response)

    def parse_item(self, response: Response) -> Iterator[dict[str, Any]]:
        yield {
            "url": response.url,
            "status": response.status,
            "depth": response.meta.get("depth", 0),
            "title": response.css("title::text").get(),
        }
