"""The lease book both lease schedulers keep (webrobot.frontier.leases), told by hand
what a scheduler tells it: handed out, scheduled again, refused, enqueued again, done."""

from __future__ import annotations

from scrapy import Request

from webrobot.frontier.leases import LeaseTracker


def tracker_with(*urls: str) -> tuple[LeaseTracker[str, Request], list[Request]]:
    leases: LeaseTracker[str, Request] = LeaseTracker()
    requests = [Request(url) for url in urls]
    for n, request in enumerate(requests):
        leases.handed_out(f"lease-{n}", request)
    return leases, requests


def test_a_lease_is_done_once_the_engine_no_longer_has_its_request() -> None:
    leases, (a, b) = tracker_with("http://a/", "http://b/")
    assert len(leases) == 2 and list(leases) == ["lease-0", "lease-1"] and "lease-0" in leases
    assert leases.done({a, b}) == []
    assert leases.done({b}) == [("lease-0", a)]
    assert leases.forget("lease-0") is a
    assert "lease-0" not in leases and leases.done(set()) == [("lease-1", b)]


def test_a_request_handed_back_to_the_engine_keeps_its_lease_until_served_again() -> None:
    leases, (a,) = tracker_with("http://a/")
    leases.scheduled(a)  # a middleware handed it back; the engine schedules it again
    assert leases.parked == 1 and leases.done(set()) == [], "held: not done"
    assert leases.handed_back(a) is True  # it reaches the scheduler again
    assert leases.waiting == 1 and leases.done(set()) == [], "waiting here: not done"
    assert leases.next_waiting() is a
    assert leases.parked == 0 and leases.waiting == 0
    assert leases.done({a}) == [] and leases.done(set()) == [("lease-0", a)]


def test_a_request_never_leased_is_not_taken_back() -> None:
    leases, _ = tracker_with("http://a/")
    other = Request("http://other/")
    leases.scheduled(other)
    assert leases.handed_back(other) is False
    assert leases.parked == 0 and leases.waiting == 0 and leases.next_waiting() is None


def test_a_held_request_refused_is_done_and_never_parked_again() -> None:
    leases, (a,) = tracker_with("http://a/")
    leases.scheduled(a)  # held for its site's robots.txt
    leases.gone(a)  # released and refused in the robots middleware's receiver...
    leases.scheduled(a)  # ...which runs before the scheduler's receiver of the same signal
    assert leases.parked == 0
    assert leases.handed_back(a) is False, "no longer handed out"
    assert leases.done(set()) == [("lease-0", a)]


def test_clear_gives_every_lease_back() -> None:
    leases, (a, b) = tracker_with("http://a/", "http://b/")
    leases.scheduled(a)
    leases.handed_back(b)
    leases.clear()
    assert len(leases) == 0 and leases.parked == 0 and leases.waiting == 0
    assert leases.handed_back(a) is False and leases.done(set()) == []
