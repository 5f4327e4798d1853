"""The WARC middleware alone: switched off, noarchive in encoded bodies, cache hits."""

from __future__ import annotations

import gzip
from pathlib import Path

import pytest
from scrapy import Request
from scrapy.exceptions import NotConfigured
from scrapy.http import HtmlResponse, TextResponse
from scrapy.utils.test import get_crawler

from webrobot.archive.middleware import WarcArchiveMiddleware
from webrobot.search.extension import index_path


def middleware(tmp_path: Path, **settings: object) -> WarcArchiveMiddleware:
    crawler = get_crawler(settings_dict={"WEBROBOT_WARC_DIR": str(tmp_path / "warc"),
                                         "WEBROBOT_META_ROBOTS_ENABLED": True, **settings})  # fmt: skip
    crawler.stats.open_spider()
    return WarcArchiveMiddleware.from_crawler(crawler)


def html(url: str, body: bytes, **headers: str) -> HtmlResponse:
    return HtmlResponse(url, body=body, headers={"Content-Type": "text/html", **headers},
                        request=Request(url))  # fmt: skip


NOARCHIVE = b'<html><head><meta name="robots" content="noarchive"><title>x</title></head><body>x</body></html>'


def test_off_without_a_folder() -> None:
    with pytest.raises(NotConfigured):
        WarcArchiveMiddleware.from_crawler(get_crawler(settings_dict={"WEBROBOT_WARC_DIR": ""}))


def test_noarchive_is_found_in_a_gzip_body_and_in_headers(tmp_path: Path) -> None:
    mw = middleware(tmp_path)
    gz = html("http://h/gz", gzip.compress(NOARCHIVE), **{"Content-Encoding": "gzip"})
    assert mw.process_response(gz.request, gz) is gz
    header = TextResponse("http://h/t", body=b"plain", headers={"X-Robots-Tag": "noarchive"},
                          request=Request("http://h/t"))  # fmt: skip
    mw.process_response(header.request, header)
    assert mw.crawler.stats.get_value("webrobot/warc/noarchive") == 2
    assert mw.archive is None  # nothing written, no file opened


def test_opted_out_and_cached_responses(tmp_path: Path) -> None:
    mw = middleware(tmp_path)
    opted = html("http://h/o", NOARCHIVE)
    opted.request.meta["dont_obey_meta_robots"] = True
    mw.process_response(opted.request, opted)
    cached = html("http://h/c", b"<p>cached</p>")
    cached.flags.append("cached")
    mw.process_response(cached.request, cached)
    mw.spider_closed(mw.crawler.spider)  # type: ignore[arg-type]
    assert mw.crawler.stats.get_value("webrobot/warc/records/response") == 1
    assert mw.crawler.stats.get_value("webrobot/warc/noarchive") is None
    assert [p.name.endswith(".warc.gz") for p in (tmp_path / "warc").iterdir()] == [True]


@pytest.mark.parametrize(
    ("setting", "feeds", "job", "expected"),
    [
        ("/x/i.sqlite", ["out/items.jsonl"], "", "/x/i.sqlite"),
        ("", ["out/items.jsonl"], "", "out/items.index"),
        ("", ["file:///srv/items/p/s/abc.jl"], "abc", "/srv/items/p/s/abc.index"),
        ("", ["s3://bucket/items.jl"], "", "webrobot-index"),
        ("", [], "job1", "job1.index"),
        ("", ["-"], "", "webrobot-index"),
    ],
)
def test_index_path(setting: str, feeds: list[str], job: str, expected: str) -> None:
    assert index_path(setting, feeds, job) == Path(expected)
