"""The crawl report's pure logic: per-site counters, states, progress line,
health checks and where the files go."""

from __future__ import annotations

from collections import Counter

import pytest

from webrobot.report.document import build_report, report_location
from webrobot.report.health import HealthThresholds, check_health, trap_refusals
from webrobot.report.model import CrawlTally, Timeline, ignored_reason
from webrobot.report.progressline import ProgressPoint, held_line, progress_line
from webrobot.urls.scope import DENY_PATTERN, NOT_ALLOWED, OFFSITE
from webrobot.urls.traps import BUDGET, REPEATED_SEGMENT, TOO_LONG, TOO_MANY_SEGMENTS

A = "http://a.example:80"
B = "http://b.example:8080"


def report_of(tally: CrawlTally, now: float = 10.0, limits: HealthThresholds | None = None) -> dict:
    return build_report(tally, now, limits or HealthThresholds(), {"spider": "t"})


def test_frontier_and_site_states() -> None:
    tally = CrawlTally()
    for _ in range(3):
        tally.scheduled(A)
    tally.filtered(A)  # the dupefilter dropped one
    assert tally.site(A).frontier == 2
    assert tally.site(A).state(0) == "active"
    tally.dequeued(A)
    tally.dequeued(A)
    assert tally.site(A).frontier == 0
    assert tally.site(A).state(0) == "exhausted"
    tally.reached_downloader(A, robots=False)
    assert tally.site(A).state(0) == "active"
    tally.left_downloader(A, kind="page", now=1.0)
    assert tally.site(A).state(1) == "exhausted"
    tally.reached_downloader(A, robots=True)
    assert tally.site(A).state(1) == "waiting_robots"
    tally.deferred(A, now=1.0, delay=5)
    assert tally.site(A).state(2) == "deferred"
    assert tally.site(A).state(7) == "waiting_robots", "the deferral is over at 6 s"
    assert tally.states(2.0) == Counter(active=0, waiting_robots=0, deferred=1, exhausted=0)
    tally.reached_downloader(B, robots=True)  # its first request waits for robots.txt
    assert tally.states(2.0)["waiting_robots"] == 1


def test_sites_only_refused_are_not_counted_as_crawled() -> None:
    tally = CrawlTally()
    tally.scheduled(B)
    tally.dequeued(B)
    tally.refused(B, "offsite")
    assert not tally.site(B).crawled
    assert sum(tally.states(0).values()) == 0
    report = report_of(tally)
    assert report["sites"][B]["crawled"] is False
    assert report["sites"][B]["refused"] == {"offsite": 1}
    assert report["totals"]["sites_crawled"] == 0 and report["totals"]["sites"] == 1


def test_downloads_statuses_unchanged_errors_and_bytes() -> None:
    tally = CrawlTally()
    for status, size in ((200, 100), (304, 0), (404, 10), (500, 5)):
        tally.reached_downloader(A, robots=False)
        tally.downloaded(A, status, size, kind="page", now=0.5, delay=1.5)
        tally.left_downloader(A, kind="page", now=0.5)
    tally.reached_downloader(A, robots=False)
    tally.download_error(A, "TimeoutError", robots=False)
    tally.left_downloader(A, kind="page", now=0.6)
    tally.downloaded(A, 200, 50, kind="robots", now=0.1)  # robots.txt: bytes only
    row = report_of(tally)["sites"][A]
    assert row["requested"] == 5
    assert row["downloaded"] == 3 and row["unchanged"] == 1
    assert row["status"] == {"200": 1, "304": 1, "404": 1, "500": 1}
    assert row["errors"] == {"HTTP 404": 1, "HTTP 500": 1, "TimeoutError": 1}
    assert row["failed"] == 3 and row["error_rate"] == pytest.approx(0.6)
    assert row["bytes"] == 165
    assert row["delay"] == 1.5


def test_robots_from_what_was_seen_then_from_the_robots_middleware() -> None:
    tally = CrawlTally()
    tally.reached_downloader(A, robots=True)
    tally.left_downloader(A, kind="robots", now=0.2)
    tally.robots_response(A, 200, wall=1_700_000_000, rules="1 group, 2 Disallow, 0 Allow")
    robots = report_of(tally)["sites"][A]["robots"]
    assert robots["fetches"] == 1 and robots["status"] == 200
    assert robots["fetched_at"] == "2023-11-14T22:13:20Z"
    assert robots["resolved"] is False, "seen, but no middleware said the rules apply"
    tally.robots_parsed(A, now=0.3)
    assert report_of(tally)["sites"][A]["robots"]["resolved"] is True

    tally.robots_resolved(B, now=1.0, info={
        "status": 503, "outcome": "unreachable", "rules": None,
        "expires": 1_700_003_600, "crawl_delay": 2.0,
    })  # fmt: skip
    robots = report_of(tally)["sites"][B]["robots"]
    assert robots["resolved"] is False and robots["outcome"] == "unreachable"
    assert robots["expires"] == "2023-11-14T23:13:20Z" and robots["crawl_delay"] == 2.0


def test_deferral_time_ends_with_the_deferral_or_when_robots_resolves() -> None:
    tally = CrawlTally()
    tally.deferred(A, now=0.0, delay=10.0)
    tally.deferred(A, now=4.0, delay=10.0)  # extended to 14 s: still one deferral
    tally.robots_resolved(A, now=6.0, info={"outcome": "rules", "status": 200})
    tally.deferred(B, now=1.0, delay=2.0)  # over at 3 s, never resolved
    report = report_of(tally, now=20.0)
    assert report["sites"][A]["deferrals"] == 1
    assert report["sites"][A]["deferred_seconds"] == pytest.approx(6.0)
    assert report["sites"][B]["deferred_seconds"] == pytest.approx(2.0)
    assert report["totals"]["deferred_seconds"] == pytest.approx(8.0)


def test_page_flags_inferred_until_a_component_signals_them() -> None:
    tally = CrawlTally()
    tally.item_scraped(A, ["nofollow"])
    tally.item_scraped(A, ["noindex", "nofollow"])
    tally.item_dropped(A, "Duplicate content of http://a.example/x")
    tally.item_dropped(A, "some other reason")
    row = report_of(tally)["sites"][A]
    assert (row["items"], row["items_dropped"]) == (2, 2)
    assert (row["nofollow"], row["noindex"], row["duplicates"]) == (2, 1, 1)
    tally.page_flagged(A, "duplicate")
    tally.page_flagged(A, "duplicate")
    row = report_of(tally)["sites"][A]
    assert row["duplicates"] == 2, "the signal replaces the guess, it does not add to it"
    assert row["nofollow"] == 2


def test_timeline_widens_buckets_to_stay_small() -> None:
    timeline = Timeline(max_buckets=4)
    for at in (0.1, 0.9, 1.5, 3.2):
        timeline.add(A, at)
    assert timeline.as_dict() == {"bucket_seconds": 1.0, "sites": {A: [2, 1, 0, 1]}}
    timeline.add(B, 9.0)  # needs bucket 9: width 4 s
    data = timeline.as_dict()
    assert data["bucket_seconds"] == 4.0
    assert data["sites"] == {A: [4, 0, 0], B: [0, 0, 1]}
    assert sum(map(sum, data["sites"].values())) == 5


def test_progress_line() -> None:
    prev = ProgressPoint(10.0, pages=100, items=90, refused=Counter(offsite=5, too_long=1))
    cur = ProgressPoint(
        40.0, pages=160, items=120, refused=Counter(offsite=9, too_long=1, robots=2)
    )
    states = {"active": 2, "waiting_robots": 1, "deferred": 0, "exhausted": 3}
    line = progress_line(prev, cur, frontier=57, downloader=4, states=states)
    assert line == (
        "Progress: 160 pages (120/min), 120 items (60/min) | frontier 57 + 4 in downloader"
        " | sites: 2 active, 1 waiting robots.txt, 0 deferred, 3 exhausted"
        " | refused: offsite 4, robots 2"
    )
    quiet = progress_line(cur, cur, 0, 0, {})
    assert quiet.endswith("| refused: none") and "(0/min)" in quiet


def test_progress_line_counts_each_kind_apart() -> None:
    start = ProgressPoint(0.0, pages=0, items=0, refused=Counter())
    others = Counter(page=1, image=20, robots=13, document=0, sitemap=1)
    cur = ProgressPoint(60.0, pages=1, items=1, refused=Counter(), others=others)
    line = progress_line(start, cur, 0, 0, {}, label="Progress at close")
    assert line.startswith(
        "Progress at close: 1 page (1/min), 1 items (1/min), also 20 images, 1 sitemap,"
        " 13 robots.txt | frontier 0 + 0 in downloader"
    ), line


def test_every_kind_is_tallied_apart() -> None:
    tally = CrawlTally()
    fetches = [("page", 200), ("page", 304), ("image", 200), ("image", 404), ("document", 200),
               ("robots", 200), ("sitemap", 200)]  # fmt: skip
    for kind, status in fetches:
        tally.reached_downloader(A, robots=kind == "robots")
        tally.downloaded(A, status, 10, kind=kind, now=1.0)
        tally.left_downloader(A, kind=kind, now=1.0)
    row = report_of(tally)["sites"][A]
    assert row["requests"] == row["responses"] == {
        "page": 2, "image": 2, "document": 1, "sitemap": 1, "robots": 1
    }  # fmt: skip
    assert (row["requested"], row["downloaded"], row["unchanged"]) == (2, 1, 1)
    assert row["fetches"] == 6 and row["failed"] == 1 and row["error_rate"] == round(1 / 6, 4)
    assert row["robots"]["fetches"] == 1 and tally.in_downloader() == 0
    assert tally.received() == Counter(page=2, image=2, document=1, sitemap=1, robots=1)
    assert sum(map(sum, tally.timeline.as_dict()["sites"].values())) == 2, "pages only"


def test_progress_line_says_why_sites_wait() -> None:
    tally = CrawlTally()
    tally.deferred("http://a:80", now=10.0, delay=30.0, reason="DNSLookupError")
    tally.deferred("http://b:80", now=10.0, delay=5.0, reason="status 503")
    tally.deferred("http://c:80", now=10.0, delay=30.0, reason="status 503")
    for site in ("http://a:80", "http://b:80", "http://c:80"):
        tally.scheduled(site)  # sites with requests only are counted
    waits = tally.deferral_reasons(now=20.0)  # b's wait is over by then
    assert waits == Counter({"DNSLookupError": 1, "status 503": 1})
    point = ProgressPoint(20.0, pages=0, items=0, refused=Counter())
    line = progress_line(point, point, 0, 0, tally.states(20.0), waits)
    assert "2 deferred (DNSLookupError: 1, status 503: 1)" in line
    assert tally.deferral_reasons(now=50.0) == Counter()  # nothing waits any more


def test_ignored_requests_get_a_reason() -> None:
    assert ignored_reason("Forbidden by robots.txt") == "robots_txt"
    assert ignored_reason("Ignored request not in cache") == "ignored"


def _site_row(**overrides: object) -> dict:
    tally = CrawlTally()
    tally.site(A)
    row = report_of(tally)["sites"][A]
    row.update(overrides)
    return row


def test_health_checks_fire_above_their_thresholds_only() -> None:
    limits = HealthThresholds(max_error_rate=0.25, max_trap_refusals=3)
    healthy = _site_row(
        requested=8, fetches=8, error_rate=0.25, refused={"too_long": 3, "offsite": 50}
    )
    assert check_health({A: healthy}, limits) == []

    robots = dict(healthy["robots"], fetches=3, status=None, errors={"ConnectionRefusedError": 3})
    sick = _site_row(requested=8, fetches=8, error_rate=0.375, robots=robots,
                     refused={"too_long": 3, "repeated_segment": 1, "robots_txt": 9})  # fmt: skip
    flags = check_health({A: sick}, limits)
    assert [f["check"] for f in flags] == ["robots_unresolved", "error_rate", "trap_refusals"]
    assert (
        flags[0]["message"]
        == "robots.txt could never be resolved (ConnectionRefusedError; 3 fetches)"
    )
    assert "38%" in flags[1]["message"] and "25%" in flags[1]["message"]
    assert flags[2]["message"].startswith("4 URLs refused as traps")
    assert all(f["site"] == A for f in flags)

    off = HealthThresholds(max_error_rate=0, max_trap_refusals=0, robots_required=False)
    assert check_health({A: sick}, off) == [], "0 switches a check off"


def test_trap_refusals_leave_out_scope_and_robots_reasons() -> None:
    refused = {"offsite": 9, "deny_pattern": 1, "robots_txt": 4, "robots_disallowed": 2,
               "too_long": 2, "calendar": 1, "budget": 40}  # fmt: skip
    assert trap_refusals(refused) == 3, "a spent page budget is the operator's limit, not a trap"


def test_a_link_to_a_file_is_not_a_trap() -> None:
    """A site full of PDF links is healthy: their extension says they are files."""
    refused = {"binary_extension": 500, "too_long": 2}
    assert trap_refusals(refused) == 2
    limits = HealthThresholds(max_trap_refusals=100)
    assert check_health({A: _site_row(requested=10, refused=refused)}, limits) == []


def test_a_budget_stop_is_not_a_trap() -> None:
    """The reasons left out are the ones the components refuse with: a site that
    spent its page budget is healthy, whatever the threshold."""
    refused = {BUDGET: 500, OFFSITE: 40, DENY_PATTERN: 3, NOT_ALLOWED: 2, "robots_txt": 7,
               "robots_unreachable": 1}  # fmt: skip
    assert trap_refusals(refused) == 0
    limits = HealthThresholds(max_trap_refusals=100)
    assert check_health({A: _site_row(requested=10, refused=refused)}, limits) == []
    assert trap_refusals({TOO_LONG: 1, REPEATED_SEGMENT: 1, TOO_MANY_SEGMENTS: 1}) == 3


def test_links_to_files_are_not_traps() -> None:
    """A site linking many PDFs or images is not a trap: ``binary_extension``
    refusals stay out of the count and of the health check."""
    refused = {"binary_extension": 5000, TOO_LONG: 2}
    assert trap_refusals(refused) == 2
    limits = HealthThresholds(max_trap_refusals=100)
    assert check_health({A: _site_row(requested=10, refused=refused)}, limits) == []


def test_report_document_has_totals_and_health() -> None:
    tally = CrawlTally()
    tally.left_downloader(A, kind="page", now=1)
    tally.downloaded(A, 200, 10, kind="page", now=1)
    tally.item_scraped(A)
    tally.left_downloader(B, kind="page", now=2)
    tally.download_error(B, "DNSLookupError", robots=False)
    report = report_of(tally)
    assert report["spider"] == "t"
    assert report["totals"]["requested"] == 2 and report["totals"]["items"] == 1
    assert report["totals"]["error_rate"] == 0.5
    assert report["health"]["ok"] is False
    assert report["health"]["flags"] == [
        {"site": B, "check": "error_rate", "message": "error rate 100% of 1 request is over 25%"}
    ]


@pytest.mark.parametrize(
    ("report_dir", "feeds", "expected"),
    [
        ("out/rep", ["items.jsonl"], ("out/rep", "")),
        ("", ["out/items.jsonl"], ("out", "items.")),
        ("", ["items.jsonl"], (".", "items.")),
        (
            "",
            ["file:///var/lib/scrapyd/items/proj/spider/3f2a.jl"],
            ("/var/lib/scrapyd/items/proj/spider", "3f2a."),
        ),
        ("", ["file:///tmp/with%20space/items"], ("/tmp/with space", "items.")),
        ("", ["s3://bucket/items.jl", "stdout:", "/data/x.csv"], ("/data", "x.")),
        ("", ["s3://bucket/items.jl", "items-%(time)s.jl"], ("report", "")),
        ("", [], ("report", "")),
    ],
)
def test_report_location(report_dir: str, feeds: list[str], expected: tuple[str, str]) -> None:
    assert report_location(report_dir, feeds) == expected


@pytest.mark.parametrize(
    ("report_dir", "feeds", "expected"),
    [
        ("", [], ("report", "job-1.")),  # Scrapyd without items_dir: no feed
        ("", ["s3://bucket/items.jl"], ("report", "job-1.")),
        ("/srv/reports", [], ("/srv/reports", "job-1.")),
        (
            "",
            ["file:///srv/items/p/s/job-1.jl"],
            ("/srv/items/p/s", "job-1."),
        ),  # named after the feed
    ],
)
def test_a_scrapyd_jobs_report_is_named_after_the_job(
    report_dir: str, feeds: list[str], expected: tuple[str, str]
) -> None:
    """Scrapyd runs every job in its own folder: ``report/report.json`` would be
    overwritten by each job, and by jobs running at the same time."""
    assert report_location(report_dir, feeds, job="job-1") == expected


def test_held_sites_and_when_each_is_given_up() -> None:
    tally = CrawlTally()
    tally.deferred("http://a:80", now=10.0, delay=2.0, reason="DownloadConnectionRefusedError",
                   gives_up_in=3590.0)  # fmt: skip
    tally.deferred("http://b:80", now=10.0, delay=2.0, reason="503", gives_up_in=60.0)
    tally.deferred("http://c:80", now=10.0, delay=2.0, reason="503")  # no limit
    tally.deferred("http://d:80", now=10.0, delay=2.0, reason="503", gives_up_in=5.0)
    tally.robots_resolved("http://d:80", 12.0, {"outcome": "rules"})  # answered: not held
    assert tally.held(20.0) == [
        ("http://b:80", "503", 50.0),
        ("http://a:80", "DownloadConnectionRefusedError", 3580.0),
        ("http://c:80", "503", None),
    ]
    # Nothing else is left: each is given up when the crawl closes, if that comes first.
    tally.held_sites_only(20.0, 120.0, active=True)
    assert [row[2] for row in tally.held(30.0)] == [40.0, 110.0, 110.0]
    tally.held_sites_only(40.0, None, active=False)
    assert tally.held_only_closes_at is None


def test_held_line() -> None:
    def wait(seconds: float) -> str:
        return f"{seconds:g} s"

    assert held_line([], None, wait) == ""
    rows: list[tuple[str, str, float | None]] = [
        ("http://a:80", "503", 50.4), ("http://b:80", "", None),
        ("http://c:80", "x", 1.0), ("http://d:80", "x", 2.0),
    ]  # fmt: skip
    line = held_line(rows, 30.0, wait)
    assert line == (
        "held: http://a:80 (503) gives up in 50 s, http://b:80 (no answer yet) kept until it "
        "answers, http://c:80 (x) gives up in 1 s, 1 more | nothing else left: the crawl "
        "closes in 30 s"
    )


def test_dead_hosts_make_one_health_flag_not_one_per_site() -> None:
    from webrobot.report.health import fold_dead_hosts

    def robots_flag(site: str) -> dict[str, str]:
        return {"site": site, "check": "robots_unresolved", "message": "robots.txt ..."}

    flags = [robots_flag(f"http://img{n}.gone.invalid:80") for n in range(122)]
    flags += [robots_flag("http://127.0.0.1:9"), robots_flag("http://busy.example:80")]
    flags.append({"site": "http://live.example:80", "check": "error_rate", "message": "30 %"})
    dead = [{"host": f"img{n}.gone.invalid", "reason": "the name does not resolve"}
            for n in range(122)]  # fmt: skip
    dead.append({"host": "127.0.0.1:9", "reason": "the connection was refused", "remembered": True})
    folded = fold_dead_hosts(flags, dead)
    assert [flag["site"] for flag in folded] == [
        "http://busy.example:80", "http://live.example:80", "dead hosts",
    ]  # fmt: skip
    assert folded[-1]["message"] == (
        "123 hosts given up as dead (the name does not resolve: 122; the connection was "
        "refused: 1, 1 of them remembered from an earlier crawl); each is listed under Hosts "
        "given up"
    )
    assert fold_dead_hosts(flags, []) is flags
