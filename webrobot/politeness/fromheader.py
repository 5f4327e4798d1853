"""Say who the robot is: a ``From`` header with the operator's contact address."""

from __future__ import annotations

from typing import TYPE_CHECKING

from scrapy.exceptions import NotConfigured

from webrobot.settingsmodel.parse import read

if TYPE_CHECKING:
    from typing import Self

    from scrapy import Request
    from scrapy.crawler import Crawler


class FromHeaderMiddleware:
    """Sends the operator's contact address as the From header of every request."""

    def __init__(self, crawler: Crawler) -> None:
        value = (read(crawler.settings, "WEBROBOT_FROM") or "").strip()
        if not value:
            raise NotConfigured("WEBROBOT_FROM is empty")
        self.value = value

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> Self:
        return cls(crawler)

    def process_request(self, request: Request) -> None:
        request.headers.setdefault(b"From", self.value)
