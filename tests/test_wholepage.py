"""Every reader of ``response.selector`` sees the body of a page that ends its document
before it; ordinary pages keep their one parse."""

from __future__ import annotations

import logging

import pytest
from scrapy.http import HtmlResponse, TextResponse
from scrapy.linkextractors import LinkExtractor
from scrapy.utils.test import get_crawler

from tests.test_wholetree import YILIA
from webrobot.pages.wholepage import EARLY_END, WholePageMiddleware, whole_selector

ORDINARY = "<html><head><title>t</title></head><body><a href='/x'>x</a></body></html>"


def page(html: str, url: str = "http://blog.test/post/") -> HtmlResponse:
    return HtmlResponse(url=url, body=html.encode(), encoding="utf-8")


def test_the_link_extractor_finds_no_link_without_it() -> None:
    """What a crawl of such a site met: the parse is the head alone."""
    assert LinkExtractor().extract_links(page(YILIA)) == []


def test_links_css_and_xpath_read_the_body_after_it() -> None:
    response = page(YILIA)
    whole_selector(response)
    links = LinkExtractor().extract_links(response)
    assert [link.url for link in links] == ["http://blog.test/2026/12/next/"]
    assert response.css("article p::text").get() == "First paragraph."
    assert response.xpath("//title/text()").get() == "Post | Blog"
    assert response.xpath("//meta[@name='robots']/@content").get() == "noindex,nofollow"


def test_an_ordinary_page_keeps_its_one_parse() -> None:
    response = page(ORDINARY)
    first = response.selector
    assert whole_selector(response) is first
    assert response.selector is first
    crawler = get_crawler()
    crawler.stats.open_spider()
    WholePageMiddleware.from_crawler(crawler).process_spider_input(response)
    assert response.selector is first
    assert crawler.stats.get_value(EARLY_END) is None


def test_the_middleware_mends_counts_every_page_and_logs_once(
    caplog: pytest.LogCaptureFixture,
) -> None:
    crawler = get_crawler()
    crawler.stats.open_spider()
    middleware = WholePageMiddleware.from_crawler(crawler)
    with caplog.at_level(logging.INFO, logger="webrobot.pages.wholepage"):
        for n in range(3):
            response = page(YILIA, f"http://blog.test/post/{n}/")
            middleware.process_spider_input(response)
            assert len(LinkExtractor().extract_links(response)) == 1
            # the crawl's own readers: a second look changes nothing, counts nothing
            assert whole_selector(response, crawler.stats) is response.selector
    assert crawler.stats.get_value(EARLY_END) == 3
    assert len([r for r in caplog.records if EARLY_END in r.getMessage()]) == 1


def test_responses_that_are_not_html_pages_are_left_alone() -> None:
    crawler = get_crawler()
    middleware = WholePageMiddleware.from_crawler(crawler)
    text = TextResponse(url="http://blog.test/feed.txt", body=YILIA.encode(), encoding="utf-8")
    middleware.process_spider_input(text)
    assert text.selector.root.find("body") is None  # never touched: Scrapy's own parse
    assert crawler.stats.get_value(EARLY_END) is None


def test_markup_lxml_refuses_reaches_the_callback_as_before() -> None:
    crawler = get_crawler()
    response = page("")
    WholePageMiddleware.from_crawler(crawler).process_spider_input(response)
    assert response.css("a").getall() == []


def test_the_near_duplicate_filter_compares_the_body() -> None:
    from webrobot.seen.dupepages import near_text

    assert near_text(page(YILIA)) == "First paragraph."
