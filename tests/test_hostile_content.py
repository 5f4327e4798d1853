"""Responses that are not pages, or not what they declare: the declared type
decides, unwanted bodies stop at their headers, a wrong charset and deep
markup lose no links. Judged by what the server saw requested."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from tests.crawling import run_crawl
from webrobot.demo.server import Reply, SiteServer
from webrobot.pages.contenttypes import GENERIC, HTML, OTHER, badly_decoded, declared_kind
from webrobot.pages.page import summarise_html_text

MIB = 1024 * 1024


def looks_like_html(link: str) -> bytes:
    return f"<html><title>x</title><a href='{link}'>x</a></html>".encode()


def build(site: SiteServer) -> None:
    site.add("/robots.txt", Reply.text("User-agent: *\nDisallow:\n"))
    targets = [
        "/doc.pdf",
        "/photo.png",
        "/image",
        "/saved",
        "/octet",
        "/big",
        "/utf16",
        "/cp500",
        "/deep",
    ]
    site.html("/", "<title>home</title>" + "".join(f"<a href='{t}'>{t}</a>" for t in targets))
    site.add("/doc.pdf", Reply(200, b"%PDF-1.4 " + b"0" * MIB, {"Content-Type": "application/pdf"}))
    site.add("/photo.png", Reply(200, b"\x89PNG", {"Content-Type": "image/png"}))
    # Bodies that look like HTML under a type that says otherwise: never read as pages.
    site.add(
        "/image",
        Reply(200, looks_like_html("/junk-image") + b"\x00" * 1000, {"Content-Type": "image/png"}),
    )
    site.add("/saved", Reply(200, looks_like_html("/junk-mht"), {"Content-Type": "message/rfc822"}))
    # A generic type: sniffed, and this one is a page.
    site.add(
        "/octet",
        Reply(200, looks_like_html("/sniffed"), {"Content-Type": "application/octet-stream"}),
    )
    site.html("/sniffed", "<title>sniffed</title>")
    # A page over DOWNLOAD_MAXSIZE (set to 1 MiB below): stopped at its headers.
    site.add(
        "/big",
        Reply(200, looks_like_html("/junk-big") + b" " * (2 * MIB), {"Content-Type": "text/html"}),
    )
    # Charsets that contradict the ASCII body.
    site.add(
        "/utf16",
        Reply(200, looks_like_html("/enc-utf16"), {"Content-Type": "text/html; charset=utf-16"}),
    )
    site.add(
        "/cp500",
        Reply(200, looks_like_html("/enc-cp500"), {"Content-Type": "text/html; charset=cp500"}),
    )
    site.html("/enc-utf16", "<title>utf16 ok</title>")
    site.html("/enc-cp500", "<title>cp500 ok</title>")
    deep = (
        "<div>" * 5000
        + "<a href='/deep-inner'>in</a>"
        + "</div>" * 5000
        + "<a href='/deep-after'>after</a>"
    )
    site.html("/deep", f"<html><title>deep</title><body>{deep}</body></html>")
    site.html("/deep-inner", "<title>deep inner</title>")
    site.html("/deep-after", "<title>deep after</title>")


@pytest.mark.slow
def test_non_html_and_misdeclared_responses(
    make_site: Callable[..., SiteServer], tmp_path: Path
) -> None:
    site = make_site("content")
    build(site)
    result = run_crawl(tmp_path, args={"start_urls": site.url("/")},
                       settings={"DOWNLOAD_MAXSIZE": str(MIB), "LOG_LEVEL": "INFO"})  # fmt: skip
    assert result.returncode == 0, result.stderr
    seen = set(site.targets())
    assert not {"/doc.pdf", "/photo.png"} & seen, "binary extensions are not requested"
    assert not {"/junk-image", "/junk-mht", "/junk-big"} & seen, (
        "links read from a body that is not a page"
    )
    assert {"/sniffed", "/enc-utf16", "/enc-cp500", "/deep-inner", "/deep-after"} <= seen
    items = set(result.item_urls())
    assert not {site.url("/image"), site.url("/saved"), site.url("/big")} & items
    assert site.url("/octet") in items
    assert result.stat("webrobot/download/stopped/type") == 2
    assert result.stat("webrobot/download/stopped/too_large") == 1
    assert result.stat("webrobot/url/refused/binary_extension") == 2
    assert result.stat("webrobot/page/encoding_fallback") == 2
    assert result.stat("webrobot/page/markup_fallback") == 1
    assert "Traceback" not in result.log


@pytest.mark.slow
def test_non_html_items_when_a_site_asks(
    make_site: Callable[..., SiteServer], tmp_path: Path
) -> None:
    site = make_site("files")
    site.html("/", "<title>home</title><a href='/saved'>s</a>")
    site.add("/saved", Reply(200, looks_like_html("/junk"), {"Content-Type": "message/rfc822"}))
    config = tmp_path / "files.toml"
    config.write_text(
        f'start_urls = ["{site.url("/")}"]\n[settings]\nWEBROBOT_NON_HTML_ITEMS = true\n', "utf-8"
    )
    result = run_crawl(tmp_path / "out", args={"config": str(config)})
    assert result.returncode == 0, result.stderr
    item = next(i for i in result.items if i["url"] == site.url("/saved"))
    assert item["content_type"] == "message/rfc822"
    assert "/junk" not in site.targets(), "no links from a file"


@pytest.mark.parametrize(
    ("content_type", "kind"),
    [
        ("text/html; charset=utf-8", HTML), ("TEXT/HTML", HTML), ("application/xhtml+xml", HTML),
        ("application/pdf", OTHER), ("message/rfc822", OTHER), ("image/png", OTHER), ("text/plain", OTHER),
        ("", GENERIC), (None, GENERIC), ("application/octet-stream", GENERIC), ("garbage", GENERIC),
    ],
)  # fmt: skip
def test_declared_kind(content_type: str | None, kind: str) -> None:
    assert declared_kind(content_type) == kind


def test_badly_decoded() -> None:
    body = b"<html><a href='/x'>x</a></html>"
    assert badly_decoded(body.decode("utf-16", errors="replace"), body)
    assert badly_decoded(body.decode("cp500"), body)
    assert not badly_decoded(body.decode("utf-8"), body)
    assert not badly_decoded("plain words", b"plain words")


def test_the_streaming_parser_reads_past_any_depth() -> None:
    text = "<div>" * 100_000 + "<a href='/in'>in</a><base href='/b/'>" + "</div>" * 100_000
    summary = summarise_html_text("<title>t</title>" + text, "http://a.example/")
    assert summary.title == "t"
    assert [link.url for link in summary.links] == ["http://a.example/in"]
