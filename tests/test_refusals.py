"""The one refusal path: every refusal counted and signalled, the first per site
and reason logged at INFO for a bounded number of sites."""

from __future__ import annotations

import logging

import pytest
from scrapy import Request
from scrapy.utils.test import get_crawler

from webrobot import signals
from webrobot.archive.requisitemiddleware import DEAD_SKIPPED
from webrobot.urls.refusals import SITES_ANNOUNCED, Refuser


def test_first_refusals_at_info_for_a_bounded_number_of_sites(
    caplog: pytest.LogCaptureFixture,
) -> None:
    crawler = get_crawler()
    crawler.stats.open_spider()  # type: ignore[union-attr]
    refuser = Refuser(crawler)
    signalled: list[tuple[str, str]] = []
    crawler.signals.connect(
        lambda request, reason, site: signalled.append((reason, site)),
        signal=signals.request_refused,
        weak=False,
    )
    sites = SITES_ANNOUNCED + 30
    with caplog.at_level(logging.DEBUG, logger="webrobot.urls.refusals"):
        for round_ in range(3):
            for n in range(sites):
                error = refuser.refuse(Request(f"http://s{n}.test/p{round_}"), "offsite")
                assert "offsite" in str(error)
        refuser.refuse(Request("http://s0.test/trap"), "repeated_segment")
    info = [r.getMessage() for r in caplog.records if r.levelno == logging.INFO]
    firsts = [m for m in info if m.startswith("Refusing offsite URLs of ")]
    assert len(firsts) == SITES_ANNOUNCED
    assert firsts[0] == (
        "Refusing offsite URLs of http://s0.test:80 (first: http://s0.test/p0); "
        "further ones are logged at DEBUG"
    )
    assert sum("the first refusal of further sites is logged at DEBUG" in m for m in info) == 1
    # Another reason is announced on its own, even for a site seen already.
    assert any(m.startswith("Refusing repeated_segment URLs of http://s0.test:80 ") for m in info)
    debug = [r for r in caplog.records if r.levelno == logging.DEBUG]
    assert len(debug) == 3 * sites - SITES_ANNOUNCED
    # Every refusal counted and signalled, logged or not.
    assert crawler.stats.get_value("webrobot/url/refused/offsite") == 3 * sites  # type: ignore[union-attr]
    assert len(signalled) == 3 * sites + 1
    assert signalled[-1] == ("repeated_segment", "http://s0.test:80")


def test_a_stat_of_its_own_is_counted() -> None:
    crawler = get_crawler()
    crawler.stats.open_spider()  # type: ignore[union-attr]
    Refuser(crawler).refuse(
        Request("http://a.test/x"), "forbidden", "robots.txt", "robotstxt/forbidden"
    )
    assert crawler.stats.get_value("robotstxt/forbidden") == 1  # type: ignore[union-attr]
    assert crawler.stats.get_value("webrobot/url/refused/forbidden") is None  # type: ignore[union-attr]


def test_a_refusal_said_where_it_was_decided_is_logged_at_debug_and_counted(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """A requisite on a host given up as dead: the record of dead hosts said the host."""
    crawler = get_crawler()
    crawler.stats.open_spider()  # type: ignore[union-attr]
    refuser = Refuser(crawler)
    signalled: list[str] = []
    crawler.signals.connect(
        lambda request, reason, site: signalled.append(site),
        signal=signals.request_refused,
        weak=False,
    )
    with caplog.at_level(logging.DEBUG, logger="webrobot.urls.refusals"):
        for n in range(3):
            refuser.refuse(
                Request(f"http://gone.invalid/{n}.png"),
                "no_such_name",
                stat=DEAD_SKIPPED,
                said=True,
            )
        refuser.refuse(Request("http://other.invalid/x.png"), "no_such_name", stat=DEAD_SKIPPED)
    info = [r.getMessage() for r in caplog.records if r.levelno == logging.INFO]
    expected = (
        "Refusing no_such_name URLs of http://other.invalid:80 (first: "
        "http://other.invalid/x.png); further ones are logged at DEBUG"
    )
    assert info == [expected]
    assert sum(r.levelno == logging.DEBUG for r in caplog.records) == 3
    assert crawler.stats.get_value(DEAD_SKIPPED) == 4  # type: ignore[union-attr]
    assert signalled == ["http://gone.invalid:80"] * 3 + ["http://other.invalid:80"]
