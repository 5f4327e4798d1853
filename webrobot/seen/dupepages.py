"""Do not follow the links of a page whose content was already seen (chapter 9 of
"HTTP: The Definitive Guide": a robot that fetches a page whose checksum it has
seen before does not crawl that page's links).

A spider middleware, so the links are dropped as the spider yields them, before
they reach the scheduler: a soft-404 trap (every path answers the same page with
relative links to more paths) ends after the first copy's links. It also hands
each item its page's verdict for :class:`~webrobot.seen.pipelines.DuplicateContentPipeline`.

Links and items are judged apart: a copy's links are dropped when a page with
that content had its links followed, its items when a page with that content
had its item kept. A first copy that is ``nofollow`` (an item, no links) or
``noindex`` (links, no item) thus does not cost the content its links or item.

The request meta key ``dont_dedupe`` on a page's request exempts that page: its
content is neither checked nor recorded, its item is kept, its links followed.
"""

from __future__ import annotations

import weakref
from typing import TYPE_CHECKING, Any

from scrapy.exceptions import NotConfigured
from scrapy.spidermiddlewares.base import BaseSpiderMiddleware

from webrobot.seen.contentdupes import EXEMPT, ContentDupes, Verdict
from webrobot.settings_model import read

if TYPE_CHECKING:
    from typing import Self

    from scrapy import Request
    from scrapy.crawler import Crawler
    from scrapy.http import Response


class DuplicatePageMiddleware(BaseSpiderMiddleware):
    def __init__(self, crawler: Crawler) -> None:
        if not read(crawler.settings, "WEBROBOT_DUPES_ENABLED"):
            raise NotConfigured("WEBROBOT_DUPES_ENABLED is off")
        super().__init__(crawler)
        self.content = ContentDupes.of(crawler)
        self._fingerprints: weakref.WeakKeyDictionary[Response, str] = weakref.WeakKeyDictionary()
        self._verdicts: weakref.WeakKeyDictionary[Response, Verdict] = weakref.WeakKeyDictionary()
        self._follow: weakref.WeakKeyDictionary[Response, bool] = weakref.WeakKeyDictionary()

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> Self:
        return cls(crawler)

    @staticmethod
    def _exempt(response: Response) -> bool:
        request = response.request
        return request is not None and bool(request.meta.get("dont_dedupe"))

    def _fingerprint(self, response: Response, item: Any = None) -> str:
        """The page's fingerprint, computed once per page."""
        fingerprint = self._fingerprints.get(response)
        if fingerprint is None:
            fingerprint = self._fingerprints[response] = self.content.fingerprint(response, item)
        return fingerprint

    def get_processed_item(self, item: Any, response: Response | None) -> Any:
        if (
            response is None or not self.content.pipeline_attached
        ):  # start requests; nobody drops items
            return item
        if self._exempt(response):
            self.content.remember(item, EXEMPT)  # the pipeline must not judge it by md5 either
            return item
        verdict = self._verdicts.get(response)
        if verdict is None:
            fingerprint = self._fingerprint(response, item)
            verdict = self._verdicts[response] = self.content.judge(fingerprint, response.url)
        self.content.remember(item, verdict)
        return item

    def get_processed_request(self, request: Request, response: Response | None) -> Request | None:
        if response is None or self._exempt(response):  # start requests; an exempt page
            return request
        follow = self._follow.get(response)
        if follow is None:
            follow = self._follow[response] = self.content.follow_links(
                self._fingerprint(response), response.url
            )
        if follow:
            return request
        assert self.crawler.stats is not None
        self.crawler.stats.inc_value("webrobot/dupes/links_suppressed")
        return None
