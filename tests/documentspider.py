"""A spider for the document tests (``scrapy runspider tests/documentspider.py``):
each start URL's body read with read_document on a thread, as the mining does,
one item per document with its result or its error's reason."""

from __future__ import annotations

import time
from typing import Any, ClassVar

import scrapy
from scrapy.utils.defer import maybe_deferred_to_future
from twisted.internet.threads import deferToThread

from webrobot.extract.documents import DocumentError, document_limits, read_document


class DocumentSpider(scrapy.Spider):
    name = "documentspider"
    #: the crawl takes documents in (else the content-type gate stops them at their headers)
    custom_settings: ClassVar[dict[str, Any]] = {"WEBROBOT_EXTRACT": ["documents"]}

    def __init__(self, *args: Any, start: str = "", **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.start_urls = start.split(",")

    async def parse(self, response: Any) -> list[dict[str, Any]]:
        limits = document_limits(self.crawler.settings)
        content_type = (response.headers.get("Content-Type") or b"").decode("latin-1")
        started = time.monotonic()
        try:
            result = await maybe_deferred_to_future(
                deferToThread(read_document, response.body, response.url, content_type, **limits)
            )
        except DocumentError as exc:
            self.crawler.stats.inc_value(f"webrobot/extract/documents/{exc.reason}")
            return [
                {"url": response.url, "error": exc.reason, "seconds": time.monotonic() - started}
            ]
        return [{"url": response.url, **result, "seconds": time.monotonic() - started}]
