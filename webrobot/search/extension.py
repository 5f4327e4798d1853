"""The full-text index, kept during the crawl: thin glue around
:mod:`webrobot.search.worker` (which runs :mod:`webrobot.extract.maintext` and
:mod:`webrobot.search.index` in a child process, on another core).

What goes in: every page item that reached the end of the pipelines
(``item_scraped``: HTML, not noindex, not a content duplicate), with its main
text (boilerplate removed), title, site, fetch time and declared language.
An item that carries its own ``main_text`` (mining's ``text`` part, see
:mod:`webrobot.extract.middleware`) is indexed with that text, not one extracted
again here; so is a document's item (a PDF's text), which is not HTML. A
page crawled again replaces its old row; a page whose robots directives now say
noindex is removed (``page_directives`` signal).

Where (a folder): ``WEBROBOT_INDEX`` if set; else next to the first local items
feed (``out/items.jsonl`` -> ``out/items.index``; a Scrapyd job's
``<job>.index``); else ``webrobot-index`` in the current folder.

Nothing handed over is lost to a kill: pages go through a durable spool in the
index folder (:mod:`webrobot.search.spool`), and what a killed run spooled but had
not committed is indexed by the next run against the same index first
(``webrobot/index/replayed``).
A full disk (the spool cannot be written, or the index process finds no room
to commit) closes the crawl with ``disk_full``
(:mod:`webrobot.job.diskstate`); what was spooled and not committed is
indexed by the next run.
``WEBROBOT_INDEX_ENABLED = False`` switches it off; without the ``search`` extra
(resiliparse, tantivy) it is off with one warning.
"""

from __future__ import annotations

import errno
import logging
import os
from pathlib import Path
from typing import TYPE_CHECKING, Any, Self
from urllib.parse import urlsplit

from itemadapter import ItemAdapter
from scrapy import signals
from scrapy.exceptions import NotConfigured
from scrapy.http import HtmlResponse

from webrobot import signals as webrobot_signals
from webrobot.job.diskstate import disk_of
from webrobot.optional import MissingExtra
from webrobot.pages.metarobots import policy
from webrobot.report.document import report_location
from webrobot.search.worker import IndexWorker, PageToIndex, check_installed
from webrobot.settingsmodel.parse import read
from webrobot.urls.sitekey import site_key
from webrobot.wiring import Key, set_per_crawler

if TYPE_CHECKING:
    from collections.abc import Callable

    from scrapy import Spider
    from scrapy.crawler import Crawler
    from scrapy.http import Response

logger = logging.getLogger(__name__)

#: Where the index goes when neither WEBROBOT_INDEX nor a local feed says.
DEFAULT_INDEX = "webrobot-index"


def index_path(setting: str, feed_uris: list[str], job: str = "") -> Path:
    """See the module doc."""
    if setting:
        return Path(setting)
    if feed_uris:
        folder, prefix = report_location("", feed_uris, job)
        if folder != "report":  # a local feed named it
            return Path(folder) / f"{prefix}index"
    return Path(f"{job}.index" if job else DEFAULT_INDEX)


class FullTextIndex:
    """Keeps the full-text index of the crawled pages during the crawl."""

    def __init__(self, crawler: Crawler) -> None:
        settings = crawler.settings
        if not read(settings, "WEBROBOT_INDEX_ENABLED"):
            raise NotConfigured("WEBROBOT_INDEX_ENABLED is off")
        try:
            check_installed()
        except MissingExtra as exc:
            logger.warning("Full-text index off: %s", exc)  # the one line that names the extra
            raise NotConfigured(f"{exc.module} is not installed") from exc
        self.crawler = crawler
        self.worker: IndexWorker | None = None
        self.path: Path | None = None
        self._lost = False
        self._spool_failed = False
        crawler.signals.connect(self.spider_opened, signal=signals.spider_opened)
        crawler.signals.connect(self.spider_closed, signal=signals.spider_closed)
        crawler.signals.connect(self.item_scraped, signal=signals.item_scraped)
        crawler.signals.connect(self.page_directives, signal=webrobot_signals.page_directives)
        set_per_crawler(crawler, FULL_TEXT_INDEX, self)  # the metrics read its progress

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> Self:
        return cls(crawler)

    def _count(self, key: str, value: int = 1) -> None:
        assert self.crawler.stats is not None
        self.crawler.stats.inc_value(key, value)

    def spider_opened(self, spider: Spider) -> None:
        settings = self.crawler.settings
        feeds = [str(uri) for uri in settings.getdict("FEEDS")]
        self.path = index_path(
            read(settings, "WEBROBOT_INDEX"), feeds, str(getattr(spider, "_job", "") or "")
        )
        try:
            self.worker = IndexWorker(self.path)
        except (RuntimeError, OSError) as exc:
            # A full disk closes the crawl (one line for the whole crawl); any other
            # trouble crawls on without the index.
            if not disk_of(self.crawler).write_failed("full-text index", self.path, exc):
                logger.error("Full-text index off: %s", exc)
            self._count("webrobot/index/error")
            return
        for note in self.worker.notes:
            logger.warning("Full-text index: %s", note)
            self._count("webrobot/index/stale_lock")
        logger.info("Full-text index: %s (%d pages already)", self.path, self.worker.already)
        if self.worker.backlog:
            logger.info(
                "Full-text index: indexing first what an interrupted run handed over "
                "but had not committed"
            )
        if self.worker.cut:
            logger.warning(
                "Full-text index: %d bytes of a page cut by a kill were dropped from the spool",
                self.worker.cut,
            )

    def _disk_full(self) -> bool:
        """Has the index process stopped for want of disk space? (Reported once.)"""
        worker = self.worker
        if worker is None or not worker.disk_error.value:
            return False
        if not self._lost:
            self._lost = True
            error = OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
            disk_of(self.crawler).write_failed("full-text index", self.path, error)
        return True

    def _send(self, record: Callable[[], bool]) -> None:
        """Hand a record to the index (through the spool); a full disk closes the crawl."""
        if self._spool_failed or self._disk_full():
            return
        try:
            ok = record()
        except OSError as exc:
            if not disk_of(self.crawler).write_failed("full-text index spool", self.path, exc):
                raise
            self._spool_failed = True
            return
        self._sent(ok)

    def _sent(self, ok: bool) -> None:
        if not ok and self._disk_full():
            return
        if not ok:
            self._count("webrobot/index/lost")
            if not self._lost:
                logger.error("Full-text index: the index process died; pages are no longer indexed")
                self._lost = True

    def item_scraped(self, item: Any, response: Response, spider: Spider) -> None:
        if self.worker is None or response is None or not ItemAdapter.is_item(item):
            return
        adapter = ItemAdapter(item)
        main_text = adapter.get("main_text")
        main_text = main_text if isinstance(main_text, str) else None
        html = response if isinstance(response, HtmlResponse) else None
        if html is None and main_text is None:
            return  # not a page, and no text of its own (a document's item has some)
        url = str(adapter.get("url") or response.url)
        language = response.headers.get("Content-Language")
        title = adapter.get("title")
        if not title and isinstance(adapter.get("metadata"), dict):
            title = adapter["metadata"].get("title")  # a document's title
        page = PageToIndex(
            url=url, site=site_key(url), host=(urlsplit(url).hostname or "").lower(),
            title=str(title or ""), fetched_at=str(adapter.get("fetched_at") or ""),
            body=html.body if html else b"", encoding=html.encoding if html else "utf-8",
            content_language=language.decode("latin-1") if language else None,
            main_text=main_text,
        )  # fmt: skip
        worker = self.worker
        self._send(lambda: worker.put(page))

    def page_directives(self, response: Response, directives: list[str], **kwargs: Any) -> None:
        if self.worker is None or policy(directives).index:
            return
        worker = self.worker
        self._send(lambda: worker.remove(response.url))

    def index_progress(self) -> tuple[int, int] | None:
        """(records handed to the index process, records it applied) so far; read by the metrics."""
        if self.worker is None:
            return None
        return self.worker.spool.records, int(self.worker.applied.value)

    def spider_closed(self, spider: Spider) -> None:
        if self.worker is None:
            return
        totals = self.worker.close()
        self.worker = None
        assert self.crawler.stats is not None
        stats = self.crawler.stats
        for key in ("added", "updated", "removed", "empty", "replayed"):
            if getattr(totals, key):
                stats.set_value(f"webrobot/index/{key}", getattr(totals, key))
        if totals.disk_full:
            stats.inc_value("webrobot/index/error", totals.errors)
            if not self._lost:  # the crawl did not hear of it yet
                disk_of(self.crawler).write_failed(
                    "full-text index", self.path, OSError(errno.ENOSPC, totals.first_error)
                )
        elif totals.errors:
            stats.inc_value("webrobot/index/error", totals.errors)
            logger.error(
                "Full-text index: %d errors; the first: %s", totals.errors, totals.first_error
            )
        stats.set_value("webrobot/index/pages", totals.pages)
        stats.set_value("webrobot/index/bytes", totals.bytes)
        stats.set_value("webrobot/index/cpu_seconds", round(totals.cpu_seconds, 3))
        logger.info(
            "Full-text index: %s, %d pages (%d added, %d updated, %d removed as noindex), %d bytes",
            self.path, totals.pages, totals.added, totals.updated, totals.removed, totals.bytes,
        )  # fmt: skip


#: The crawl's index, for the metrics (which find it by this name, a floor below).
FULL_TEXT_INDEX = Key[FullTextIndex]("webrobot.search.extension")
