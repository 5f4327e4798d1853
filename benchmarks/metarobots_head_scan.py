"""How much reading robots meta costs per page, against parsing the page with lxml.

    .venv/bin/python benchmarks/metarobots_head_scan.py

Prints microseconds per call (best of 5) on a ~15 KB page with a 35-tag head.
Not a test: numbers depend on the machine. Calls per round are a tenth under
``WEBROBOT_BENCH_QUICK`` and a few, in one round, under ``WEBROBOT_BENCH_SMOKE``
(``benchmarks.micro``).
"""

from __future__ import annotations

import timeit
from collections.abc import Callable
from typing import Any

import lxml.html
from scrapy.http import HtmlResponse

from benchmarks.micro import size
from webrobot.pages.metarobots import head_meta_directives

ROBOTS_META = "<meta name='robots' content='noindex, nofollow'>"


def sample_page(robots_meta: bool = True, size: int = 15_000) -> bytes:
    head = (
        "<!DOCTYPE html><html lang='en'><head><meta charset='utf-8'><title>A shop page</title>"
        "<meta name='viewport' content='width=device-width'>"
        + "".join(f"<link rel='stylesheet' href='/css/{i}.css'>" for i in range(8))
        + "".join(f"<meta property='og:tag{i}' content='Open graph value {i}'>" for i in range(12))
        + "<script>" + "var x = 1; if (a < b) { track('page'); }\n" * 40 + "</script>"
        + "<style>body{margin:0}.a{color:red}</style>"
        + (ROBOTS_META if robots_meta else "")
        + "<meta name='description' content='A page'></head><body><div class='main'>"
    )  # fmt: skip
    para = "<p>Some product text with <a href='/p/{i}'>a link {i}</a> and more words.</p>\n"
    parts, i = [head], 0
    while sum(map(len, parts)) < size - 30:
        parts.append(para.format(i=i))
        i += 1
    parts.append("</div></body></html>")
    return "".join(parts).encode("utf-8")


def best_us(func: Callable[[], Any], number: int) -> float:
    number = size(number, number // 10, 2)
    return min(timeit.repeat(func, number=number, repeat=size(5, 5, 1))) / number * 1e6


def main() -> None:
    for robots_meta in (False, True):
        raw = sample_page(robots_meta)

        def fresh(raw: bytes = raw) -> HtmlResponse:
            return HtmlResponse("http://example.com/", body=raw,
                                headers={"Content-Type": "text/html; charset=utf-8"})  # fmt: skip

        response = fresh()
        text, root = response.text, response.selector.root
        assert head_meta_directives(text, "webrobot") == (
            ["noindex", "nofollow"] if robots_meta else []
        )
        print(f"page of {len(raw)} bytes, robots meta in head: {robots_meta}")
        rows = {
            "decode response.text (shared with the spider)": (lambda: fresh().text, 2000),
            "lxml parse, response.selector.root (the spider's one parse)": (
                lambda: fresh().selector.root, 300),
            "head scan, head_meta_directives (what the middleware does)": (
                lambda text=text: head_meta_directives(text, "webrobot"), 2000),
            "XPath over the spider's cached tree (alternative)": (
                lambda root=root: [m.get("content") for m in root.xpath("/html/head/meta[@name][@content]")
                         if m.get("name").strip().lower() in ("robots", "webrobot")], 2000),
            "a second DOM: lxml parse + XPath (rejected)": (
                lambda text=text: lxml.html.document_fromstring(text).xpath("/html/head/meta"), 300),
        }  # fmt: skip
        for label, (func, number) in rows.items():
            print(f"  {label:<62} {best_us(func, number):8.1f} us")


if __name__ == "__main__":
    main()
