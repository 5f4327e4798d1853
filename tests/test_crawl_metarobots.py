"""End-to-end: meta robots, X-Robots-Tag and rel=nofollow in real crawls,
judged by what the server was asked for and by the items."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from tests.crawling import CrawlResult, run_crawl
from webrobot.demo.server import Reply, SiteServer

pytestmark = pytest.mark.slow

ROBOTS_ALLOW_ALL = Reply.text("User-agent: *\nDisallow:\n")


def html(title: str, head: str = "", body: str = "") -> str:
    return (
        f"<!DOCTYPE html><html><head><meta charset='utf-8'><title>{title}</title>{head}</head>"
        f"<body><h1>{title}</h1>{body}</body></html>"
    )


def child_link(name: str) -> str:
    return f'<p><a href="/{name}-child">only linked from {name}</a></p>'


#: page -> (head, X-Robots-Tag header or None); each links to its own /<page>-child
PAGES: dict[str, tuple[str, str | None]] = {
    "nofollow": ('<meta name="robots" content="nofollow">', None),
    "noindex": ('<meta name="robots" content="noindex">', None),
    "none": ('<meta name="robots" content="NONE">', None),
    "index-and-noindex": (
        '<meta name="robots" content="index,follow"><meta name="robots" content="noindex">',
        None,
    ),
    "agent": ('<meta name="WebRobot" content="noindex nofollow">', None),
    "otheragent": ('<meta name="otherbot" content="noindex, nofollow">', None),
    "header-noindex": ("", "noindex"),
    "header-agent-nofollow": ("", "webrobot: nofollow"),
    "header-otheragent": ("", "otherbot: noindex, nofollow"),
    "header-and-meta": ('<meta name="robots" content="nofollow">', "noindex"),
    "header-date": ("", "unavailable_after: 25 Jun 2099 15:00:00 PST"),
    "noarchive": ('<meta name="robots" content="noarchive">', None),
    "unknown": ('<meta name="robots" content="nosnippet, max-snippet:0, madeup">', None),
}


def meta_site(site: SiteServer) -> None:
    site.add("/robots.txt", ROBOTS_ALLOW_ALL)
    links = "".join(
        f'<li><a href="/{name}">{name}</a></li>' for name in [*PAGES, "bodymeta", "rel"]
    )
    site.html("/", html("Home", body=f"<ul>{links}</ul>"))
    for name, (head, header) in PAGES.items():
        headers = {"X-Robots-Tag": header} if header else {}
        site.html(f"/{name}", html(name, head, child_link(name)), **headers)
    # meta in the body does not count
    site.html(
        "/bodymeta",
        html(
            "bodymeta",
            "",
            '<meta name="robots" content="noindex, nofollow">' + child_link("bodymeta"),
        ),
    )
    # rel=nofollow on one link; a URL marked nofollow once but linked plainly too is followed
    site.html("/rel", html("rel", "", (
        '<a href="/sponsored" rel="nofollow sponsored">ad</a> <a href="/plain">plain</a> '
        '<a href="/both" rel="nofollow">x</a> <a href="/both">y</a>'
        '<a href="/ugc" rel="UGC NoFollow">comment</a>'
    )))  # fmt: skip
    for name in ("sponsored", "plain", "both", "ugc"):
        site.html(f"/{name}", html(name))
    for name in [*PAGES, "bodymeta"]:
        site.html(f"/{name}-child", html(f"{name}-child"))


def crawl(site: SiteServer, tmp_path: Path, **settings: str) -> CrawlResult:
    result = run_crawl(tmp_path, args={"start_urls": site.url("/")}, settings=settings)
    assert result.returncode == 0, result.stderr + result.log[-2000:]
    assert "Traceback" not in result.log
    return result


def test_meta_robots_and_x_robots_tag_are_obeyed(
    make_site: Callable[..., SiteServer], tmp_path: Path
) -> None:
    site = make_site("meta")
    meta_site(site)
    result = crawl(site, tmp_path)
    requested = set(site.targets())
    items = {item["url"][len(site.origin) :]: item for item in result.items}

    # every page linked from home was fetched, exactly once
    for name in [*PAGES, "bodymeta", "rel"]:
        assert site.count(f"/{name}") == 1, name

    no_item = {"noindex", "none", "index-and-noindex", "agent", "header-noindex", "header-and-meta"}
    not_followed = {"nofollow", "none", "agent", "header-agent-nofollow", "header-and-meta"}
    for name in [*PAGES, "bodymeta"]:
        assert (f"/{name}" in items) == (name not in no_item), f"item for {name}"
        assert (f"/{name}-child" in requested) == (name not in not_followed), f"child of {name}"
        if name not in not_followed:  # a followed child is an ordinary page with its item
            assert f"/{name}-child" in items

    assert items["/nofollow"]["meta_robots"] == ["nofollow"]
    assert items["/otheragent"]["meta_robots"] == []
    assert items["/bodymeta"]["meta_robots"] == []
    assert items["/header-otheragent"]["meta_robots"] == []
    assert items["/header-agent-nofollow"]["meta_robots"] == ["nofollow"]
    assert items["/header-date"]["meta_robots"] == ["unavailable_after:25 jun 2099 15:00:00 pst"]
    assert items["/noarchive"]["meta_robots"] == ["noarchive"]
    assert items["/unknown"]["meta_robots"] == ["nosnippet", "max-snippet:0", "madeup"]
    assert items["/"]["meta_robots"] == []
    assert all(item["body"] is None for item in items.values()), "bodies are stored only on request"

    # rel=nofollow
    assert "/sponsored" not in requested and "/ugc" not in requested
    assert {"/plain", "/both"} <= requested

    assert result.stat("webrobot/meta/noindex") == len(no_item)
    assert result.stat("webrobot/meta/nofollow") == len(not_followed)
    assert result.stat("webrobot/meta/noarchive") == 1
    assert result.stat("webrobot/meta/rel_nofollow") == 2
    assert "Not indexing " + site.url("/noindex") in result.log


def test_switched_off_everything_is_followed_and_indexed(
    make_site: Callable[..., SiteServer], tmp_path: Path
) -> None:
    """The same site with the component off: proves the test above can fail."""
    site = make_site("meta")
    meta_site(site)
    result = crawl(site, tmp_path, WEBROBOT_META_ROBOTS_ENABLED="False")
    requested = set(site.targets())
    assert {"/nofollow-child", "/none-child", "/sponsored", "/ugc"} <= requested
    urls = set(result.item_urls())
    assert {site.url("/noindex"), site.url("/none"), site.url("/header-noindex")} <= urls
    assert all(item["meta_robots"] == [] for item in result.items)
    assert not [k for k in result.stats if k.startswith("webrobot/meta/")]


def test_rel_nofollow_alone_can_be_switched_off(
    make_site: Callable[..., SiteServer], tmp_path: Path
) -> None:
    site = make_site("meta")
    meta_site(site)
    result = crawl(site, tmp_path, WEBROBOT_HONOR_REL_NOFOLLOW="False")
    requested = set(site.targets())
    assert {"/sponsored", "/ugc"} <= requested
    assert "/nofollow-child" not in requested
    assert result.stat("webrobot/meta/rel_nofollow") == 0


def test_stored_bodies_leave_out_noarchive_pages(
    make_site: Callable[..., SiteServer], tmp_path: Path
) -> None:
    site = make_site("archive")
    site.add("/robots.txt", ROBOTS_ALLOW_ALL)
    site.html(
        "/",
        html("Home", body='<a href="/keep">k</a> <a href="/noarchive">n</a> <a href="/hdr">h</a>'),
    )
    site.html("/keep", html("Keep", body="<p>caf\u00e9 body text</p>"))
    site.html("/noarchive", html("No archive", '<meta name="robots" content="noarchive">'))
    site.html("/hdr", html("Header says no archive"), **{"X-Robots-Tag": "webrobot: noarchive"})
    result = crawl(site, tmp_path, WEBROBOT_STORE_BODY="True")
    items = {item["url"][len(site.origin) :]: item for item in result.items}
    assert sorted(items) == ["/", "/hdr", "/keep", "/noarchive"]
    assert "<p>caf\u00e9 body text</p>" in items["/keep"]["body"]
    assert items["/"]["body"].startswith("<!DOCTYPE html>")
    assert items["/noarchive"]["body"] is None and items["/hdr"]["body"] is None
    assert items["/noarchive"]["meta_robots"] == ["noarchive"]
    assert result.stat("webrobot/meta/noarchive") == 2


def test_x_robots_tag_on_a_non_html_response_and_a_redirect(
    make_site: Callable[..., SiteServer], tmp_path: Path
) -> None:
    """Directives come from the final response: a redirect's own header does not leak."""
    site = make_site("redirect")
    site.add("/robots.txt", ROBOTS_ALLOW_ALL)
    # No .pdf extension: such links are not requested at all; this one is, and stopped at its headers.
    site.html("/", html("Home", body='<a href="/moved">m</a> <a href="/doc">pdf</a>'))
    site.add("/moved", Reply(301, b"", {"Location": "/target", "X-Robots-Tag": "noindex"}))
    site.html(
        "/target",
        html("Target", body='<a href="/target-child">c</a>'),
        **{"X-Robots-Tag": "nofollow"},
    )
    site.html("/target-child", html("Target child"))
    site.add(
        "/doc",
        Reply(
            200, b"%PDF-1.4 fake", {"Content-Type": "application/pdf", "X-Robots-Tag": "noindex"}
        ),
    )
    result = crawl(site, tmp_path)
    assert {"/moved", "/target", "/doc"} <= set(site.targets())
    assert "/target-child" not in site.targets()
    items = {item["url"][len(site.origin) :]: item for item in result.items}
    assert sorted(items) == ["/", "/target"]
    assert items["/target"]["meta_robots"] == ["nofollow"]
    assert result.stat("webrobot/meta/nofollow") == 1
    assert result.stat("webrobot/meta/noindex") == 0
