"""The item webrobot yields: one per fetched HTML page (consumed through itemadapter)."""

from __future__ import annotations

from dataclasses import dataclass, field


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
