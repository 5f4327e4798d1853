"""The memory of dead hosts from one crawl to the next (webrobot.urls.deadmemory): which
URLs a dead host covers, expiry, and the file's layout read back."""

from __future__ import annotations

import pytest

from webrobot.urls.deadmemory import DeadHostMemory, host_keys
from webrobot.urls.deadpolicy import NO_SUCH_NAME, REFUSED

DAY = 86400.0
WEEK = 7 * DAY


@pytest.mark.parametrize(
    ("url", "keys"),
    [
        ("http://Img.Example.ORG/a.png", ("img.example.org", "img.example.org:80")),
        ("https://cdn.example/a.png", ("cdn.example", "cdn.example:443")),
        ("http://cdn.example:8080/x", ("cdn.example", "cdn.example:8080")),
        ("http://cdn.example.:80", ("cdn.example", "cdn.example:80")),  # a site key, trailing dot
        ("ftp://cdn.example/x", None),
        ("http:///x", None),
        ("http://cdn.example:99999/x", None),
        ("not a url", None),
    ],
)
def test_host_keys(url: str, keys: tuple[str, str] | None) -> None:
    assert host_keys(url) == keys


def test_a_dead_name_covers_every_port_a_refused_port_only_its_own() -> None:
    memory = DeadHostMemory(WEEK)
    assert memory.found("http://gone.invalid:80", NO_SUCH_NAME, 100.0)
    assert memory.found("http://127.0.0.1:9/", REFUSED, 100.0)
    assert memory.lookup("https://gone.invalid/pic.png", 101.0) is not None
    assert memory.lookup("http://gone.invalid:8080/pic.png", 101.0) is not None
    assert memory.lookup("http://127.0.0.1:9/pic.png", 101.0) is not None
    assert memory.lookup("http://127.0.0.1:10/pic.png", 101.0) is None
    assert memory.lookup("http://alive.example/pic.png", 101.0) is None


def test_a_host_found_again_is_not_new_and_refreshes_its_time() -> None:
    memory = DeadHostMemory(WEEK)
    assert memory.found("http://gone.invalid/", NO_SUCH_NAME, 0.0)
    assert not memory.found("http://gone.invalid/x.png", NO_SUCH_NAME, DAY)
    # a week after the first finding, a day less than a week after the last one
    host = memory.lookup("http://gone.invalid/", WEEK + 1)
    assert host is not None and host.found == DAY


def test_a_dead_host_is_asked_again_after_the_expiry() -> None:
    memory = DeadHostMemory(WEEK)
    memory.found("http://gone.invalid/", NO_SUCH_NAME, 0.0)
    assert memory.lookup("http://gone.invalid/", WEEK - 1) is not None
    assert memory.lookup("http://gone.invalid/", WEEK) is None
    assert memory.hosts == {}  # forgotten
    assert memory.found("http://gone.invalid/", NO_SUCH_NAME, WEEK), "found dead again: new"


def test_no_expiry_means_for_ever() -> None:
    memory = DeadHostMemory(0)
    memory.found("http://gone.invalid/", NO_SUCH_NAME, 0.0)
    assert memory.lookup("http://gone.invalid/", 100 * WEEK) is not None


def test_unknown_reason_is_a_bug() -> None:
    with pytest.raises(ValueError, match="timeout"):
        DeadHostMemory(WEEK).found("http://slow.example/", "timeout", 0.0)


def test_at_most_max_hosts_the_oldest_forgotten_first() -> None:
    memory = DeadHostMemory(WEEK, max_hosts=2)
    for n in range(3):
        memory.found(f"http://h{n}.invalid/", NO_SUCH_NAME, float(n))
    assert sorted(memory.hosts) == ["h1.invalid", "h2.invalid"]


def test_the_next_crawl_reads_what_this_one_keeps() -> None:
    first = DeadHostMemory(WEEK)
    first.found("http://gone.invalid/", NO_SUCH_NAME, 0.0, "DNSLookupError: no such name")
    first.found("http://127.0.0.1:9/", REFUSED, 2 * DAY)
    kept = first.to_json(3 * DAY)

    second = DeadHostMemory(WEEK)
    assert second.load(kept, 4 * DAY) == 2
    host = second.lookup("http://gone.invalid/a.png", 4 * DAY)
    assert host is not None and host.remembered and host.reason == NO_SUCH_NAME
    assert host.detail == "DNSLookupError: no such name"
    assert second.found_now() == {}, "remembered, not found by this crawl"
    # the name's week ends before the refused port's
    later = DeadHostMemory(WEEK)
    assert later.load(kept, WEEK + DAY) == 1
    assert later.lookup("http://127.0.0.1:9/", WEEK + DAY) is not None
    assert later.lookup("http://gone.invalid/", WEEK + DAY) is None
    # what expired is not written again
    assert list(later.to_json(WEEK + DAY)["hosts"]) == ["127.0.0.1:9"]


@pytest.mark.parametrize(
    "data",
    [
        None,
        [],
        "hosts",
        {"format": 99, "hosts": {"gone.invalid": {"reason": NO_SUCH_NAME, "found": 0.0}}},
        {"format": 1, "hosts": []},
        {"format": 1, "hosts": {"gone.invalid": {"reason": "timeout", "found": 0.0}}},
        {"format": 1, "hosts": {"gone.invalid": {"reason": NO_SUCH_NAME, "found": "yesterday"}}},
        {"format": 1, "hosts": {"gone.invalid": "dead"}},
        # found in the future (a clock set wrong): not trusted
        {"format": 1, "hosts": {"gone.invalid": {"reason": NO_SUCH_NAME, "found": 10 * DAY}}},
    ],
)
def test_a_damaged_memory_is_skipped_not_raised(data: object) -> None:
    memory = DeadHostMemory(WEEK)
    assert memory.load(data, DAY) == 0
    assert memory.hosts == {}


def test_loading_keeps_what_this_crawl_found() -> None:
    memory = DeadHostMemory(WEEK)
    memory.found("http://gone.invalid/", NO_SUCH_NAME, DAY, "this crawl")
    older = {
        "format": 1,
        "hosts": {
            "gone.invalid": {"reason": NO_SUCH_NAME, "found": 0.0, "detail": "another crawl"},
            "other.invalid": {"reason": NO_SUCH_NAME, "found": 0.0},
        },
    }
    assert memory.load(older, DAY) == 1
    host = memory.lookup("http://gone.invalid/", DAY)
    assert host is not None and host.detail == "this crawl" and not host.remembered
    assert list(memory.found_now()) == ["gone.invalid"]
