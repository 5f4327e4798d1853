"""The switch that makes a crawl take documents in, when the mining asks for them.

An extension, on when ``documents`` is among the parts of ``WEBROBOT_EXTRACT``
(site config key ``extract``): it tells the link gate, the content-type gate and
the bundled spider (:mod:`webrobot.urls.documents`) to follow links to
documents, download them whole up to ``WEBROBOT_DOCUMENT_MAX_BYTES`` and yield
an item for each; the mining reads them (:func:`webrobot.extract.documents.read_document`).
Without it, a link to a PDF is refused by its extension and a PDF response is
stopped at its headers, as for any file that is not a page.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Self

from scrapy.exceptions import NotConfigured

from webrobot.settingsmodel.parse import read
from webrobot.urls.documents import accept_documents

if TYPE_CHECKING:
    from scrapy.crawler import Crawler

logger = logging.getLogger(__name__)


class DocumentIntake:
    """With documents in WEBROBOT_EXTRACT: links to PDFs followed, PDFs downloaded whole."""

    def __init__(self, crawler: Crawler) -> None:
        asked = read(crawler.settings, "WEBROBOT_EXTRACT")
        if not asked:
            raise NotConfigured("WEBROBOT_EXTRACT is empty")
        # The table of parts imports every extractor: only a crawl that mines pays for it.
        from webrobot.extract.parts import enabled_parts

        try:
            parts = enabled_parts(asked)
        except ValueError as exc:  # the mining's own middleware names the bad value
            raise NotConfigured(f"WEBROBOT_EXTRACT: {exc}") from None
        if "documents" not in parts:
            raise NotConfigured("documents are not among the parts of WEBROBOT_EXTRACT")
        max_bytes = read(crawler.settings, "WEBROBOT_DOCUMENT_MAX_BYTES")
        accept_documents(crawler, max_bytes)
        logger.info(
            "Following links to documents (PDF), up to %s each",
            f"{max_bytes} bytes" if max_bytes else "DOWNLOAD_MAXSIZE",
        )

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> Self:
        return cls(crawler)
