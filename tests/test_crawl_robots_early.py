"""End-to-end: links that a site's known robots.txt disallows are refused as they
are scheduled, never queued, counted and reported as refusals of the robots.txt
middleware; judged by what the local server saw requested."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.crawling import run_crawl
from webrobot.demo.server import Reply, SiteServer

pytestmark = pytest.mark.slow

DISALLOWED = [f"/private/{i}.html" for i in range(40)]
ALLOWED = [f"/p{i}.html" for i in range(5)]


def page(title: str, *links: str) -> str:
    return f"<title>{title}</title>" + "".join(f"<a href='{u}'>{u}</a>" for u in links)


def test_disallowed_links_are_never_queued(
    make_site: Callable[..., SiteServer], tmp_path: Path
) -> None:
    site = make_site("shop")
    site.add("/robots.txt", Reply.text("User-agent: *\nDisallow: /private/\n"))
    site.html("/", page("home", "/hub.html", *ALLOWED[:2]))
    # The hub links to every disallowed page and the rest of the shop; each product
    # page links to some disallowed pages again (refused once, then duplicates).
    site.html("/hub.html", page("hub", *DISALLOWED, *ALLOWED))
    for path in ALLOWED:
        site.html(path, page(path, "/", *DISALLOWED[:10]))
    for path in DISALLOWED:
        site.html(path, page(path))

    result = run_crawl(tmp_path, args={"start_urls": site.url("/")})
    assert result.returncode == 0, result.stderr[-2000:]
    assert "Traceback" not in result.log, result.log[-3000:]

    fetched = [t for t in site.targets() if t != "/robots.txt"]
    assert sorted(fetched) == sorted(["/", "/hub.html", *ALLOWED])
    assert not any(hit.path.startswith("/private/") for hit in site.hits)
    # Refused once each, under the robots.txt middleware's key, as before.
    assert result.stat("robotstxt/forbidden") == len(DISALLOWED)
    # Only the pages fetched were queued (the start page twice: once before its site's
    # robots.txt was known, once when released after it); none of the refused links.
    assert result.stat("scheduler/enqueued") == len(fetched) + 1
    assert result.stat("scheduler/dequeued") == result.stat("scheduler/enqueued")

    report = json.loads((tmp_path / "items.report.json").read_text("utf-8"))
    row = report["sites"][site.origin]
    assert row["refused"] == {"robots_txt": len(DISALLOWED)}
    assert report["totals"]["refused"] == {"robots_txt": len(DISALLOWED)}
    assert row["requested"] == len(fetched)
    assert row["frontier"] == 0, "refused links never stay counted in the frontier"
