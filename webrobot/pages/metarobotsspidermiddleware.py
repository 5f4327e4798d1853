"""Obey what a page says about itself, for any spider: ``noindex`` drops the
page's items, ``nofollow`` drops the requests its callback yields.

:class:`~webrobot.pages.metarobotsmiddleware.MetaRobotsMiddleware` (a downloader
middleware) records the directives for webrobot in ``response.meta["robots"]``;
this spider middleware, closest to the spider, enforces them on whatever the
callback yields (a ``Spider``'s parse, a ``CrawlSpider``'s rules, a
``SitemapSpider``'s callbacks), so a user's own spider gets them without code.
It runs before the duplicate-content middleware, so a ``noindex`` first copy
keeps its links and a ``nofollow`` first copy its item.

Counted once per page whose items (``webrobot/meta/noindex``) or requests
(``webrobot/meta/nofollow``) were withheld, and logged at DEBUG. The request
meta key ``dont_obey_meta_robots`` opts one page out.

``rel="nofollow"`` on single links (``WEBROBOT_HONOR_REL_NOFOLLOW``): a request
whose URL the page links to only with ``rel="nofollow"`` is dropped and counted
in ``webrobot/meta/rel_nofollow``, whatever extracted it (a ``LinkExtractor``
follows such links). The page's links are read only when its body contains the
word at all; a spider that honours the attribute itself (``honors_rel_nofollow
= True``, as the ``webrobot`` spider does) is left to it.
"""

from __future__ import annotations

import logging
import re
import weakref
from typing import TYPE_CHECKING, Any

from scrapy.exceptions import NotConfigured
from scrapy.http import HtmlResponse
from scrapy.spidermiddlewares.base import BaseSpiderMiddleware
from w3lib.url import canonicalize_url

from webrobot.pages.metarobots import RobotsPolicy
from webrobot.pages.page import summarise_html
from webrobot.pages.pagerules import META_KEY, OPT_OUT_KEY, flag_page
from webrobot.pages.pagerules import verdict as page_verdict
from webrobot.pages.wholepage import whole_selector
from webrobot.settingsmodel.parse import read

if TYPE_CHECKING:
    from typing import Self

    from scrapy import Request
    from scrapy.crawler import Crawler
    from scrapy.http import Response

logger = logging.getLogger(__name__)

_NOFOLLOW_WORD = re.compile(rb"nofollow", re.IGNORECASE)


class MetaRobotsSpiderMiddleware(BaseSpiderMiddleware):
    """Obeys what a page says about itself: noindex drops its items, nofollow its requests."""

    def __init__(self, crawler: Crawler) -> None:
        if not read(crawler.settings, "WEBROBOT_META_ROBOTS_ENABLED"):
            raise NotConfigured("WEBROBOT_META_ROBOTS_ENABLED is off")
        super().__init__(crawler)
        self._verdicts: weakref.WeakKeyDictionary[Response, RobotsPolicy] = (
            weakref.WeakKeyDictionary()
        )
        # Pages already counted, per directive.
        self._counted: dict[str, weakref.WeakSet[Response]] = {
            "noindex": weakref.WeakSet(),
            "nofollow": weakref.WeakSet(),
        }
        self._honor_rel_nofollow = read(crawler.settings, "WEBROBOT_HONOR_REL_NOFOLLOW")
        # Per page: the canonical URLs it links to only with rel="nofollow".
        self._nofollow_links: weakref.WeakKeyDictionary[Response, frozenset[str]] = (
            weakref.WeakKeyDictionary()
        )

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> Self:
        return cls(crawler)

    def _verdict(self, response: Response) -> RobotsPolicy:
        verdict = self._verdicts.get(response)
        if verdict is None:
            verdict = page_verdict(response)
            self._verdicts[response] = verdict
        return verdict

    def _withheld(self, response: Response, directive: str, message: str) -> None:
        pages = self._counted[directive]
        if response in pages:
            return
        pages.add(response)
        assert self.crawler.stats is not None
        self.crawler.stats.inc_value(f"webrobot/meta/{directive}")
        logger.debug(message, response.url, response.meta.get(META_KEY))
        flag_page(self.crawler, response, directive)

    def get_processed_item(self, item: Any, response: Response | None) -> Any:
        if response is None or self._verdict(response).index:
            return item
        self._withheld(response, "noindex", "Not indexing %s: robots directives %s")
        return None

    def get_processed_request(self, request: Request, response: Response | None) -> Request | None:
        if response is None:
            return request
        if not self._verdict(response).follow:
            self._withheld(response, "nofollow", "Following no link of %s: robots directives %s")
            return None
        if self._honor_rel_nofollow and not getattr(
            self.crawler.spider, "honors_rel_nofollow", False
        ):
            nofollow = self._rel_nofollow_links(response)
            if nofollow and canonicalize_url(request.url) in nofollow:
                assert self.crawler.stats is not None
                self.crawler.stats.inc_value("webrobot/meta/rel_nofollow")
                logger.debug("Not following %s: rel=nofollow on %s", request.url, response.url)
                return None
        return request

    def _rel_nofollow_links(self, response: Response) -> frozenset[str]:
        found = self._nofollow_links.get(response)
        if found is None:
            found = frozenset()
            if (
                isinstance(response, HtmlResponse)
                and not response.meta.get(OPT_OUT_KEY)
                and _NOFOLLOW_WORD.search(response.body)
            ):
                page = summarise_html(whole_selector(response).root, response.url)
                found = frozenset(
                    canonicalize_url(link.url) for link in page.links if link.nofollow
                )
            self._nofollow_links[response] = found
        return found
