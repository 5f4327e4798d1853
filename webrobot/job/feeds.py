"""Scrapy's feed exporter, with a full disk closing the crawl cleanly.

A feed write that fails for want of space (``ENOSPC``, ``EDQUOT``, ``EIO``;
raised when the exporter's buffer reaches the file) is one ERROR line through
:mod:`webrobot.job.diskstate`, not a traceback per item: the crash-safe
frontier commits nothing more (the items written since its last commit are cut
off the feed when the job resumes, and their pages are fetched and itemised
again, once), no further item is exported to that feed in this run, and the
crawl closes with ``disk_full``. Any other error is Scrapy's, as before.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

from scrapy.extensions.feedexport import FeedExporter as ScrapyFeedExporter

from webrobot.job.diskstate import disk_of

if TYPE_CHECKING:
    from scrapy import Spider
    from scrapy.crawler import Crawler
    from scrapy.extensions.feedexport import FeedSlot

logger = logging.getLogger(__name__)


class FeedExporter(ScrapyFeedExporter):
    """Scrapy's feed exporter, with a full disk closing the crawl cleanly."""

    def __init__(self, crawler: Crawler) -> None:
        super().__init__(crawler)
        self.disk = disk_of(crawler)
        self.disk.on_failure(self._stop_exporting)
        self.stopped = False

    def _stop_exporting(self) -> None:
        self.stopped = True

    def item_scraped(self, item: Any, spider: Spider) -> None:
        if self.stopped:
            return
        try:
            super().item_scraped(item, spider)
        except OSError as exc:
            if not self.disk.write_failed("feed", self._where(), exc):
                raise

    def _where(self) -> str:
        return ", ".join(str(slot.uri) for slot in self.slots) or "the feed"

    async def _close_slot(self, slot: FeedSlot, spider: Spider) -> None:
        if self.stopped:
            self._close_quietly(slot)
            return
        try:
            if slot.itemcount:
                # The format's last bytes (a CSV or XML exporter's own buffer, the
                # closing tag) go out here, where a full disk is caught, not in
                # Scrapy's store step, which logs a traceback.
                slot.finish_exporting()
            if slot.file is not None:
                slot.file.flush()
        except OSError as exc:
            if not self.disk.write_failed("feed", slot.uri, exc):
                raise
            self._close_quietly(slot)
            return
        await super()._close_slot(slot, spider)

    @staticmethod
    def _close_quietly(slot: FeedSlot) -> None:
        """Close the feed file without storing it (what is in it past the job's
        last commit is cut off when the job resumes)."""
        file = slot.file
        if file is None:
            return
        try:
            file.close()
        except OSError:
            pass  # the buffer could not be written: those items are not acknowledged
        logger.info("Feed %s closed after a failed write (%d items)", slot.uri, slot.itemcount)
