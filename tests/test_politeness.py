"""Each site's next allowed request time, from all its sources."""

from __future__ import annotations

from pytest import approx

from webrobot.politeness.clock import SitePoliteness

S = "http://a:80"


def test_download_delay_spaces_starts() -> None:
    p = SitePoliteness()
    assert p.reserve(S, 1.0, "download_delay", 10.0) == (0.0, "download_delay")
    assert p.reserve(S, 1.0, "download_delay", 10.4) == (approx(0.6), "download_delay")
    assert p.reserve(S, 1.0, "download_delay", 11.0) == (0.0, "download_delay")
    assert p.reserve(S, 0.0, "download_delay", 11.0) == (0.0, "download_delay"), "no delay: no wait"


def test_crawl_delay_wins_when_longer_and_never_shortens_the_delay() -> None:
    p = SitePoliteness()
    p.set_robots_delay(S, 5.0, "crawl_delay")
    p.reserve(S, 1.0, "download_delay", 0.0)
    assert p.reserve(S, 1.0, "download_delay", 2.0) == (3.0, "crawl_delay")
    p.set_robots_delay(S, 0.5, "request_rate")
    assert p.reserve(S, 1.0, "autothrottle", 0.7) == (approx(0.3), "autothrottle")
    p.set_robots_delay(S, None, None)
    assert p.reserve(S, 0.0, "download_delay", 0.1) == (0.0, "download_delay")


def test_retry_after_holds_the_site_then_backoff_while_throttled() -> None:
    p = SitePoliteness(retry_after_max=600, backoff_base=1.0, backoff_max=8.0)
    p.reserve(S, 0.0, "download_delay", 0.0)
    p.note_response(S, 503, 30.0, now=0.5)
    assert p.reserve(S, 0.0, "download_delay", 1.0) == (29.5, "retry_after")
    assert p.reserve(S, 0.0, "download_delay", 30.5)[0] == 0.0
    p.note_response(S, 429, None, now=31.0)  # second strike: 2 s between starts
    assert p.reserve(S, 0.0, "download_delay", 31.5) == (1.0, "backoff")
    for _ in range(10):
        p.note_response(S, 503, None, now=40.0)
    assert p.interval(S, 0.0, "download_delay") == (8.0, "backoff"), "capped"
    p.note_response(S, 200, None, now=41.0)
    assert p.interval(S, 0.0, "download_delay") == (0.0, "download_delay"), "a good answer resets"


def test_retry_after_is_capped_and_other_sites_are_not_affected() -> None:
    p = SitePoliteness(retry_after_max=60)
    p.note_response(S, 429, 86400.0, now=0.0)
    assert p.reserve(S, 0.0, "download_delay", 1.0) == (59.0, "retry_after")
    assert p.reserve("http://b:80", 0.0, "download_delay", 1.0) == (0.0, "download_delay")


def test_waiting_records_nothing_and_sites_are_bounded() -> None:
    p = SitePoliteness(max_sites=2)
    p.reserve(S, 10.0, "download_delay", 0.0)
    assert p.reserve(S, 10.0, "download_delay", 5.0)[0] == 5.0
    assert p.reserve(S, 10.0, "download_delay", 5.0)[0] == 5.0, "asking again does not push it back"
    p.reserve("http://b:80", 0, "download_delay", 0.0)
    p.reserve("http://c:80", 0, "download_delay", 0.0)
    assert len(p) == 2
    assert p.reserve(S, 10.0, "download_delay", 5.0) == (0.0, "download_delay"), "forgotten"


def test_the_interval_counts_from_when_a_late_request_left() -> None:
    p = SitePoliteness()
    assert p.reserve("a", 1.0, "download_delay", 10.0) == (0.0, "download_delay")
    p.departed("a", 10.2)  # the process was busy: the request left 0.2 s late
    assert p.reserve("a", 1.0, "download_delay", 11.0) == (approx(0.2), "download_delay")
    assert p.reserve("a", 1.0, "download_delay", 11.2) == (0.0, "download_delay")
    p.departed("a", 11.1)  # a note older than the latest start moves nothing back
    assert p.reserve("a", 1.0, "download_delay", 12.1) == (approx(0.1), "download_delay")
    p.departed("b", 12.0)  # a site it never started: nothing to move
    assert p.reserve("b", 1.0, "download_delay", 12.0) == (0.0, "download_delay")
