"""End-to-end: a crawl of many small sites under an open-file limit of 1024 (a
common default) fetches every page once with no descriptor error: idle
keep-alive connections are bounded, sites with nothing queued lose theirs
first, and "too many open files" would be back-pressure, never a site's error.
Judged by the server's log. (The time against a high limit, with 3,000 sites, is
a benchmark: ``python -m benchmarks.open_files``.)"""

from __future__ import annotations

import resource
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.crawling import start_crawl
from tests.manysites import ManySites

pytestmark = pytest.mark.slow

SITES, PAGES, LIMIT = 1200, 3, 1024


def limit_open_files(limit: int) -> None:
    resource.setrlimit(resource.RLIMIT_NOFILE, (limit, limit))


@pytest.fixture
def web() -> Iterator[ManySites]:
    with ManySites(SITES, PAGES) as sites:
        yield sites


def test_many_sites_under_an_open_file_limit_of_1024_without_a_descriptor_error(
    tmp_path: Path, web: ManySites
) -> None:
    crawl = start_crawl(
        tmp_path / "run",
        args={"start_urls": ",".join(web.urls())},
        settings={
            "CONCURRENT_REQUESTS": "64",
            "LOG_LEVEL": "INFO",
            "DOWNLOAD_TIMEOUT": "60",
            "WEBROBOT_INDEX_ENABLED": "False",
        },
        preexec_fn=lambda: limit_open_files(LIMIT),
    )
    result = crawl.wait(timeout=400)
    assert result.returncode == 0, result.stderr[-2000:]
    assert "Too many open files" not in result.log
    assert not result.stat("webrobot/descriptors/exhausted")
    assert result.stat("webrobot/descriptors/limit") == LIMIT
    assert result.stat("webrobot/descriptors/idle_closed") > 0, "the idle pool was bounded"
    assert not result.stat("downloader/exception_count"), result.stats
    hits = web.hits()
    expected = {(port, path) for port in web.ports for path in ["/robots.txt", *web.paths()]}
    assert set(hits) == expected, "every page and robots.txt of every site was fetched"
    assert {k: n for k, n in hits.items() if n != 1} == {}, "each once"
    assert len(result.items) == SITES * PAGES
    # Connections were reused (keep-alive kept where it pays), and yet never too many.
    assert web.connections < len(web.log)


def test_too_many_open_files_is_back_pressure_never_a_sites_error(tmp_path: Path) -> None:
    """Told that every descriptor is for connections (WEBROBOT_FD_RESERVE = 0), the
    crawl does run out: each download that hits "too many open files" waits and
    tries again. No site is retried, backed off, failed or given up on for it."""
    # Slow answers keep every connection the concurrency allows open at once.
    with ManySites(300, PAGES, delay=0.2) as web:
        crawl = start_crawl(
            tmp_path / "run",
            args={"start_urls": ",".join(web.urls())},
            settings={
                "CONCURRENT_REQUESTS": "64",
                "LOG_LEVEL": "INFO",
                "WEBROBOT_INDEX_ENABLED": "False",
                "WEBROBOT_FD_RESERVE": "0",
                "WEBROBOT_MAX_IDLE_CONNECTIONS": "0",
            },
            preexec_fn=lambda: limit_open_files(40),
        )
        result = crawl.wait(timeout=400)
        hits = web.hits()
        expected = {(port, path) for port in web.ports for path in ["/robots.txt", *web.paths()]}
    assert result.returncode == 0, result.stderr[-2000:]
    assert result.stat("webrobot/descriptors/exhausted") > 0, "the crawl did run out"
    assert result.log.count("Out of open files") == 1, "said once"
    assert result.log.count("is low for CONCURRENT_REQUESTS=64") == 1, "one warning at start"
    assert set(hits) == expected
    assert {k: n for k, n in hits.items() if n != 1} == {}, "nothing fetched twice"
    # Every answer reached the spider. (With no descriptor reserved for files, writing the
    # feed may fail too: that is what WEBROBOT_FD_RESERVE is for; the test above shows a
    # crawl with the default reserve writing every item.)
    assert result.stat("downloader/response_count") == 300 * (PAGES + 1)
    assert result.stat("response_received_count") == 300 * (PAGES + 1)
    for key in result.stats:
        assert not key.startswith(("retry/", "downloader/exception", "webrobot/politeness/throttled",
                                   "webrobot/robots/status/error", "webrobot/failures")), key  # fmt: skip
