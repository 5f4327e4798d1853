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

from itemadapter import ItemAdapter
from scrapy.exceptions import NotConfigured
from scrapy.http import TextResponse
from scrapy.spidermiddlewares.base import BaseSpiderMiddleware

from webrobot.pages.wholepage import whole_selector
from webrobot.seen.contentdupes import EXEMPT, ContentDupes, Verdict
from webrobot.settingsmodel.parse import read

if TYPE_CHECKING:
    from typing import Self

    from scrapy import Request
    from scrapy.crawler import Crawler
    from scrapy.http import Response


class DuplicatePageMiddleware(BaseSpiderMiddleware):
    """Drops the links of a page whose content was already seen."""

    def __init__(self, crawler: Crawler) -> None:
        if not read(crawler.settings, "WEBROBOT_DUPES_ENABLED"):
            raise NotConfigured("WEBROBOT_DUPES_ENABLED is off")
        super().__init__(crawler)
        self.content = ContentDupes.of(crawler)
        self._fingerprints: weakref.WeakKeyDictionary[Response, str] = weakref.WeakKeyDictionary()
        self._verdicts: weakref.WeakKeyDictionary[Response, Verdict] = weakref.WeakKeyDictionary()
        self._follow: weakref.WeakKeyDictionary[Response, bool] = weakref.WeakKeyDictionary()
        self._near: weakref.WeakKeyDictionary[Response, Verdict | None] = (
            weakref.WeakKeyDictionary()
        )

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
        if not verdict.duplicate:
            verdict = self._near_verdict(response, item) or verdict
        self.content.remember(item, verdict)
        return item

    def _near_verdict(self, response: Response, item: Any = None) -> Verdict | None:
        """The page's near-duplicate verdict, judged once: on the item's ``main_text``
        when the item comes first, else on the page's paragraphs."""
        if not self.content.near_bits:
            return None
        if response not in self._near:
            self._near[response] = self.content.judge_near(near_text(response, item), response.url)
        return self._near[response]

    def get_processed_request(self, request: Request, response: Response | None) -> Request | None:
        if response is None or self._exempt(response):  # start requests; an exempt page
            return request
        follow = self._follow.get(response)
        if follow is None:
            follow = self._follow[response] = self.content.follow_links(
                self._fingerprint(response), response.url
            )
        assert self.crawler.stats is not None
        if not follow:
            self.crawler.stats.inc_value("webrobot/dupes/links_suppressed")
            return None
        if self._near_verdict(response) is not None:
            self.crawler.stats.inc_value("webrobot/dupes/near/links_suppressed")
            return None
        return request


#: Elements whose text is a line of a page's text when no item carries ``main_text``.
PARAGRAPHS = ("p", "li", "h1", "h2", "h3", "h4", "h5", "h6", "blockquote", "pre", "dd", "td")


def near_text(response: Response, item: Any = None) -> str:
    """What the near-duplicate filter compares: the item's ``main_text`` (paragraphs
    as lines) when it has one, else the text of the page's paragraphs, one a line."""
    if item is not None and ItemAdapter.is_item(item):
        main_text = ItemAdapter(item).get("main_text")
        if isinstance(main_text, str) and main_text.strip():
            return main_text
    if not isinstance(response, TextResponse):
        return ""
    try:
        root = whole_selector(response).root
        nodes = root.iter(*PARAGRAPHS)
        return "\n".join(" ".join(" ".join(node.itertext()).split()) for node in nodes)
    except Exception:  # noqa: BLE001 - lxml refuses some inputs outright: nothing to compare
        return ""
