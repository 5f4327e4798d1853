"""The items webrobot yields: one per fetched HTML page (consumed through itemadapter).

A crawl that mines pages (``WEBROBOT_EXTRACT``, a site config's ``extract`` or
``[fields]``) yields :class:`~webrobot.extract.item.MinedPageItem`, the same item
with a field per mining part; a crawl that does not yields :class:`PageItem`, whose
fields are exactly those it always had, so its feeds do not change.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass
class PageItem:
    url: str
    status: int
    depth: int
    referer: str | None
    fetched_at: str  # ISO 8601, UTC, e.g. 2026-11-21T08:03:17Z
    content_type: str  # media type without parameters, lower case
    title: str | None
    md5: str  # hex MD5 of the body bytes as received
    meta_robots: list[str] = field(default_factory=list)
    body: str | None = None  # decoded body text, only with WEBROBOT_STORE_BODY; never if noarchive


def __getattr__(name: str) -> Any:
    """``MinedPageItem`` and ``MINED_FIELDS`` are made from the table of mining parts
    (:mod:`webrobot.extract.item`), imported only when a crawl mines."""
    if name in ("MinedPageItem", "MINED_FIELDS"):
        from webrobot.extract import item

        return getattr(item, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
