"""What a ``JOBDIR`` crawl writes to its frontier database besides requests.

One :class:`JobJournal` per crawler (:meth:`JobJournal.of`), shared by the
scheduler (which opens the database and commits), the content index, the
item pipeline that keeps one item per URL, and the feed files:

* **content fingerprints** of a page are recorded when its request is
  acknowledged (:meth:`defer_content` then :meth:`settle`), in the same
  transaction, so that after a crash a page that is fetched again is not taken
  for a duplicate of itself and the links of a page count as followed only
  once they are all in the frontier;
* **items written**: the key of each URL whose item went to the feeds is
  recorded in the ``item_scraped`` signal, right when Scrapy's feed exporter
  has written it (both synchronous: no commit can fall between them);
* **feed sizes**: before each commit every local feed file is flushed and its
  size recorded; a resumed job first cuts each feed back to its committed size.
  Bytes after it belong to items whose "written" mark was not committed: their
  pages are fetched again and their items written again, once. A flush that
  fails for want of disk space freezes the frontier before that commit
  (:mod:`webrobot.job.diskstate`), so no mark of an item that may not be in
  the file is ever committed.

Without a durable frontier (no ``JOBDIR``, or ``WEBROBOT_FRONTIER = "memory"``)
the journal is inactive and every method is a no-op.
"""

from __future__ import annotations

import hashlib
import logging
import os
from collections import defaultdict
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

from scrapy import signals

from webrobot.job.diskstate import disk_of
from webrobot.wiring import per_crawler

if TYPE_CHECKING:
    from scrapy.crawler import Crawler

    from webrobot.frontier.sqlitefrontier import SqliteFrontier

logger = logging.getLogger(__name__)


def url_key(url: str) -> bytes:
    """The 16-byte key of an item's URL in the ``written`` table."""
    return hashlib.blake2b(url.encode("utf-8", "surrogatepass"), digest_size=16).digest()


def local_feed_paths(feeds: dict[str, Any]) -> dict[str, bool]:
    """Absolute paths of the feeds written to local files, each with its ``overwrite`` option.

    Feeds with URI parameters (``%(time)s``...) name a new file each run and are left out.
    """
    paths: dict[str, bool] = {}
    for uri, options in feeds.items():
        uri = str(uri)
        if "%(" in uri:
            continue
        parts = urlsplit(uri)
        if parts.scheme == "file":
            path = parts.path
        elif len(parts.scheme) <= 1:  # no scheme, or a Windows drive letter
            path = uri
        else:
            continue
        overwrite = bool((options or {}).get("overwrite", False))
        paths[os.path.abspath(path)] = overwrite
    return paths


class JobJournal:
    @classmethod
    def of(cls, crawler: Crawler) -> JobJournal:
        """The crawl's one journal, shared by the scheduler and the pipelines."""
        return per_crawler(crawler, JobJournal, cls)

    def __init__(self, crawler: Crawler) -> None:
        self.crawler = crawler
        self.frontier: SqliteFrontier | None = None
        self._deferred: defaultdict[str, list[tuple[int, bytes, str | None]]] = defaultdict(list)
        self._feeds: dict[str, bool] = {}
        self._exporter: Any = None
        self._unflushed = False  # items written to the feeds since the last flush

    @property
    def active(self) -> bool:
        return self.frontier is not None

    # -- opening (called by the scheduler) ----------------------------------------
    def attach(self, frontier: SqliteFrontier) -> None:
        self.frontier = frontier
        self._feeds = local_feed_paths(self.crawler.settings.getdict("FEEDS"))
        self._resume_feeds()
        self.crawler.signals.connect(self._item_scraped, signal=signals.item_scraped)

    def _resume_feeds(self) -> None:
        assert self.frontier is not None
        recorded = self.frontier.feed_sizes()
        for path, overwrite in self._feeds.items():
            size = os.path.getsize(path) if os.path.exists(path) else 0
            committed = recorded.get(path)
            if overwrite:
                if committed is not None:
                    logger.warning(
                        "The feed %s is overwritten by each run (-O): the items of earlier runs of "
                        "this job are not in it; use -o to append", path,
                    )  # fmt: skip
                self.frontier.set_feed_size(path, 0)
                continue
            if committed is None or size < committed:
                if committed is not None:
                    logger.warning(
                        "The feed %s is shorter than this job wrote (%d < %d bytes)",
                        path,
                        size,
                        committed,
                    )
                self.frontier.set_feed_size(path, size)
            elif size > committed:
                with open(path, "r+b") as f:
                    f.truncate(committed)
                logger.info(
                    "Cut %d bytes off the feed %s: items written after the last commit of the "
                    "stopped run (their pages are fetched again)", size - committed, path,
                )  # fmt: skip
        self.frontier.commit()

    # -- content fingerprints -------------------------------------------------------
    def defer_content(self, url: str, kind: int, key: bytes, first_url: str | None) -> None:
        if self.frontier is not None:
            self._deferred[url].append((kind, key, first_url))

    def settle(self, url: str) -> None:
        """The request of ``url`` is acknowledged: its content fingerprints go in too."""
        if self.frontier is None:
            return
        for kind, key, first_url in self._deferred.pop(url, ()):
            self.frontier.add_content(kind, key, first_url)

    # -- items -------------------------------------------------------------------------
    def _item_scraped(self, item: Any, response: Any = None) -> None:
        if self.frontier is None:
            return
        self._unflushed = True
        url = _item_url(item, response)
        if url:
            self.frontier.add_written(url_key(url))

    def written(self) -> set[bytes]:
        return set(self.frontier.written_keys()) if self.frontier is not None else set()

    # -- before each commit ------------------------------------------------------------
    def flush_feeds(self) -> None:
        """Flush every local feed file and record its size (called right before a commit)."""
        if self.frontier is None or not self._feeds or not self._unflushed:
            return
        self._unflushed = False
        exporter = self._feed_exporter()
        if exporter is None:
            return
        for slot in getattr(exporter, "slots", ()):
            path = getattr(slot.storage, "path", None)
            if slot.file is None or path is None:
                continue
            path = os.path.abspath(path)
            if path not in self._feeds:
                continue
            inner = getattr(slot.exporter, "file", None)
            try:
                if inner is not None and inner is not slot.file and hasattr(inner, "flush"):
                    inner.flush()
                slot.file.flush()
                size = os.path.getsize(path)
            except OSError as exc:
                if disk_of(self.crawler).write_failed("feed", path, exc):
                    return  # the frontier is frozen: nothing after its last commit counts
                continue  # a feed closed meanwhile (a batch ended): nothing to flush
            except ValueError:  # a feed closed meanwhile (a batch ended): nothing to flush
                continue
            self.frontier.set_feed_size(path, size)

    def _feed_exporter(self) -> Any:
        if self._exporter is None:
            from scrapy.extensions.feedexport import FeedExporter

            extensions = getattr(self.crawler, "extensions", None)
            for ext in getattr(extensions, "middlewares", ()):
                if isinstance(ext, FeedExporter):
                    self._exporter = ext
                    break
        return self._exporter

    def close(self) -> None:
        self._deferred.clear()
        self.frontier = None


def _item_url(item: Any, response: Any) -> str:
    from itemadapter import ItemAdapter

    if ItemAdapter.is_item(item):
        url = ItemAdapter(item).get("url")
        if isinstance(url, str) and url:
            return url
    return str(getattr(response, "url", "") or "")
