"""End to end: a crawl follows links to PDFs, downloads them whole and yields an
item for each only when the mining asks for documents; otherwise they are
refused by their extension or stopped at their headers, as before. Judged by
what the server saw requested and by the items."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.crawling import INDEX_ON, run_crawl, scrapy_command
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


def test_hostile_documents_read_inside_a_crawl(tmp_path: Path) -> None:
    """read_document called from a crawl's thread pool, as the mining calls it: every
    hostile file is one counted reason, the crawl ends normally and the good
    document after them is read."""
    import io
    import json
    import os

    from tests.crawling import FAST_SETTINGS, scrapy_command
    from tests.pdfmaker import bomb_pdf

    pypdf = pytest.importorskip("pypdf")
    pytest.importorskip("pypdfium2")
    writer = pypdf.PdfWriter(clone_from=io.BytesIO(text_pdf(["secret"])))
    writer.encrypt("password", algorithm="RC4-128")
    encrypted = io.BytesIO()
    writer.write(encrypted)
    truncated = text_pdf([f"page {i}" for i in range(40)], compress=True)
    files = {
        "/bomb.pdf": bomb_pdf(64 << 20),
        "/encrypted.pdf": encrypted.getvalue(),
        "/random.pdf": b"%PDF-1.7\n" + os.urandom(20_000),
        "/truncated.pdf": truncated[: len(truncated) // 3],
        "/good.pdf": PDF,
    }
    site = SiteServer("docs")
    for path, body in files.items():
        site.add(path, Reply(200, body, {"Content-Type": "application/pdf"}))
    out = tmp_path / "docs.jsonl"
    settings = {**FAST_SETTINGS, "LOG_FILE": str(tmp_path / "crawl.log"),
                "WEBROBOT_STATS_FILE": str(tmp_path / "stats.json"),
                "WEBROBOT_DOCUMENT_MAX_INFLATED_MB": "16", "CONCURRENT_REQUESTS": "2"}  # fmt: skip
    with site:
        start = ",".join(site.url(path) for path in files)
        args = ["runspider", "tests/documentspider.py", "-a", f"start={start}", "-O", str(out)]
        for name, value in settings.items():
            args += ["-s", f"{name}={value}"]
        result = scrapy_command(*args, timeout=120)
    assert result.returncode == 0, result.stderr[-3000:]
    items = {
        item["url"].rsplit("/", 1)[1]: item
        for item in map(json.loads, out.read_text().splitlines())
    }
    assert items["bomb.pdf"]["error"] == "bomb"
    assert items["encrypted.pdf"]["error"] == "encrypted"
    assert items["random.pdf"]["error"] == "damaged"
    assert items["truncated.pdf"].get("error", "damaged") == "damaged"
    assert items["good.pdf"]["main_text"] == "Annual report text"
    assert items["good.pdf"]["metadata"]["title"] == "Annual Report"
    assert all(item["seconds"] < 30 for item in items.values())
    stats = json.loads((tmp_path / "stats.json").read_text())
    for reason in ("bomb", "encrypted", "damaged"):
        assert stats[f"webrobot/extract/documents/{reason}"] >= 1
    log = (tmp_path / "crawl.log").read_text()
    assert "Traceback" not in log


def test_a_linked_reports_words_are_found_by_search(
    make_site: Callable[..., SiteServer], tmp_path: Path
) -> None:
    """The whole path a user takes: a page links a PDF report; the crawl reads it and
    indexes its text; ``scrapy search`` finds a word that stands only inside the PDF."""
    site = make_site("reports")
    site.html("/", "<title>Investors</title><p>Our results.</p><a href='/ar2026.pdf'>report</a>")
    report = text_pdf(["Revenue grew in the quinquennial review period"], title="Annual Report")
    site.add("/ar2026.pdf", Reply(200, report, {"Content-Type": "application/pdf"}))
    site.start()
    index = tmp_path / "index"
    result = run_crawl(
        tmp_path,
        args={"start_urls": site.url("/")},
        settings={"WEBROBOT_EXTRACT": "documents", **INDEX_ON, "WEBROBOT_INDEX": str(index)},
    )
    assert result.returncode == 0, result.stderr[-2000:]
    item = {i["url"]: i for i in result.items}[site.url("/ar2026.pdf")]
    assert "quinquennial" in item["main_text"]
    assert item["title"] == "Annual Report" and item["metadata"]["pages"] == 1
    done = scrapy_command("search", "--index", str(index), "--json", "quinquennial")
    assert done.returncode == 0, done.stderr
    hits = [json.loads(line) for line in done.stdout.splitlines()]
    assert [hit["url"] for hit in hits] == [site.url("/ar2026.pdf")]
    assert hits[0]["title"] == "Annual Report"
