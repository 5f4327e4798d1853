"""The full-text index, kept during the crawl: thin glue around
:mod:`webrobot.searchindex` and :mod:`webrobot.textextract`.

What goes in: every page item that reached the end of the pipelines
(``item_scraped``: HTML, not noindex, not a content duplicate), with its main
text (boilerplate removed), title, site, fetch time and declared language. A
page crawled again replaces its old row; a page whose robots directives now say
noindex is removed (``page_directives`` signal).

Where: ``WEBROBOT_INDEX`` if set; else next to the first local items feed
(``out/items.jsonl`` -> ``out/items.index.sqlite``; a Scrapyd job's
``<job>.index.sqlite``); else ``webrobot-index.sqlite`` in the current folder.
``WEBROBOT_INDEX_ENABLED = False`` switches it off; without the ``search`` extra
(trafilatura) it is off with one warning.
"""

from __future__ import annotations

import logging
from pathlib import Path
from typing import TYPE_CHECKING, Any, Self
from urllib.parse import urlsplit

from itemadapter import ItemAdapter
from scrapy import signals
from scrapy.exceptions import NotConfigured
from scrapy.http import HtmlResponse

from webrobot import signals as webrobot_signals
from webrobot import textextract
from webrobot.metarobots import policy
from webrobot.report.model import report_location
from webrobot.searchindex import IndexedPage, IndexUnavailable, SearchIndex
from webrobot.sitekey import site_key

if TYPE_CHECKING:
    from scrapy import Spider
    from scrapy.crawler import Crawler
    from scrapy.http import Response

logger = logging.getLogger(__name__)

#: Where the index goes when neither WEBROBOT_INDEX nor a local feed says.
DEFAULT_INDEX = "webrobot-index.sqlite"


def index_path(setting: str, feed_uris: list[str], job: str = "") -> Path:
    """See the module doc."""
    if setting:
        return Path(setting)
    if feed_uris:
        folder, prefix = report_location("", feed_uris, job)
        if folder != "report":  # a local feed named it
            return Path(folder) / f"{prefix}index.sqlite"
    return Path(f"{job}.index.sqlite" if job else DEFAULT_INDEX)


class FullTextIndex:
    def __init__(self, crawler: Crawler) -> None:
        settings = crawler.settings
        if not settings.getbool("WEBROBOT_INDEX_ENABLED"):
            raise NotConfigured("WEBROBOT_INDEX_ENABLED is off")
        if not textextract.available():
            logger.warning("Full-text index off: trafilatura is not installed (pip install 'webrobot[search]')")
            raise NotConfigured("trafilatura is not installed")
        self.crawler = crawler
        self.index: SearchIndex | None = None
        self.path: Path | None = None
        self._failed = False
        crawler.signals.connect(self.spider_opened, signal=signals.spider_opened)
        crawler.signals.connect(self.spider_closed, signal=signals.spider_closed)
        crawler.signals.connect(self.item_scraped, signal=signals.item_scraped)
        crawler.signals.connect(self.page_directives, signal=webrobot_signals.page_directives)

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> Self:
        return cls(crawler)

    def spider_opened(self, spider: Spider) -> None:
        settings = self.crawler.settings
        feeds = [str(uri) for uri in settings.getdict("FEEDS")]
        self.path = index_path(settings.get("WEBROBOT_INDEX") or "", feeds, str(getattr(spider, "_job", "") or ""))
        try:
            self.index = SearchIndex(self.path, create=True)
        except (IndexUnavailable, OSError) as exc:
            logger.error("Full-text index off: cannot open %s: %s", self.path, exc)
            self._count("webrobot/index/error")
            return
        logger.info("Full-text index: %s (%d pages already)", self.path, len(self.index))

    def _count(self, key: str, value: int = 1) -> None:
        assert self.crawler.stats is not None
        self.crawler.stats.inc_value(key, value)

    def _guard(self, what: str, exc: Exception) -> None:
        self._count("webrobot/index/error")
        if not self._failed:
            logger.error("Full-text index: cannot %s: %s", what, exc)
            self._failed = True

    def item_scraped(self, item: Any, response: Response, spider: Spider) -> None:
        if self.index is None or not isinstance(response, HtmlResponse) or not ItemAdapter.is_item(item):
            return
        adapter = ItemAdapter(item)
        url = str(adapter.get("url") or response.url)
        try:
            language = response.headers.get("Content-Language")
            extracted = textextract.extract(
                response.text, response.body, language.decode("latin-1") if language else None
            )
            page = IndexedPage(
                url=url, site=site_key(url), host=(urlsplit(url).hostname or "").lower(),
                title=str(adapter.get("title") or ""), text=extracted.text,
                fetched_at=str(adapter.get("fetched_at") or ""), lang=extracted.lang,
            )  # fmt: skip
            outcome = self.index.put(page)
        except Exception as exc:  # noqa: BLE001 - one bad page must not stop the crawl
            self._guard(f"index {url}", exc)
            return
        self._count(f"webrobot/index/{outcome}")

    def page_directives(self, response: Response, directives: list[str], **kwargs: Any) -> None:
        if self.index is None or policy(directives).index:
            return
        try:
            removed = self.index.remove(response.url)
        except Exception as exc:  # noqa: BLE001
            self._guard(f"remove {response.url}", exc)
            return
        if removed:
            self._count("webrobot/index/removed_noindex")
            logger.info("Removed from the full-text index (now noindex): %s", response.url)

    def spider_closed(self, spider: Spider) -> None:
        if self.index is None:
            return
        try:
            self.index.optimize()
            pages = len(self.index)
            self.index.close()
        except Exception as exc:  # noqa: BLE001
            self._guard("close the index", exc)
            return
        assert self.crawler.stats is not None
        self.crawler.stats.set_value("webrobot/index/pages", pages)
        size = sum(p.stat().st_size for p in self.path.parent.glob(self.path.name + "*")) if self.path else 0
        self.crawler.stats.set_value("webrobot/index/bytes", size)
        logger.info("Full-text index: %s, %d pages, %d bytes", self.path, pages, size)
