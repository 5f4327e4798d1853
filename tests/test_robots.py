"""End-to-end: robots.txt status semantics, deferral, expiry, stale use and
Crawl-delay, judged by what local servers saw requested.

Several sites share one crawl where their behaviours do not interfere, so the
whole file runs in a few crawls of a few seconds each.
"""

from __future__ import annotations

import itertools
import json
import socket
import threading
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.crawling import CrawlResult, run_crawl, start_crawl, wait_until
from tests.robots_probe import read_events
from webrobot.demo.server import Hit, Reply, SiteServer

pytestmark = pytest.mark.slow

MakeSite = Callable[..., SiteServer]
PROBE = {"webrobot.report.statsfile.StatsFile": 900, "tests.robots_probe.RobotsProbe": 0}


def sequence(*replies: Reply) -> Callable[[Hit], Reply]:
    """A route answering each reply in turn, then the last one for ever."""
    lock = threading.Lock()
    it = itertools.chain(replies, itertools.repeat(replies[-1]))

    def handler(hit: Hit) -> Reply:
        with lock:
            return next(it)

    return handler


def pages(site: SiteServer, *paths: str, links: tuple[str, ...] = ()) -> None:
    """``/`` links to ``links`` (default: every path); every path is a small page.
    Bodies name the site, so pages of different sites are never duplicate content."""
    anchors = "".join(f"<a href='{p}'>{p}</a>" for p in (links or paths))
    site.html("/", f"<html><title>home</title><body>{anchors} of {site.origin}</body></html>")
    for path in paths:
        site.html(path, f"<html><title>{path}</title><body>page of {site.origin}</body></html>")


def page_hits(site: SiteServer) -> list[Hit]:
    return [h for h in site.hits if not h.path.startswith(("/robots", "/r"))]


def robots_hits(site: SiteServer, path: str = "/robots.txt") -> list[Hit]:
    return sorted((h for h in site.hits if h.path == path), key=lambda h: h.started)


def closed_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def crawl(tmp_path: Path, sites: list[SiteServer], settings: dict[str, str] | None = None,
          start_urls: list[str] | None = None) -> CrawlResult:  # fmt: skip
    urls = start_urls or [site.url("/") for site in sites]
    settings = {"EXTENSIONS": json.dumps(PROBE), "ROBOTS_PROBE_FILE": str(tmp_path / "probe.jsonl"),
                **(settings or {})}  # fmt: skip
    result = run_crawl(tmp_path, args={"start_urls": ",".join(urls)}, settings=settings)
    assert result.returncode == 0, result.stderr[-2000:]
    assert "Traceback" not in result.log, result.log[-3000:]
    return result


# --- Every row of the status table ---------------------------------------------------


def test_status_table(make_site: MakeSite, tmp_path: Path) -> None:
    ok, s404, s410, s418, s401, s403 = (
        make_site(n) for n in ("ok", "404", "410", "418", "401", "403")
    )
    five, toomany, loop, elsewhere = (
        make_site(n) for n in ("five", "toomany", "loop", "elsewhere")
    )
    html, bom, huge = make_site("html"), make_site("bom"), make_site("huge")

    ok.add(
        "/robots.txt",
        Reply.text(
            "User-agent: *\nDisallow: /private/\n\nUser-agent: webrobot\nDisallow: /private/\nDisallow: /cgi/\n"
        ),
    )
    pages(ok, "/a", "/private/x", "/cgi/y")
    for site, status in ((s404, 404), (s410, 410), (s418, 418), (s401, 401), (s403, 403)):
        site.add("/robots.txt", Reply.text("nope", status))
        pages(site, "/a", "/b")
    # Five redirects (across hosts) are followed; the target's rules apply to five.
    five.add("/robots.txt", Reply(301, b"", {"Location": "/r1"}))
    for i in range(1, 3):
        five.add(f"/r{i}", Reply(302, b"", {"Location": f"/r{i + 1}"}))
    five.add("/r3", Reply(307, b"", {"Location": elsewhere.url("/r4")}))
    elsewhere.add("/r4", Reply(308, b"", {"Location": "/robots-for-five.txt"}))
    elsewhere.add("/robots-for-five.txt", Reply.text("User-agent: *\nDisallow: /secret\n"))
    pages(five, "/secret", "/open")
    # Six redirects: unavailable, so no restrictions (and the sixth is not requested).
    toomany.add("/robots.txt", Reply(301, b"", {"Location": "/r1"}))
    for i in range(1, 7):
        toomany.add(f"/r{i}", Reply(301, b"", {"Location": f"/r{i + 1}"}))
    toomany.add("/r7", Reply.text("User-agent: *\nDisallow: /\n"))
    pages(toomany, "/a", "/b")
    loop.add("/robots.txt", Reply(302, b"", {"Location": "/r1"}))
    loop.add("/r1", Reply(302, b"", {"Location": "/robots.txt"}))
    pages(loop, "/a")
    # Bad bodies: HTML served as robots.txt, a BOM, more than the parse limit.
    html.add("/robots.txt", Reply.html("<!DOCTYPE html><html><body><p>Welcome!</p></body></html>"))
    pages(html, "/a")
    bom.add(
        "/robots.txt",
        Reply(200, b"\xef\xbb\xbfUser-agent: *\nDisallow: /no\n", {"Content-Type": "text/plain"}),
    )
    pages(bom, "/no", "/yes")
    huge.add(
        "/robots.txt",
        Reply.text(
            "User-agent: *\nDisallow: /early\n" + "# padding\n" * 70_000 + "Disallow: /late\n"
        ),
    )
    pages(huge, "/early", "/late")

    sites = [ok, s404, s410, s418, s401, s403, five, toomany, loop, html, bom, huge]
    result = crawl(tmp_path, sites)

    assert sorted(ok.targets()) == ["/", "/a", "/robots.txt"]
    for site in (s404, s410, s418):
        assert sorted(site.targets()) == ["/", "/a", "/b", "/robots.txt"], site.name
    for site in (s401, s403):
        assert site.targets() == ["/robots.txt"], f"{site.name}: nothing but robots.txt"
    assert sorted(five.targets()) == ["/", "/open", "/r1", "/r2", "/r3", "/robots.txt"]
    assert sorted(elsewhere.targets()) == ["/r4", "/robots-for-five.txt"]
    assert sorted(toomany.targets()) == [
        "/",
        "/a",
        "/b",
        "/r1",
        "/r2",
        "/r3",
        "/r4",
        "/r5",
        "/robots.txt",
    ]
    assert sorted(loop.targets()) == ["/", "/a", "/r1", "/robots.txt"]
    assert sorted(html.targets()) == ["/", "/a", "/robots.txt"]
    assert sorted(bom.targets()) == ["/", "/robots.txt", "/yes"]
    assert sorted(huge.targets()) == ["/", "/late", "/robots.txt"], (
        "only the first 500 KiB are rules"
    )
    for site in sites:
        robots = robots_hits(site)
        assert len(robots) == 1, f"{site.name}: robots.txt fetched once"
        assert all(h.started >= robots[0].finished for h in page_hits(site)), (
            f"{site.name}: page before robots.txt"
        )

    assert result.stat("webrobot/robots/redirect_limit") == 2
    assert (
        result.stat("webrobot/robots/status/401") == 1
        and result.stat("webrobot/robots/status/403") == 1
    )
    assert (
        result.stat("webrobot/robots/status/404") == 1
        and result.stat("webrobot/robots/status/200") == 5
    )
    assert result.stat("webrobot/robots/outcome/forbidden") == 2
    assert result.stat("webrobot/robots/outcome/unavailable") == 5
    assert result.stat("webrobot/robots/outcome/rules") == 5
    # ok: /private/x, /cgi/y; five: /secret; bom: /no; huge: /early; 401/403: their home pages
    assert result.stat("robotstxt/forbidden") == 7
    assert result.stat("webrobot/robots/body/html") == 1
    assert result.stat("webrobot/robots/body/bom") == 1
    assert result.stat("webrobot/robots/body/truncated") == 1
    assert result.log.count(f"robots.txt of {html.origin.replace('127.0.0.1', '127.0.0.1')}") >= 1
    assert (
        "redirect loop after 1 hops" in result.log and "redirect limit after 5 hops" in result.log
    )
    events = read_events(tmp_path / "probe.jsonl")
    resolved = {e["site"]: e for e in events if e["event"] == "robots_resolved"}
    assert resolved[f"http://127.0.0.1:{s403.port}"]["outcome"] == "forbidden"
    assert (
        resolved[f"http://127.0.0.1:{ok.port}"]["rules"] == "group 'webrobot': 2 disallow, 0 allow"
    )
    assert resolved[f"http://127.0.0.1:{five.port}"]["url"] == elsewhere.url("/robots-for-five.txt")
    parsed = [e for e in events if e["event"] == "robots_parsed"]
    assert len(parsed) == 5 and all(e["parser"] == "Rfc9309RobotParser" for e in parsed)


def test_auth_policy_allow_treats_401_as_unavailable(make_site: MakeSite, tmp_path: Path) -> None:
    site = make_site()
    site.add("/robots.txt", Reply.text("members only", 401))
    pages(site, "/a")
    crawl(tmp_path, [site], {"WEBROBOT_ROBOTS_AUTH_POLICY": "allow"})
    assert sorted(site.targets()) == ["/", "/a", "/robots.txt"]


# --- Deferral -------------------------------------------------------------------------

DEFER_SETTINGS = {
    "WEBROBOT_ROBOTS_DEFER_MAX": "4",
    "WEBROBOT_ROBOTS_BACKOFF_BASE": "0.5",
    "WEBROBOT_ROBOTS_BACKOFF_MAX": "2",
    "DOWNLOAD_TIMEOUT": "1",
    "CONCURRENT_REQUESTS": "2",
    "WEBROBOT_POLITENESS_BACKOFF_BASE": "0.1",
}


def test_deferred_sites_hold_their_requests_and_others_keep_crawling(
    make_site: MakeSite, tmp_path: Path
) -> None:
    flaky, busy, slow, good, dead = (
        make_site(n) for n in ("flaky", "busy", "slow", "good", "dead")
    )
    flaky.add("/robots.txt", sequence(
        Reply.text("later", 503, **{"Retry-After": "1"}), Reply.text("later", 503, **{"Retry-After": "1"}),
        Reply.text("User-agent: *\nDisallow: /tmp/\n")))  # fmt: skip
    pages(flaky, "/a", "/tmp/x")
    busy.add(
        "/robots.txt",
        sequence(Reply.text("slow down", 429, **{"Retry-After": "1"}), Reply.text("")),
    )
    pages(busy, "/a")
    slow.add(
        "/robots.txt",
        sequence(Reply(200, b"", delay=2.0), Reply.text("User-agent: *\nDisallow: /b\n")),
    )
    pages(slow, "/a", "/b")
    good_paths = [f"/g{i}" for i in range(20)]
    pages(good, *good_paths)
    for path in good_paths:
        good.add(path, Reply.html(f"<title>{path}</title>", delay=0.03))
    good.add("/robots.txt", Reply.text(""))
    dead.add("/robots.txt", Reply.text("down", 500))
    pages(dead, "/a")
    refused_url = f"http://127.0.0.1:{closed_port()}/"
    dead_urls = [dead.url("/")] + [dead.url(f"/held{i}") for i in range(9)]
    start_urls = [
        flaky.url("/"),
        busy.url("/"),
        slow.url("/"),
        good.url("/"),
        *dead_urls,
        refused_url,
    ]

    result = crawl(tmp_path, [], DEFER_SETTINGS, start_urls)
    ended = time.monotonic()

    # The good site finished while the dead one was still being retried, with
    # CONCURRENT_REQUESTS = 2 and ten of the dead site's requests held.
    good_hits = page_hits(good)
    assert len(good_hits) == 21
    assert max(h.finished for h in good_hits) < robots_hits(dead)[-1].started - 1.0
    # Timed from the crawl's first request, not its launch: a loaded machine starts
    # Scrapy slowly, and start-up is not what this measures.
    first = min(h.started for site in (flaky, busy, slow, good, dead) for h in site.hits)
    assert max(h.finished for h in good_hits) - first < 3.0

    # 503 + Retry-After: no page before the first 2xx robots.txt, then every allowed page.
    robots = robots_hits(flaky)
    assert len(robots) == 3
    assert robots[1].started - robots[0].finished >= 0.95, "Retry-After: 1 honoured"
    assert all(h.started >= robots[2].finished for h in page_hits(flaky))
    assert sorted(t for t in flaky.targets() if t != "/robots.txt") == ["/", "/a"]
    robots = robots_hits(busy)
    assert len(robots) == 2 and robots[1].started - robots[0].finished >= 0.95
    assert sorted(busy.targets()) == ["/", "/a", "/robots.txt", "/robots.txt"]
    # A timeout defers too; the rules of the answer that finally came apply.
    robots = robots_hits(slow)
    assert len(robots) == 2
    assert sorted(slow.targets()) == ["/", "/a", "/robots.txt", "/robots.txt"]
    assert all(h.started >= robots[1].finished for h in page_hits(slow))
    # A permanently failing robots.txt: nothing else requested, gives up after DEFER_MAX.
    robots = robots_hits(dead)
    assert dead.targets() == ["/robots.txt"] * len(robots)
    assert robots[-1].started - robots[0].finished == pytest.approx(4.0, abs=0.6)
    assert ended - robots[-1].finished < 4.0, "the crawl ends once DEFER_MAX has passed"
    assert result.stat("webrobot/robots/deferred_gave_up") == len(dead_urls) + 1
    assert result.stat("webrobot/robots/outcome/unreachable") == 2
    assert result.stat("webrobot/robots/error/DownloadConnectionRefusedError") >= 2
    assert result.stat("webrobot/robots/error/DownloadTimeoutError") == 1
    assert f"Dropped {len(dead_urls)} requests held for {dead.origin}" in result.log
    events = read_events(tmp_path / "probe.jsonl")
    deferred = [
        e
        for e in events
        if e["event"] == "site_deferred" and e["site"] == f"http://127.0.0.1:{flaky.port}"
    ]
    assert [(e["attempt"], e["reason"], e["seconds"]) for e in deferred] == [
        (1, "503", 1.0),
        (2, "503", 1.0),
    ]


def test_requests_held_when_a_jobdir_crawl_pauses_are_crawled_on_resume(
    make_site: MakeSite, tmp_path: Path
) -> None:
    """Ctrl-C while a site's robots.txt is failing: its held requests (one that had
    passed the duplicate filter, two that had not) are crawled when the job resumes.
    They stay leased in the job's frontier while held, and are queued again on resume."""
    flaky, good = make_site("flaky"), make_site("good")
    down = threading.Event()
    down.set()

    def robots(hit: Hit) -> Reply:
        return (
            Reply.text("later", 503, **{"Retry-After": "1"})
            if down.is_set()
            else Reply.text("User-agent: *\nDisallow: /no\n")
        )

    flaky.add("/robots.txt", robots)
    pages(flaky, "/a", "/b", "/c", "/no", links=("/a", "/no"))
    good.add("/robots.txt", Reply.text(""))
    good.html(
        "/", f"<a href='{flaky.url('/b')}'>b</a><a href='{flaky.url('/c')}'>c</a> of {good.origin}"
    )
    job = tmp_path / "job"
    settings = {
        "JOBDIR": str(job),
        "WEBROBOT_ROBOTS_DEFER_MAX": "120",
        "WEBROBOT_ROBOTS_BACKOFF_BASE": "0.3",
    }
    args = {"start_urls": f"{flaky.url('/')},{good.url('/')}"}

    first = start_crawl(tmp_path / "run1", args=args, settings=settings)
    try:
        wait_until(lambda: good.count("/") == 1 and flaky.count("/robots.txt") >= 2, timeout=60,
                   what="the good site crawled while flaky's robots.txt fails")  # fmt: skip
    finally:
        first.interrupt()
    run1 = first.wait(timeout=60)
    assert run1.returncode == 130, run1.stderr[-2000:]
    assert run1.stats["finish_reason"] == "shutdown"
    assert flaky.targets() == ["/robots.txt"] * flaky.count("/robots.txt")
    assert "closed with 3 requests still held for robots.txt" in run1.log

    down.clear()
    run2 = run_crawl(tmp_path / "run2", args=args, settings=settings)
    assert run2.returncode == 0, run2.stderr[-2000:]
    assert run2.stats["finish_reason"] == "finished"
    assert sorted(t for t in flaky.targets() if t != "/robots.txt") == ["/", "/a", "/b", "/c"]
    assert run2.stat("webrobot/frontier/recovered/requeued") == 3
    assert "Traceback" not in run1.log + run2.log


# --- Expiry and stale rules ----------------------------------------------------------------


def test_expiry_refetches_and_stale_rules_stand_in(make_site: MakeSite, tmp_path: Path) -> None:
    fresh, stale = make_site("fresh"), make_site("stale")
    first = Reply.text("User-agent: *\nDisallow: /b\n", **{"Cache-Control": "max-age=1"})
    fresh.add("/robots.txt", sequence(first, Reply.text("User-agent: *\nDisallow: /c\n")))
    stale.add("/robots.txt", sequence(first, Reply.text("down", 503)))
    for site in (fresh, stale):
        pages(site, "/b", "/slow", links=("/b", "/slow"))
        slow = f"<a href='/c'>c</a><a href='/d'>d</a><a href='/b/2'>b2</a> of {site.origin}"
        site.add("/slow", Reply.html(slow, delay=1.6))
        pages(site, "/c", "/d", "/b/2", links=("/b", "/slow"))

    result = crawl(
        tmp_path,
        [fresh, stale],
        {"WEBROBOT_ROBOTS_MIN_TTL": "0", "WEBROBOT_ROBOTS_BACKOFF_BASE": "30"},
    )

    robots = robots_hits(fresh)
    assert len(robots) == 2, "fetched again after max-age"
    assert sorted(fresh.targets()) == ["/", "/b/2", "/d", "/robots.txt", "/robots.txt", "/slow"], (
        "new rules: /c out"
    )
    assert all(h.started >= robots[1].finished for h in fresh.hits if h.path in ("/b/2", "/d"))
    # The re-fetch failed: the expired rules still apply (/b/2 out, /c in), no stall.
    assert sorted(stale.targets()) == ["/", "/c", "/d", "/robots.txt", "/robots.txt", "/slow"]
    assert result.stat("webrobot/robots/expired_refetch") == 2
    assert result.stat("webrobot/robots/stale_used") == 1
    assert result.stat("webrobot/robots/deferred", 0) == 0
    assert result.stats["finish_reason"] == "finished"


# --- Crawl-delay ----------------------------------------------------------------------------


def test_crawl_delay_and_request_rate_space_request_starts(
    make_site: MakeSite, tmp_path: Path
) -> None:
    delayed, capped, rated, plain = (make_site(n) for n in ("delayed", "capped", "rated", "plain"))
    delayed.add("/robots.txt", Reply.text("User-agent: webrobot\nCrawl-delay: 0.4\n"))
    capped.add("/robots.txt", Reply.text("User-agent: *\nCrawl-delay: 3600\n"))
    rated.add("/robots.txt", Reply.text("User-agent: *\nRequest-rate: 2/1s\n"))
    plain.add("/robots.txt", Reply.text(""))
    for site in (delayed, capped, rated, plain):
        pages(site, "/1", "/2", "/3", "/4")

    result = crawl(
        tmp_path, [delayed, capped, rated, plain], {"WEBROBOT_ROBOTS_MAX_CRAWL_DELAY": "0.6"}
    )

    def gaps(site: SiteServer) -> list[float]:
        starts = sorted(h.started for h in page_hits(site))
        assert len(starts) == 5
        return [b - a for a, b in itertools.pairwise(starts)]

    assert min(gaps(delayed)) >= 0.38
    assert 0.58 <= min(gaps(capped)) and max(gaps(capped)) < 1.5, "3600 s capped to 0.6 s"
    assert min(gaps(rated)) >= 0.48, "2 requests per second: 0.5 s apart"
    assert max(gaps(plain)) < 0.3, "no delay asked, none added (DOWNLOAD_DELAY = 0)"
    assert result.stat("webrobot/robots/crawl_delay_capped") == 1
    assert "asks for crawl-delay of 3600.0 s; capped to 0.6 s" in result.log
    assert result.stat("webrobot/politeness/delay_source/crawl_delay") >= 8
    assert result.stat("webrobot/politeness/delay_source/request_rate") >= 4


# --- Modes and switches -----------------------------------------------------------------------


def test_first_match_mode_and_robots_off(make_site: MakeSite, tmp_path: Path) -> None:
    site = make_site()
    site.add("/robots.txt", Reply.text("User-agent: *\nAllow: /a\nDisallow: /a/b\nDisallow: /c\n"))
    pages(site, "/a/b", "/c", "/d")
    crawl(
        tmp_path / "first",
        [site],
        {"ROBOTSTXT_PARSER": "webrobot.robots.parsers.FirstMatchRobotParser"},
    )
    assert sorted(site.targets()) == ["/", "/a/b", "/d", "/robots.txt"], (
        "first match: Allow /a wins"
    )
    site.hits.clear()
    crawl(tmp_path / "rfc", [site])
    assert sorted(site.targets()) == ["/", "/d", "/robots.txt"], "RFC 9309: the longest match wins"
    site.hits.clear()
    crawl(tmp_path / "off", [site], {"ROBOTSTXT_OBEY": "False"})
    assert sorted(site.targets()) == ["/", "/a/b", "/c", "/d"], (
        "ROBOTSTXT_OBEY off: no robots.txt at all"
    )


def test_the_removed_matching_knob_stops_the_crawl_saying_what_to_set(tmp_path: Path) -> None:
    result = run_crawl(tmp_path, args={"start_urls": "http://127.0.0.1:9/"},
                       settings={"WEBROBOT_ROBOTS_MATCHING": "first-match"})  # fmt: skip
    assert result.returncode == 2
    expected = (
        "webrobot: setting WEBROBOT_ROBOTS_MATCHING='first-match': expected no value: ROBOTSTXT_PARSER chooses"
        " the matching (webrobot.robots.parsers.FirstMatchRobotParser for the 1996 draft's first match)"
    )
    assert result.stderr.splitlines() == [expected]
