"""A page with a flood of links neither stalls nor floods the crawl: off-site
links are refused before the scheduler, binary files are not requested, and
one page passes on at most WEBROBOT_MAX_LINKS_PER_PAGE links. Judged by what
the server saw."""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.crawling import run_crawl
from webrobot.demo.server import Reply, SiteServer

pytestmark = pytest.mark.slow

OFFSITE = 20_000
ONSITE = 60
CAP = 25
BINARIES = (
    "/files/report.pdf",
    "/img/photo.JPG",
    "/saved/page.mht",
    "/dl/archive.tar.gz",
    "/a.docx",
)


def test_a_link_flood_finishes_fast_and_passes_on_at_most_the_cap(
    make_site: Callable[..., SiteServer], tmp_path: Path
) -> None:
    site = make_site("flood")
    links = [f'<a href="http://other{i}.example/x">o</a>' for i in range(OFFSITE)]
    links += [f'<a href="/p/{i}">p</a>' for i in range(ONSITE)]
    links += [f'<a href="{b}">b</a>' for b in BINARIES]
    site.html("/", "<title>flood</title>" + "".join(links))
    site.add_prefix("/p/", lambda hit: Reply.html("<title>p</title>"))
    site.add_prefix(
        "/", lambda hit: Reply(200, b"\x89PNG binary", {"Content-Type": "application/octet-stream"})
    )
    started = time.monotonic()
    result = run_crawl(tmp_path, args={"start_urls": site.url("/")},
                       settings={"WEBROBOT_MAX_LINKS_PER_PAGE": str(CAP), "LOG_LEVEL": "INFO"}, timeout=120)  # fmt: skip
    took = time.monotonic() - started
    assert result.returncode == 0, result.stderr
    pages = [t for t in site.targets() if t.startswith("/p/")]
    assert len(pages) == CAP, "the cap"
    assert not set(BINARIES) & set(site.targets()), "a binary file was requested"
    assert result.stat("webrobot/url/refused/offsite") == OFFSITE
    assert result.stat("webrobot/url/refused/binary_extension") == len(BINARIES)
    assert result.stat("webrobot/url/refused/page_link_cap") == ONSITE - CAP
    assert result.stat("scheduler/enqueued", 0) <= CAP + 1 + 5, (
        "refused links never reached the scheduler"
    )
    assert took < 90, f"the flood took {took:.0f} s"


def test_no_cap_follows_every_link(make_site: Callable[..., SiteServer], tmp_path: Path) -> None:
    site = make_site("many")
    site.html("/", "".join(f'<a href="/p/{i}">p</a>' for i in range(40)))
    site.add_prefix("/p/", lambda hit: Reply.html("<title>p</title>"))
    result = run_crawl(
        tmp_path, args={"start_urls": site.url("/")}, settings={"WEBROBOT_MAX_LINKS_PER_PAGE": "0"}
    )
    assert result.returncode == 0, result.stderr
    assert len([t for t in site.targets() if t.startswith("/p/")]) == 40
    assert result.stat("webrobot/url/refused/page_link_cap") == 0
