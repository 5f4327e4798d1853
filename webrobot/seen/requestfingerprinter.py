"""Request fingerprints from canonical URLs (``REQUEST_FINGERPRINTER_CLASS``),
so Scrapy's duplicate filter downloads each alias of a page once.

Like Scrapy's default fingerprinter (method, canonical URL, body; headers
ignored; the ``verbatim_url`` meta key skips canonicalisation), but the URL is
:mod:`webrobot.urls.canonical`'s form with the spider's site-config alias rules
(``index_pages``, ``strip_params``) and without a default port. The
fingerprint is the 20-byte SHA-1 of ``METHOD URL\\nBODY``; the duplicate filter
only compares fingerprints, so it need not equal Scrapy's bytes.

(What makes two downloaded *pages* the same is :mod:`webrobot.seen.contentfingerprints`.)
"""

from __future__ import annotations

import hashlib
from typing import TYPE_CHECKING
from weakref import WeakKeyDictionary

from webrobot.urls.canonical import Canonicalizer, canonicalizer_for

if TYPE_CHECKING:
    from typing import Self

    from scrapy import Request
    from scrapy.crawler import Crawler


class CanonicalRequestFingerprinter:
    def __init__(self, crawler: Crawler | None = None) -> None:
        self.crawler = crawler
        self._canonicalizer: Canonicalizer | None = None
        self._cache: WeakKeyDictionary[Request, bytes] = WeakKeyDictionary()

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> Self:
        return cls(crawler)

    @property
    def canonicalizer(self) -> Canonicalizer:
        """The spider's alias rules (compiled once, when the spider exists)."""
        if self._canonicalizer is None:
            spider = self.crawler.spider if self.crawler is not None else None
            if spider is None:
                return canonicalizer_for(None)
            self._canonicalizer = canonicalizer_for(getattr(spider, "config", None))
        return self._canonicalizer

    def canonical_url(self, request: Request) -> str:
        if request.meta.get("verbatim_url"):
            return request.url
        return self.canonicalizer(request.url)

    def fingerprint(self, request: Request) -> bytes:
        cached = self._cache.get(request)
        if cached is None:
            data = f"{request.method} {self.canonical_url(request)}\n".encode() + (
                request.body or b""
            )
            cached = self._cache[request] = hashlib.sha1(data, usedforsecurity=False).digest()
        return cached

    def url_fingerprint(self, url: str) -> bytes:
        """The fingerprint of ``Request(url)`` (GET, no body, no meta), without building the request."""
        data = f"GET {self.canonicalizer(url)}\n".encode()
        return hashlib.sha1(data, usedforsecurity=False).digest()

    def remember(self, request: Request, fingerprint: bytes) -> None:
        """``request``'s fingerprint, computed already by :meth:`url_fingerprint`."""
        self._cache[request] = fingerprint
