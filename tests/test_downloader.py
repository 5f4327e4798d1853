"""End-to-end: the site downloader's one place for each site's next request time."""

from __future__ import annotations

from collections.abc import Callable
from itertools import pairwise
from pathlib import Path

import pytest

from tests.crawling import run_crawl
from tests.test_robots import page_hits, pages, sequence
from webrobot.demo.server import Reply, SiteServer

pytestmark = pytest.mark.slow


def test_throttled_pages_slow_the_whole_site_down(
    make_site: Callable[..., SiteServer], tmp_path: Path
) -> None:
    busy, calm, other = make_site("busy"), make_site("calm"), make_site("other")
    for site in (busy, calm, other):
        site.add("/robots.txt", Reply.text(""))
        pages(site, "/p1", "/p2", "/p3", "/p4", "/p5")
    busy.add(
        "/p1",
        sequence(Reply.text("busy", 503, **{"Retry-After": "1"}), Reply.html("<title>p1</title>")),
    )
    # calm answers its first three page requests, whichever they are, with 429.
    answers = sequence(*[Reply.text("slow down", 429)] * 3, Reply.html("<title>page</title>"))
    for path in ("/p1", "/p2", "/p3", "/p4", "/p5"):
        calm.add(path, answers)
    result = run_crawl(
        tmp_path,
        args={"start_urls": ",".join(s.url("/") for s in (busy, calm, other))},
        settings={"RETRY_TIMES": "3", "WEBROBOT_POLITENESS_BACKOFF_BASE": "0.2",
                  "WEBROBOT_POLITENESS_BACKOFF_MAX": "0.5"},
    )  # fmt: skip
    assert result.returncode == 0

    hits = sorted(page_hits(busy), key=lambda h: h.started)
    throttled = next(h for h in hits if h.path == "/p1")
    after = [h for h in hits if h.started > throttled.started]
    assert len(after) == 5, "the other pages and the retry"
    assert min(h.started for h in after) - throttled.finished >= 0.95, (
        "Retry-After: 1 holds the whole site"
    )
    assert busy.count("/p1") == 2

    hits = sorted(page_hits(calm), key=lambda h: h.started)
    starts = [h.started for h in hits]
    gaps = [b - a for a, b in pairwise(starts[1:])][:3]  # after the 1st, 2nd, 3rd 429
    # A tenth of each wait is left for the test server's jitter (it notes a start
    # when its thread has read the request).
    assert gaps[0] >= 0.18 and gaps[1] >= 0.36 and gaps[2] >= 0.45, (
        f"backoff doubles, capped: {gaps}"
    )
    assert gaps[2] < 0.9
    assert len(hits) == 9, "home, five pages, three retries"
    assert max(b - a for a, b in pairwise(starts[4:])) < 0.3, "a good answer ends the backoff"

    quick = sorted(h.started for h in page_hits(other))
    assert quick[-1] - quick[0] < 0.9, "other sites are not slowed down"
    assert result.stat("webrobot/politeness/delay_source/retry_after") >= 1
    assert result.stat("webrobot/politeness/delay_source/backoff") >= 3
    assert result.stat("webrobot/politeness/throttled/503") == 1
    assert result.stat("webrobot/politeness/throttled/429") == 3
    assert "set by retry_after" in result.log and "set by backoff" in result.log
