"""The crawl's content fingerprints, shared by the spider middleware and the pipeline.

One per crawler (:meth:`ContentDupes.of`). It remembers two things per
fingerprint, because a page may give an item without links (``nofollow``) or
links without an item (``noindex``), and such a first copy must not cost the
content its item or its links:

* ``index``: contents whose item was kept, with the first URL that gave one
  (:meth:`ContentDupes.judge`, for items);
* ``followed``: contents whose links were followed from some page
  (:meth:`ContentDupes.follow_links`, for link requests).

With ``WEBROBOT_NEAR_DUPLICATES`` a third, ``near_index``
(:class:`~webrobot.seen.simhash.NearIndex`), holds the SimHash of each page kept
by the near-duplicate filter with its URL (:meth:`ContentDupes.judge_near`).

The spider middleware sees a page's output first, so it decides: it
fingerprints the page once, drops the links of a page whose content had its
links followed already, and hands the verdict for each of the page's items to
:class:`~webrobot.seen.pipelines.DuplicateContentPipeline`, which drops the items of
duplicates. Without the middleware the pipeline judges items alone, by their
``md5`` field (the body fingerprint).

With ``JOBDIR`` and webrobot's crash-safe frontier, all three are written to the
job's frontier database when each page's request is acknowledged
(:mod:`webrobot.frontier.journal`) and read back when the job resumes. With Scrapy's own
scheduler they are loaded when the job resumes and saved when the spider
closes (``webrobot-content.store``, ``webrobot-content-followed.store``,
``webrobot-near.store``). Either way a resumed crawl neither emits an item it
already emitted nor follows the links of a page it already saw, nor of a near copy
of one.

The class is named by ``WEBROBOT_CONTENT_INDEX_CLASS`` (a subclass of
:class:`ContentDupes`), so the workers of a distributed crawl can share one
index (:mod:`webrobot.distributed.contentdupes`).
"""

from __future__ import annotations

import logging
import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from itemadapter import ItemAdapter
from scrapy import signals
from scrapy.http import TextResponse
from scrapy.utils.misc import load_object

from webrobot.frontier.journal import JobJournal
from webrobot.frontier.sqlitefrontier import CONTENT_FOLLOWED, CONTENT_KEPT, CONTENT_NEAR
from webrobot.pages.wholepage import whole_selector
from webrobot.seen.checkpoint import StoreCheckpoint
from webrobot.seen.contentfingerprints import (
    FINGERPRINT_MODES,
    body_fingerprint,
    fingerprint_key,
    text_fingerprint,
)
from webrobot.seen.dupefilter import (
    BloomWatch,
    durable_frontier,
    record_store_stats,
    store_from_settings,
)
from webrobot.seen.simhash import MAX_DISTANCE, NearIndex, judged, simhash, to_hex
from webrobot.seen.stores import BloomStore, ExactStore, FirstSeenIndex, Seen
from webrobot.settingsmodel.parse import read
from webrobot.wiring import per_crawler

if TYPE_CHECKING:
    from collections.abc import Iterable

    from scrapy import Spider
    from scrapy.crawler import Crawler
    from scrapy.http import Response
    from scrapy.settings import BaseSettings

logger = logging.getLogger(__name__)

CONTENT_STORE_FILE = "webrobot-content.store"
FOLLOWED_STORE_FILE = "webrobot-content-followed.store"
NEAR_STORE_FILE = "webrobot-near.store"
MD5_HEX_RE = re.compile(r"^[0-9a-f]{32}$")


@dataclass(frozen=True, slots=True)
class Verdict:
    fingerprint: str  # hex MD5 (of the body or of the visible text); a SimHash's hex if near
    seen: Seen | None  # None: first time, the page is kept
    near: bool = False  # a near copy (WEBROBOT_NEAR_DUPLICATES), not an exact one

    @property
    def duplicate(self) -> bool:
        return self.seen is not None

    def first_url_text(self) -> str:
        if self.seen is None or self.seen.first_url is None:
            return "an earlier page (the Bloom store keeps no URLs)"
        return self.seen.first_url


#: The verdict for a page with the ``dont_dedupe`` meta key: kept, not recorded.
EXEMPT = Verdict("", None)


def near_distance(settings: BaseSettings) -> int:
    """``WEBROBOT_NEAR_DUPLICATES``, checked: 0 (off) to :data:`~webrobot.seen.simhash.MAX_DISTANCE`."""
    bits = int(read(settings, "WEBROBOT_NEAR_DUPLICATES"))
    if not 0 <= bits <= MAX_DISTANCE:
        raise ValueError(
            f"setting WEBROBOT_NEAR_DUPLICATES: expected 0 (off) to {MAX_DISTANCE} bits, got {bits}"
        )
    return bits


def fingerprint_mode(settings: BaseSettings) -> str:
    """``WEBROBOT_FINGERPRINT``, checked."""
    mode = read(settings, "WEBROBOT_FINGERPRINT")
    if mode not in FINGERPRINT_MODES:
        raise ValueError(
            f"setting WEBROBOT_FINGERPRINT: expected one of {', '.join(FINGERPRINT_MODES)}, "
            f"got {mode!r}"
        )
    return mode


class ContentDupes:
    @classmethod
    def of(cls, crawler: Crawler) -> ContentDupes:
        """The crawler's one instance (created by whichever component asks first),
        of the class ``WEBROBOT_CONTENT_INDEX_CLASS`` names."""
        return per_crawler(crawler, ContentDupes, cls._from_settings)

    @classmethod
    def _from_settings(cls, crawler: Crawler) -> ContentDupes:
        path = read(crawler.settings, "WEBROBOT_CONTENT_INDEX_CLASS")
        index_class = load_object(path) if path else cls
        if not (isinstance(index_class, type) and issubclass(index_class, ContentDupes)):
            raise ValueError(  # noqa: TRY004 - a bad setting, as the settings' other errors
                f"setting WEBROBOT_CONTENT_INDEX_CLASS: {path!r} is not a ContentDupes class"
            )
        made: ContentDupes = index_class(crawler)
        return made

    def __init__(self, crawler: Crawler) -> None:
        settings = crawler.settings
        self.crawler = crawler
        self.mode = fingerprint_mode(settings)
        self.near_bits = near_distance(settings)
        self.near_index = NearIndex(self.near_bits)
        store = store_from_settings(settings, "WEBROBOT_CONTENT_STORE", values=True)
        self.index = FirstSeenIndex(store)
        self.checkpoint = StoreCheckpoint(crawler, CONTENT_STORE_FILE, "content fingerprints")
        durable = durable_frontier(settings)
        if durable:
            self.checkpoint.path = None  # the frontier database keeps them, with each page's ack
        loaded = self.checkpoint.load()
        if isinstance(loaded, FirstSeenIndex):
            if loaded.store.kind != store.kind:
                logger.warning(
                    "This job's content store is %s; WEBROBOT_CONTENT_STORE=%s applies to new jobs",
                    loaded.store.kind, store.kind,
                )  # fmt: skip
            self.index = loaded
        elif loaded is not None:
            logger.error(
                "%s holds no content index; starting with an empty one", self.checkpoint.path
            )
        self.watch = BloomWatch(crawler, "content")
        self.watch.resume(self.index.store)
        self.followed = store_from_settings(settings, "WEBROBOT_CONTENT_STORE")
        self.followed_checkpoint = StoreCheckpoint(
            crawler, FOLLOWED_STORE_FILE, "fingerprints of pages whose links were followed"
        )
        if durable:
            self.followed_checkpoint.path = None
        loaded = self.followed_checkpoint.load()
        if isinstance(loaded, ExactStore | BloomStore):
            self.followed = loaded
        elif loaded is not None:
            logger.error(
                "%s holds no fingerprint store; starting with an empty one",
                self.followed_checkpoint.path,
            )
        self.followed_watch = BloomWatch(crawler, "content")
        self.followed_watch.resume(self.followed)
        self.near_checkpoint = StoreCheckpoint(
            crawler, NEAR_STORE_FILE, "near-duplicate fingerprints"
        )
        if durable or not self.near_bits:
            self.near_checkpoint.path = None
        loaded = self.near_checkpoint.load()
        if isinstance(loaded, NearIndex):
            loaded.max_distance = self.near_bits  # the setting of this run, not the saved one's
            self.near_index = loaded
            self._count_resumed_near(len(loaded))
        elif loaded is not None:
            logger.error(
                "%s holds no near-duplicate index; starting with an empty one",
                self.near_checkpoint.path,
            )
        self._announced_links = False
        self.pipeline_attached = False
        self._verdicts: dict[int, tuple[Any, Verdict]] = {}
        self._announced = False
        self._closed = False
        crawler.signals.connect(self.spider_opened, signal=signals.spider_opened)
        crawler.signals.connect(self.spider_closed, signal=signals.spider_closed)

    @property
    def journal(self) -> JobJournal:
        """Where a page's fingerprints go with its acknowledgement (inactive without the crash-safe frontier)."""
        return JobJournal.of(self.crawler)

    # -- fingerprints and verdicts ---------------------------------------------
    def fingerprint(self, response: Response, item: Any = None) -> str:
        """The page's fingerprint in the configured mode; reuses the item's ``md5`` when it is the body's."""
        if self.mode == "body":
            if item is not None and ItemAdapter.is_item(item):
                adapter = ItemAdapter(item)
                md5 = adapter.get("md5")
                if (
                    adapter.get("url") == response.url
                    and isinstance(md5, str)
                    and MD5_HEX_RE.match(md5)
                ):
                    return md5
            return body_fingerprint(response.body)
        if isinstance(response, TextResponse):
            try:
                root = whole_selector(response).root  # the tree the spider already parsed
            except Exception:  # noqa: BLE001 - lxml refuses some inputs outright: use the bytes
                return body_fingerprint(response.body)
            return text_fingerprint(root) or body_fingerprint(response.body)
        return body_fingerprint(response.body)

    def judge(self, fingerprint: str, url: str) -> Verdict:
        """For a page's items: record ``fingerprint`` as kept at ``url`` if no item had it yet; say whether one did."""
        key = fingerprint_key(fingerprint)
        verdict = Verdict(fingerprint, self.index.check(key, url))
        if not verdict.duplicate:
            self.journal.defer_content(url, CONTENT_KEPT, key, url)
        if isinstance(self.index.store, BloomStore):
            self.watch.check(self.index.store, url[:200])
        if verdict.duplicate:
            if not self._announced:
                self._announced = True
                logger.info(
                    "Duplicate content: %s has the same %s fingerprint as %s; its item is dropped "
                    "(further ones at DEBUG)",
                    url[:200], self.mode, verdict.first_url_text()[:200],
                )  # fmt: skip
            else:
                logger.debug(
                    "Duplicate content: %s same as %s", url[:200], verdict.first_url_text()[:200]
                )
        return verdict

    def judge_near(self, text: str, url: str) -> Verdict | None:
        """With ``WEBROBOT_NEAR_DUPLICATES``: a near-duplicate verdict when ``text`` is
        within that many bits of a text kept for another URL (else it is kept, and None).
        A text too short to judge (:func:`~webrobot.seen.simhash.judged`) is None."""
        if not self.near_bits or not judged(text):
            return None
        fingerprint = simhash(text)
        first = self._first_near(fingerprint, url)
        if first is None:
            return None
        _, first_url = first
        if not self._announced_near:
            self._announced_near = True
            logger.info(
                "Near-duplicate content: the main text of %s is within %d bits of %s's; its item "
                "is dropped and its links not followed (further ones at DEBUG)",
                url[:200], self.near_bits, first_url[:200],
            )  # fmt: skip
        else:
            logger.debug("Near-duplicate content: %s near %s", url[:200], first_url[:200])
        return Verdict(to_hex(fingerprint), Seen(first_url), near=True)

    def _first_near(self, fingerprint: int, url: str) -> tuple[int, str] | None:
        kept = len(self.near_index)
        found = self.near_index.first(fingerprint, url)
        if len(self.near_index) > kept:  # recorded now: into the frontier with the page's ack
            self.journal.defer_content(url, CONTENT_NEAR, fingerprint.to_bytes(8, "big"), url)
        return found

    def _resume_near(self, pairs: Iterable[tuple[int, str]]) -> int:
        """Keep the (SimHash, URL) pairs of an earlier run of this job (from its frontier
        database); returns how many."""
        before = len(self.near_index)
        self.near_index.update(pairs)
        return self._count_resumed_near(len(self.near_index) - before)

    def _count_resumed_near(self, resumed: int) -> int:
        if resumed:
            assert self.crawler.stats is not None
            self.crawler.stats.inc_value("webrobot/dupes/near/resumed", resumed)
        return resumed

    _announced_near = False

    def follow_links(self, fingerprint: str, url: str) -> bool:
        """For a page's link requests: True (and recorded) if no page with this content had its links followed."""
        new = self._first_to_follow(fingerprint, url)
        if not new:
            if not self._announced_links:
                self._announced_links = True
                logger.info(
                    "Not following the links of %s: a page with the same %s fingerprint had its links "
                    "followed (further ones at DEBUG)", url[:200], self.mode,
                )  # fmt: skip
            else:
                logger.debug("Not following the links of %s: duplicate content", url[:200])
        return new

    def _first_to_follow(self, fingerprint: str, url: str) -> bool:
        key = fingerprint_key(fingerprint)
        new = self.followed.add(key)
        if new:
            self.journal.defer_content(url, CONTENT_FOLLOWED, key, None)
        if isinstance(self.followed, BloomStore):
            self.followed_watch.check(self.followed, url[:200])
        return new

    # -- middleware -> pipeline ------------------------------------------------
    def remember(self, item: Any, verdict: Verdict) -> None:
        if self.pipeline_attached:
            self._verdicts[id(item)] = (item, verdict)

    def take(self, item: Any) -> Verdict | None:
        entry = self._verdicts.pop(id(item), None)
        if entry is None or entry[0] is not item:
            return None
        return entry[1]

    # -- life cycle -------------------------------------------------------------
    def spider_opened(self, spider: Spider) -> None:
        frontier = self.journal.frontier
        if frontier is not None:  # the scheduler opened this job's frontier database
            kept = followed = 0
            for key, url in frontier.content_keys(CONTENT_KEPT):
                self.index.check(key, url or "")
                kept += 1
            for key, _ in frontier.content_keys(CONTENT_FOLLOWED):
                self.followed.add(key)
                followed += 1
            near = 0
            if self.near_bits:
                near = self._resume_near(
                    (int.from_bytes(key, "big"), url or "")
                    for key, url in frontier.content_keys(CONTENT_NEAR)
                )
            if kept or followed or near:
                logger.info(
                    "Resumed the content fingerprints of this job: %d of kept items, %d of pages "
                    "followed, %d of near-duplicate texts", kept, followed, near,
                )  # fmt: skip
        self.checkpoint.start_periodic(lambda: self.index)
        self.followed_checkpoint.start_periodic(lambda: self.followed)
        self.near_checkpoint.start_periodic(lambda: self.near_index)

    def close(self) -> None:
        """Record the stats and save the checkpoint, once: the pipeline calls this from
        ``close_spider`` (every item is through by then, and the stats file is not yet
        written); ``spider_closed`` calls it when there is no pipeline."""
        if self._closed:
            return
        self._closed = True
        self.checkpoint.stop_periodic()
        self.followed_checkpoint.stop_periodic()
        self.near_checkpoint.stop_periodic()
        self._verdicts.clear()
        record_store_stats(self.crawler, self.index, "content")
        assert self.crawler.stats is not None
        self.crawler.stats.inc_value("webrobot/dupes/store_bytes/content", self.followed.nbytes)
        if self.near_bits:
            record_store_stats(self.crawler, self.near_index, "near")
        self.checkpoint.save(self.index)
        self.followed_checkpoint.save(self.followed)
        self.near_checkpoint.save(self.near_index)

    def spider_closed(self, spider: Spider, reason: str) -> None:
        self.close()
