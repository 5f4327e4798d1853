"""A page's links become requests only when their URL was neither visited nor queued."""

from __future__ import annotations

from typing import Any

from scrapy import Request

from tests.components import webrobot_crawler
from webrobot.seen.dupefilter import SeenUrlFilter, link_filter
from webrobot.seen.linkrequests import ALREADY_SEEN, link_requests


def parse(response: Any) -> None:
    pass


def setup(**settings: object) -> tuple[Any, SeenUrlFilter]:
    crawler = webrobot_crawler(**settings)
    df = SeenUrlFilter.from_crawler(crawler)
    df.open()
    return crawler, df


def test_seen_links_never_become_requests() -> None:
    crawler, df = setup()
    assert link_filter(crawler) is df
    assert df.request_seen(Request("http://a.test/x?b=2&a=1")) is False  # queued before
    urls = [
        "http://a.test/x?a=1&b=2",
        "http://a.test/new",
        "http://a.test/x?b=2&a=1",
        "http://a.test/other",
    ]
    made = list(link_requests(crawler, urls, parse))
    assert [r.url for r in made] == ["http://a.test/new", "http://a.test/other"]
    assert crawler.stats.get_value(ALREADY_SEEN) == 2
    assert len(df.store) == 1, "looking a link up does not add it: the scheduler does"
    # The request carries the fingerprint computed for the lookup; the filter agrees with it.
    assert df.request_seen(made[0]) is False and df.request_seen(made[0]) is True
    assert made[0].callback is parse


def test_the_fingerprint_handed_over_is_the_one_the_filter_computes() -> None:
    crawler, df = setup()
    [request] = link_requests(crawler, ["http://A.test:80/p/../q?z=1&a=2#frag"], parse)
    fresh = Request(request.url)
    assert df.fingerprinter.fingerprint(request) == df.fingerprinter.fingerprint(fresh)


def test_bad_links_are_counted_not_raised() -> None:
    crawler, _ = setup()
    made = list(link_requests(crawler, ["http://a.test:port/", "http://a.test/ok"], parse))
    assert [r.url for r in made] == ["http://a.test/ok"]
    assert crawler.stats.get_value("webrobot/page/bad_link") == 1


def test_with_another_duplicate_filter_every_link_becomes_a_request() -> None:
    crawler = webrobot_crawler(DUPEFILTER_CLASS="scrapy.dupefilters.RFPDupeFilter")
    assert link_filter(crawler) is None
    made = list(link_requests(crawler, ["http://a.test/1", "http://a.test/1"], parse))
    assert len(made) == 2
    assert crawler.stats.get_value(ALREADY_SEEN) is None


def test_a_crawl_builds_no_request_for_links_back_to_seen_pages(
    make_site: Any, tmp_path: Any
) -> None:
    from tests.crawling import run_crawl
    from webrobot.demo.server import Reply

    site = make_site("links")
    site.add("/robots.txt", Reply.text("User-agent: *\nDisallow:\n"))
    pages = [f"/p{i}" for i in range(20)]
    every = "".join(f"<a href='{p}'>{p}</a>" for p in ["/", *pages])
    for target in ["/", *pages]:
        site.html(target, f"<html><head><title>{target}</title></head><body>{every}</body></html>")
    result = run_crawl(tmp_path, args={"start_urls": site.url("/")})
    assert result.returncode == 0, result.stderr
    assert sorted(t for t in site.targets() if t != "/robots.txt") == sorted(["/", *pages]), (
        "each page once"
    )
    # 21 pages of 21 links: the first page's 20 new links become requests, later pages'
    # links are to pages queued or visited by then and never become requests.
    links = 21 * 21
    assert result.stat(ALREADY_SEEN) + result.stat("dupefilter/filtered") + 20 == links
    assert result.stat(ALREADY_SEEN) >= links - 20 - 21
    # Every queued request (start URL and links) waited in the frontier in its compact form.
    assert result.stat("scheduler/enqueued/memory") >= 21  # and whatever else queues (a sitemap)
    assert result.stat("webrobot/frontier/memory/as_request") == 0
