"""What a sitemap entry says about a URL, checked. Pure logic: no Scrapy, no I/O.

The XML itself is read by Scrapy's :class:`scrapy.utils.sitemap.Sitemap`
(in :mod:`webrobot.sitemaps.reader`); this module turns one entry's text fields
into checked values: ``lastmod`` (W3C datetime) as a Unix time, ``changefreq``
as seconds, ``priority`` as a number from 0.0 to 1.0.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC, datetime

#: The sitemaps protocol's limits for one file: URLs, and bytes uncompressed.
MAX_URLS = 50_000
MAX_BYTES = 50 * 1024 * 1024

#: changefreq -> seconds between changes ("always" and "never" are bounds, not intervals).
CHANGEFREQ_SECONDS = {
    "always": 0.0,
    "hourly": 3600.0,
    "daily": 86400.0,
    "weekly": 7 * 86400.0,
    "monthly": 30 * 86400.0,
    "yearly": 365 * 86400.0,
    "never": float("inf"),
}
DEFAULT_PRIORITY = 0.5


@dataclass(frozen=True)
class SitemapEntry:
    url: str
    lastmod: float | None = None  # Unix time
    changefreq: float | None = None  # seconds
    priority: float | None = None  # 0.0 .. 1.0

    def meta(self) -> dict[str, float]:
        """The request meta keys that carry this entry's hints."""
        out: dict[str, float] = {}
        if self.lastmod is not None:
            out["sitemap_lastmod"] = self.lastmod
        if self.changefreq is not None:
            out["sitemap_changefreq"] = self.changefreq
        if self.priority is not None:
            out["sitemap_priority"] = self.priority
        return out


def parse_lastmod(text: str | None) -> float | None:
    """A W3C datetime (``2026-11-24``, ``2026-11-24T10:00:00+01:00``, ``...Z``) as a
    Unix time; ``None`` if absent or unreadable (a date without a zone is UTC)."""
    if not text:
        return None
    text = text.strip()
    if text.endswith(("Z", "z")):
        text = text[:-1] + "+00:00"
    try:
        moment = datetime.fromisoformat(text)
    except ValueError:
        return None
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return moment.timestamp()


def parse_priority(text: str | None) -> float | None:
    if not text:
        return None
    try:
        value = float(text.strip())
    except ValueError:
        return None
    if math.isnan(value) or not 0.0 <= value <= 1.0:
        return None
    return value


def parse_changefreq(text: str | None) -> float | None:
    return CHANGEFREQ_SECONDS.get((text or "").strip().lower())


def entry_from(fields: Mapping[str, object]) -> SitemapEntry | None:
    """A checked entry from Scrapy's dict for one ``<url>`` (``None`` without a ``loc``)."""
    loc = fields.get("loc")
    if not isinstance(loc, str) or not loc.strip():
        return None

    def text(name: str) -> str | None:
        value = fields.get(name)
        return value if isinstance(value, str) else None

    return SitemapEntry(
        url=loc.strip(),
        lastmod=parse_lastmod(text("lastmod")),
        changefreq=parse_changefreq(text("changefreq")),
        priority=parse_priority(text("priority")),
    )
