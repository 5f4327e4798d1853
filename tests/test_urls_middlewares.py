"""The Scrapy glue of the trap defences, built from a crawler with the project's
settings: what each component refuses, and how it counts, logs and signals."""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

import pytest
from scrapy import Request
from scrapy.crawler import Crawler
from scrapy.exceptions import IgnoreRequest, NotConfigured
from scrapy.http import HtmlResponse
from scrapy.http.request import NO_CALLBACK
from scrapy.utils.misc import build_from_crawler
from scrapy.utils.test import get_crawler

from webrobot import settings as project_settings
from webrobot import signals
from webrobot.seen.requestfingerprinter import CanonicalRequestFingerprinter
from webrobot.settingsmodel.parse import SettingValueError
from webrobot.sites.config import SiteConfig, parse_site_config
from webrobot.spiders.webrobot import WebrobotSpider
from webrobot.urls.blocklist import BlocklistError
from webrobot.urls.blocklistmiddleware import BlocklistMiddleware
from webrobot.urls.budgetmiddleware import PageBudgetMiddleware
from webrobot.urls.depthmiddleware import DepthLimitMiddleware
from webrobot.urls.linkgate import LinkGateMiddleware
from webrobot.urls.scope import SiteScope
from webrobot.urls.scopemiddleware import SiteScopeMiddleware
from webrobot.urls.trapmiddleware import UrlTrapMiddleware

PROJECT = {
    name: getattr(project_settings, name) for name in dir(project_settings) if name.isupper()
}
SITE = "http://127.0.0.1:8001"


def make_crawler(
    settings: dict[str, Any] | None = None, config: SiteConfig | None = None
) -> Crawler:
    crawler = get_crawler(WebrobotSpider, {**PROJECT, **(settings or {})})
    spider = WebrobotSpider.from_crawler(crawler, start_urls=SITE + "/")
    if config is not None:
        spider.config = config
        spider.scope = SiteScope(
            config.start_urls, config.allowed_domains, config.allow, config.deny
        )
    crawler.spider = spider
    crawler.stats.open_spider()
    return crawler


def spider_error(crawler: Crawler) -> object:
    return getattr(crawler.spider, "config_error", None)


def refusals(crawler: Crawler) -> list[tuple[str, str, str]]:
    seen: list[tuple[str, str, str]] = []

    def record(request: Request, reason: str, site: str) -> None:
        seen.append((request.url, reason, site))

    crawler.signals.connect(record, signal=signals.request_refused, weak=False)
    return seen


def refused_stats(crawler: Crawler) -> dict[str, int]:
    prefix = "webrobot/url/refused/"
    return {
        k[len(prefix) :]: v for k, v in crawler.stats.get_stats().items() if k.startswith(prefix)
    }


# -- UrlTrapMiddleware ---------------------------------------------------------


def test_trap_middleware_refuses_counts_and_signals() -> None:
    crawler = make_crawler({"DEPTH_LIMIT": 3})
    seen = refusals(crawler)
    mw = build_from_crawler(UrlTrapMiddleware, crawler)
    mw.process_request(Request(SITE + "/a/x/x/"))  # passes
    for url in (SITE + "/a/x/x/x/", SITE + "/" + "s/" * 40, SITE + "/" + "y" * 2100):
        with pytest.raises(IgnoreRequest, match="webrobot refused"):
            mw.process_request(Request(url))
    deep = Request(SITE + "/deep", meta={"depth": 4})
    with pytest.raises(IgnoreRequest):
        mw.process_request(deep)
    mw.process_request(Request(SITE + "/ok", meta={"depth": 3}))  # passes
    # Retries and redirects are dont_filter / re-made requests: still checked.
    with pytest.raises(IgnoreRequest):
        mw.process_request(Request(SITE + "/x/x/x", dont_filter=True))
    assert refused_stats(crawler) == {
        "repeated_segment": 2, "too_many_segments": 1, "too_long": 1, "depth": 1,
    }  # fmt: skip
    assert [(reason, site) for _, reason, site in seen] == [
        ("repeated_segment", "http://127.0.0.1:8001"),
        ("too_many_segments", "http://127.0.0.1:8001"),
        ("too_long", "http://127.0.0.1:8001"),
        ("depth", "http://127.0.0.1:8001"),
        ("repeated_segment", "http://127.0.0.1:8001"),
    ]


def test_too_long_warning_names_site_and_is_rate_limited(caplog: pytest.LogCaptureFixture) -> None:
    crawler = make_crawler({"URLLENGTH_LIMIT": 50})
    mw = build_from_crawler(UrlTrapMiddleware, crawler)
    urls = [f"{SITE}/{i}/" + "z" * 300 for i in range(3)]
    with caplog.at_level(logging.DEBUG):
        for url in urls:
            with pytest.raises(IgnoreRequest):
                mw.process_request(Request(url))
    warnings = [
        r
        for r in caplog.records
        if r.levelno == logging.WARNING and r.name == "webrobot.urls.trapmiddleware"
    ]
    assert len(warnings) == 1, "one warning per site per interval"
    message = warnings[0].getMessage()
    assert f"at {SITE}: " in message
    assert urls[0][:200] in message and urls[0][:201] not in message, "the first 200 characters"
    assert "> URLLENGTH_LIMIT 50" in message
    assert crawler.stats.get_value("webrobot/url/refused/too_long") == 3
    caplog.clear()
    crawler = make_crawler({"URLLENGTH_LIMIT": 50, "WEBROBOT_TOO_LONG_WARNING_INTERVAL": 0})
    mw = build_from_crawler(UrlTrapMiddleware, crawler)
    for url in urls:
        with pytest.raises(IgnoreRequest):
            mw.process_request(Request(url))
    assert len([r for r in caplog.records if r.name == "webrobot.urls.trapmiddleware"]) == 3


def test_trap_limits_zero_and_switch() -> None:
    crawler = make_crawler({"URLLENGTH_LIMIT": 0, "WEBROBOT_MAX_SEGMENT_REPEATS": 0})
    mw = build_from_crawler(UrlTrapMiddleware, crawler)
    mw.process_request(Request(SITE + "/x/x/x/" + "y" * 3000))  # passes
    with pytest.raises(NotConfigured):
        build_from_crawler(UrlTrapMiddleware, make_crawler({"WEBROBOT_TRAPS_ENABLED": "False"}))


def test_negative_limit_is_refused_when_the_crawler_starts() -> None:
    with pytest.raises(SettingValueError) as caught:
        make_crawler({"WEBROBOT_MAX_PATH_SEGMENTS": "-1"})
    assert (
        str(caught.value)
        == "setting WEBROBOT_MAX_PATH_SEGMENTS='-1': expected a whole number >= 0 (default 32)"
    )


# -- DepthLimitMiddleware (spider side) -----------------------------------------


def test_depth_limit_refusals_are_counted_per_reason() -> None:
    crawler = make_crawler({"DEPTH_LIMIT": 1})
    seen = refusals(crawler)
    mw = build_from_crawler(DepthLimitMiddleware, crawler)
    start = Request(SITE + "/")
    response = HtmlResponse(SITE + "/", request=start, body=b"")
    response.meta["depth"] = 1
    links = [Request(SITE + "/a"), Request(SITE + "/b")]
    out = list(mw.process_spider_output(response, links))
    assert out == []
    assert crawler.stats.get_value("webrobot/url/refused/depth") == 2
    assert [reason for _, reason, _ in seen] == ["depth", "depth"]
    response.meta["depth"] = 0
    kept = list(mw.process_spider_output(response, [Request(SITE + "/c")]))
    assert [r.meta["depth"] for r in kept] == [1]
    assert kept[0].priority == -1, "breadth-first priority kept (DEPTH_PRIORITY 1)"


# -- PageBudgetMiddleware ----------------------------------------------------------


def test_budget_per_site_and_robots_txt_is_free() -> None:
    crawler = make_crawler({"WEBROBOT_MAX_PAGES_PER_SITE": 2})
    mw = build_from_crawler(PageBudgetMiddleware, crawler)
    for _ in range(3):
        mw.process_request(Request(SITE + "/robots.txt", callback=NO_CALLBACK))  # passes
    mw.process_request(Request(SITE + "/1"))  # passes
    mw.process_request(Request(SITE + "/2", dont_filter=True))  # passes
    with pytest.raises(IgnoreRequest):
        mw.process_request(Request(SITE + "/3"))
    mw.process_request(Request("http://127.0.0.1:8002/1"))  # passes (another site)
    assert crawler.stats.get_value("webrobot/url/refused/budget") == 1
    with pytest.raises(NotConfigured):
        build_from_crawler(PageBudgetMiddleware, make_crawler())


# -- BlocklistMiddleware ------------------------------------------------------------


def test_blocklist_middleware_matches_canonical_url(tmp_path: Path) -> None:
    path = tmp_path / "blocklist.txt"
    path.write_text(
        "# test\nre:^http://127\\.0\\.0\\.1:8001/~staff/\nhttp://127.0.0.1:8003\n", "utf-8"
    )
    crawler = make_crawler({"WEBROBOT_BLOCKLIST": str(path)})
    mw = build_from_crawler(BlocklistMiddleware, crawler)
    with pytest.raises(IgnoreRequest):
        mw.process_request(Request(SITE + "/%7estaff/x.html"))  # the pattern sees ~staff
    with pytest.raises(IgnoreRequest):
        mw.process_request(Request("http://127.0.0.1:8003/", dont_filter=True))
    mw.process_request(Request(SITE + "/other/"))  # passes
    assert crawler.stats.get_value("webrobot/url/refused/blocklist") == 2
    with pytest.raises(NotConfigured):
        build_from_crawler(BlocklistMiddleware, make_crawler())


def test_a_trailing_dot_on_the_host_does_not_get_past_the_blocklist() -> None:
    """``spam.example.`` is the fully qualified spelling of ``spam.example``: DNS
    resolves both to one host, so neither a domain, a site nor a pattern may miss it."""
    blocked = ["spam.example", "http://site.example:8080", "re:^http://pattern\\.example/"]
    crawler = make_crawler({"WEBROBOT_BLOCKLIST": blocked})
    mw = build_from_crawler(BlocklistMiddleware, crawler)
    for url in (
        "http://www.spam.example./",
        "http://site.example.:8080/x",
        "http://PATTERN.example./",
    ):
        with pytest.raises(IgnoreRequest):
            mw.process_request(Request(url))
    assert crawler.stats.get_value("webrobot/url/refused/blocklist") == 3


def test_the_link_gate_and_the_middleware_share_one_blocklist(tmp_path: Path) -> None:
    path = tmp_path / "blocklist.txt"
    path.write_text("spam.example\n", "utf-8")
    crawler = make_crawler({"WEBROBOT_BLOCKLIST": str(path)})
    gate = build_from_crawler(LinkGateMiddleware, crawler)
    mw = build_from_crawler(BlocklistMiddleware, crawler)
    assert mw.blocklist is gate.blocklist and mw.blocklist.match("http://spam.example/")
    other = build_from_crawler(BlocklistMiddleware, make_crawler({"WEBROBOT_BLOCKLIST": str(path)}))
    assert other.blocklist is not mw.blocklist, "each crawl loads its own"


def test_bad_blocklist_stops_the_spider_with_file_and_line(tmp_path: Path) -> None:
    path = tmp_path / "blocklist.txt"
    path.write_text("ok.example\nre:(\n", "utf-8")
    crawler = make_crawler({"WEBROBOT_BLOCKLIST": str(path)})
    with pytest.raises(NotConfigured):
        build_from_crawler(BlocklistMiddleware, crawler)
    assert isinstance(spider_error(crawler), BlocklistError)
    assert str(spider_error(crawler)).startswith(
        f"{path}: line 2: expected a valid regular expression"
    )


# -- Scope on the canonical URL -------------------------------------------------------


def test_deny_pattern_sees_the_canonical_url() -> None:
    config = parse_site_config(
        f'start_urls = ["{SITE}/"]\ndeny = ["/~staff/", "[?]a=1&b=2$"]\nindex_pages = ["index.html"]',
        "a.toml", "a",
    )  # fmt: skip
    crawler = make_crawler(config=config)
    mw = build_from_crawler(SiteScopeMiddleware, crawler)
    for url in (SITE + "/%7Estaff/", SITE + "/%7estaff/index.html", SITE + "/p?b=2&a=1#x"):
        with pytest.raises(IgnoreRequest):
            mw.process_request(Request(url))
    mw.process_request(Request(SITE + "/p?a=1"))  # passes
    assert crawler.stats.get_value("webrobot/url/refused/deny_pattern") == 3


def test_a_url_without_a_host_is_refused_not_raised() -> None:
    crawler = make_crawler()
    mw = build_from_crawler(SiteScopeMiddleware, crawler)
    for url in ("http:////m&%5B(tv)/%5D9", "http:////127.0.0.1:8001/"):
        with pytest.raises(IgnoreRequest):
            mw.process_request(Request(url))
    assert crawler.stats.get_value("webrobot/url/refused/offsite") == 2


# -- CanonicalRequestFingerprinter ---------------------------------------------------


def test_fingerprints_fold_aliases_with_site_rules() -> None:
    config = parse_site_config(
        f'start_urls = ["{SITE}/"]\nindex_pages = ["index.html"]\nstrip_params = ["sessionid", "utm_*"]',
        "a.toml", "a",
    )  # fmt: skip
    crawler = make_crawler(config=config)
    fp = build_from_crawler(CanonicalRequestFingerprinter, crawler).fingerprint
    groups = [
        ["http://example.com/d/", "http://example.com:80/d/index.html", "http://EXAMPLE.com/d/#x",
         "http://example.com/d/?sessionid=9&utm_source=y"],
        ["http://example.com/~s/", "http://example.com/%7Es/", "http://example.com/%7es/"],
        ["http://example.com/q?a=1&b=2", "http://example.com/q?b=2&a=1"],
    ]  # fmt: skip
    prints = [{fp(Request(url)) for url in group} for group in groups]
    assert all(len(p) == 1 for p in prints), "aliases share one fingerprint"
    assert len(set().union(*prints)) == len(groups), "different pages differ"
    assert fp(Request("http://example.com/d/", method="POST")) != fp(
        Request("http://example.com/d/")
    )
    assert fp(Request("http://example.com/d/", method="POST", body=b"x")) != fp(
        Request("http://example.com/d/", method="POST", body=b"y")
    )
    assert fp(Request("http://example.com/d/", headers={"X": "1"})) == fp(
        Request("http://example.com/d/")
    )
    verbatim = Request("http://example.com/d/index.html", meta={"verbatim_url": True})
    assert fp(verbatim) != fp(Request("http://example.com/d/"))
    assert len(fp(Request("http://example.com/"))) == 20


def test_fingerprinter_without_site_rules_keeps_index_pages() -> None:
    fp = build_from_crawler(CanonicalRequestFingerprinter, make_crawler()).fingerprint
    assert fp(Request("http://a/d/index.html")) != fp(Request("http://a/d/"))
    assert fp(Request("http://a:80/d/")) == fp(Request("http://a/d/"))


def test_project_uses_the_canonical_fingerprinter() -> None:
    crawler = make_crawler()
    assert isinstance(crawler.request_fingerprinter, CanonicalRequestFingerprinter)
