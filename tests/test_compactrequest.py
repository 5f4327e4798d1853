"""The in-memory frontier's compact requests: what goes in comes back out, in order."""

from __future__ import annotations

from typing import Any

import pytest
from scrapy import FormRequest, Request, Spider
from scrapy.utils.request import request_from_dict
from scrapy.utils.test import get_crawler

from webrobot.frontier.compactrequest import RequestCodec
from webrobot.frontier.scheduler import FrontierScheduler


class LinkSpider(Spider):
    name = "links"

    def parse(self, response: Any) -> None:
        pass

    def parse_page(self, response: Any, **kwargs: Any) -> None:
        pass

    def failed(self, failure: Any) -> None:
        pass


def link(spider: LinkSpider, url: str, **kwargs: Any) -> Request:
    params: dict[str, Any] = {
        "callback": spider.parse_page,
        "errback": spider.failed,
        "headers": {"Referer": "http://site.test/parent"},
        "meta": {"depth": 2, "_report_frontier": True, "download_slot": "site.test"},
        "priority": -2,
    }
    params.update(kwargs)
    return Request(url, **params)


def same(a: Request, b: Request, spider: Spider) -> bool:
    return a.to_dict(spider=spider) == b.to_dict(spider=spider)


def test_a_link_request_is_packed_and_built_back_identical() -> None:
    spider = LinkSpider()
    codec = RequestCodec(spider)
    request = link(
        spider, "http://site.test/a?b=1", cb_kwargs={"label": "x", "n": 3}, dont_filter=True
    )
    packed = codec.pack(request)
    assert isinstance(packed, tuple), "a link request fits the compact form"
    back = codec.unpack(packed)
    assert back is not request and same(back, request, spider)
    assert back.callback == spider.parse_page and back.errback == spider.failed
    assert back.headers.getlist("Referer") == [b"http://site.test/parent"]
    assert back.priority == -2 and back.dont_filter is True
    assert back.meta == {"depth": 2, "_report_frontier": True, "download_slot": "site.test"}
    assert back.cb_kwargs == {"label": "x", "n": 3}
    assert codec.unpacked == 0


def test_a_bare_request_round_trips() -> None:
    codec = RequestCodec(LinkSpider())
    request = Request("http://site.test/")
    packed = codec.pack(request)
    assert packed == ("http://site.test/", None, (0, None, None, False, (), ()), None)
    assert same(codec.unpack(packed), request, LinkSpider())


def test_built_requests_share_one_callback_object() -> None:
    # Scrapy caches its generator-return-value check weakly on the callback object: a
    # new bound method per request would have it parse the method's source again.
    spider = LinkSpider()
    codec = RequestCodec(spider)
    first, second = (
        codec.unpack(codec.pack(link(spider, f"http://site.test/{n}"))) for n in (1, 2)
    )
    assert first.callback is second.callback and first.callback == spider.parse_page
    assert first.errback is second.errback
    read_back = request_from_dict(
        link(spider, "http://site.test/3").to_dict(spider=spider), spider=spider
    )
    assert read_back.callback is not first.callback  # a fresh getattr() each time
    codec.pin_callbacks(read_back)
    assert read_back.callback is first.callback and read_back.errback is first.errback
    foreign = Request("http://site.test/4", callback=print)
    assert codec.pin_callbacks(foreign).callback is print  # not a spider method: left alone


def test_links_of_one_page_share_their_referer_and_shape() -> None:
    spider = LinkSpider()
    codec = RequestCodec(spider)
    first, second = (codec.pack(link(spider, f"http://site.test/{n}")) for n in range(2))
    assert isinstance(first, tuple) and isinstance(second, tuple)
    assert first[1] is second[1], "one referer object for the links of one page"
    assert first[2] is second[2], "one shape object for requests alike"


@pytest.mark.parametrize(
    "make",
    [
        lambda s: FormRequest("http://site.test/f", formdata={"a": "1"}),
        lambda s: Request("http://site.test/p", method="POST", body=b"x"),
        lambda s: Request("http://site.test/c", cookies={"a": "1"}),
        lambda s: Request("http://site.test/f", flags=["cached"]),
        lambda s: Request("http://site.test/l", encoding="latin-1"),
        lambda s: Request("http://site.test/h", headers={"User-Agent": "x"}),
        lambda s: Request("http://site.test/h", headers={"Referer": ["a", "b"]}),
        lambda s: Request("http://site.test/m", meta={"redirect_urls": ["http://site.test/"]}),
        lambda s: Request("http://site.test/k", cb_kwargs={"items": [1]}),
        lambda s: Request("http://site.test/l", callback=lambda response: None),
        lambda s: Request("http://site.test/o", callback=LinkSpider().parse),
    ],
    ids=["form", "post", "cookies", "flags", "encoding", "header", "two-referers", "list-meta",
         "list-kwargs", "lambda", "other-spider"],
)  # fmt: skip
def test_what_the_tuple_cannot_describe_is_kept_as_the_request(make: Any) -> None:
    spider = LinkSpider()
    codec = RequestCodec(spider)
    request = make(spider)
    assert codec.pack(request) is request
    assert codec.unpack(request) is request
    assert codec.unpacked == 1


def scheduler() -> tuple[FrontierScheduler, LinkSpider]:
    crawler = get_crawler(
        LinkSpider, {"SCHEDULER": "webrobot.frontier.scheduler.FrontierScheduler"}
    )
    crawler.spider = spider = crawler._create_spider()
    sched = FrontierScheduler.from_crawler(crawler)
    sched.open(spider)
    return sched, spider


def test_memory_scheduler_keeps_priorities_and_arrival_order() -> None:
    sched, spider = scheduler()
    assert sched.mode == "memory"
    queued = [
        link(spider, "http://a.test/0", priority=0),
        link(spider, "http://b.test/d1", priority=-1),
        link(spider, "http://a.test/1", priority=0),
        Request("http://a.test/form", method="POST", body=b"x", priority=0),  # kept as a request
        link(spider, "http://c.test/urgent", priority=5),
        link(spider, "http://b.test/d2", priority=-1),
    ]
    for request in queued:
        assert sched.enqueue_request(request)
    assert not sched.enqueue_request(link(spider, "http://a.test/0")), "a visited URL is filtered"
    assert len(sched) == 6
    out = []
    while (request := sched.next_request()) is not None:
        out.append(request)
    assert [r.url for r in out] == [
        "http://c.test/urgent", "http://a.test/0", "http://a.test/1", "http://a.test/form",
        "http://b.test/d1", "http://b.test/d2",
    ]  # fmt: skip
    by_url = {r.url: r for r in queued}
    assert all(same(r, by_url[r.url], spider) for r in out)
    assert out[3] is queued[3]
    assert sched.stats.get_value("webrobot/frontier/memory/as_request") == 1
    assert not sched.has_pending_requests()
    sched.close("finished")
