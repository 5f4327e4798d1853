"""Documents (PDFs) as the crawl meets them: which types and link extensions
are documents, and whether this crawl takes them in. No Scrapy, no I/O.

A crawl takes documents in when the mining asks for them (``documents`` in
``WEBROBOT_EXTRACT`` or a site config's ``extract``): the mining's switch
(:mod:`webrobot.extract.documentintake`, a floor above) calls
:func:`accept_documents` when the crawl starts, and the link gate, the
content-type gate and the spider, down here, ask :func:`documents_accepted`:
a link with a document extension is followed (not refused as
``binary_extension``), a response declaring a document type is downloaded
whole up to the document size cap, and the spider yields an item for it.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit

from webrobot.wiring import Key, find_per_crawler, set_per_crawler

#: Media types of the documents webrobot reads (PDF).
DOCUMENT_TYPES = frozenset({"application/pdf", "application/x-pdf", "application/acrobat"})
#: Path extensions of links to them.
DOCUMENT_EXTENSIONS = (".pdf",)
#: Types that say nothing: a body with a PDF signature is a document.
_GENERIC = frozenset({"", "application/octet-stream", "binary/octet-stream", "application/download",
                      "application/force-download", "application/unknown"})  # fmt: skip

#: The crawl's document size cap, set when it takes documents in.
_ACCEPTED = Key[int]("webrobot.pages.documents.accepted")


def is_document_type(mime: str) -> bool:
    """Whether a media type (without parameters, lower case) is a document's."""
    return mime in DOCUMENT_TYPES


def is_document(mime: str, body: bytes) -> bool:
    """A document by its declared type, or by its signature under a generic type."""
    return mime in DOCUMENT_TYPES or (mime in _GENERIC and b"%PDF-" in body[:1024])


def has_document_extension(url: str) -> bool:
    """Whether the path of ``url`` ends with a document extension (``/a/Report.PDF``)."""
    try:
        path = urlsplit(url).path
    except ValueError:
        return False
    return path.lower().endswith(DOCUMENT_EXTENSIONS)


def accept_documents(crawler: Any, max_bytes: int) -> None:
    """Have ``crawler`` follow and download documents of up to ``max_bytes`` (0: no cap
    of their own)."""
    set_per_crawler(crawler, _ACCEPTED, max_bytes)


def documents_accepted(crawler: Any) -> int | None:
    """The document size cap when ``crawler`` takes documents in (0: none of its own),
    ``None`` when it does not."""
    return find_per_crawler(crawler, _ACCEPTED)
