"""What a response is, by what its headers declare; and whether its text was
decoded right. Pure logic: no Scrapy, no I/O.

The declared ``Content-Type`` decides: ``text/html`` and
``application/xhtml+xml`` are pages, any other declared type is not (a PDF, an
image, a saved ``message/rfc822`` page is never read as HTML because its bytes
happen to look like markup). Only a missing or generic type
(``application/octet-stream`` and the like) leaves the decision to sniffing.
"""

from __future__ import annotations

HTML_TYPES = frozenset({"text/html", "application/xhtml+xml"})
#: Types that say nothing: the body is sniffed.
GENERIC_TYPES = frozenset({
    "", "application/octet-stream", "binary/octet-stream", "application/unknown", "unknown/unknown",
    "application/x-unknown-content-type", "*/*", "application/download", "application/force-download",
})  # fmt: skip

HTML = "html"
OTHER = "other"
GENERIC = "generic"


def mime_type(content_type: str | None) -> str:
    """``'Text/HTML; charset=utf-8'`` -> ``'text/html'``."""
    return (content_type or "").split(";", 1)[0].strip().lower()


def declared_kind(content_type: str | None) -> str:
    """:data:`HTML`, :data:`OTHER` or :data:`GENERIC` (sniff the body)."""
    mime = mime_type(content_type)
    if mime in HTML_TYPES:
        return HTML
    if mime in GENERIC_TYPES or "/" not in mime:
        return GENERIC
    return OTHER


def badly_decoded(text: str, body: bytes) -> bool:
    """Whether ``text`` (``body`` decoded with the declared charset) is not what
    the body says: the bytes hold markup the text lacks, or one character in
    fifty is a replacement character."""
    sample = text[:8192]
    if sample.count("\ufffd") * 50 > max(len(sample), 1):
        return True
    head = body[:8192]
    return (b"<" in head and b">" in head) and "<" not in sample
