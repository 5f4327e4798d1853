"""Which responses and links are documents, and the switch that makes a crawl take
them in (on only with documents among the mining's parts)."""

from __future__ import annotations

import pytest
from scrapy.exceptions import NotConfigured
from scrapy.utils.test import get_crawler

from webrobot.extract.documentintake import DocumentIntake
from webrobot.urls.documents import (
    accept_documents,
    documents_accepted,
    has_document_extension,
    is_document,
    is_document_type,
)


@pytest.mark.parametrize(
    ("url", "expected"),
    [
        ("http://a.test/report.pdf", True),
        ("http://a.test/dir/Report.PDF?download=1#page=2", True),
        ("http://a.test/report.pdf/", False),
        ("http://a.test/report.pdf.html", False),
        ("http://a.test/get?file=report.pdf", False),  # the query is not the path
        ("http://a.test/photo.png", False),
        ("http://[::1/x.pdf", False),  # no URL at all
    ],
)
def test_document_extension(url: str, expected: bool) -> None:
    assert has_document_extension(url) is expected


@pytest.mark.parametrize(
    ("mime", "body", "expected"),
    [
        ("application/pdf", b"", True),
        ("application/x-pdf", b"whatever", True),
        ("application/octet-stream", b"%PDF-1.7\n...", True),
        ("", b"\n\n%PDF-1.4", True),
        ("application/octet-stream", b"PK\x03\x04", False),
        ("text/html", b"%PDF-1.7", False),  # a declared type is believed
        ("image/png", b"%PDF-1.7", False),
    ],
)
def test_document_by_type_or_signature(mime: str, body: bytes, expected: bool) -> None:
    assert is_document(mime, body) is expected
    assert is_document_type("application/pdf") and not is_document_type("text/html")


@pytest.mark.parametrize("extract", [[], ["text", "images"], "metadata"])
def test_intake_off_without_documents(extract: object) -> None:
    crawler = get_crawler(settings_dict={"WEBROBOT_EXTRACT": extract})
    with pytest.raises(NotConfigured):
        DocumentIntake.from_crawler(crawler)
    assert documents_accepted(crawler) is None


@pytest.mark.parametrize("extract", [["documents"], "text,documents", ["all"]])
def test_intake_on_with_documents(extract: object) -> None:
    crawler = get_crawler(
        settings_dict={"WEBROBOT_EXTRACT": extract, "WEBROBOT_DOCUMENT_MAX_BYTES": 1234}
    )
    DocumentIntake.from_crawler(crawler)
    assert documents_accepted(crawler) == 1234
    other = get_crawler()
    assert documents_accepted(other) is None, "one crawl's switch is its own"
    accept_documents(other, 0)
    assert documents_accepted(other) == 0
