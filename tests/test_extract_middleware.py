"""The mining glue (webrobot.extract.middleware.ExtractMiddleware), with stand-in
extractors put where the real ones are imported from: what reaches the item,
what is counted, what is logged once, and how other components switch parts on."""

from __future__ import annotations

import asyncio
import dataclasses
import json
import logging
import sys
import types
from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Any

import attrs
import pytest
import scrapy
from scrapy.exceptions import NotConfigured
from scrapy.http import HtmlResponse, Request, Response
from scrapy.utils.test import get_crawler

from webrobot.extract.maintext import Reading
from webrobot.extract.middleware import ExtractMiddleware, source_page
from webrobot.extract.page import SourcePage
from webrobot.items import MINED_FIELDS, MinedPageItem, PageItem
from webrobot.optional import MissingExtra

HTML = b"""<html><head><title>T</title>
<script type="application/ld+json">{"@type": "Product", "sku": "S-1"}</script></head>
<body><h1> Lamp </h1><p class="price">EUR 12,50</p></body></html>"""


def page(
    url: str = "http://site.test/p", body: bytes = HTML, meta: dict | None = None
) -> HtmlResponse:
    request = Request(url, meta=meta or {})
    return HtmlResponse(
        url, body=body, headers={"Content-Type": "text/html; charset=utf-8"}, request=request
    )


def page_item(url: str = "http://site.test/p") -> PageItem:
    return PageItem(url, 200, 0, None, "2026-01-01T00:00:00Z", "text/html", "T", "0" * 32)


class Calls:
    def __init__(self) -> None:
        self.log: list[tuple[str, Any]] = []
        #: The head tags each part was handed, by part.
        self.tags: dict[str, Any] = {}


@pytest.fixture
def calls(monkeypatch: pytest.MonkeyPatch) -> Calls:
    """Stand-in extractors, in the table of parts and its shared inputs: each records
    what it was handed."""
    from webrobot.extract import inputs, parts

    seen = Calls()

    def main_reading(p: SourcePage, markdown: bool = True) -> Reading:
        seen.log.append(("text", p))
        return Reading("Lamp. A lamp.", "# Lamp\n\nA lamp." if markdown else None)

    def structured_data(p: SourcePage, jsonld: list | None = None) -> dict:
        seen.log.append(("structured_data", jsonld))
        return {"json-ld": [{"@type": "Product", "sku": "FROM-STRUCTURED"}], "microdata": []}

    def metadata(p: SourcePage, structured: dict | None = None, tags: Any = None) -> dict:
        seen.log.append(("metadata", structured))
        seen.tags["metadata"] = tags
        return {"title": "T"}

    def product(p: SourcePage, structured: dict | None = None, tags: Any = None) -> dict | None:
        seen.log.append(("product", structured))
        seen.tags["product"] = tags
        return {"name": "Lamp"}

    monkeypatch.setattr(inputs, "main_reading", main_reading)
    monkeypatch.setattr(inputs, "structured_data", structured_data)
    monkeypatch.setattr(parts, "metadata", metadata)
    monkeypatch.setattr(parts, "product", product)
    return seen


def build(settings: dict[str, Any] | None = None, spider: bool = True) -> ExtractMiddleware:
    crawler = get_crawler(scrapy.Spider, settings_dict=settings or {})
    if spider:
        crawler.spider = crawler._create_spider("s")
    crawler.stats.open_spider()
    return ExtractMiddleware.from_crawler(crawler)


def run(middleware: ExtractMiddleware, response: Response, outputs: list[Any]) -> list[Any]:
    async def produce() -> AsyncIterator[Any]:
        for output in outputs:
            yield output

    async def consume() -> list[Any]:
        return [o async for o in middleware.process_spider_output(response, produce())]

    return asyncio.run(consume())


def stat(middleware: ExtractMiddleware, key: str) -> Any:
    assert middleware.crawler.stats is not None
    return middleware.crawler.stats.get_value(key)


def test_nothing_asked_steps_aside() -> None:
    with pytest.raises(NotConfigured):
        build()


def test_the_page_item_becomes_a_mined_item_with_every_part_asked(calls: Calls) -> None:
    middleware = build({"WEBROBOT_EXTRACT": ["text", "metadata", "structured_data", "product"]})
    request = Request("http://site.test/next")
    out = run(middleware, page(), [page_item(), request])
    # The page's links go on at once; its items once mined.
    assert out[0] is request
    item = out[1]
    assert type(item) is MinedPageItem
    assert item.url == "http://site.test/p" and item.title == "T"
    assert item.main_text == "Lamp. A lamp."
    assert item.metadata == {"title": "T"} and item.product == {"name": "Lamp"}
    assert item.structured_data["json-ld"][0]["sku"] == "FROM-STRUCTURED"
    assert item.fields is None and item.images is None
    # Structured data computed once, and handed to metadata and product.
    assert [name for name, _ in calls.log] == ["structured_data", "text", "metadata", "product"]
    assert calls.log[2][1] is item.structured_data is calls.log[3][1]
    # And the page's meta and link tags gathered once for both.
    assert calls.tags["metadata"] is calls.tags["product"] is not None
    assert stat(middleware, "webrobot/extract/pages") == 1
    assert stat(middleware, "webrobot/extract/text/found") == 1


def test_markdown_is_asked_by_name_and_read_once_with_the_text(calls: Calls) -> None:
    middleware = build({"WEBROBOT_EXTRACT": "text,markdown"})
    item = run(middleware, page(), [page_item()])[0]
    assert item.main_text == "Lamp. A lamp." and item.main_markdown == "# Lamp\n\nA lamp."
    assert [name for name, _ in calls.log] == ["text"], "one reading for both"
    assert stat(middleware, "webrobot/extract/text/found") == 1
    assert stat(middleware, "webrobot/extract/markdown/found") == 1


def test_markdown_alone_leaves_the_text_out_and_all_leaves_markdown_out(calls: Calls) -> None:
    item = run(build({"WEBROBOT_EXTRACT": "markdown"}), page(), [page_item()])[0]
    assert item.main_markdown == "# Lamp\n\nA lamp." and item.main_text is None
    item = run(build({"WEBROBOT_EXTRACT": "all"}), page(), [page_item()])[0]
    assert item.main_markdown is None and item.main_text == "Lamp. A lamp."


def test_one_source_page_per_response_however_many_items(calls: Calls) -> None:
    middleware = build({"WEBROBOT_EXTRACT": "text"})
    out = run(middleware, page(), [page_item(), {"url": "a"}, {"url": "b"}])
    assert [o["main_text"] if isinstance(o, dict) else o.main_text for o in out] == [
        "Lamp. A lamp."
    ] * 3
    assert len([c for c in calls.log if c[0] == "text"]) == 1
    assert stat(middleware, "webrobot/extract/pages") == 1


def test_metadata_alone_gets_the_json_ld_only(calls: Calls) -> None:
    middleware = build({"WEBROBOT_EXTRACT": ["metadata"]})
    (item,) = run(middleware, page(), [page_item()])
    # Read once here, and no microdata: metadata alone reads JSON-LD only.
    assert calls.log == [("metadata", {"json-ld": [{"@type": "Product", "sku": "S-1"}]})]
    assert item.structured_data is None


def test_metadata_and_product_share_one_reading_of_the_json_ld(calls: Calls) -> None:
    middleware = build({"WEBROBOT_EXTRACT": ["metadata", "product"],
                        "WEBROBOT_FIELDS": {"sku": {"jsonld": "Product.sku", "processors": ["first"]}}})  # fmt: skip
    (item,) = run(middleware, page(), [{"url": "p"}])
    read = [{"@type": "Product", "sku": "S-1"}]
    # The product's structured data is built on the JSON-LD read here, metadata gets
    # that JSON-LD alone, and the fields the blocks as written.
    assert calls.log == [
        ("metadata", {"json-ld": read}),
        ("structured_data", read),
        ("product", {"json-ld": [{"@type": "Product", "sku": "FROM-STRUCTURED"}], "microdata": []}),
    ]
    assert item == {"url": "p", "metadata": {"title": "T"}, "product": {"name": "Lamp"},
                    "fields": {"sku": "S-1"}}  # fmt: skip


def test_structured_data_the_product_cannot_have_is_the_products_failure(
    calls: Calls, monkeypatch: pytest.MonkeyPatch
) -> None:
    def missing(p: SourcePage, jsonld: list | None = None) -> dict:
        raise MissingExtra("extruct", "mining", "Structured data")

    from webrobot.extract import inputs

    monkeypatch.setattr(inputs, "structured_data", missing)
    middleware = build({"WEBROBOT_EXTRACT": ["metadata", "product"]})
    (item,) = run(middleware, page(), [{"url": "p"}])
    assert item == {"url": "p", "metadata": {"title": "T"}}
    assert [name for name, _ in calls.log] == ["metadata"]
    assert stat(middleware, "webrobot/extract/product/not_installed") == 1
    assert stat(middleware, "webrobot/extract/metadata/found") == 1


def test_declared_fields_switch_the_fields_part_on() -> None:
    fields = {"name": {"css": "h1::text", "processors": ["strip", "first"]},
              "price": {"css": ".price::text", "processors": ["price", "first"]},
              "sku": {"jsonld": "Product.sku", "processors": ["first"]},
              "missing": {"css": "h2::text", "processors": ["first"]}}  # fmt: skip
    middleware = build({"WEBROBOT_FIELDS": fields})
    (item,) = run(middleware, page(), [page_item()])
    assert item.fields == {"name": "Lamp", "price": 12.5, "sku": "S-1", "missing": None}
    assert stat(middleware, "webrobot/extract/fields/missing/missing") == 1
    assert stat(middleware, "webrobot/extract/fields/found") == 1


def test_fields_read_the_json_ld_as_written_whatever_else_is_asked(calls: Calls) -> None:
    middleware = build({"WEBROBOT_EXTRACT": ["structured_data"],
                        "WEBROBOT_FIELDS": {"sku": {"jsonld": "Product.sku", "processors": ["first"]}}})  # fmt: skip
    (item,) = run(middleware, page(), [page_item()])
    assert item.fields == {"sku": "S-1"}
    assert item.structured_data["json-ld"][0]["sku"] == "FROM-STRUCTURED"


def test_fields_as_json_text_from_the_command_line() -> None:
    middleware = build({"WEBROBOT_FIELDS": '{"name": "h1::text"}'})
    (item,) = run(middleware, page(), [{"url": "x"}])
    assert item["fields"] == {"name": [" Lamp "]}


@dataclass
class OwnDataclass:
    url: str
    main_text: str | None = None


@attrs.define
class OwnAttrs:
    url: str
    main_text: str | None = None


class OwnItem(scrapy.Item):
    url = scrapy.Field()
    main_text = scrapy.Field()


class BareItem(scrapy.Item):
    url = scrapy.Field()


def test_a_users_items_get_the_keys_they_can_take(
    calls: Calls, caplog: pytest.LogCaptureFixture
) -> None:
    middleware = build({"WEBROBOT_EXTRACT": ["text", "metadata"]})
    with caplog.at_level(logging.WARNING):
        out = run(middleware, page(), [{"url": "d"}, OwnItem(url="i"), OwnDataclass("c"), OwnAttrs("a"),
                                       BareItem(url="b"), BareItem(url="b2"), "not an item"])  # fmt: skip
    assert out[0] == "not an item"  # not an item: not held while the page is mined
    out = out[1:]  # the items, in the spider's order
    assert out[0] == {"url": "d", "main_text": "Lamp. A lamp.", "metadata": {"title": "T"}}
    assert dict(out[1]) == {"url": "i", "main_text": "Lamp. A lamp."}
    assert out[2] == OwnDataclass("c", "Lamp. A lamp.") and out[3] == OwnAttrs("a", "Lamp. A lamp.")
    assert dict(out[4]) == {"url": "b"}
    # OwnItem, OwnDataclass, OwnAttrs lack metadata; BareItem twice lacks both.
    assert stat(middleware, "webrobot/extract/item_refused") == 3 + 4
    refusals = [r for r in caplog.records if "have no field" in r.getMessage()]
    assert len(refusals) == 4, "one line per item class"


def test_an_extractor_that_raises_leaves_its_part_out(calls: Calls, monkeypatch: pytest.MonkeyPatch,
                                                      caplog: pytest.LogCaptureFixture) -> None:  # fmt: skip
    def broken(p: SourcePage, structured: dict | None = None, tags: Any = None) -> dict:
        raise RecursionError("too deep")

    from webrobot.extract import parts

    monkeypatch.setattr(parts, "metadata", broken)
    middleware = build({"WEBROBOT_EXTRACT": ["text", "metadata"]})
    with caplog.at_level(logging.ERROR):
        first = run(middleware, page(), [page_item()])[0]
        second = run(middleware, page("http://site.test/q"), [{"url": "q"}])[0]
    assert first.main_text == "Lamp. A lamp." and first.metadata is None
    assert second == {"url": "q", "main_text": "Lamp. A lamp."}
    assert stat(middleware, "webrobot/extract/metadata/error") == 2
    errors = [r.getMessage() for r in caplog.records if r.levelno == logging.ERROR]
    assert (
        len(errors) == 1
        and "'metadata' failed on http://site.test/p (RecursionError: too deep)" in errors[0]
    )


def test_a_missing_extractor_is_one_line_and_a_count(monkeypatch: pytest.MonkeyPatch,
                                                     caplog: pytest.LogCaptureFixture) -> None:  # fmt: skip
    from webrobot.extract import inputs

    def missing(p: SourcePage, markdown: bool = True) -> Reading:
        raise MissingExtra("trafilatura", "mining", "Main text")

    monkeypatch.setattr(inputs, "main_reading", missing)
    middleware = build({"WEBROBOT_EXTRACT": ["text"]})
    with caplog.at_level(logging.WARNING):
        for n in range(3):
            (item,) = run(middleware, page(f"http://site.test/{n}"), [page_item()])
            assert type(item) is MinedPageItem and item.main_text is None, "nothing mined"
    assert stat(middleware, "webrobot/extract/text/not_installed") == 3
    lines = [r.getMessage() for r in caplog.records if "cannot be loaded" in r.getMessage()]
    assert len(lines) == 1 and "'text'" in lines[0]


def test_a_noindex_page_is_not_mined(calls: Calls) -> None:
    middleware = build({"WEBROBOT_EXTRACT": ["text"]})
    (item,) = run(middleware, page(meta={"robots": ["noindex"]}), [page_item()])
    assert item.main_text is None and calls.log == []
    (item,) = run(
        middleware, page(meta={"robots": ["noindex"], "dont_obey_meta_robots": True}), [page_item()]
    )
    assert item.main_text == "Lamp. A lamp."


def test_a_response_that_is_not_a_page_gets_no_page_parts(calls: Calls) -> None:
    middleware = build({"WEBROBOT_EXTRACT": ["text"]})
    pdf = Response(
        "http://site.test/a.pdf", body=b"%PDF-1.7", headers={"Content-Type": "application/pdf"}
    )
    (item,) = run(middleware, pdf, [page_item()])
    assert type(item) is MinedPageItem and item.main_text is None and calls.log == []


def test_documents_get_their_text_and_metadata(monkeypatch: pytest.MonkeyPatch) -> None:
    handed: list[tuple] = []

    def read_document(
        body: bytes, url: str, content_type: str, *, max_bytes: int, timeout: float,
        max_inflated: int, memory_mb: int,
    ) -> dict:  # fmt: skip
        handed.append((body, url, content_type, max_bytes, timeout, max_inflated, memory_mb))
        return {
            "main_text": "Annual report",
            "metadata": {"title": "R", "author": None, "pages": 3},
        }

    from webrobot.extract import parts

    monkeypatch.setattr(parts, "read_document", read_document)

    async def in_this_thread(self: ExtractMiddleware, function: Any) -> Any:
        return function()

    monkeypatch.setattr(ExtractMiddleware, "_in_thread", in_this_thread)
    middleware = build({"WEBROBOT_EXTRACT": ["documents"], "WEBROBOT_DOCUMENT_MAX_BYTES": 1000})
    pdf = Response(
        "http://site.test/a.pdf", body=b"%PDF-1.7", headers={"Content-Type": "application/pdf"}
    )
    untitled = dataclasses.replace(page_item("http://site.test/a.pdf"), title=None)
    (item,) = run(middleware, pdf, [untitled])
    assert item.main_text == "Annual report" and item.metadata["pages"] == 3
    assert handed == [
        (b"%PDF-1.7", "http://site.test/a.pdf", "application/pdf", 1000, 30.0, 256 << 20, 1024)
    ]
    assert item.title == "R", "a document's title is known once it is read"
    assert stat(middleware, "webrobot/extract/documents/found") == 1
    (item,) = run(middleware, page(), [page_item()])
    assert item.main_text is None and item.metadata is None, "an HTML page is no document"


def test_images_are_described_by_the_fetcher(monkeypatch: pytest.MonkeyPatch) -> None:
    from webrobot.extract import parts

    monkeypatch.setattr(
        parts, "page_images", lambda p: [{"url": "http://site.test/a.png", "alt": "A"}]
    )
    fetch = types.ModuleType("webrobot.extract.imagefetch")
    built: list[Any] = []

    class ImageFetcher:
        @classmethod
        def from_crawler(cls, crawler: Any) -> ImageFetcher:
            built.append(crawler)
            return cls()

        async def describe(self, found: list[dict], page_url: str | None = None) -> list[dict]:
            await asyncio.sleep(0)
            return [{**image, "format": "png", "bytes": 10, "from": page_url} for image in found]

    fetch.ImageFetcher = ImageFetcher  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "webrobot.extract.imagefetch", fetch)
    middleware = build({"WEBROBOT_EXTRACT": ["images"]})
    for n in range(2):
        (item,) = run(middleware, page(f"http://site.test/{n}"), [page_item()])
        assert item.images == [
            {
                "url": "http://site.test/a.png",
                "alt": "A",
                "format": "png",
                "bytes": 10,
                "from": f"http://site.test/{n}",
            }
        ]
    assert built == [middleware.crawler], "one fetcher per crawl"


def test_another_component_can_require_parts(calls: Calls) -> None:
    crawler = get_crawler(scrapy.Spider)
    crawler.stats.open_spider()
    ExtractMiddleware.require(crawler, ["text"])  # from an extension's from_crawler
    middleware = ExtractMiddleware.from_crawler(crawler)
    assert middleware.parts == {"text"}
    ExtractMiddleware.require(crawler, ["metadata"])  # later still counts: the middleware is live
    (item,) = run(middleware, page(), [page_item()])
    assert item.main_text == "Lamp. A lamp." and item.metadata == {"title": "T"}
    with pytest.raises(ValueError, match="unknown part 'txt'"):
        ExtractMiddleware.require(crawler, ["txt"])


def test_requiring_parts_after_the_middleware_stepped_aside_is_an_error() -> None:
    crawler = get_crawler(scrapy.Spider)
    with pytest.raises(NotConfigured):
        ExtractMiddleware.from_crawler(crawler)
    with pytest.raises(RuntimeError, match="from an extension's or a downloader middleware's"):
        ExtractMiddleware.require(crawler, ["text"])


@pytest.mark.parametrize(
    ("settings", "message"),
    [
        ({"WEBROBOT_EXTRACT": "text,txt"}, "setting: key 'WEBROBOT_EXTRACT': unknown part 'txt'"),
        ({"WEBROBOT_FIELDS": {"price": {"css": ".price[", "processors": []}}},
         "setting WEBROBOT_FIELDS: key 'fields.price': css: '.price[' is not a CSS selector"),
        ({"WEBROBOT_FIELDS": {"price": {"css": ".price", "processors": ["cents"]}}},
         "key 'fields.price': unknown processor 'cents'"),
    ],
)  # fmt: skip
def test_a_bad_setting_stops_the_crawl_with_one_line(settings: dict, message: str) -> None:
    crawler = get_crawler(scrapy.Spider, settings_dict=settings)
    crawler.spider = crawler._create_spider("s")
    with pytest.raises(NotConfigured):
        ExtractMiddleware.from_crawler(crawler)
    assert message in str(crawler.spider.config_error)


def test_the_source_page_is_the_crawls_parse() -> None:
    response = page()
    built = source_page(response)
    assert built.root is response.selector.root
    assert (
        built.content_type == "text/html"
        and built.header("Content-Type") == "text/html; charset=utf-8"
    )
    assert built.url == response.url and "<h1>" in built.html


def test_a_page_that_ends_its_document_before_its_body_gives_its_body() -> None:
    """``</head></html><body>``: libxml2 stops at the ``</html>``, a browser reads on."""
    html = (
        "<html><head><title>Hello World</title></head>\n</html>\n<body>"
        "<article><h1>Hello World</h1><p>Welcome to the first post.</p></article></body></html>"
    )
    response = HtmlResponse(url="http://blog.test/hello/", body=html.encode(), encoding="utf-8")
    assert response.selector.root.find("body") is None  # the parse a crawl holds
    built = source_page(response)
    assert [p.text for p in built.root.iter("p")] == ["Welcome to the first post."]


def test_every_part_has_an_item_key_and_every_key_a_field() -> None:
    from webrobot.extract.parts import PAGE, PARTS

    assert {p.item_key for p in PARTS if p.source == PAGE} == set(MINED_FIELDS)
    assert set(MINED_FIELDS) <= {f for f in MinedPageItem.__dataclass_fields__}
    assert not set(MINED_FIELDS) & set(PageItem.__dataclass_fields__)


def test_a_mined_item_keeps_its_values_through_a_shared_crawls_item_storage() -> None:
    from webrobot.distributed.items import decode_item, encode_item

    item = MinedPageItem.of(page_item())
    item.fields = {"price": 12.5, "tags": ["a", "b"]}
    item.main_text = "Text."
    back = decode_item(encode_item(item))
    assert type(back) is MinedPageItem and back == item


class NeedsText:
    """An extension that needs the main text of every page, whatever WEBROBOT_EXTRACT says."""

    @classmethod
    def from_crawler(cls, crawler: Any) -> NeedsText:
        ExtractMiddleware.require(crawler, ["text"])
        return cls()


def test_an_extension_requiring_a_part_is_built_before_the_middleware_decides() -> None:
    """In a real crawler: extensions are built with the settings, spider middlewares
    with the engine, so an extension's requirement is always in time."""
    crawler = get_crawler(scrapy.Spider, settings_dict={
        "EXTENSIONS": {f"{__name__}.NeedsText": 0},
        "SPIDER_MIDDLEWARES": {"webrobot.extract.middleware.ExtractMiddleware": 975},
    })  # fmt: skip
    crawler._apply_settings()
    crawler.spider = crawler._create_spider("s")
    engine = crawler._create_engine()
    built = [m for m in engine.scraper.spidermw.middlewares if isinstance(m, ExtractMiddleware)]
    assert len(built) == 1 and built[0].parts == {"text"}


ONE_PAGE = b"""<html lang="en"><head><title>Lamp | Shop</title>
<script type="application/ld+json">{"@type": "Product", "name": "Lamp", "sku": "ONCE-1",
 "offers": {"@type": "Offer", "price": "12.50", "priceCurrency": "EUR"}}</script>
<script type="application/ld+json">{"@type": "WebPage", "name": "ONCE-2", "inLanguage": "en"}</script>
</head><body><h1>Lamp</h1><p itemscope itemtype="https://schema.org/Thing">
<span itemprop="name">Not JSON-LD</span></p></body></html>"""


@pytest.mark.parametrize(
    "fields", [{}, {"sku": {"jsonld": "Product.sku", "processors": ["first"]}}], ids=["", "fields"]
)
def test_a_pages_json_ld_is_parsed_once_for_metadata_product_and_fields(
    monkeypatch: pytest.MonkeyPatch, fields: dict
) -> None:
    pytest.importorskip("extruct")  # the product's structured data needs the mining extra
    from webrobot.extract.metadata import metadata
    from webrobot.extract.product import product

    decoded: list[str] = []
    raw_decode = json.JSONDecoder.raw_decode

    def counting(self: json.JSONDecoder, text: str, idx: int = 0) -> tuple[Any, int]:
        decoded.extend(mark for mark in ("ONCE-1", "ONCE-2") if mark in text)
        return raw_decode(self, text, idx)

    monkeypatch.setattr(json.JSONDecoder, "raw_decode", counting)
    response = page(body=ONE_PAGE)
    alone = {"metadata": metadata(source_page(response)), "product": product(source_page(response))}
    assert sorted(decoded) == ["ONCE-1", "ONCE-1", "ONCE-2", "ONCE-2"]  # each reads it itself
    decoded.clear()
    middleware = build({"WEBROBOT_EXTRACT": ["metadata", "product"], "WEBROBOT_FIELDS": fields})
    (item,) = run(middleware, response, [{"url": "p"}])
    assert sorted(decoded) == ["ONCE-1", "ONCE-2"]  # every block decoded once for all parts
    assert item["metadata"] == alone["metadata"] and item["product"] == alone["product"]
    assert item["product"]["sku"] == "ONCE-1" and "structured_data" not in item
    assert item.get("fields") == ({"sku": "ONCE-1"} if fields else None)


def test_a_large_page_is_counted_and_the_first_logged(
    calls: Calls, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    from webrobot.extract import largepage

    middleware = build({"WEBROBOT_EXTRACT": "text"})
    run(middleware, page(), [page_item()])
    assert stat(middleware, "webrobot/extract/text/large_page") is None
    monkeypatch.setattr(largepage, "LARGE_PAGE_ELEMENTS", 5)
    with caplog.at_level(logging.INFO, logger="webrobot.extract.middleware"):
        for url in ("http://site.test/a", "http://site.test/b"):
            out = run(middleware, page(url), [page_item(url)])
            assert out[0].main_text == "Lamp. A lamp."
    assert stat(middleware, "webrobot/extract/text/large_page") == 2
    logged = [r.getMessage() for r in caplog.records if "fallbacks" in r.getMessage()]
    assert len(logged) == 1 and "http://site.test/a" in logged[0], logged


def test_a_pages_links_go_on_while_its_items_wait_for_the_mining(calls: Calls) -> None:
    """The mining (images fetched, at most WEBROBOT_IMAGES_WAIT_MAX) runs beside the
    spider's output: a request yielded after the item is not held behind it."""
    middleware = build({"WEBROBOT_EXTRACT": "text"})
    release = asyncio.Event()
    mined: list[str] = []

    async def slow_mine(response: Response) -> dict[str, Any]:
        await release.wait()
        mined.append(response.url)
        return {"main_text": "mined"}

    middleware._mine = slow_mine  # type: ignore[method-assign]
    first, second = Request("http://site.test/a"), Request("http://site.test/b")

    async def consume() -> list[Any]:
        async def produce() -> AsyncIterator[Any]:
            yield page_item()
            yield first
            yield page_item("http://site.test/p2")
            yield second

        out = middleware.process_spider_output(page(), produce())
        # (Behind the mining they would never come: the wait is cut, and fails the test.)
        got = [await asyncio.wait_for(anext(out), 10), await asyncio.wait_for(anext(out), 10)]
        assert got == [first, second] and not mined, "the links came while the mining waits"
        release.set()
        return got + [o async for o in out]

    out = asyncio.run(consume())
    assert [type(o) for o in out[2:]] == [MinedPageItem, MinedPageItem]
    assert [o.url for o in out[2:]] == ["http://site.test/p", "http://site.test/p2"]
    assert all(o.main_text == "mined" for o in out[2:])
    assert mined == ["http://site.test/p"], "mined once per page"
