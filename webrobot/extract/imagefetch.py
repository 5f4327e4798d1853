"""Download the images a page shows and describe each: thin glue around
:mod:`webrobot.extract.imagehashing`.

Each image is fetched as the archive fetches a page requisite
(:func:`webrobot.pages.embeds.embed_request`, kind ``image``), awaited with
``engine.download_async``: through every downloader middleware, so the network
guard, the scope (an image on another site passes within
``WEBROBOT_REQUISITES_MAX_HOPS`` embeds, as requisites do), the blocklist,
robots.txt and the per-site politeness clock apply to it. It is cut at
``WEBROBOT_IMAGE_MAX_BYTES`` and decoded in a thread, never past
``WEBROBOT_IMAGE_MAX_PIXELS``. A site's logo shown on every page is fetched
once per crawl: the last descriptions (and lasting failures) are kept by URL.

Each entry gets a ``status``. An image that was refused or failed (``failed``)
keeps its markup fields and gets an ``error`` (the refusal's reason: ``robots_txt``,
``offsite``, ``blocklist``...; or ``http_error``, ``too_large``, ``download_error``,
``not_an_image``, ``vector_image`` (SVG), ``damaged``, ``too_many_pixels``,
``page_cap``, ``bad_url``, ``missing_library``).

A page's images are fetched :data:`AT_ONCE` at a time (and those of all pages in
at most half of ``CONCURRENT_REQUESTS``) and waited for at most
``WEBROBOT_IMAGES_WAIT_MAX`` seconds: those not fetched by then are cancelled and
listed ``unfetched`` with the ``reason`` ``timeout``. An image whose host is dead
(:class:`~webrobot.urls.deadhosts.DeadHosts`: its name does not resolve, or
its port refuses connections, found by this crawl or remembered from an earlier
one) is not requested, and one waiting on a host when it is found dead stops
waiting at once: ``unfetched``, reason ``no_such_name`` or ``refused``.

Counted: ``webrobot/extract/images/described``,
``webrobot/extract/images/<error>`` and ``webrobot/extract/images/unfetched/<reason>``;
the first of each is logged.
"""

from __future__ import annotations

import asyncio
import logging
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Self

from scrapy.exceptions import IgnoreRequest
from scrapy.http.request import NO_CALLBACK
from scrapy.utils.asyncio import call_later
from scrapy.utils.defer import deferred_from_coro, maybe_deferred_to_future
from twisted.internet.defer import (
    CancelledError,
    Deferred,
    DeferredList,
    DeferredSemaphore,
)
from twisted.internet.threads import deferToThread
from twisted.python.failure import Failure

from webrobot import signals as webrobot_signals
from webrobot.extract.imagehashing import MISSING_LIBRARY, ImageRefused, describe_image
from webrobot.optional import installed
from webrobot.pages.embeds import embed_request
from webrobot.settingsmodel.parse import read
from webrobot.urls.deadhosts import DeadHosts

if TYPE_CHECKING:
    from scrapy import Request
    from scrapy.crawler import Crawler
    from scrapy.http import Response

logger = logging.getLogger(__name__)

STATS_PREFIX = "webrobot/extract/images/"
#: Descriptions kept by URL (a logo on every page is fetched once).
CACHE_SIZE = 10_000
KIND = "image"
#: Outcomes not remembered by URL: the network may answer next time.
_TRANSIENT = frozenset({"download_error", "refused"})
#: Request meta: the refusal reasons the crawl gave this image's request (a list).
_REFUSALS = "_webrobot_image_refusals"


#: Images of one page fetched at once (a browser opens about six connections a host).
AT_ONCE = 6
#: Share of ``CONCURRENT_REQUESTS`` the images of all pages may take at once: an image
#: awaited is a request in flight for the engine, and pages must keep their places.
CRAWL_SHARE = 0.5
#: ``status`` of an image entry: described, failed (with an ``error``), or not
#: fetched in time or on a dead host (with a ``reason``).
DESCRIBED = "described"
FAILED = "failed"
UNFETCHED = "unfetched"
#: ``reason`` of an image not fetched within ``WEBROBOT_IMAGES_WAIT_MAX``.
TIMEOUT = "timeout"


@dataclass(eq=False)
class _Fetch:
    """One image of a page being fetched and described."""

    index: int
    image: dict[str, Any]
    url: str
    deferred: Deferred[Any] | None = None
    #: Fired when the fetch ends or is cut, whichever comes first: the wait ends then,
    #: even if a download does not stop at once when cancelled.
    settled: Deferred[None] = field(default_factory=Deferred)
    result: dict[str, Any] | None = None
    #: Why it was stopped before it ended (``timeout``, ``no_such_name``, ``refused``).
    cut: str | None = None


@dataclass(eq=False)
class _Download:
    """One image URL being fetched and described, for every page that shows it: a
    logo on every page is downloaded once even while pages are mined side by side."""

    deferred: Deferred[dict[str, Any]]
    #: What each page waiting on it awaits; the download is cancelled when the last
    #: of them stops waiting.
    followers: list[Deferred[dict[str, Any]]] = field(default_factory=list)


def _settled(fetch: _Fetch) -> None:
    if not fetch.settled.called:
        fetch.settled.callback(None)


class ImageFetcher:
    def __init__(self, crawler: Crawler) -> None:
        self.crawler = crawler
        assert crawler.stats is not None
        self.stats = crawler.stats
        settings = crawler.settings
        self.max_bytes = read(settings, "WEBROBOT_IMAGE_MAX_BYTES")
        self.max_pixels = read(settings, "WEBROBOT_IMAGE_MAX_PIXELS")
        self.per_page = read(settings, "WEBROBOT_IMAGES_PER_PAGE")
        self.wait_max = read(settings, "WEBROBOT_IMAGES_WAIT_MAX")
        total = read(settings, "CONCURRENT_REQUESTS")
        self._crawl_gate = DeferredSemaphore(max(1, int(total * CRAWL_SHARE)) if total > 0 else 64)
        self._cache: OrderedDict[str, dict[str, Any]] = OrderedDict()
        self.available = all(installed(m) for m in ("PIL", "imagehash"))
        self._told: set[str] = set()
        #: The fetches of every page not settled yet.
        self._pending: dict[int, _Fetch] = {}
        #: Image URL -> its download under way.
        self._downloads: dict[str, _Download] = {}
        self.dead = DeadHosts.of(crawler)
        self.dead.listen(self._host_dead)
        crawler.signals.connect(self._request_refused, signal=webrobot_signals.request_refused)

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> Self:
        return cls(crawler)

    def _request_refused(self, request: Request, reason: str, site: str) -> None:
        holder = request.meta.get(_REFUSALS)
        if isinstance(holder, list):  # shared by the request and its redirects
            holder.append(reason)

    async def describe(
        self, images: list[dict[str, Any]], page_url: str | None = None
    ) -> list[dict[str, Any]]:
        """``images`` (from :func:`webrobot.extract.images.page_images`) each with a
        ``status``: ``described`` with ``format``, ``bytes``, ``width``, ``height``
        (the image's own) and ``phash`` added, ``failed`` with an ``error``, or
        ``unfetched`` with a ``reason`` (not fetched within ``WEBROBOT_IMAGES_WAIT_MAX``,
        or its host is dead); ``page_url`` is sent as the Referer. Up to
        :data:`AT_ONCE` images of a page are fetched at a time, and the images of all
        pages take at most :data:`CRAWL_SHARE` of ``CONCURRENT_REQUESTS``."""
        out: list[dict[str, Any] | None] = [None] * len(images)
        fetches: list[_Fetch] = []
        gate = DeferredSemaphore(AT_ONCE)
        for index, image in enumerate(images):
            if self.per_page and index >= self.per_page:
                out[index] = self._failed(
                    image, "page_cap", f"over {self.per_page} images on a page"
                )
                continue
            url = str(image.get("url") or "")
            ready = self._ready(image, url)
            if ready is not None:
                out[index] = ready
                continue
            fetch = _Fetch(index, image, url)
            self._pending[id(fetch)] = fetch
            fetch.deferred = gate.run(self._start, fetch, page_url)
            fetches.append(fetch)
        if fetches:
            await self._settle(fetches)
        for fetch in fetches:
            out[fetch.index] = fetch.result
        return [entry for entry in out if entry is not None]

    def _ready(self, image: dict[str, Any], url: str) -> dict[str, Any] | None:
        """The image's entry without fetching it: known by URL, or on a dead host."""
        known = self._cache.get(url)
        if known is not None:
            self._cache.move_to_end(url)
            self.stats.inc_value(STATS_PREFIX + (known.get("error", "cached")))
            return {**image, **known}
        reason = self.dead.skip(url)
        if reason is not None:
            return self._unfetched(image, reason)
        return None

    def _start(self, fetch: _Fetch, page_url: str | None) -> Deferred[dict[str, Any]]:
        return self._crawl_gate.run(
            lambda: deferred_from_coro(self._describe_one(fetch.image, page_url))
        )

    async def _settle(self, fetches: list[_Fetch]) -> None:
        """Wait for ``fetches``, at most ``wait_max`` seconds; those cut are unfetched."""

        def done(result: dict[str, Any], fetch: _Fetch) -> None:
            if fetch.cut is None:
                fetch.result = result
            _settled(fetch)

        def failed(failure: Failure, fetch: _Fetch) -> None:
            if fetch.cut is None:  # not stopped by us: a bug's error is this image's
                fetch.result = self._failed(
                    fetch.image, "download_error", failure.getErrorMessage()
                )
            _settled(fetch)

        for fetch in fetches:
            assert fetch.deferred is not None
            fetch.deferred.addCallbacks(done, failed, callbackArgs=(fetch,), errbackArgs=(fetch,))
        timer = (
            call_later(self.wait_max, self._cut, fetches, TIMEOUT) if self.wait_max > 0 else None
        )
        try:
            await maybe_deferred_to_future(DeferredList([f.settled for f in fetches]))
        finally:
            if timer is not None:
                timer.cancel()
            for fetch in fetches:
                self._pending.pop(id(fetch), None)
        for fetch in fetches:
            if fetch.result is None:
                reason = fetch.cut or TIMEOUT
                if reason == TIMEOUT:  # its host may have been found dead meanwhile
                    host = self.dead.lookup(fetch.url)
                    reason = host.reason if host is not None else reason
                fetch.result = self._unfetched(fetch.image, reason)

    def _cut(self, fetches: list[_Fetch], reason: str) -> None:
        for fetch in fetches:
            if fetch.result is None and fetch.cut is None and fetch.deferred is not None:
                fetch.cut = reason
                _settled(fetch)
                fetch.deferred.cancel()

    def _host_dead(self, url: str, reason: str) -> None:
        """A host was found dead: stop waiting for the images on it."""
        for fetch in list(self._pending.values()):
            host = self.dead.lookup(fetch.url)
            if host is not None:
                self._cut([fetch], host.reason)

    def _unfetched(self, image: dict[str, Any], reason: str) -> dict[str, Any]:
        self.stats.inc_value(STATS_PREFIX + UNFETCHED)
        self.stats.inc_value(f"{STATS_PREFIX}{UNFETCHED}/{reason}")
        key = f"{UNFETCHED}/{reason}"
        if key not in self._told:
            self._told.add(key)
            logger.info(
                "Image not fetched (%s), first: %s; the item lists it as unfetched, further "
                "ones are counted in %s%s", reason, str(image.get("url") or "")[:200],
                STATS_PREFIX, key,
            )  # fmt: skip
        return {**image, "status": UNFETCHED, "reason": reason}

    def _follow(self, url: str, page_url: str | None) -> Deferred[dict[str, Any]]:
        """The description of ``url``, from its download under way or a new one."""
        download = self._downloads.get(url)
        if download is None:
            download = _Download(deferred_from_coro(self._fetch_and_describe(url, page_url)))
            self._downloads[url] = download
            download.deferred.addBoth(self._landed, url, download)

        def stop(follower: Deferred[dict[str, Any]]) -> None:
            if follower in download.followers:
                download.followers.remove(follower)
            if not download.followers and not download.deferred.called:
                download.deferred.cancel()

        follower: Deferred[dict[str, Any]] = Deferred(canceller=stop)
        download.followers.append(follower)
        return follower

    def _landed(self, result: Any, url: str, download: _Download) -> None:
        if self._downloads.get(url) is download:
            del self._downloads[url]
        if isinstance(result, dict):
            # Kept before any follower resumes: a page whose turn comes in between
            # finds the description instead of starting a second download.
            self._keep(url, result)
        followers, download.followers = download.followers, []
        for follower in followers:
            if not follower.called:
                if isinstance(result, Failure):
                    follower.errback(result)
                else:
                    follower.callback(result)

    async def _describe_one(self, image: dict[str, Any], page_url: str | None) -> dict[str, Any]:
        url = str(image.get("url") or "")
        # Its turn may come after another page's download of the same image landed.
        ready = self._ready(image, url)
        if ready is not None:
            return ready
        fields = await maybe_deferred_to_future(self._follow(url, page_url))
        if fields.get("status") == UNFETCHED:
            return self._unfetched(image, str(fields.get("reason")))
        if "error" in fields:
            self.stats.inc_value(STATS_PREFIX + fields["error"])
        else:
            self.stats.inc_value(STATS_PREFIX + "described")
        return {**image, **fields}

    def _keep(self, url: str, fields: dict[str, Any]) -> None:
        """Keeps a download's description by URL; an unfetched one, or one failed for a
        reason that may pass, is tried again when another page shows it."""
        if fields.get("status") == UNFETCHED or fields.get("error") in _TRANSIENT:
            return
        self._cache[url] = fields
        if len(self._cache) > CACHE_SIZE:
            self._cache.popitem(last=False)

    def _failed(self, image: dict[str, Any], reason: str, detail: str) -> dict[str, Any]:
        self.stats.inc_value(STATS_PREFIX + reason)
        self._tell(reason, str(image.get("url") or ""), detail)
        return {**image, "status": FAILED, "error": reason}

    def _tell(self, reason: str, url: str, detail: str) -> None:
        if reason in self._told:
            return
        self._told.add(reason)
        logger.info(
            "Image not described (%s), first: %s (%s); further ones are counted",
            reason, url[:200], detail,
        )  # fmt: skip

    def _error(self, reason: str, url: str, detail: str) -> dict[str, Any]:
        self._tell(reason, url, detail)
        return {"status": FAILED, "error": reason}

    async def _fetch_and_describe(self, url: str, page_url: str | None) -> dict[str, Any]:
        if not self.available:
            return self._error(
                MISSING_LIBRARY, url, "needs Pillow and imagehash: pip install 'webrobot[images]'"
            )
        refusals: list[str] = []
        meta: dict[str, Any] = {_REFUSALS: refusals, "download_warnsize": 0}
        if self.max_bytes:
            meta["download_maxsize"] = self.max_bytes
        try:
            request = embed_request(url, KIND, referer=page_url, callback=NO_CALLBACK, meta=meta)
        except ValueError as exc:
            return self._error("bad_url", url, str(exc))
        engine = self.crawler.engine
        assert engine is not None
        try:
            response: Response = await engine.download_async(request)
        except (CancelledError, asyncio.CancelledError):
            raise  # stopped waiting for it (WEBROBOT_IMAGES_WAIT_MAX, or its host is dead)
        except IgnoreRequest as exc:
            if refusals:  # the filter that refused it logged it already
                return {"status": FAILED, "error": refusals[-1]}
            return self._error("refused", url, str(exc) or "refused")
        except Exception as exc:  # noqa: BLE001 - every download error is this image's error
            dead = self.dead.download_failed(url, exc)
            if dead is not None:
                return {"status": UNFETCHED, "reason": dead}
            name = type(exc).__name__
            reason = "too_large" if "Cancelled" in name else "download_error"
            return self._error(reason, url, f"{name}: {exc}"[:300])
        if response.status >= 400:
            return self._error("http_error", url, f"HTTP {response.status}")
        if "download_stopped" in response.flags:
            return self._error("too_large", url, "stopped at its headers")
        body = response.body
        try:
            described = await maybe_deferred_to_future(
                deferToThread(describe_image, body, self.max_pixels)
            )
        except ImageRefused as exc:
            return self._error(exc.reason, url, str(exc))
        return {
            "status": DESCRIBED,
            "format": described["format"],
            "bytes": len(body),
            "width": described["width"],
            "height": described["height"],
            "phash": described["phash"],
        }
