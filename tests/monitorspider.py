"""A spider for the monitor's end-to-end tests: its items already carry what the mining
middleware adds (``main_text``, ``metadata``, ``product``), read from the test site's
pages: each ``<main>`` paragraph, heading and list entry is a line, the price is the
element with ``itemprop="price"``. Started with ``-a site=URL``; follows links on the site."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from typing import Any

import scrapy
from scrapy.http import Response


class MonitoredSpider(scrapy.Spider):
    name = "monitored"

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # Every worker of a shared crawl knows where the crawl starts (a private address here).
        self.start_urls = [str(self.site)]

    async def start(self) -> AsyncIterator[Any]:
        yield scrapy.Request(str(self.site))

    def parse(self, response: Response) -> Iterator[Any]:
        lines = [
            " ".join(" ".join(node.css("::text").getall()).split())
            for node in response.css("main h1, main p, main li")
        ]
        item: dict[str, Any] = {
            "url": response.url,
            "main_text": "\n".join(line for line in lines if line),
            "metadata": {"title": response.css("title::text").get()},
        }
        price = response.css("[itemprop=price]::attr(content)").get()
        if price:
            item["product"] = {"price": price, "currency": "EUR"}
        yield item
        yield from response.follow_all(css="a", callback=self.parse)
