"""The report's Scrapy glue: signals (Scrapy's and webrobot's) and the two
downloader-middleware taps feed the per-site tally."""

from __future__ import annotations

import time

import pytest
from scrapy import Request
from scrapy import signals as scrapy_signals
from scrapy.exceptions import IgnoreRequest, NotConfigured
from scrapy.http import HtmlResponse, Response, TextResponse
from scrapy.utils.test import get_crawler

from webrobot import signals
from webrobot.items import PageItem
from webrobot.report.collector import FRONTIER_KEY, ReportCollector
from webrobot.report.taps import (
    DownloadErrorTapMiddleware,
    FrontierTapMiddleware,
)
from webrobot.settingsmodel.model import BY_NAME
from webrobot.signals import ROBOTS_FETCH_META
from webrobot.urls.refusals import Refuser

SITE = "http://127.0.0.1:8701"


def make_crawler(**settings: object):  # type: ignore[no-untyped-def]
    return get_crawler(settings_dict={"WEBROBOT_REPORT_ENABLED": True, **settings})


def send(crawler, signal: object, **kwargs: object) -> None:  # type: ignore[no-untyped-def]
    for _, result in crawler.signals.send_catch_log(signal=signal, **kwargs):
        if hasattr(result, "raiseException"):
            result.raiseException()


def test_one_collector_per_crawler() -> None:
    crawler = make_crawler()
    assert ReportCollector.of(crawler) is ReportCollector.of(crawler)
    assert ReportCollector.of(make_crawler()) is not ReportCollector.of(crawler)


def test_taps_are_off_when_report_and_progress_are() -> None:
    assert BY_NAME["WEBROBOT_PROGRESS_INTERVAL"].default > 0  # on by default
    crawler = make_crawler(WEBROBOT_REPORT_ENABLED=False, WEBROBOT_PROGRESS_INTERVAL=0)
    with pytest.raises(NotConfigured):
        FrontierTapMiddleware.from_crawler(crawler)
    with pytest.raises(NotConfigured):
        DownloadErrorTapMiddleware.from_crawler(crawler)
    FrontierTapMiddleware.from_crawler(make_crawler(WEBROBOT_REPORT_ENABLED=False,
                                                    WEBROBOT_PROGRESS_INTERVAL=5))  # fmt: skip


def test_frontier_follows_scheduler_and_first_middleware() -> None:
    crawler = make_crawler()
    collector = ReportCollector.of(crawler)
    tap = FrontierTapMiddleware.from_crawler(crawler)
    requests = [Request(f"{SITE}/p{i}") for i in range(3)]
    for request in requests:
        send(crawler, scrapy_signals.request_scheduled, request=request, spider=None)
    send(crawler, scrapy_signals.request_dropped, request=requests[2], spider=None)
    assert collector.tally.site(SITE).frontier == 2
    tap.process_request(requests[0])
    assert FRONTIER_KEY not in requests[0].meta
    assert collector.tally.site(SITE).frontier == 1
    robots = Request(f"{SITE}/robots.txt", meta={"dont_obey_robotstxt": True})
    tap.process_request(robots)  # downloaded directly, never scheduled
    assert collector.tally.site(SITE).frontier == 1


def test_a_request_held_for_robots_txt_and_released_is_in_the_frontier_once() -> None:
    crawler = make_crawler()
    collector = ReportCollector.of(crawler)
    tap = FrontierTapMiddleware.from_crawler(crawler)
    request = Request(f"{SITE}/p")
    send(crawler, scrapy_signals.request_scheduled, request=request, spider=None)  # held there
    send(crawler, scrapy_signals.request_scheduled, request=request, spider=None)  # released
    tap.process_request(request)
    assert collector.tally.site(SITE).frontier == 0
    assert collector.tally.site(SITE).scheduled == 1


def test_a_request_held_for_robots_txt_and_refused_leaves_the_frontier() -> None:
    """A site whose robots.txt is given up on (or disallows all) refuses the
    requests held for it: they are not 'still scheduled' at the end."""
    crawler = make_crawler()
    collector = ReportCollector.of(crawler)
    tap = FrontierTapMiddleware.from_crawler(crawler)
    request = Request(f"{SITE}/p")
    send(crawler, scrapy_signals.request_scheduled, request=request, spider=None)
    tap.process_request(request)  # reached the robots.txt middleware, handed back
    send(crawler, scrapy_signals.request_scheduled, request=request, spider=None)  # held there
    assert collector.tally.site(SITE).frontier == 1
    send(crawler, signals.request_refused, request=request, reason="robots_unreachable", site=SITE)
    assert collector.tally.site(SITE).frontier == 0
    assert collector.tally.site(SITE).state(0) == "exhausted"
    assert collector.tally.site(SITE).refused == {"robots_unreachable": 1}


def test_downloads_robots_and_errors_reach_the_tally() -> None:
    crawler = make_crawler()
    collector = ReportCollector.of(crawler)
    errors = DownloadErrorTapMiddleware.from_crawler(crawler)
    page = Request(f"{SITE}/a")
    robots = Request(
        f"{SITE}/robots.txt", meta={"dont_obey_robotstxt": True, ROBOTS_FETCH_META: SITE}
    )
    for request in (page, robots):
        send(crawler, scrapy_signals.request_reached_downloader, request=request, spider=None)
    assert collector.tally.site(SITE).state(0) == "waiting_robots"
    robots_response = TextResponse(robots.url, status=200, request=robots,
                                   body=b"User-agent: *\nDisallow: /x\nCrawl-delay: 3\n")  # fmt: skip
    send(
        crawler,
        scrapy_signals.response_downloaded,
        response=robots_response,
        request=robots,
        spider=None,
    )
    send(
        crawler,
        scrapy_signals.response_received,
        response=robots_response,
        request=robots,
        spider=None,
    )
    send(crawler, scrapy_signals.request_left_downloader, request=robots, spider=None)
    site = collector.tally.site(SITE)
    assert site.robots.rules is None and site.robots.status is None, "the body is not read"
    send(crawler, signals.robots_resolved, site=SITE, status=200, outcome="rules",
         rules="group '*': 1 disallow, 0 allow", crawl_delay=3.0)  # fmt: skip
    send(crawler, scrapy_signals.response_downloaded, spider=None, request=page,
         response=HtmlResponse(page.url, status=304, request=page))  # fmt: skip
    send(crawler, scrapy_signals.request_left_downloader, request=page, spider=None)
    errors.process_exception(page, TimeoutError("slow"))
    errors.process_exception(page, IgnoreRequest("not an error"))
    assert site.robots.fetches == 1 and site.robots.status == 200 and site.robots.resolved
    assert site.robots.rules == "group '*': 1 disallow, 0 allow"
    assert site.robots.crawl_delay == 3.0
    assert (site.requests, site.responses, site.unchanged) == (1, 1, 1)
    assert site.errors == {"TimeoutError": 1}
    assert site.bytes == len(robots_response.body)


def test_a_robots_txt_fetch_counts_for_its_site_wherever_it_was_redirected() -> None:
    """The robots.txt middleware follows redirects itself: each hop is a request
    of its own, marked with the site whose robots.txt it is."""
    crawler = make_crawler()
    collector = ReportCollector.of(crawler)
    other = "http://127.0.0.1:8702"
    hop = Request(
        f"{other}/policies/crawlers", meta={"dont_obey_robotstxt": True, ROBOTS_FETCH_META: SITE}
    )
    send(crawler, scrapy_signals.request_reached_downloader, request=hop, spider=None)
    send(crawler, scrapy_signals.response_downloaded, spider=None, request=hop,
         response=TextResponse(hop.url, status=200, request=hop, body=b"User-agent: *\n"))  # fmt: skip
    send(crawler, scrapy_signals.request_left_downloader, request=hop, spider=None)
    errors = DownloadErrorTapMiddleware.from_crawler(crawler)
    errors.process_exception(hop, ConnectionRefusedError())
    assert collector.tally.site(SITE).robots.fetches == 1
    assert collector.tally.site(SITE).robots.errors == {"ConnectionRefusedError": 1}
    assert other not in collector.tally.sites, "the redirect's target did not serve a page"
    # a page whose path happens to be /robots.txt, asked for by a spider, is a page
    page = Request(f"{other}/robots.txt", meta={"dont_obey_robotstxt": True})
    send(crawler, scrapy_signals.request_reached_downloader, request=page, spider=None)
    send(crawler, scrapy_signals.request_left_downloader, request=page, spider=None)
    assert (
        collector.tally.site(other).requests == 1
        and collector.tally.site(other).robots.fetches == 0
    )


def test_a_failed_robots_txt_attempt_reports_its_status() -> None:
    crawler = make_crawler()
    collector = ReportCollector.of(crawler)
    send(
        crawler, signals.site_deferred, site=SITE, seconds=2.0, attempt=1, reason="503", status=503
    )
    assert collector.tally.site(SITE).robots.status == 503
    send(crawler, signals.site_deferred, site=SITE, seconds=4.0, attempt=2, reason="TimeoutError",
         status=None)  # fmt: skip
    assert collector.tally.site(SITE).robots.status == 503, "no answer: the last status stays"
    assert collector.tally.site(SITE).deferrals == 1


def test_refusals_are_counted_once_whichever_way_they_come() -> None:
    crawler = make_crawler()
    collector = ReportCollector.of(crawler)
    tap = FrontierTapMiddleware.from_crawler(crawler)
    refuser = Refuser(crawler)
    refused = Request(f"{SITE}/trap/trap/trap")
    exc = refuser.refuse(refused, "repeated_segment")
    tap.process_exception(refused, exc)  # the same refusal, seen again at the end of the chain
    scrapy_robots = Request(f"{SITE}/private/")
    tap.process_exception(scrapy_robots, IgnoreRequest("Forbidden by robots.txt"))
    tap.process_exception(scrapy_robots, ValueError("not a refusal"))
    assert collector.tally.site(SITE).refused == {"repeated_segment": 1, "robots_txt": 1}


def test_webrobot_signals_contract() -> None:
    crawler = make_crawler()
    collector = ReportCollector.of(crawler)
    send(crawler, signals.site_deferred, site=SITE, delay=30.0, reason="robots_503")
    assert collector.tally.site(SITE).state(collector.now()) == "deferred"
    send(crawler, signals.robots_resolved, site=SITE, status=200, outcome="rules",
         rules="3 rules", fetched_at=1.0, expires=3601.0, crawl_delay=None)  # fmt: skip
    robots = collector.tally.site(SITE).robots
    assert robots.resolved and robots.rules == "3 rules" and robots.expires == 3601.0
    assert collector.tally.site(SITE).deferred_from is None, "resolving ends the deferral"
    send(crawler, signals.robots_resolved, site="http://other:80")  # only site is required
    assert collector.tally.site("http://other:80").robots.resolved
    request = Request(f"{SITE}/dup")
    send(crawler, signals.page_flagged, request=request, site=SITE, flag="duplicate")
    assert collector.tally.flag_count(collector.tally.site(SITE), "duplicate") == 1


def test_webrobot_signals_tolerate_other_spellings() -> None:
    """Senders written before the contract was fixed: a request instead of a site,
    ``seconds`` or an epoch ``until`` instead of ``delay``."""
    crawler = make_crawler()
    collector = ReportCollector.of(crawler)
    other = "http://other:8080"
    send(crawler, signals.site_deferred, request=Request(f"{SITE}/x"), seconds=60)
    send(crawler, signals.site_deferred, site=other, until=time.time() + 60)
    send(crawler, signals.site_deferred)  # nothing to go on: ignored
    now = collector.now()
    assert collector.tally.site(SITE).state(now) == "deferred"
    assert collector.tally.site(other).deferred_until == pytest.approx(now + 60, abs=5)
    send(crawler, signals.robots_resolved, request=Request(f"{SITE}/x"), status=200)
    assert collector.tally.site(SITE).robots.resolved
    send(crawler, signals.page_flagged, request=Request(f"{SITE}/x"), flag="noindex")
    assert collector.tally.site(SITE).flags_signalled == {"noindex": 1}
    assert set(collector.tally.sites) == {SITE, other}


def test_items_drops_and_spider_errors_by_site() -> None:
    crawler = make_crawler()
    collector = ReportCollector.of(crawler)
    response = Response(f"{SITE}/a")
    item = PageItem(url=response.url, status=200, depth=0, referer=None, fetched_at="",
                    content_type="text/html", title=None, md5="", meta_robots=["NOFOLLOW"])  # fmt: skip
    send(crawler, scrapy_signals.item_scraped, item=item, response=response, spider=None)
    send(crawler, scrapy_signals.item_dropped, item={"url": f"{SITE}/b"}, response=None,
         exception=Exception("duplicate of /a"), spider=None)  # fmt: skip

    class Failure:
        value = KeyError("x")

    send(crawler, scrapy_signals.spider_error, failure=Failure(), response=response, spider=None)
    site = collector.tally.site(SITE)
    assert (site.items, site.items_dropped) == (1, 1)
    assert site.flags_inferred == {"nofollow": 1, "duplicate": 1}
    assert site.errors == {"spider KeyError": 1}


def _fetch(crawler, request: Request, response: Response | None) -> None:  # type: ignore[no-untyped-def]
    """A request through the downloader (answered, or not) and, answered, handed on."""
    send(crawler, scrapy_signals.request_reached_downloader, request=request, spider=None)
    if response is not None:
        send(crawler, scrapy_signals.response_downloaded, spider=None, request=request,
             response=response)  # fmt: skip
    send(crawler, scrapy_signals.request_left_downloader, request=request, spider=None)
    if response is not None:
        send(crawler, scrapy_signals.response_received, spider=None, request=request,
             response=response)  # fmt: skip


def test_each_kind_of_fetch_is_counted_apart_in_tally_and_stats() -> None:
    crawler = make_crawler()
    collector = ReportCollector.of(crawler)
    collector.pagecount = 4  # CLOSESPIDER_PAGECOUNT (Scrapy's extension would close the crawl)
    page = Request(f"{SITE}/")
    image = Request(f"{SITE}/a.png", meta={signals.REQUISITE_META: "image"})
    # a PDF served without an extension: known by its type once it answers
    document = Request(f"{SITE}/get?id=7")
    dead = Request(f"{SITE}/gone.pdf")  # no answer: known by its extension
    robots = Request(f"{SITE}/robots.txt", meta={ROBOTS_FETCH_META: SITE})
    _fetch(crawler, robots, TextResponse(robots.url, body=b"", request=robots))
    _fetch(crawler, page, HtmlResponse(page.url, body=b"<p>", request=page))
    _fetch(crawler, image, Response(image.url, body=b"\x89PNG", request=image,
                                    headers={"Content-Type": "image/png"}))  # fmt: skip
    _fetch(crawler, document, Response(document.url, body=b"%PDF-1.4", request=document,
                                       headers={"Content-Type": "application/pdf"}))  # fmt: skip
    _fetch(crawler, dead, None)
    _fetch(crawler, page, HtmlResponse(page.url, body=b"<p>", request=page))
    site = collector.tally.site(SITE)
    assert site.sent == {"robots": 1, "page": 2, "image": 1, "document": 2}
    assert site.received == {"robots": 1, "page": 2, "image": 1, "document": 1}
    assert (site.requests, site.responses, site.robots.fetches) == (2, 2, 1)
    assert crawler.stats is not None
    stats = crawler.stats.get_stats()
    assert {k: v for k, v in stats.items() if k.startswith("webrobot/requests/")} == {
        "webrobot/requests/robots": 1, "webrobot/requests/page": 2,
        "webrobot/requests/image": 1, "webrobot/requests/document": 2,
    }  # fmt: skip
    assert {k: v for k, v in stats.items() if k.startswith("webrobot/responses/")} == {
        "webrobot/responses/robots": 1, "webrobot/responses/page": 2,
        "webrobot/responses/image": 1, "webrobot/responses/document": 1,
    }  # fmt: skip
    # CLOSESPIDER_PAGECOUNT=4 was reached by the 4th response handed on; one came after
    assert collector.pagecount_reached is not None
    assert collector.after_pagecount == {"page": 1}
