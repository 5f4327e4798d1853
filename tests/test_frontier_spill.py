"""The in-memory frontier past its bound: requests wait on disk and come back in
the order they would have without a bound; a crawl that spills fetches every
page once (judged by the server's log) and leaves nothing on disk."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

from tests.crawling import run_crawl
from webrobot.demo.server import Reply
from webrobot.frontier.queues import MemoryFrontier, SpillingFrontier


def test_spilling_keeps_the_order_of_the_unbounded_frontier(tmp_path: Path) -> None:
    rng = random.Random(7)
    plain, spilling = MemoryFrontier(), SpillingFrontier(5, str(tmp_path))
    got: tuple[list[Any], list[Any]] = ([], [])
    for step in range(3000):
        if rng.random() < 0.6:
            priority = -rng.randrange(4)
            payload = (f"http://a/{step}", None, (priority, "parse"), None)
            plain.push(priority, payload)
            spilling.push(priority, payload)
        else:
            for frontier, out in zip((plain, spilling), got, strict=True):
                leased = frontier.lease()
                out.append(leased and leased[1])
        assert len(plain) == len(spilling)
    while len(plain):
        got[0].append(plain.lease()[1])  # type: ignore[index]
        got[1].append(spilling.lease()[1])  # type: ignore[index]
    assert spilling.lease() is None
    assert got[0] == got[1]
    assert spilling.spilled > 100 and spilling.refilled == spilling.spilled
    spilling.close()
    assert list(tmp_path.iterdir()) == [], "nothing left on disk"


def test_what_cannot_be_pickled_stays_in_memory(tmp_path: Path) -> None:
    frontier = SpillingFrontier(1, str(tmp_path))
    frontier.push(0, ("http://a/1", None, (0,), None))
    unpicklable = lambda: None  # a request bound to a spider, say
    frontier.push(0, unpicklable)
    frontier.push(0, ("http://a/3", None, (0,), None))
    assert frontier.kept == 1
    assert [frontier.lease()[1] for _ in range(3)][1] is unpicklable  # type: ignore[index]
    frontier.close()


def test_a_full_disk_keeps_requests_in_memory_and_no_half_record(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    frontier = SpillingFrontier(1, str(tmp_path))
    first, second, third = (("http://a/%s" % n, None, (0,), None) for n in "123")  # noqa: UP031
    frontier.push(0, first)
    frontier.push(0, second)  # on disk
    spill = frontier._spills[0]
    real_write = spill._file.write

    def full(data: bytes) -> int:
        real_write(data[:3])  # part of the record reached the file
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(spill._file, "write", full)
    frontier.push(0, third)
    monkeypatch.undo()
    assert frontier.kept == 1 and len(frontier) == 3
    leased = [frontier.lease()[1] for _ in range(3)]  # type: ignore[index]
    assert sorted(leased) == sorted([first, second, third])
    frontier.close()


@pytest.mark.slow
def test_a_crawl_past_the_frontier_bound_fetches_every_page_once(
    tmp_path: Path, make_site: Any
) -> None:
    site = make_site("spill")
    site.add("/robots.txt", Reply.text("User-agent: *\nDisallow:\n"))
    n = 150
    links = "".join(f'<a href="/p{i}">p{i}</a> ' for i in range(n))
    site.html("/", f"<html><head><title>home</title></head><body>{links}</body></html>")
    for i in range(n):
        site.html(f"/p{i}", f"<html><head><title>p{i}</title></head><body>"
                            f'<a href="/q{i}">q</a></body></html>')  # fmt: skip
        site.html(f"/q{i}", f"<html><head><title>q{i}</title></head><body>leaf</body></html>")
    spill = tmp_path / "spill"
    spill.mkdir()
    result = run_crawl(tmp_path / "run", args={"start_urls": site.url("/")},
                       settings={"WEBROBOT_FRONTIER_MEMORY_REQUESTS": "20", "LOG_LEVEL": "INFO",
                                 "WEBROBOT_FRONTIER_SPILL_DIR": str(spill),
                                 "CONCURRENT_REQUESTS": "4", "WEBROBOT_INDEX_ENABLED": "False"})  # fmt: skip
    assert result.returncode == 0, result.stderr[-2000:]
    assert result.stat("webrobot/frontier/memory/spilled") > 100
    assert result.log.count("the next ones wait on disk") == 1
    hits = [h.path for h in site.hits]
    expected = ["/robots.txt", "/"] + [f"/p{i}" for i in range(n)] + [f"/q{i}" for i in range(n)]
    assert sorted(hits) == sorted(expected), "every page once"
    # Breadth-first held: every /p page was fetched before any /q page.
    pages = [h for h in hits if h.startswith(("/p", "/q"))]
    assert max(i for i, h in enumerate(pages) if h.startswith("/p")) < min(
        i for i, h in enumerate(pages) if h.startswith("/q")
    )
    assert len(result.items) == 2 * n + 1
    assert list(spill.iterdir()) == [], "the spilled requests' files are removed"
