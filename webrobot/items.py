"""The items webrobot yields: one per fetched HTML page (consumed through itemadapter).

A crawl that mines pages (``WEBROBOT_EXTRACT``, a site config's ``extract`` or
``[fields]``) yields :class:`MinedPageItem`, the same item with what the page
says; a crawl that does not yields :class:`PageItem`, whose fields are exactly
those it always had, so its feeds do not change.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields
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


#: Item key of each part of ``WEBROBOT_EXTRACT`` (documents fill main_text and metadata).
MINED_FIELDS = (
    "main_text",
    "metadata",
    "structured_data",
    "product",
    "fields",
    "images",
    "main_markdown",
)


@dataclass
class MinedPageItem(PageItem):
    """A :class:`PageItem` with what the page says; ``None``: not asked, or nothing found."""

    main_text: str | None = None
    metadata: dict[str, Any] | None = None
    structured_data: dict[str, Any] | None = None
    product: dict[str, Any] | None = None
    fields: dict[str, Any] | None = None
    images: list[dict[str, Any]] | None = None
    main_markdown: str | None = None

    @classmethod
    def of(cls, item: PageItem) -> MinedPageItem:
        """``item`` as a mined item (its own fields copied, none mined yet)."""
        return cls(**{f.name: getattr(item, f.name) for f in fields(PageItem)})
