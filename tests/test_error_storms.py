"""End-to-end: a site answering 500 for a while, judged by what its server saw and when.

The failing site slows down (the gaps between its requests grow while it
fails), the rest of the crawl does not; every page is fetched and itemised in
the end; a page the crawl finally gives up on is counted, listed in the report
and, with ``WEBROBOT_RETRY_FAILED``, fetched again by the resumed job.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Callable
from itertools import pairwise
from pathlib import Path

import pytest

from tests.crawling import run_crawl
from webrobot.demo.server import Hit, Reply, SiteServer

pytestmark = pytest.mark.slow

PAGES = [f"/p{i}" for i in range(12)]
STORM_SECONDS = 3.0


def storm_site(site: SiteServer, seconds: float) -> None:
    """Home links to PAGES; every page request answers 500 for ``seconds`` after the first one."""
    site.add("/robots.txt", Reply.text(""))
    first: list[float] = []

    def page(hit: Hit) -> Reply:
        if not first:
            first.append(hit.started)
        if hit.started - first[0] < seconds:
            return Reply.text("down", 500)
        links = "".join(f"<a href='{p}'>{p}</a>" for p in PAGES) if hit.path == "/" else ""
        return Reply.html(f"<title>{hit.path}</title>{links}")

    site.add_prefix("/", page)


def page_starts(site: SiteServer) -> list[float]:
    return sorted(h.started for h in site.hits if h.path != "/robots.txt")


def test_a_500_storm_slows_the_site_down_and_every_page_is_fetched_in_the_end(
    make_site: Callable[..., SiteServer], tmp_path: Path
) -> None:
    stormy, calm = make_site("stormy"), make_site("calm")
    storm_site(stormy, STORM_SECONDS)
    calm.add("/robots.txt", Reply.text(""))
    calm.html("/", "".join(f"<a href='{p}'>{p}</a>" for p in PAGES))
    for p in PAGES:
        calm.html(p, f"<title>calm {p}</title>")
    result = run_crawl(
        tmp_path,
        args={"start_urls": f"{stormy.url('/')},{calm.url('/')}"},
        settings={"RETRY_TIMES": "8", "WEBROBOT_POLITENESS_BACKOFF_BASE": "0.2",
                  "WEBROBOT_POLITENESS_BACKOFF_MAX": "1.5", "WEBROBOT_REPORT_DIR": str(tmp_path / "report")},
    )  # fmt: skip
    assert result.returncode == 0, result.stderr[-2000:]

    expected = {stormy.url(p) for p in ["/", *PAGES]} | {calm.url(p) for p in ["/", *PAGES]}
    assert set(result.item_urls()) == expected and len(result.items) == len(expected)

    hits = sorted((h for h in stormy.hits if h.path != "/robots.txt"), key=lambda h: h.started)
    failing = [h for h in hits if h.started - hits[0].started < STORM_SECONDS]
    gaps = [b.started - a.started for a, b in pairwise(failing)]
    assert len(gaps) >= 3, f"too few requests while the site failed: {gaps}"
    growing = gaps[:4]
    assert all(b > a * 1.3 for a, b in pairwise(growing)), (
        f"the gaps did not grow while it failed: {gaps}"
    )
    assert max(gaps) <= 1.5 * 1.25 + 0.3, f"backoff over its cap: {gaps}"

    calm_starts = page_starts(calm)
    assert calm_starts[-1] - calm_starts[0] < STORM_SECONDS, "the calm site was slowed down too"
    assert result.stat("webrobot/politeness/delay_source/backoff") >= 3
    assert result.stat("webrobot/page/failed") == 0
    report = json.loads((tmp_path / "report" / "report.json").read_text("utf-8"))
    assert report["failed"] == [] and report["failed_total"] == 0


def test_a_page_given_up_on_is_reported_and_retried_by_the_resumed_job(
    make_site: Callable[..., SiteServer], tmp_path: Path
) -> None:
    site = make_site("flaky")
    site.add("/robots.txt", Reply.text(""))
    site.html("/", "".join(f"<a href='{p}'>{p}</a>" for p in PAGES))
    down = threading.Event()
    down.set()

    def broken(hit: Hit) -> Reply:
        return Reply.text("down", 503) if down.is_set() else Reply.html("<title>back</title>")

    for p in PAGES:
        site.html(p, f"<title>{p}</title>")
    site.add("/p3", broken)
    settings = {"JOBDIR": str(tmp_path / "job"), "RETRY_TIMES": "2", "LOG_LEVEL": "INFO",
                "WEBROBOT_POLITENESS_BACKOFF_BASE": "0.05", "WEBROBOT_POLITENESS_BACKOFF_MAX": "0.2"}  # fmt: skip
    args = {"start_urls": site.url("/")}

    run1 = run_crawl(tmp_path / "run1", args=args,
                     settings={**settings, "WEBROBOT_REPORT_DIR": str(tmp_path / "report1")})  # fmt: skip
    assert run1.returncode == 0, run1.stderr[-2000:]
    assert site.count("/p3") == 3, "the first try and two retries"
    assert run1.stat("webrobot/page/failed/http_503") == 1
    report = json.loads((tmp_path / "report1" / "report.json").read_text("utf-8"))
    assert report["failed"] == [{"url": site.url("/p3"), "site": site.origin, "reason": "http_503"}]
    assert site.url("/p3") in (tmp_path / "report1" / "report.html").read_text("utf-8")
    assert "Gave up on " + site.url("/p3") in run1.log

    down.clear()
    run2 = run_crawl(tmp_path / "run2", args=args, settings=settings)  # kept as failed: not retried
    assert run2.returncode == 0 and site.count("/p3") == 3
    assert "1 failed for good (WEBROBOT_RETRY_FAILED=True retries them)" in run2.log

    run3 = run_crawl(
        tmp_path / "run3", args=args, settings={**settings, "WEBROBOT_RETRY_FAILED": "True"}
    )
    assert run3.returncode == 0, run3.stderr[-2000:]
    assert site.count("/p3") == 4
    assert run3.item_urls() == [site.url("/p3")]
    assert run3.stat("webrobot/frontier/recovered/retried") == 1
    assert all(site.count(p) == 1 for p in ["/", *PAGES] if p != "/p3"), (
        "only the failure was fetched again"
    )
