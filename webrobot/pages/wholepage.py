"""Every reader of a page's tree sees its body, also when its markup ends the document
before it (a spider middleware, and the function the crawl's own readers call).

A page that writes ``</head></html><body>...`` (some blog themes do) is parsed by
libxml2 as its head alone, so a link extractor finds no link on it and a crawl of such
a site stops at its first pages. :func:`whole_selector` gives the response the tree a
browser shows (:func:`webrobot.pages.wholetree.whole_root`) as its ``selector``, so
``response.css``, ``response.xpath`` and Scrapy's ``LinkExtractor`` read the body.
An ordinary page is parsed once, as before: its tree has a ``<body>``, which is all
that is checked. :class:`WholePageMiddleware` does it before any spider's callback;
each such page is counted in ``webrobot/page/early_end``.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from lxml import etree
from scrapy.http import HtmlResponse, TextResponse
from scrapy.selector import Selector

from webrobot.compat import keep_selector
from webrobot.pages.wholetree import lacks_body, whole_root

if TYPE_CHECKING:
    from typing import Self

    from scrapy.crawler import Crawler
    from scrapy.http import Response
    from scrapy.statscollectors import StatsCollector

logger = logging.getLogger(__name__)

EARLY_END = "webrobot/page/early_end"


def whole_selector(response: TextResponse, stats: StatsCollector | None = None) -> Selector:
    """``response.selector``, made the whole page's first when it is an HTML tree with
    no ``<body>`` and the markup holds one after an early end of the document (counted
    in ``stats``). Raises what ``response.selector`` raises on markup lxml refuses."""
    selector = response.selector
    root = selector.root
    if selector.type != "html" or not lacks_body(root):
        return selector
    whole = whole_root(root, response.text, response.url)
    if whole is root:
        return selector
    mended = Selector(root=whole, type="html")
    if not keep_selector(response, mended):
        return selector
    if stats is not None:
        if not stats.get_value(EARLY_END):
            logger.info(
                "%s ends its document before its body; read as a browser shows it "
                "(further such pages are counted in %s)",
                response.url[:200], EARLY_END,
            )  # fmt: skip
        stats.inc_value(EARLY_END)
    return mended


class WholePageMiddleware:
    """Gives each HTML page's callback the tree a browser shows, also when its markup
    ends the document before its body."""

    def __init__(self, crawler: Crawler) -> None:
        self.crawler = crawler

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> Self:
        return cls(crawler)

    def process_spider_input(self, response: Response) -> None:
        if not isinstance(response, HtmlResponse):
            return
        try:
            whole_selector(response, self.crawler.stats)
        except (etree.LxmlError, ValueError, LookupError):
            return  # markup lxml refuses: the callback meets it as it would have
