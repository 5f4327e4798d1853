"""End-to-end: sites the robot cannot reach, judged by what the local servers saw,
how long the crawl took and what it said.

A host name that does not resolve is given up after ``WEBROBOT_ROBOTS_DNS_DEFER_MAX``
whichever download handler fetches its robots.txt. Names under ``.invalid``
(RFC 6761) fail in webrobot's resolver at once, without a DNS query, so these
tests never leave the machine.
"""

from __future__ import annotations

import shutil
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.crawling import CrawlResult, run_crawl
from webrobot.demo.server import Reply, SiteServer

pytestmark = pytest.mark.slow

MakeSite = Callable[..., SiteServer]

DEAD_NAME = "http://no-such-host.invalid/"
#: The DNS limit these crawls use, and how long after it the crawl may take to end.
DNS_LIMIT = 3.0
MARGIN = 15.0

HANDLERS = {
    "webrobot": {},  # the project's KeepAliveDownloadHandler
    "scrapy-http11": {
        "DOWNLOAD_HANDLERS": '{"http": "scrapy.core.downloader.handlers.http11.HTTP11DownloadHandler"}'
    },
    # scrapy-playwright hands requests it does not render (robots.txt) to its HTTP/1.1 parent
    "playwright": {"WEBROBOT_RENDER": "browser"},
}


def live_site(make_site: MakeSite) -> SiteServer:
    site = make_site("live")
    site.add("/robots.txt", Reply.text(""))
    site.html(
        "/", f"<html><title>home</title><body><a href='/a'>a</a> of {site.origin}</body></html>"
    )
    site.html("/a", f"<html><title>a</title><body>page a of {site.origin}</body></html>")
    return site


def timed_crawl(
    tmp_path: Path, start_urls: list[str], settings: dict[str, str], timeout: float = 90
) -> tuple[CrawlResult, float]:
    result = run_crawl(
        tmp_path, args={"start_urls": ",".join(start_urls)}, settings=settings, timeout=timeout
    )
    return result, time.monotonic()


@pytest.mark.parametrize("handler", sorted(HANDLERS))
def test_a_name_that_does_not_resolve_is_given_up_after_its_own_limit(
    make_site: MakeSite, tmp_path: Path, handler: str
) -> None:
    if handler == "playwright":
        pytest.importorskip(
            "scrapy_playwright", reason="the optional browser extra is not installed"
        )
        if shutil.which("chromium") is None:
            pytest.skip("chromium is not installed")
    live = live_site(make_site)
    settings = {
        "WEBROBOT_ROBOTS_DNS_DEFER_MAX": str(DNS_LIMIT),
        "WEBROBOT_ROBOTS_BACKOFF_BASE": "0.5",
        **HANDLERS[handler],
    }
    # Before the limit for names was applied, this crawl waited WEBROBOT_ROBOTS_DEFER_MAX
    # (an hour): the timeout fails it.
    result, ended = timed_crawl(tmp_path, [live.url("/"), DEAD_NAME], settings)

    assert result.returncode == 0, result.stderr[-2000:]
    assert "Traceback" not in result.log, result.log[-3000:]
    assert sorted(live.targets()) == ["/", "/a", "/robots.txt"]
    first = min(h.started for h in live.hits)
    assert ended - first < DNS_LIMIT + MARGIN, "the crawl ends once the name's limit has passed"
    assert result.stat("webrobot/robots/deferred_dns") >= 2
    assert result.stat("webrobot/robots/deferred_gave_up") == 1
    assert "robots.txt of http://no-such-host.invalid:80 failed (host name does not resolve" in (
        result.log
    )
    assert "Giving up on the robots.txt of http://no-such-host.invalid:80" in result.log
