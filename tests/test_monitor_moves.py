"""Watched pages that redirect: the rule (which URLs of a redirect chain moved), and two
crawls end to end where pages move between them: each move is told once."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tests.crawling import CrawlResult, run_crawl
from tests.webhookreceiver import WebhookReceiver
from webrobot.demo.server import Reply, SiteServer
from webrobot.monitor.moves import PERMANENT, TEMPORARY, Move, moves, told_key


@pytest.mark.parametrize(
    ("chain", "reasons", "final", "expected"),
    [
        (["http://s/a"], [301], "http://s/b", [Move("http://s/a", "http://s/b", 301)]),
        (["http://s/a"], [308], "http://s/b", [Move("http://s/a", "http://s/b", 308)]),
        (["http://s/a"], [302], "http://s/b", [Move("http://s/a", "http://s/b", 302)]),
        (["http://s/a", "http://s/b"], [301, 307], "http://s/c",
         [Move("http://s/a", "http://s/c", 301), Move("http://s/b", "http://s/c", 307)]),
        (["http://s/a"], ["meta refresh"], "http://s/b", []),  # a page, not an answer
        (["http://s/a"], [300], "http://s/b", []),  # multiple choices: not a redirect
        (["http://s/a", "http://s/b"], [302, 302], "http://s/a",  # came back to itself
         [Move("http://s/b", "http://s/a", 302)]),
        (["http://s/a"], [], "http://s/b", []),  # no reasons recorded: nothing known
        ([], [], "http://s/b", []),
    ],
)  # fmt: skip
def test_which_urls_of_a_chain_moved(
    chain: list[str], reasons: list[object], final: str, expected: list[Move]
) -> None:
    assert moves(chain, reasons, final) == expected


URLS = st.sampled_from(["http://s/a", "http://s/b", "http://s/c", "https://s/a"])
REASONS = st.one_of(st.integers(100, 599), st.sampled_from(["meta refresh", "301", "x"]), st.none())


@given(st.lists(URLS, max_size=6), st.lists(REASONS, max_size=6), URLS)
def test_a_move_is_a_redirect_of_the_chain_to_where_it_led(
    chain: list[str], reasons: list[object], final: str
) -> None:
    found = moves(chain, reasons, final)
    assert all(m.to == final and m.url != final for m in found)
    assert all(m.status in PERMANENT | TEMPORARY for m in found)
    assert [m.url for m in found] == list(dict.fromkeys(m.url for m in found)), "each URL once"
    assert {m.url for m in found} <= set(chain[: len(reasons)])


def test_permanent_and_told_key() -> None:
    assert Move("a", "b", 301).permanent and Move("a", "b", 308).permanent
    assert not Move("a", "b", 302).permanent and not Move("a", "b", 307).permanent
    assert told_key(Move("a", "b", 302)) != told_key(Move("a", "c", 302))


def page(title: str, text: str, nav: str = "") -> str:
    return (f"<html><head><title>{title}</title></head><body><nav>{nav}</nav>"
            f"<main><h1>{title}</h1><p>{text}</p></main></body></html>")  # fmt: skip


def build(site: SiteServer, crawl: int, away: str) -> None:
    nav = ('<a href="/old">old</a> <a href="/sale">sale</a> <a href="/stay">stay</a> '
           '<a href="/twin">twin</a> <a href="/away">away</a>')  # fmt: skip
    site.html("/", page("Home", "Welcome to the harbour shop.", nav))
    site.html("/stay", page("Stays", "This page never moves."))
    if crawl == 1:
        site.html("/old", page("Lantern", "A brass storm lantern, made by hand."))
        site.html("/sale", page("Sale", "Everything half price this week."))
        site.html("/twin", page("Twin", "A second copy of the stays page."))
        site.html("/away", page("Away", "Soon on another site."))
    else:  # moved for good, and for now; and onto a page the folder knows
        site.add("/twin", Reply(308, b"", {"Location": "/stay"}))  # fetched already
        site.add("/away", Reply(301, b"", {"Location": away}))  # out of the crawl's scope
        site.add("/old", Reply(301, b"", {"Location": site.url("/lantern")}))
        site.html("/lantern", page("Lantern", "A brass storm lantern, made by hand."))
        site.add("/sale", Reply(302, b"", {"Location": "/closed"}))
        site.html("/closed", page("Closed", "The sale is over; back soon."))


def crawl(tmp_path: Path, name: str, site: SiteServer, hook: WebhookReceiver) -> CrawlResult:
    result = run_crawl(tmp_path / name, args={"start_urls": site.url("/")}, settings={
        "WEBROBOT_MONITOR_DIR": str(tmp_path / "monitor"),
        "WEBROBOT_MONITOR_WEBHOOK": hook.url,
        "WEBROBOT_REPORT_ENABLED": "False",
    })  # fmt: skip
    assert result.returncode == 0, result.stderr[-3000:]
    assert "Traceback" not in result.log
    return result


def moved_to(told: list[dict[str, Any]], url: str) -> tuple[str, int, bool]:
    [event] = [e for e in told if e["event"] == "moved" and e["url"] == url]
    return event["to"], event["status"], event["permanent"]


def events_of(folder: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in (folder / "events.jsonl").read_text("utf-8").splitlines()]


@pytest.mark.slow
def test_a_page_that_moves_is_told_once(tmp_path: Path, make_site: Any) -> None:
    site, other = make_site(), make_site("other")
    away = f"http://elsewhere.test:{other.port}/moved-here"
    folder = tmp_path / "monitor"
    with WebhookReceiver() as hook:
        build(site, 1, away)
        crawl(tmp_path, "one", site, hook)
        first = len(events_of(folder))
        assert first == 6  # new: /, /stay, /old, /sale, /twin, /away

        build(site, 2, away)
        second = crawl(tmp_path, "two", site, hook)
        told = events_of(folder)[first:]
        short = sorted((e["event"], e["url"].removeprefix(site.url("/")[:-1])) for e in told)
        assert short == [("moved", "/away"), ("moved", "/old"), ("moved", "/sale"),
                         ("moved", "/twin"), ("new", "/closed"), ("new", "/lantern")]  # fmt: skip
        assert moved_to(told, site.url("/away")) == (away, 301, True)
        assert other.targets() == [], "the move is told, the page out of scope is not fetched"
        moved = {e["url"]: e for e in told if e["event"] == "moved"}
        assert (moved[site.url("/old")]["to"], moved[site.url("/old")]["status"],
                moved[site.url("/old")]["permanent"]) == (site.url("/lantern"), 301, True)  # fmt: skip
        assert (moved[site.url("/sale")]["to"], moved[site.url("/sale")]["status"],
                moved[site.url("/sale")]["permanent"]) == (site.url("/closed"), 302, False)  # fmt: skip
        twin = moved[site.url("/twin")]
        assert (twin["to"], twin["status"], twin["permanent"]) == (site.url("/stay"), 308, True)
        assert second.stat("webrobot/monitor/events/moved") == 4
        assert second.stat("webrobot/monitor/unchanged") >= 2, "/ and /stay, judged as usual"

        third = crawl(tmp_path, "three", site, hook)  # the same site again
        assert events_of(folder)[first + len(told) :] == [], "each move told once"
        assert third.stat("webrobot/monitor/events/moved") == 0
        assert site.count("/sale") == 3, "a page moved for now is still re-checked"
    assert sorted(key for key, _ in hook.accepted) == sorted(e["id"] for e in events_of(folder))


def test_a_temporary_move_is_told_again_only_elsewhere_or_after_the_page_came_back(
    tmp_path: Path,
) -> None:
    """The glue with its real store: responses as the redirect middleware leaves them."""
    from scrapy import Request
    from scrapy.http import HtmlResponse
    from scrapy.utils.test import get_crawler

    from webrobot.monitor.middleware import MonitorMiddleware
    from webrobot.monitor.snapshot import Snapshot

    crawler = get_crawler(settings_dict={"WEBROBOT_MONITOR_DIR": str(tmp_path / "m")})
    crawler._apply_settings()
    monitor = MonitorMiddleware.from_crawler(crawler)
    monitor.spider_opened()
    store = monitor.store
    assert store is not None
    url = "http://shop.test/sale"
    store.record(url, Snapshot(("Half price.",)), [], "t", [])

    def fetch(final: str, status: int | None) -> list[tuple[str, str]]:
        meta = {} if status is None else {"redirect_urls": [url], "redirect_reasons": [status]}
        response = HtmlResponse(final, body=b"<html></html>", request=Request(final, meta=meta))
        before = len(store.recent(100))
        monitor.process_spider_input(response)
        told = store.recent(100)[: len(store.recent(100)) - before]
        return [(e["event"], e.get("to", "")) for e in told]

    closed, other = "http://shop.test/closed", "http://shop.test/elsewhere"
    assert fetch(closed, 302) == [("moved", closed)]
    assert fetch(closed, 307) == [], "the same place: told already"
    assert fetch(other, 302) == [("moved", other)], "somewhere else"
    record = store.get(url)
    assert record is not None and record.snapshot == Snapshot(("Half price.",)), "kept"
    # The page comes back: judged as a page (its told moves are dropped), then moves again.
    monitor._judge(url, {"main_text": "Half price."}, HtmlResponse(url, body=b""))
    assert fetch(other, 302) == [("moved", other)]
    assert fetch(other, 301) == [("moved", other)], "now for good"
    assert store.get(url) is None, "a permanent move forgets the old address"
    assert fetch(other, 301) == [], "nothing more about it"
    assert crawler.stats is not None
    assert crawler.stats.get_value("webrobot/monitor/events/moved") == 4
    store.close()
