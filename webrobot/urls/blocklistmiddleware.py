"""Never request a URL on the global blocklist (``WEBROBOT_BLOCKLIST``), wherever
it comes from: start URLs, links, redirects, retries (``dont_filter`` does not
let one through). Entries match the canonical URL (:mod:`webrobot.urls.canonical`).

The list is loaded once per crawl (:func:`crawl_blocklist`): the link gate
(:mod:`webrobot.urls.linkgate`) judges the links of pages by the same object."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from scrapy.exceptions import NotConfigured

from webrobot.settingsmodel.parse import read
from webrobot.settingsmodel.startup import setting_error
from webrobot.urls.blocklist import Blocklist, BlocklistError
from webrobot.urls.canonical import Canonicalizer, canonicalizer_for
from webrobot.urls.refusals import Refuser
from webrobot.urls.traps import BLOCKLIST
from webrobot.wiring import per_crawler

if TYPE_CHECKING:
    from typing import Self

    from scrapy import Request
    from scrapy.crawler import Crawler

logger = logging.getLogger(__name__)


def crawl_blocklist(crawler: Crawler) -> Blocklist:
    """The crawl's one blocklist (``WEBROBOT_BLOCKLIST``), read on first use and shared by
    every component that judges by it; :class:`BlocklistError` if it cannot be used."""
    return per_crawler(
        crawler, Blocklist, lambda c: Blocklist.from_setting(read(c.settings, "WEBROBOT_BLOCKLIST"))
    )


class BlocklistMiddleware:
    """Refuses every URL on the global blocklist, wherever it comes from."""

    def __init__(self, crawler: Crawler) -> None:
        try:
            self.blocklist = crawl_blocklist(crawler)
        except BlocklistError as exc:  # names the file, the line and what was expected
            raise setting_error(crawler, exc) from None
        if not self.blocklist:
            raise NotConfigured("WEBROBOT_BLOCKLIST is empty")
        self.crawler = crawler
        self.refuser = Refuser(crawler)
        self._canonicalizer: Canonicalizer | None = None
        logger.info("Blocklist: %d entries", len(self.blocklist))

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> Self:
        return cls(crawler)

    def process_request(self, request: Request) -> None:
        if self._canonicalizer is None:
            self._canonicalizer = canonicalizer_for(getattr(self.crawler.spider, "config", None))
        match = self.blocklist.match(self._canonicalizer(request.url))
        if match is not None:
            raise self.refuser.refuse(request, BLOCKLIST, f"blocked by {match}")
