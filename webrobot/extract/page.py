"""The page an extractor reads: the crawl's parse of one response, nothing more.

Pure: no Scrapy, no I/O. The glue builds it once per response from the tree
Scrapy's selector already holds, so every extractor shares one parse.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True, slots=True)
class SourcePage:
    """One fetched page as extractors see it."""

    url: str
    #: The decoded HTML (``response.text``).
    html: str
    #: The lxml tree of ``html`` (``response.selector.root``); ``None`` when lxml refused it.
    root: Any = None
    #: Response headers, names in lower case, values decoded as latin-1 and joined by ", ".
    headers: Mapping[str, str] = field(default_factory=dict)
    #: The media type without parameters, lower case (``text/html``).
    content_type: str = "text/html"

    def header(self, name: str) -> str | None:
        return self.headers.get(name.lower())
