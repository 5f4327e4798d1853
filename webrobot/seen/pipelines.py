"""Item pipelines."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from itemadapter import ItemAdapter
from scrapy.exceptions import DropItem, NotConfigured

from webrobot import signals
from webrobot.frontier.journal import JobJournal, url_key
from webrobot.seen.contentdupes import MD5_HEX_RE, ContentDupes
from webrobot.seen.dupefilter import durable_frontier
from webrobot.settingsmodel.parse import read
from webrobot.urls.sitekey import site_key

if TYPE_CHECKING:
    from typing import Self

    from scrapy.crawler import Crawler


class DuplicateContentPipeline:
    """Keep the first item of each content fingerprint, drop the others.

    The verdict comes from :class:`~webrobot.seen.dupepages.DuplicatePageMiddleware`
    (which saw the page first and fingerprinted it in the configured mode); an
    item it did not see is judged here by its ``md5`` field (the body's MD5).
    """

    def __init__(self, crawler: Crawler) -> None:
        if not read(crawler.settings, "WEBROBOT_DUPES_ENABLED"):
            raise NotConfigured("WEBROBOT_DUPES_ENABLED is off")
        self.crawler = crawler
        self.content = ContentDupes.of(crawler)
        self.content.pipeline_attached = True

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> Self:
        return cls(crawler)

    def process_item(self, item: Any) -> Any:
        verdict = self.content.take(item)
        adapter = ItemAdapter(item) if ItemAdapter.is_item(item) else None
        url = str(adapter.get("url", "")) if adapter is not None else ""
        if verdict is None:
            md5 = adapter.get("md5") if adapter is not None else None
            if not isinstance(md5, str) or not MD5_HEX_RE.match(md5):
                return item  # nothing to judge it by
            verdict = self.content.judge(md5, url)
        if not verdict.duplicate:
            return item
        assert self.crawler.stats is not None
        if verdict.near:
            self.crawler.stats.inc_value("webrobot/dupes/near/items")
            raise DropItem(
                f"Near-duplicate content: the main text of {url[:200] or 'an item'} is within "
                f"{self.content.near_bits} bits (SimHash {verdict.fingerprint}) of "
                f"{verdict.first_url_text()[:200]}'s",
                log_level="DEBUG",
            )
        self.crawler.stats.inc_value("webrobot/dupes/content")
        if url:
            self.crawler.signals.send_catch_log(
                signal=signals.page_flagged, request=None, site=site_key(url), flag="duplicate"
            )
        raise DropItem(
            f"Duplicate content: {url[:200] or 'an item'} has the same {self.content.mode} "
            f"fingerprint ({verdict.fingerprint}) as {verdict.first_url_text()[:200]}",
            log_level="DEBUG",
        )

    def close_spider(self) -> None:
        self.content.close()


class OneItemPerUrlPipeline:
    """With the crash-safe frontier: drop an item whose URL already has one in the feeds.

    A page in flight when a crawl was killed is fetched again by the resumed
    run; if its item had reached the feeds (and the "written" mark with it, see
    :mod:`webrobot.frontier.journal`), the second one is dropped here. The marks of
    earlier runs are read at open; this run's are added as items pass.
    """

    def __init__(self, crawler: Crawler) -> None:
        if not durable_frontier(crawler.settings):
            raise NotConfigured("only with the crash-safe frontier (JOBDIR)")
        self.crawler = crawler
        self.journal = JobJournal.of(crawler)
        self.seen: set[bytes] = set()

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> Self:
        return cls(crawler)

    def open_spider(self) -> None:
        self.seen = self.journal.written()

    def process_item(self, item: Any) -> Any:
        adapter = ItemAdapter(item) if ItemAdapter.is_item(item) else None
        url = adapter.get("url") if adapter is not None else None
        if not isinstance(url, str) or not url:
            return item
        key = url_key(url)
        if key in self.seen:
            assert self.crawler.stats is not None
            self.crawler.stats.inc_value("webrobot/frontier/item_already_written")
            raise DropItem(f"{url[:200]} has an item in the feeds already", log_level="DEBUG")
        self.seen.add(key)
        return item
