"""The requisite middlewares alone: switched off, a page's requisites queued with
their marks, a requisite's answer counted and kept from the spider, what a
stylesheet names queued in turn, failures counted."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from scrapy import Request
from scrapy.exceptions import IgnoreRequest, NotConfigured
from scrapy.http import HtmlResponse, Response, TextResponse
from scrapy.utils.test import get_crawler

from webrobot.archive.requisitemiddleware import (
    PRIORITY_BOOST,
    RequisiteDownloaderMiddleware,
    RequisiteSpiderMiddleware,
    RequisiteTracker,
)
from webrobot.archive.requisites import IMAGE, SCRIPT, STYLESHEET, Requisite
from webrobot.signals import HOPS_META, REQUISITE_META


class Engine:
    def __init__(self) -> None:
        self.crawled: list[Request] = []

    def crawl(self, request: Request) -> None:
        self.crawled.append(request)


def crawler(tmp_path: Path, **settings: Any) -> Any:
    crawler = get_crawler(settings_dict={"WEBROBOT_WARC_DIR": str(tmp_path), **settings})
    crawler.stats.open_spider()
    crawler.engine = Engine()
    return crawler


PAGE = b"""<html><head><link rel=stylesheet href=/s.css><script src=http://cdn.test/j.js></script>
<meta name=x></head><body><img src=i.png><a href=/next>next</a></body></html>"""


@pytest.mark.parametrize(
    "settings",
    [{"WEBROBOT_WARC_DIR": ""}, {"WEBROBOT_REQUISITES_ENABLED": False}],
)
def test_off_without_an_archive_or_when_switched_off(tmp_path: Path, settings: Any) -> None:
    c = get_crawler(settings_dict={"WEBROBOT_WARC_DIR": str(tmp_path), **settings})
    for cls in (RequisiteSpiderMiddleware, RequisiteDownloaderMiddleware):
        with pytest.raises(NotConfigured):
            cls.from_crawler(c)


def test_a_page_queues_its_requisites_marked_and_ahead_of_pages(tmp_path: Path) -> None:
    c = crawler(tmp_path)
    mw = RequisiteSpiderMiddleware.from_crawler(c)
    request = Request("http://site.test/dir/p.html", priority=-3)
    response = HtmlResponse(request.url, body=PAGE, request=request,
                            headers={"Content-Type": "text/html"})  # fmt: skip
    mw.process_spider_input(response)
    queued = c.engine.crawled
    # and the site's /favicon.ico, which browsers ask for when a page names no icon
    assert [r.url for r in queued] == [
        "http://site.test/s.css", "http://cdn.test/j.js", "http://site.test/dir/i.png",
        "http://site.test/favicon.ico",
    ]  # fmt: skip
    assert [r.meta[REQUISITE_META] for r in queued] == ["stylesheet", "script", "image", "icon"]
    assert all(r.meta[HOPS_META] == 1 and r.meta["dont_check_type"] for r in queued)
    assert all(r.priority == -3 + PRIORITY_BOOST for r in queued)
    assert all(r.headers.get("Referer") == request.url.encode() for r in queued)


def test_a_page_that_ends_its_document_before_its_body_queues_the_bodys_requisites(
    tmp_path: Path,
) -> None:
    """``</head></html><body>``: libxml2 stops at the ``</html>``; a browser loads the body's."""
    c = crawler(tmp_path)
    mw = RequisiteSpiderMiddleware.from_crawler(c)
    request = Request("http://site.test/dir/p.html")
    early = PAGE.replace(b"</head>", b"</head></html>")
    response = HtmlResponse(request.url, body=early, request=request,
                            headers={"Content-Type": "text/html"})  # fmt: skip
    mw.process_spider_input(response)
    assert "http://site.test/dir/i.png" in [r.url for r in c.engine.crawled]


@pytest.mark.parametrize("case", ["requisite", "stopped", "noarchive", "not_html", "redirect"])
def test_pages_that_queue_nothing(tmp_path: Path, case: str) -> None:
    c = crawler(tmp_path)
    mw = RequisiteSpiderMiddleware.from_crawler(c)
    request = Request("http://site.test/p.html")
    cls: type[Response] = HtmlResponse
    status, flags, headers = 200, [], {"Content-Type": "text/html"}
    if case == "requisite":
        request.meta[REQUISITE_META] = "frame"
    elif case == "stopped":
        flags = ["download_stopped"]
    elif case == "noarchive":
        request.meta["robots"] = ["noarchive"]
    elif case == "not_html":
        cls, headers = TextResponse, {"Content-Type": "text/plain"}
    else:
        status = 301
    response = cls(request.url, status=status, body=PAGE, request=request, flags=flags,
                   headers=headers)  # fmt: skip
    mw.process_spider_input(response)
    assert c.engine.crawled == []


def test_a_requisite_is_counted_kept_from_the_spider_and_its_css_followed(tmp_path: Path) -> None:
    c = crawler(tmp_path)
    mw = RequisiteDownloaderMiddleware.from_crawler(c)
    css = Request("http://site.test/s.css", meta={REQUISITE_META: "stylesheet", HOPS_META: 1},
                  priority=7)  # fmt: skip
    response = TextResponse(css.url, body=b'@import "b.css"; a{background:url(/i.png)}',
                            headers={"Content-Type": "text/css"}, request=css)  # fmt: skip
    with pytest.raises(IgnoreRequest):
        mw.process_response(css, response)
    assert c.stats.get_value("webrobot/requisite/stylesheet/archived") == 1
    assert [(r.url, r.meta[HOPS_META]) for r in c.engine.crawled] == [
        ("http://site.test/b.css", 2), ("http://site.test/i.png", 2),
    ]  # fmt: skip
    page = Request("http://site.test/p.html")
    html = HtmlResponse(page.url, body=PAGE, request=page)
    assert mw.process_response(page, html) is html  # pages go on


def test_failures_and_error_answers_are_counted(tmp_path: Path) -> None:
    c = crawler(tmp_path)
    mw = RequisiteDownloaderMiddleware.from_crawler(c)
    image = Request("http://site.test/i.png", meta={REQUISITE_META: "image", HOPS_META: 1})
    with pytest.raises(IgnoreRequest):
        mw.process_response(image, Response(image.url, status=404, request=image))
    mw.process_exception(image, TimeoutError())
    mw.process_exception(image, IgnoreRequest("refused elsewhere, counted by its signal"))
    assert c.stats.get_value("webrobot/requisite/image/http_error") == 1
    assert c.stats.get_value("webrobot/requisite/image/error") == 1
    tracker = RequisiteTracker.of(c)
    tracker.request_refused(image, "robots_txt", "http://site.test:80")
    assert c.stats.get_value("webrobot/requisite/image/robots_txt") == 1


def test_an_awaited_embed_goes_back_to_whoever_awaits_it_uncounted(tmp_path: Path) -> None:
    """An image the mining downloads (``engine.download_async``, ``NO_CALLBACK``)
    carries the requisite marks, but its answer is its fetcher's: returned, not
    counted, nothing queued from it."""
    from scrapy.http.request import NO_CALLBACK

    from webrobot.pages.embeds import embed_request

    c = crawler(tmp_path)
    mw = RequisiteDownloaderMiddleware.from_crawler(c)
    image = embed_request(
        "http://site.test/i.css", "stylesheet", referer=None, callback=NO_CALLBACK
    )
    assert image.meta[REQUISITE_META] == "stylesheet" and "Referer" not in image.headers
    response = TextResponse(image.url, body=b"a{background:url(/x.png)}", request=image,
                            headers={"Content-Type": "text/css"})  # fmt: skip
    assert mw.process_response(image, response) is response
    mw.process_exception(image, ConnectionRefusedError())
    RequisiteTracker.of(c).request_refused(image, "robots_txt", "http://site.test:80")
    assert not [k for k in c.stats.get_stats() if k.startswith("webrobot/requisite/")]
    assert c.engine.crawled == []


def test_a_dead_hosts_requisites_are_not_requested(tmp_path: Path) -> None:
    """A requisite whose host refused the connection, or whose name did not resolve:
    counted as such, and no later requisite on that host (that port, for a refusal)
    is requested."""
    import socket

    from twisted.internet.error import DNSLookupError

    c = crawler(tmp_path, WEBROBOT_DEAD_HOSTS_FILE="")
    mw = RequisiteDownloaderMiddleware.from_crawler(c)
    refused = Request("http://cdn.test:8080/a.png", meta={REQUISITE_META: "image", HOPS_META: 1})
    gone = Request("http://gone.invalid/s.css", meta={REQUISITE_META: "stylesheet", HOPS_META: 1})
    mw.process_exception(refused, ConnectionRefusedError())
    # the resolver's own answer, as Twisted's threaded resolver keeps it in the message
    noname = (
        f"address 'gone.invalid' not found: [Errno {socket.EAI_NONAME}] Name or service not known"
    )
    mw.process_exception(gone, DNSLookupError(noname))
    assert c.stats.get_value("webrobot/requisite/image/refused") == 1
    assert c.stats.get_value("webrobot/requisite/stylesheet/no_such_name") == 1
    tracker = RequisiteTracker.of(c)
    page = Request("http://site.test/p")
    wanted = [
        Requisite("http://cdn.test:8080/b.png", IMAGE),
        Requisite("http://cdn.test/c.png", IMAGE),  # another port: asked
        Requisite("https://gone.invalid/t.css", STYLESHEET),  # a dead name on any port
        Requisite("http://site.test/u.js", SCRIPT),
    ]
    asked = [r.url for r in tracker.requests(page, wanted, 1)]
    assert asked == ["http://cdn.test/c.png", "http://site.test/u.js"]
    assert c.stats.get_value("webrobot/requisite/image/refused") == 2
    assert c.stats.get_value("webrobot/requisite/stylesheet/no_such_name") == 2
    assert c.stats.get_value("webrobot/hosts/dead/skipped") == 2
    assert c.stats.get_value("webrobot/hosts/dead/refused") == 1
