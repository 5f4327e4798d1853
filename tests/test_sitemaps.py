"""Sitemap entries (pure) and reading sitemap files with Scrapy's helpers."""

from __future__ import annotations

import gzip

import pytest

from webrobot.sitemaps.entries import (
    MAX_BYTES,
    MAX_URLS,
    SitemapEntry,
    entry_from,
    parse_lastmod,
    parse_priority,
)
from webrobot.sitemaps.reader import (
    BAD_GZIP,
    BAD_XML,
    INDEX,
    NOT_A_SITEMAP,
    TOO_BIG,
    URLSET,
    read_sitemap,
)

NS = 'xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"'


def urlset(*entries: str) -> bytes:
    return (
        f"<?xml version='1.0' encoding='UTF-8'?><urlset {NS}>{''.join(entries)}</urlset>".encode()
    )


def url(loc: str, extra: str = "") -> str:
    return f"<url><loc>{loc}</loc>{extra}</url>"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("2026-11-24", 1795478400.0),
        ("2026-11-24T01:00:00Z", 1795482000.0),
        ("2026-11-24T02:00:00+01:00", 1795482000.0),
        ("yesterday", None),
        ("", None),
        (None, None),
    ],
)
def test_lastmod(text: str | None, expected: float | None) -> None:
    assert parse_lastmod(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [("0.8", 0.8), ("1", 1.0), ("1.5", None), ("-1", None), ("nan", None), ("x", None)],
)
def test_priority(text: str, expected: float | None) -> None:
    assert parse_priority(text) == expected


def test_entry_fields() -> None:
    entry = entry_from(
        {
            "loc": " http://a.test/x ",
            "lastmod": "2026-11-24",
            "changefreq": "Daily",
            "priority": "0.9",
        }
    )
    assert entry == SitemapEntry("http://a.test/x", 1795478400.0, 86400.0, 0.9)
    assert entry.meta() == {
        "sitemap_lastmod": 1795478400.0,
        "sitemap_changefreq": 86400.0,
        "sitemap_priority": 0.9,
    }
    assert entry_from({"lastmod": "2026-11-24"}) is None
    assert entry_from({"loc": "http://a.test/", "changefreq": "sometimes"}) == SitemapEntry(
        "http://a.test/"
    )


def test_urlset_and_index() -> None:
    read = read_sitemap(
        urlset(url("http://a.test/1", "<priority>0.3</priority>"), url("http://a.test/2"))
    )
    assert read.kind == URLSET and not read.problem
    assert [(e.url, e.priority) for e in read.entries] == [
        ("http://a.test/1", 0.3),
        ("http://a.test/2", None),
    ]
    index = read_sitemap(
        f"<sitemapindex {NS}><sitemap><loc>http://a.test/s1.xml</loc></sitemap></sitemapindex>".encode()
    )
    assert index.kind == INDEX and [e.url for e in index.entries] == ["http://a.test/s1.xml"]


def test_gzip() -> None:
    read = read_sitemap(gzip.compress(urlset(url("http://a.test/z"))))
    assert [e.url for e in read.entries] == ["http://a.test/z"]
    assert read_sitemap(b"\x1f\x8b\x08garbage").problem == BAD_GZIP


@pytest.mark.parametrize(
    ("body", "problem"),
    [
        (b"", BAD_XML),
        (b"   ", BAD_XML),
        (b"\x00\x01not xml at all", BAD_XML),
        (b"<html><body>a page</body></html>", NOT_A_SITEMAP),
        (b"<urlset><url><loc>", BAD_XML),
        (b"<?xml version='1.0'?><rss><channel/></rss>", NOT_A_SITEMAP),
    ],
)
def test_bad_files_are_named_not_raised(body: bytes, problem: str) -> None:
    assert read_sitemap(body).problem == problem


def test_entity_expansion_is_not_followed() -> None:
    body = (
        b'<?xml version="1.0"?><!DOCTYPE x [<!ENTITY e SYSTEM "file:///etc/passwd">]>'
        b"<urlset><url><loc>http://a.test/&e;</loc></url></urlset>"
    )
    read = read_sitemap(body)
    assert all("root:" not in e.url for e in read.entries)


def test_protocol_limit_of_50000_urls() -> None:
    assert MAX_URLS == 50_000
    body = urlset(*(url(f"http://a.test/{i}") for i in range(MAX_URLS + 1)))
    read = read_sitemap(body)
    assert len(read.entries) == MAX_URLS and read.truncated
    assert read.entries[-1].url == f"http://a.test/{MAX_URLS - 1}"
    small = read_sitemap(urlset(*(url(f"http://a.test/{i}") for i in range(3))), max_urls=3)
    assert len(small.entries) == 3 and not small.truncated


def test_protocol_limit_of_50_mb_uncompressed() -> None:
    assert MAX_BYTES == 50 * 1024 * 1024
    padding = "<!--" + " " * (MAX_BYTES + 10) + "-->"
    bomb = gzip.compress(urlset(url("http://a.test/1"), padding), compresslevel=1)
    assert len(bomb) < MAX_BYTES // 100
    assert read_sitemap(bomb).problem == TOO_BIG
    assert read_sitemap(urlset(url("http://a.test/1")), max_bytes=50).problem == TOO_BIG


def test_missing_loc_is_skipped() -> None:
    read = read_sitemap(
        urlset(
            "<url><loc> </loc></url>",
            "<url><lastmod>2026-01-01</lastmod></url>",
            url("http://a.test/ok"),
        )
    )
    assert [e.url for e in read.entries] == ["http://a.test/ok"] and read.skipped == 1


def test_recoverable_xml_keeps_what_was_read() -> None:
    read = read_sitemap(
        b"<urlset><url><loc>http://a.test/?a=1&b=2</loc></url><url><loc>http://b.test/</loc></url></urlset>"
    )
    assert not read.problem and read.xml_errors == 1
    assert [e.url for e in read.entries][-1] == "http://b.test/"
