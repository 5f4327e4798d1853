"""The visited-URL store as Scrapy's ``DUPEFILTER_CLASS``: compact, bounded memory per URL.

Keys are the request fingerprints of ``crawler.request_fingerprinter`` (bytes),
rehashed to 16 uniform bytes; the store is ``WEBROBOT_SEEN_STORE``: ``"exact"``
(a hash table of 64-bit digests, 11 to 16 bytes per URL) or ``"bloom"`` (a
presence-bit array, about 1.2 bytes per URL at 1 %, sized by
``WEBROBOT_SEEN_CAPACITY`` and ``WEBROBOT_SEEN_ERROR_RATE``). With ``JOBDIR``
and webrobot's crash-safe frontier the keys are kept in the frontier database
with the requests (:meth:`SeenUrlFilter.seed` refills the store on resume);
with Scrapy's own scheduler the store is checkpointed there
(``webrobot-seen-urls.store``) and resumed.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Protocol

from scrapy.dupefilters import BaseDupeFilter
from scrapy.utils.request import referer_str

from webrobot.frontier.scheduler import durable_frontier
from webrobot.seen.checkpoint import StoreCheckpoint
from webrobot.seen.requestfingerprinter import CanonicalRequestFingerprinter
from webrobot.seen.storefile import Stored
from webrobot.seen.stores import AUDIT_RATIO, BloomStore, ExactStore, make_store, uniform_key
from webrobot.settingsmodel.parse import read
from webrobot.wiring import Key, find_per_crawler, set_per_crawler

if TYPE_CHECKING:
    from collections.abc import Iterable
    from typing import Self

    from scrapy import Request, Spider
    from scrapy.crawler import Crawler
    from scrapy.settings import BaseSettings

logger = logging.getLogger(__name__)


URL_STORE_FILE = "webrobot-seen-urls.store"


def store_from_settings(
    settings: BaseSettings, name: str, *, values: bool = False
) -> ExactStore | BloomStore:
    """The store named by setting ``name`` ("exact" or "bloom"), sized by the WEBROBOT_SEEN_* settings."""
    kind = read(settings, name)
    capacity = read(settings, "WEBROBOT_SEEN_CAPACITY")
    error_rate = read(settings, "WEBROBOT_SEEN_ERROR_RATE")
    try:
        return make_store(kind, capacity, error_rate, values=values)
    except ValueError as exc:
        source = name if kind not in ("exact", "bloom") else "WEBROBOT_SEEN_CAPACITY/ERROR_RATE"
        raise ValueError(f"setting {source}: {exc}") from None


class BloomWatch:
    """Counts and logs what a Bloom store reveals: detected false positives, growth past capacity."""

    def __init__(self, crawler: Crawler, what: str) -> None:
        self.crawler = crawler
        self.what = what  # "url" or "content": the stats key's last part
        self._false_positives = 0
        self._layers = 1

    def resume(self, store: ExactStore | BloomStore) -> None:
        """Start from a resumed store's counts, so that only new events are reported."""
        if isinstance(store, BloomStore):
            self._false_positives = store.false_positives
            self._layers = len(store.layers)

    def check(self, store: BloomStore, key_hint: str) -> None:
        if store.false_positives != self._false_positives:
            assert self.crawler.stats is not None
            self.crawler.stats.inc_value(
                f"webrobot/dupes/false_positive/{self.what}",
                store.false_positives - self._false_positives,
            )
            if not self._false_positives:
                logger.info(
                    "Bloom filter false positive detected (%s %s), corrected; only 1 key in %d "
                    "is checked exactly, so about %d times as many go unnoticed (further ones at DEBUG)",
                    self.what, key_hint, AUDIT_RATIO, AUDIT_RATIO,
                )  # fmt: skip
            else:
                logger.debug("Bloom filter false positive detected (%s %s)", self.what, key_hint)
            self._false_positives = store.false_positives
        if len(store.layers) != self._layers:
            self._layers = len(store.layers)
            logger.warning(
                "The %s Bloom filter is past its capacity (%d keys, WEBROBOT_SEEN_CAPACITY=%d): "
                "added a layer (%d in all) so the error rate stays bounded; set a larger capacity",
                self.what, len(store), store.capacity, self._layers,
            )  # fmt: skip


def record_store_stats(crawler: Crawler, store: Stored, what: str) -> None:
    assert crawler.stats is not None
    crawler.stats.set_value(f"webrobot/dupes/stored/{what}", len(store))
    crawler.stats.set_value(f"webrobot/dupes/store_bytes/{what}", store.nbytes)


class VisitedFilter(Protocol):
    """What :func:`visited_filter` returns: a ``DUPEFILTER_CLASS`` that can mark a request visited."""

    def mark_visited(self, request: Request) -> bool | None:
        """Mark ``request`` visited; whether it was already (None: cannot say now)."""
        ...


#: The crawl's visited-URL filter, when it is one of webrobot's.
_VISITED = Key[VisitedFilter]("webrobot.seen.dupefilter.visited")


def register_visited_filter(crawler: Crawler, df: VisitedFilter) -> None:
    """Make ``df`` (the crawler's ``DUPEFILTER_CLASS``) what :func:`visited_filter` returns."""
    set_per_crawler(crawler, _VISITED, df)


def visited_filter(crawler: Crawler) -> VisitedFilter | None:
    """The crawler's visited-URL filter when it is one of webrobot's (local or shared),
    else None: a link refused before it is queued is marked visited there, as the
    scheduler would have marked it."""
    return find_per_crawler(crawler, _VISITED)


def link_filter(crawler: Crawler) -> SeenUrlFilter | None:
    """The crawler's visited-URL filter when it can judge a link by its URL alone
    (:class:`SeenUrlFilter` with webrobot's fingerprinter), else None."""
    found = find_per_crawler(crawler, SeenUrlFilter)
    if found is None or not isinstance(found.fingerprinter, CanonicalRequestFingerprinter):
        return None
    return found


class SeenUrlFilter(BaseDupeFilter):
    def __init__(self, crawler: Crawler) -> None:
        set_per_crawler(crawler, SeenUrlFilter, self)
        register_visited_filter(crawler, self)
        self.crawler = crawler
        self.fingerprinter = crawler.request_fingerprinter
        self.debug = crawler.settings.getbool("DUPEFILTER_DEBUG")
        self.logdupes = True
        self.kind = read(crawler.settings, "WEBROBOT_SEEN_STORE")
        self.store = store_from_settings(crawler.settings, "WEBROBOT_SEEN_STORE")
        self.checkpoint = StoreCheckpoint(crawler, URL_STORE_FILE, "visited-URL store")
        if durable_frontier(crawler.settings):
            self.checkpoint.path = None  # the frontier database keeps the visited keys
        self.watch = BloomWatch(crawler, "url")

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> Self:
        return cls(crawler)

    def open(self) -> None:
        loaded = self.checkpoint.load()
        if isinstance(loaded, ExactStore | BloomStore):
            if loaded.kind != self.kind:
                logger.warning(
                    "This job's visited-URL store is %s; WEBROBOT_SEEN_STORE=%s applies to new jobs",
                    loaded.kind, self.kind,
                )  # fmt: skip
            self.store = loaded
            self.watch.resume(loaded)
        elif loaded is not None:
            logger.error(
                "%s holds no visited-URL store; starting with an empty one", self.checkpoint.path
            )
        self.checkpoint.start_periodic(lambda: self.store)

    def request_seen(self, request: Request) -> bool:
        return self.request_key_seen(request)[0]

    def mark_visited(self, request: Request) -> bool:
        return self.request_seen(request)

    def request_key_seen(self, request: Request) -> tuple[bool, bytes]:
        """Whether the request was seen, and its key (which the crash-safe frontier keeps)."""
        key = uniform_key(self.fingerprinter.fingerprint(request))
        new = self.store.add(key)
        if isinstance(self.store, BloomStore):
            self.watch.check(self.store, request.url[:200])
        return not new, key

    def link_seen(self, url: str) -> tuple[bool, bytes]:
        """Whether ``Request(url)`` would be filtered as visited or queued, without adding it,
        and its request fingerprint (for :meth:`hand_over`)."""
        fingerprinter = self.fingerprinter
        assert isinstance(fingerprinter, CanonicalRequestFingerprinter)
        fingerprint = fingerprinter.url_fingerprint(url)
        return uniform_key(fingerprint) in self.store, fingerprint

    def hand_over(self, request: Request, fingerprint: bytes) -> None:
        """Give ``request`` the fingerprint :meth:`link_seen` computed for its URL."""
        fingerprinter = self.fingerprinter
        assert isinstance(fingerprinter, CanonicalRequestFingerprinter)
        fingerprinter.remember(request, fingerprint)

    def seed(self, keys: Iterable[bytes]) -> None:
        """Add the keys of URLs visited by earlier runs of the job (from the frontier database)."""
        for key in keys:
            self.store.add(key)

    def close(self, reason: str) -> None:
        self.checkpoint.stop_periodic()
        record_store_stats(self.crawler, self.store, "url")
        self.checkpoint.save(self.store)

    def log(self, request: Request, spider: Spider) -> None:
        if self.debug:
            logger.debug(
                "Filtered duplicate request: %(request)s (referer: %(referer)s)",
                {"request": request, "referer": referer_str(request)},
            )  # fmt: skip
        elif self.logdupes:
            logger.debug(
                "Filtered duplicate request: %(request)s - no more duplicates will be shown"
                " (see DUPEFILTER_DEBUG to show all duplicates)", {"request": request},
            )  # fmt: skip
            self.logdupes = False
        assert self.crawler.stats is not None
        self.crawler.stats.inc_value("dupefilter/filtered")
