"""Do not follow the links of a page whose content was already seen (chapter 9 of
"HTTP: The Definitive Guide": a robot that fetches a page whose checksum it has
seen before does not crawl that page's links).

A spider middleware, so the links are dropped as the spider yields them, before
they reach the scheduler: a soft-404 trap (every path answers the same page with
relative links to more paths) ends after the first copy's links. It also hands
each item its page's verdict for :class:`~webrobot.pipelines.DuplicateContentPipeline`.

The request meta key ``dont_dedupe`` on a page's request exempts that page: its
content is neither checked nor recorded, its item is kept, its links followed.
"""

from __future__ import annotations

import weakref
from typing import TYPE_CHECKING, Any

from scrapy.exceptions import NotConfigured
from scrapy.spidermiddlewares.base import BaseSpiderMiddleware

from webrobot.contentdupes import EXEMPT, ContentDupes, Verdict

if TYPE_CHECKING:
    from typing_extensions import Self

    from scrapy import Request
    from scrapy.crawler import Crawler
    from scrapy.http import Response


class DuplicatePageMiddleware(BaseSpiderMiddleware):
    def __init__(self, crawler: Crawler) -> None:
        if not crawler.settings.getbool("WEBROBOT_DUPES_ENABLED"):
            raise NotConfigured("WEBROBOT_DUPES_ENABLED is off")
        super().__init__(crawler)
        self.content = ContentDupes.of(crawler)
        self._verdicts: weakref.WeakKeyDictionary[Response, Verdict] = weakref.WeakKeyDictionary()

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> Self:
        return cls(crawler)

    def _verdict(self, response: Response | None, item: Any = None) -> Verdict | None:
        if response is None:  # start requests
            return None
        request = response.request
        if request is not None and request.meta.get("dont_dedupe"):
            return EXEMPT  # the pipeline must not judge its items by md5 either
        verdict = self._verdicts.get(response)
        if verdict is None:
            fingerprint = self.content.fingerprint(response, item)
            verdict = self._verdicts[response] = self.content.judge(fingerprint, response.url)
        return verdict

    def get_processed_item(self, item: Any, response: Response | None) -> Any:
        verdict = self._verdict(response, item)
        if verdict is not None:
            self.content.remember(item, verdict)
        return item

    def get_processed_request(self, request: Request, response: Response | None) -> Request | None:
        verdict = self._verdict(response)
        if verdict is None or not verdict.duplicate:
            return request
        assert self.crawler.stats is not None
        self.crawler.stats.inc_value("webrobot/dupes/links_suppressed")
        return None
