"""End to end: a crawl follows links to PDFs, downloads them whole and yields an
item for each only when the mining asks for documents; otherwise they are
refused by their extension or stopped at their headers, as before. Judged by
what the server saw requested and by the items."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from tests.crawling import run_crawl
from tests.pdfmaker import text_pdf
from webrobot.demo.server import Reply, SiteServer

pytestmark = pytest.mark.slow

PDF = text_pdf(["Annual report text"], title="Annual Report")
OTHER = text_pdf(["Served without an extension"])
BIG = text_pdf(["x" * 4000] * 30)


def documents_site(make_site: Callable[..., SiteServer]) -> SiteServer:
    site = make_site("docs")
    site.html(
        "/",
        "<title>home</title><a href='/report.pdf'>report</a> <a href='/get?id=7'>download</a>"
        "<a href='/huge.pdf'>huge</a> <a href='/photo.png'>photo</a> <a href='/page'>page</a>",
    )
    site.html("/page", "<title>page</title>")
    site.add("/report.pdf", Reply(200, PDF, {"Content-Type": "application/pdf"}))
    site.add("/get", Reply(200, OTHER, {"Content-Type": "application/pdf"}))  # no extension
    site.add("/huge.pdf", Reply(200, BIG, {"Content-Type": "application/pdf"}))
    site.add("/photo.png", Reply(200, b"\x89PNG\r\n\x1a\n", {"Content-Type": "image/png"}))
    site.start()
    return site


def test_documents_followed_when_asked(
    make_site: Callable[..., SiteServer], tmp_path: Path
) -> None:
    site = documents_site(make_site)
    result = run_crawl(
        tmp_path,
        args={"start_urls": site.url("/")},
        settings={
            "WEBROBOT_EXTRACT": "documents",
            "WEBROBOT_DOCUMENT_MAX_BYTES": str(len(BIG) - 1),
        },
    )
    assert result.returncode == 0, result.stderr
    seen = site.targets()
    assert seen.count("/report.pdf") == 1
    assert seen.count("/get?id=7") == 1
    assert "/photo.png" not in seen, "other binary extensions are still refused"
    items = {item["url"]: item for item in result.items}
    for path in ("/report.pdf", "/get?id=7"):
        item = items[site.url(path)]
        assert item["content_type"] == "application/pdf"
        assert item["status"] == 200
        assert len(item["md5"]) == 32
    assert site.url("/huge.pdf") not in items, "over the document size cap"
    assert result.stat("webrobot/page/document") == 2
    assert result.stat("webrobot/download/stopped/too_large") == 1
    assert result.stat("webrobot/url/refused/binary_extension") == 1
    assert "Traceback" not in result.log


def test_documents_refused_as_before_without_the_part(
    make_site: Callable[..., SiteServer], tmp_path: Path
) -> None:
    site = documents_site(make_site)
    result = run_crawl(tmp_path, args={"start_urls": site.url("/")})
    assert result.returncode == 0, result.stderr
    seen = site.targets()
    assert not {"/report.pdf", "/huge.pdf", "/photo.png"} & set(seen)
    assert result.stat("webrobot/url/refused/binary_extension") == 3
    # found only by its type: stopped at its headers, no item
    assert result.stat("webrobot/download/stopped/type") == 1
    assert sorted(result.item_urls()) == [site.url("/"), site.url("/page")]
    assert result.stat("webrobot/page/document") == 0
