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

An image that was refused or failed keeps its markup fields and gets an
``error`` (the refusal's reason: ``robots_txt``, ``offsite``, ``blocklist``...;
or ``http_error``, ``too_large``, ``download_error``, ``not_an_image``,
``vector_image`` (SVG), ``damaged``, ``too_many_pixels``, ``page_cap``, ``bad_url``, ``missing_library``).
Counted: ``webrobot/extract/images/described`` and
``webrobot/extract/images/<error>``; the first of each error is logged.
"""

from __future__ import annotations

import importlib.util
import logging
from collections import OrderedDict
from typing import TYPE_CHECKING, Any, Self

from scrapy.exceptions import IgnoreRequest
from scrapy.http.request import NO_CALLBACK
from scrapy.utils.defer import maybe_deferred_to_future
from twisted.internet.threads import deferToThread

from webrobot import signals as webrobot_signals
from webrobot.extract.imagehashing import MISSING_LIBRARY, ImageRefused, describe_image
from webrobot.pages.embeds import embed_request
from webrobot.settingsmodel.parse import read

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


class ImageFetcher:
    def __init__(self, crawler: Crawler) -> None:
        self.crawler = crawler
        assert crawler.stats is not None
        self.stats = crawler.stats
        settings = crawler.settings
        self.max_bytes = read(settings, "WEBROBOT_IMAGE_MAX_BYTES")
        self.max_pixels = read(settings, "WEBROBOT_IMAGE_MAX_PIXELS")
        self.per_page = read(settings, "WEBROBOT_IMAGES_PER_PAGE")
        self._cache: OrderedDict[str, dict[str, Any]] = OrderedDict()
        self.available = all(importlib.util.find_spec(m) for m in ("PIL", "imagehash"))
        self._told: set[str] = set()
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
        """``images`` (from :func:`webrobot.extract.images.page_images`) each with
        ``format``, ``bytes``, ``width``, ``height`` (the image's own) and
        ``phash`` added, or an ``error``; ``page_url`` is sent as the Referer."""
        out = []
        for index, image in enumerate(images):
            if self.per_page and index >= self.per_page:
                out.append(
                    self._failed(image, "page_cap", f"over {self.per_page} images on a page")
                )
                continue
            out.append(await self._describe_one(image, page_url))
        return out

    async def _describe_one(self, image: dict[str, Any], page_url: str | None) -> dict[str, Any]:
        url = str(image.get("url") or "")
        known = self._cache.get(url)
        if known is not None:
            self._cache.move_to_end(url)
            self.stats.inc_value(STATS_PREFIX + (known.get("error", "cached")))
            return {**image, **known}
        fields = await self._fetch_and_describe(url, page_url)
        if "error" in fields:
            self.stats.inc_value(STATS_PREFIX + fields["error"])
        else:
            self.stats.inc_value(STATS_PREFIX + "described")
        if fields.get("error") in _TRANSIENT:
            return {**image, **fields}  # tried again when another page shows it
        self._cache[url] = fields
        if len(self._cache) > CACHE_SIZE:
            self._cache.popitem(last=False)
        return {**image, **fields}

    def _failed(self, image: dict[str, Any], reason: str, detail: str) -> dict[str, Any]:
        self.stats.inc_value(STATS_PREFIX + reason)
        self._tell(reason, str(image.get("url") or ""), detail)
        return {**image, "error": reason}

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
        return {"error": reason}

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
        except IgnoreRequest as exc:
            if refusals:  # the filter that refused it logged it already
                return {"error": refusals[-1]}
            return self._error("refused", url, str(exc) or "refused")
        except Exception as exc:  # noqa: BLE001 - every download error is this image's error
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
            "format": described["format"],
            "bytes": len(body),
            "width": described["width"],
            "height": described["height"],
            "phash": described["phash"],
        }
