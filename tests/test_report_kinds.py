"""What each fetch was for (webrobot.report.kinds): table-driven, from request marks,
URLs and declared types."""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

from webrobot.report.kinds import KINDS, fetch_kind, kind_count, kinds_line
from webrobot.signals import REQUISITE_META, ROBOTS_FETCH_META, SITEMAP_META

PDF = b"%PDF-1.4\n..."


@pytest.mark.parametrize(
    ("meta", "url", "content_type", "body", "kind"),
    [
        ({}, "http://a/", None, b"", "page"),
        ({}, "http://a/x.html", "text/html; charset=utf-8", b"", "page"),
        ({ROBOTS_FETCH_META: "http://a:80"}, "http://a/robots.txt", "text/plain", b"", "robots"),
        # a robots.txt redirected to a page is still that site's robots.txt
        ({ROBOTS_FETCH_META: "http://a:80"}, "http://a/login", "text/html", b"", "robots"),
        ({REQUISITE_META: "image"}, "http://cdn/a.png", "image/png", b"", "image"),
        ({REQUISITE_META: "image"}, "http://cdn/a.png", None, b"", "image"),
        ({REQUISITE_META: "stylesheet"}, "http://a/s.css", "text/css", b"", "requisite"),
        ({SITEMAP_META: "robots"}, "http://a/sitemap.xml", "application/xml", b"", "sitemap"),
        # a document: by its extension before it answers, by its type once it does
        ({}, "http://a/Report.PDF", None, b"", "document"),
        ({}, "http://a/doc?id=3", "application/pdf", b"", "document"),
        ({}, "http://a/doc?id=3", b"application/pdf", b"", "document"),
        ({}, "http://a/download", "application/octet-stream", PDF, "document"),
        ({}, "http://a/report.pdf", "text/html", b"<html>", "page"),
        ({}, "http://a/image.png", "image/png", b"", "page"),  # the spider asked for it
        ({"webrobot_requisite": None}, "http://a/", None, b"", "page"),
    ],
)
def test_fetch_kind(
    meta: dict[str, Any], url: str, content_type: str | bytes | None, body: bytes, kind: str
) -> None:
    assert fetch_kind(meta, url, content_type, body) == kind
    assert kind in KINDS


def test_counts_are_said_as_people_read_them() -> None:
    assert kind_count("page", 1) == "1 page"
    assert kind_count("image", 20) == "20 images"
    assert kind_count("robots", 13) == "13 robots.txt"
    counts = Counter(robots=13, image=20, page=50, document=0, other=2)
    assert kinds_line(counts) == "50 pages, 20 images, 13 robots.txt, 2 other"
    assert kinds_line(counts, skip=("page",)) == "20 images, 13 robots.txt, 2 other"
    assert kinds_line({}) == ""
