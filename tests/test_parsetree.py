"""The parse tree of a page is freed when its callback's output is consumed,
without waiting for the cyclic garbage collector."""

from __future__ import annotations

import asyncio
import gc
import weakref
from collections.abc import AsyncIterator, Iterator
from typing import Any

import pytest
from scrapy.http import HtmlResponse, Request
from scrapy.utils.test import get_crawler

from tests.components import enabled_components
from webrobot.pages.parsetree import ReleaseParseTreeMiddleware

PAGE = (
    b"<html><head><title>t</title></head><body>"
    + b"<p><a href='/x'>x</a></p>" * 50
    + b"</body></html>"
)


def callback(response: HtmlResponse) -> Iterator[Any]:
    for href in response.xpath("//a/@href").getall():
        yield Request(response.urljoin(href))
    yield {"title": response.css("title::text").get()}


@pytest.fixture
def no_gc() -> Iterator[None]:
    gc.collect()
    gc.disable()
    yield
    gc.enable()


@pytest.fixture
def middleware() -> ReleaseParseTreeMiddleware:
    return ReleaseParseTreeMiddleware.from_crawler(get_crawler())


def test_enabled_in_the_project_outermost() -> None:
    orders = enabled_components("SPIDER_MIDDLEWARES")
    assert (
        orders["webrobot.pages.parsetree.ReleaseParseTreeMiddleware"] < 25
    )  # before Scrapy's first


def test_page_freed_without_the_cyclic_collector(
    no_gc: None, middleware: ReleaseParseTreeMiddleware
) -> None:
    response = HtmlResponse("http://site.test/", body=PAGE)
    alive = weakref.ref(response)
    outputs = list(middleware.process_spider_output(response, callback(response)))
    assert len(outputs) == 51 and outputs[-1] == {"title": "t"}
    del response
    assert alive() is None


def test_without_it_the_cycle_keeps_the_page(no_gc: None) -> None:
    """What the middleware is for (if Scrapy ever drops the cycle, it can go)."""
    response = HtmlResponse("http://site.test/", body=PAGE)
    alive = weakref.ref(response)
    list(callback(response))
    del response
    assert alive() is not None
    gc.collect()
    assert alive() is None


def test_async_output_and_early_close(no_gc: None, middleware: ReleaseParseTreeMiddleware) -> None:
    response = HtmlResponse("http://site.test/", body=PAGE)
    alive = weakref.ref(response)

    async def agen(page: HtmlResponse) -> AsyncIterator[Any]:
        for output in callback(page):
            yield output

    async def consume(page: HtmlResponse) -> list[Any]:
        return [o async for o in middleware.process_spider_output_async(page, agen(page))]

    assert len(asyncio.run(consume(response))) == 51
    assert response._cached_selector is None
    again = response.css("title::text").get()  # a later use parses again
    assert again == "t"
    gen = middleware.process_spider_output(response, callback(response))
    next(gen)
    gen.close()  # consumer stopped early: released all the same
    assert response._cached_selector is None
    del response, gen
    assert alive() is None
