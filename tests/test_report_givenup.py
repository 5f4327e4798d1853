"""Hosts given up as dead in the report (:mod:`webrobot.report.givenup`): a dead host
of which only robots.txt was asked is listed under "Hosts given up" only, not among
the sites, their totals, the progress line's states or "Sites not reached"."""

from __future__ import annotations

from collections import Counter

from webrobot.report.document import build_report, site_report
from webrobot.report.givenup import fold_into_dead_hosts, not_held, on_dead_host
from webrobot.report.health import HealthThresholds
from webrobot.report.model import CrawlTally

LIVE = "http://shop.example:80"
IMAGES = "http://cdn.gone.invalid:80"  # an image host whose name does not resolve
IMAGES_TLS = "https://cdn.gone.invalid:443"  # the same name, another scheme
PORT = "http://127.0.0.1:9"  # a refused port
PAGES = "http://old.gone.invalid:80"  # a dead host whose image was tried (and failed)


def robots_tried(tally: CrawlTally, site: str, now: float, deferred: bool = True) -> None:
    tally.reached_downloader(site, robots=True)
    tally.download_error(site, "CannotResolveHostError", robots=True)
    tally.left_downloader(site, kind="robots", now=now)
    if deferred:
        tally.deferred(site, now=now, delay=3.0, reason="the name does not resolve")


def a_crawl() -> CrawlTally:
    tally = CrawlTally()
    for _ in range(2):  # two pages of the live site
        tally.scheduled(LIVE)
        tally.dequeued(LIVE)
        tally.reached_downloader(LIVE, robots=False)
        tally.downloaded(LIVE, 200, 100, kind="page", now=0.5)
        tally.left_downloader(LIVE, kind="page", now=0.5)
    for site in (IMAGES, IMAGES_TLS, PORT):
        robots_tried(tally, site, 0.2)
    tally.refused(IMAGES, "no_such_name")  # an archive's requisite on it
    robots_tried(tally, PAGES, 0.3, deferred=False)
    tally.reached_downloader(PAGES, robots=False)  # an image that was requested, and failed
    tally.download_error(PAGES, "CannotResolveHostError", robots=False)
    tally.left_downloader(PAGES, kind="image", now=0.4)
    return tally


def test_a_dead_host_asked_only_for_robots_txt_is_not_a_site() -> None:
    tally = a_crawl()
    tally.host_dead("cdn.gone.invalid")
    assert on_dead_host(IMAGES, tally.dead_hosts) and on_dead_host(IMAGES_TLS, tally.dead_hosts)
    assert not on_dead_host(PORT, tally.dead_hosts), "the port is not given up yet"
    # Given up by the record of dead hosts, known to the tally or named by the report.
    assert tally.given_up_sites({"127.0.0.1:9", "old.gone.invalid"}) == {IMAGES, IMAGES_TLS, PORT}
    # Requested (an image), so a site, even if its host is dead.
    assert not tally.given_up_only(PAGES, {"old.gone.invalid"})
    # The live view: deferred dead hosts are not deferred sites.
    assert tally.states(1.0) == Counter(active=0, waiting_robots=0, deferred=1, exhausted=2)
    assert tally.deferral_reasons(1.0) == Counter({"the name does not resolve": 1})
    assert [row[0] for row in tally.held(1.0)] == [PORT]


def test_the_report_counts_only_sites_and_folds_the_dead_ones_into_their_hosts() -> None:
    tally = a_crawl()
    dead = {"cdn.gone.invalid", "127.0.0.1:9", "old.gone.invalid"}
    leave_out = tally.given_up_sites(dead)
    report = build_report(tally, 2.0, HealthThresholds(), {"spider": "t"}, leave_out)
    assert sorted(report["sites"]) == sorted([LIVE, PAGES])
    totals = report["totals"]
    assert totals["sites"] == totals["sites_crawled"] == 2 and totals["sites_with_pages"] == 1
    assert totals["deferrals"] == 0 and totals["deferred_seconds"] == 0
    assert totals["robots_fetches"] == 1, "the dead image host's try is under its host"
    assert totals["refused"] == {"no_such_name": 1}, "its URLs refused still count"
    # Only a site is flagged (the dead hosts' robots.txt flags are folded into one later).
    assert {(flag["site"], flag["check"]) for flag in report["health"]["flags"]} == {
        (PAGES, "robots_unresolved"),
        (PAGES, "error_rate"),
    }

    rows = [
        {"host": host, "kind": "no_such_name", "reason": "the name does not resolve"}
        for host in ("cdn.gone.invalid", "old.gone.invalid")
    ] + [{"host": "127.0.0.1:9", "kind": "refused", "reason": "the connection was refused"}]
    left = {key: site_report(tally.sites[key], tally, 2.0) for key in leave_out}
    folded = {row["host"]: row for row in fold_into_dead_hosts(rows, left)}
    assert folded["cdn.gone.invalid"]["sites"] == [IMAGES, IMAGES_TLS]
    assert folded["cdn.gone.invalid"]["robots_fetches"] == 2
    assert folded["cdn.gone.invalid"]["refused"] == {"no_such_name": 1}
    assert folded["127.0.0.1:9"]["sites"] == [PORT] and folded["127.0.0.1:9"]["refused"] == {}
    assert folded["old.gone.invalid"]["sites"] == [], "a site of the crawl keeps its row"


def test_sites_not_reached_leave_out_dead_hosts() -> None:
    held = [
        {"site": IMAGES, "requests": 0},
        {"site": PORT, "requests": 3},  # pages held for a port that refuses, not given up
        {"site": "http://slow.example:80", "requests": 1},
        {"site": PAGES, "requests": 0},
    ]
    kept = not_held(held, {"cdn.gone.invalid"}, failing={"127.0.0.1:9", "old.gone.invalid"})
    assert [row["site"] for row in kept] == [PORT, "http://slow.example:80"]


def test_a_host_that_answers_after_all_is_not_dead() -> None:
    tally = CrawlTally()
    robots_tried(tally, IMAGES, 0.1)
    tally.host_dead("cdn.gone.invalid")
    assert tally.given_up_only(IMAGES)
    tally.robots_resolved(IMAGES, 4.0, {"outcome": "rules", "status": 200})
    assert not tally.given_up_only(IMAGES) and not tally.dead_hosts
