"""The full-text index and mined items: an item's own main text is indexed as it is,
a document's item (not HTML) is indexed by its text, and a record spooled by an
older version (no main text) is still extracted from its body."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest
import scrapy
from scrapy.http import HtmlResponse, Response
from scrapy.utils.test import get_crawler

from webrobot.items import MinedPageItem
from webrobot.optional import installed
from webrobot.search.extension import FullTextIndex
from webrobot.search.worker import IndexTotals, PageToIndex, _apply

pytestmark = pytest.mark.skipif(
    not (installed("resiliparse") and installed("tantivy")), reason="needs webrobot[search]"
)

HTML = (
    b"<html lang='de'><body><nav>Menuword</nav><main><p>Page words here.</p></main></body></html>"
)


class Recorder:
    """Stands in for the index process: what it was handed."""

    def __init__(self) -> None:
        self.pages: list[PageToIndex] = []
        self.disk_error = SimpleNamespace(value=0)

    def put(self, page: PageToIndex) -> bool:
        self.pages.append(page)
        return True


def extension() -> tuple[FullTextIndex, Recorder]:
    crawler = get_crawler(scrapy.Spider)
    crawler.stats.open_spider()
    index = FullTextIndex(crawler)
    recorder = Recorder()
    index.worker = recorder  # type: ignore[assignment]
    return index, recorder


def mined(url: str, **values: Any) -> MinedPageItem:
    return MinedPageItem(
        url, 200, 0, None, "2026-01-01T00:00:00Z", "text/html", None, "0" * 32, **values
    )


def test_an_items_main_text_goes_to_the_index_with_it() -> None:
    index, recorder = extension()
    response = HtmlResponse("http://a.test/p", body=HTML)
    index.item_scraped(mined("http://a.test/p", main_text="Mined text."), response, None)  # type: ignore[arg-type]
    index.item_scraped({"url": "http://a.test/q"}, response, None)  # type: ignore[arg-type]
    assert [p.main_text for p in recorder.pages] == ["Mined text.", None]
    assert recorder.pages[0].body == HTML


def test_a_documents_item_is_indexed_by_its_text_and_title() -> None:
    index, recorder = extension()
    pdf = Response("http://a.test/r.pdf", body=b"%PDF-1.7 ...", headers={"Content-Language": "fr"})
    item = mined(
        "http://a.test/r.pdf",
        main_text="Rapport annuel.",
        metadata={"title": "Rapport", "pages": 2},
    )
    index.item_scraped(item, pdf, None)  # type: ignore[arg-type]
    index.item_scraped(mined("http://a.test/s.pdf"), pdf, None)  # type: ignore[arg-type]
    (page,) = recorder.pages
    assert (page.url, page.title, page.main_text, page.body) == (
        "http://a.test/r.pdf",
        "Rapport",
        "Rapport annuel.",
        b"",
    )


class FakeIndex:
    def __init__(self) -> None:
        self.put_pages: list[Any] = []

    def put(self, page: Any) -> str:
        self.put_pages.append(page)
        return "added"


def record(**values: Any) -> PageToIndex:
    base = {"url": "http://a.test/p", "site": "http://a.test:80", "host": "a.test", "title": "T",
                "fetched_at": "", "body": HTML, "encoding": "utf-8"}  # fmt: skip
    return PageToIndex(**{**base, **values})


def test_the_index_process_takes_the_given_text_and_the_pages_language() -> None:
    fake, totals = FakeIndex(), IndexTotals()
    _apply(fake, "put", record(main_text="Given text."), totals)
    (page,) = fake.put_pages
    assert page.text == "Given text." and page.lang == "de"
    _apply(fake, "put", record(main_text=""), totals)
    assert totals.empty == 1, "an empty main text is an empty page, not one to extract again"


def test_a_record_spooled_without_main_text_is_extracted_from_its_body() -> None:
    fake, totals = FakeIndex(), IndexTotals()
    old = record()
    object.__delattr__(old, "main_text")  # as unpickled from an older version's spool
    _apply(fake, "put", old, totals)
    (page,) = fake.put_pages
    assert "Page words here." in page.text and "Menuword" not in page.text
