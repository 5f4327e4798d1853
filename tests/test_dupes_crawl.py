"""End-to-end: duplicate content, link suppression, soft-404 traps and JOBDIR resume,
judged by what the local server saw requested and the items written."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.crawling import run_crawl, start_crawl, wait_until
from webrobot.demo.server import Hit, Reply, SiteServer
from webrobot.seen.storefile import read_header

pytestmark = pytest.mark.slow

ROBOTS_ALLOW_ALL = Reply.text("User-agent: *\nDisallow:\n")
CATALOGUE = (
    "<!DOCTYPE html><html><head><title>Catalogue</title></head><body><h1>Catalogue</h1>"
    "<p>Nothing here yet.</p><a href='more/'>more</a> <a href='other/'>other</a></body></html>"
)


def pages(site: SiteServer) -> list[str]:
    return [t for t in site.targets() if t != "/robots.txt"]


def soft404_site(site: SiteServer) -> None:
    """The demo shop's soft-404 trap: every /catalog/ path answers the same page,
    whose relative links lead to ever deeper paths."""
    site.add("/robots.txt", ROBOTS_ALLOW_ALL)
    site.html(
        "/", "<title>home</title><a href='/catalog/'>catalogue</a> <a href='/about'>about</a>"
    )
    site.html("/about", "<title>about</title><a href='/catalog/new/'>new in the catalogue</a>")
    site.add_prefix("/catalog/", lambda hit: Reply.html(CATALOGUE))


@pytest.mark.parametrize("store", ["exact", "bloom"])
def test_soft_404_trap_stops_after_the_first_copy(
    make_site: Callable[..., SiteServer], tmp_path: Path, store: str
) -> None:
    site = make_site("trap")
    soft404_site(site)
    result = run_crawl(tmp_path, args={"start_urls": site.url("/")},
                       settings={"WEBROBOT_SEEN_STORE": store, "WEBROBOT_CONTENT_STORE": store})  # fmt: skip
    assert result.returncode == 0, result.stderr
    catalogue = [t for t in pages(site) if t.startswith("/catalog/")]
    # /catalog/ and /catalog/new/ are linked from real pages; the first copy's two
    # links are followed, and nothing after that: 4 requests, whatever the depth.
    assert sorted(catalogue) == ["/catalog/", "/catalog/more/", "/catalog/new/", "/catalog/other/"]
    assert result.stat("webrobot/dupes/links_suppressed") == 3 * 2
    assert result.stat("webrobot/dupes/content") == 3
    bodies = Counter(item["md5"] for item in result.items)
    assert sorted(bodies.values()) == [1, 1, 1], "one item per distinct body"
    kept = {item["url"] for item in result.items}
    assert kept == {site.url("/"), site.url("/about"), site.url("/catalog/")}


def test_soft_404_trap_is_endless_without_link_suppression(
    make_site: Callable[..., SiteServer], tmp_path: Path
) -> None:
    """The control: with the component off, the same trap only stops at a depth limit."""
    site = make_site("trap")
    soft404_site(site)
    result = run_crawl(tmp_path, args={"start_urls": site.url("/")},
                       settings={"WEBROBOT_DUPES_ENABLED": "False", "DEPTH_LIMIT": "5"})  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert len([t for t in pages(site) if t.startswith("/catalog/")]) > 30


def test_duplicate_pages_unique_links_are_never_requested(
    make_site: Callable[..., SiteServer], tmp_path: Path
) -> None:
    site = make_site("shop")
    site.add("/robots.txt", ROBOTS_ALLOW_ALL)
    site.html(
        "/", "<title>shop</title><a href='/products/widget.html'>w</a> <a href='/print/'>print</a>"
    )
    site.html("/print/", "<title>print</title><a href='/print/widget.html'>print w</a>")
    widget = "<title>Widget</title><p>A widget.</p><a href='reviews.html'>reviews</a>"
    site.html("/products/widget.html", widget)
    site.html("/print/widget.html", widget)  # same bytes: a mirror
    site.html("/products/reviews.html", "<title>Reviews</title>")
    site.html("/print/reviews.html", "<title>Print reviews</title>")  # only the mirror links here
    result = run_crawl(tmp_path, args={"start_urls": site.url("/")})
    assert result.returncode == 0, result.stderr
    assert "/print/widget.html" in pages(site), "the duplicate itself is fetched"
    assert "/print/reviews.html" not in pages(site), "its unique link is not"
    assert "/products/reviews.html" in pages(site)
    urls = result.item_urls()
    assert site.url("/products/widget.html") in urls and site.url("/print/widget.html") not in urls
    assert len(urls) == len({item["md5"] for item in result.items}) == 4
    assert "Duplicate content" in result.log and site.url("/products/widget.html") in result.log


def test_text_fingerprint_merges_pages_that_differ_only_in_markup(
    make_site: Callable[..., SiteServer], tmp_path: Path
) -> None:
    site = make_site()
    site.add("/robots.txt", ROBOTS_ALLOW_ALL)
    site.html("/", "<title>home</title><a href='/a'>a</a> <a href='/b'>b</a> <a href='/c'>c</a>")
    site.html(
        "/a", "<title>News</title><p>Hello   world</p><!-- generated 10:01 --><a href='/a1'>x</a>"
    )
    site.html(
        "/b",
        "<title>News</title><div class=x>Hello\nworld</div><script>var t=2</script><a href='/b1'>x</a>",
    )
    site.html("/c", "<title>News</title><p>Hello world, again</p>")
    for target in ("/a1", "/b1"):
        site.html(target, f"<title>{target}</title>")
    body_mode = run_crawl(tmp_path / "body", args={"start_urls": site.url("/")})
    assert sorted(pages(site)) == ["/", "/a", "/a1", "/b", "/b1", "/c"]
    assert len(body_mode.items) == 6
    site.hits.clear()
    text_mode = run_crawl(tmp_path / "text", args={"start_urls": site.url("/")},
                          settings={"WEBROBOT_FINGERPRINT": "text"})  # fmt: skip
    assert text_mode.returncode == 0, text_mode.stderr
    assert sorted(pages(site)) == ["/", "/a", "/a1", "/b", "/c"], (
        "/b repeats /a's text: /b1 not followed"
    )
    assert sorted(text_mode.item_urls()) == sorted(site.url(t) for t in ("/", "/a", "/a1", "/c"))
    assert text_mode.stat("webrobot/dupes/content") == 1


def mirrored_site(site: SiteServer, n: int, delay: float) -> tuple[set[str], set[str]]:
    """Pages /pK/ with a unique child /pK/extra/ and a mirror /m/pK/ (same bytes).

    Returns (pages that must be downloaded, pages whose items must be kept). The
    mirror's relative link /m/pK/extra/ must never be requested.
    """
    site.add("/robots.txt", ROBOTS_ALLOW_ALL)

    def page(k: int) -> Reply:
        return Reply.html(f"<title>page {k}</title><a href='extra/'>extra</a> <a href='/m/p{k}/'>m</a>",
                          delay=delay)  # fmt: skip

    site.add("/", Reply.html("".join(f"<a href='/p{k}/'>{k}</a>" for k in range(n)), delay=delay))
    for k in range(n):
        site.add(f"/p{k}/", page(k))
        site.add(f"/m/p{k}/", page(k))
        site.add(f"/p{k}/extra/", Reply.html(f"<title>extra {k}</title>", delay=delay))
    kept = {"/"} | {f"/p{k}/" for k in range(n)} | {f"/p{k}/extra/" for k in range(n)}
    return kept | {f"/m/p{k}/" for k in range(n)}, kept


def test_pause_and_resume_with_jobdir(make_site: Callable[..., SiteServer], tmp_path: Path) -> None:
    site = make_site("slow")
    downloaded, kept = mirrored_site(site, n=6, delay=0.1)
    settings = {"JOBDIR": str(tmp_path / "job"), "LOG_LEVEL": "INFO"}
    args = {"start_urls": site.url("/")}

    first = start_crawl(tmp_path / "run1", args=args, settings=settings)
    try:
        wait_until(lambda: len(pages(site)) >= 4, timeout=60, what="4 pages downloaded")
    finally:
        first.interrupt()
    run1 = first.wait(timeout=60)
    assert run1.returncode == 130, run1.stderr
    assert run1.stats["finish_reason"] == "shutdown"
    run1_pages = len(pages(site))
    assert 4 <= run1_pages < len(downloaded), "interrupted in the middle"
    assert (tmp_path / "job" / "webrobot-frontier.sqlite").exists()

    run2 = run_crawl(tmp_path / "run2", args=args, settings=settings)
    assert run2.returncode == 0, run2.stderr
    assert run2.stats["finish_reason"] == "finished"

    counts = Counter(pages(site))
    assert {t: c for t, c in counts.items() if c != 1} == {}, "a page downloaded twice"
    assert set(counts) == downloaded, "a page never downloaded (or a duplicate's link followed)"
    items = run1.items + run2.items
    assert run1.items and run2.items
    assert Counter(item["md5"] for item in items).most_common(1)[0][1] == 1, "a body emitted twice"
    assert sorted(item["url"] for item in items) == sorted(site.url(t) for t in kept)
    assert run1.stat("webrobot/dupes/content") + run2.stat("webrobot/dupes/content") == 6
    # Mirrors fetched after the pause, of pages whose items the first run wrote,
    # were recognised: the content fingerprints were resumed.
    emitted_before = {item["url"] for item in run1.items}
    mirrors_after = [t for t in pages(site)[run1_pages:] if t.startswith("/m/")]
    assert [t for t in mirrors_after if site.url(t[2:]) in emitted_before], (
        "no mirror after the pause"
    )
    assert (
        "Resumed the frontier of this job" in run2.log
        and "Resumed the content fingerprints" in run2.log
    )


def test_body_mode_keeps_pages_that_differ_by_one_byte(
    make_site: Callable[..., SiteServer], tmp_path: Path
) -> None:
    """Body mode: pages that differ by one byte (a counter) are different content."""
    site = make_site()
    site.add("/robots.txt", ROBOTS_ALLOW_ALL)
    site.html("/", "<a href='/x?1'>1</a><a href='/x?2'>2</a>")
    served = Counter[str]()

    def counter(hit: Hit) -> Reply:
        served["x"] += 1
        return Reply.html(f"<title>x</title><p>visitor {served['x']}</p>")

    site.add("/x", counter)
    result = run_crawl(tmp_path, args={"start_urls": site.url("/")})
    assert result.returncode == 0
    assert len(result.items) == 3


def test_periodic_checkpoints_are_marked_unclean_until_the_close(
    make_site: Callable[..., SiteServer], tmp_path: Path
) -> None:
    site = make_site("slow")
    mirrored_site(site, n=4, delay=0.15)
    job = tmp_path / "job"
    crawl = start_crawl(tmp_path / "run", args={"start_urls": site.url("/")},
                        settings={"JOBDIR": str(job), "WEBROBOT_SEEN_CHECKPOINT_INTERVAL": "0.3",
                                  # the checkpoint files serve Scrapy's own JOBDIR queue
                                  "SCHEDULER": "scrapy.core.scheduler.Scheduler"})  # fmt: skip
    store = job / "webrobot-seen-urls.store"
    try:
        wait_until(store.exists, timeout=60, what="a periodic checkpoint")
        running = crawl.process.poll() is None
        header = read_header(store)
    finally:
        result = crawl.wait(timeout=60)
    assert running and header["clean"] is False, "written while the crawl ran"
    assert result.returncode == 0 and result.stats["finish_reason"] == "finished"
    assert read_header(store)["clean"] is True
    assert read_header(job / "webrobot-content.store")["clean"] is True


def test_copies_that_may_not_be_indexed_or_followed_do_not_hide_the_others(
    make_site: Callable[..., SiteServer], tmp_path: Path
) -> None:
    """The first copy fetched says noindex (or nofollow) in X-Robots-Tag; the second may
    be indexed (followed), so its item is the content's item (its links are followed)."""
    site = make_site()
    site.add("/robots.txt", ROBOTS_ALLOW_ALL)
    site.html("/", "<title>home</title><a href='/print/a'>pa</a> <a href='/print/b'>pb</a>"
                   " <a href='/a'>a</a> <a href='/b'>b</a>")  # fmt: skip
    a = "<title>A</title><p>Page a.</p><a href='/a-more'>more</a>"
    b = "<title>B</title><p>Page b.</p><a href='/b-more'>more</a>"
    site.html("/print/a", a, **{"X-Robots-Tag": "noindex"})
    site.html("/print/b", b, **{"X-Robots-Tag": "nofollow"})
    site.html("/a", a)
    site.html("/b", b)
    for target in ("/a-more", "/b-more"):
        site.html(target, f"<title>{target}</title>")
    result = run_crawl(tmp_path, args={"start_urls": site.url("/")})
    assert result.returncode == 0, result.stderr
    assert pages(site)[:5] == ["/", "/print/a", "/print/b", "/a", "/b"], "the copies came first"
    assert Counter(pages(site)) == Counter(
        ["/", "/print/a", "/print/b", "/a", "/b", "/a-more", "/b-more"]
    )
    assert sorted(result.item_urls()) == sorted(
        site.url(t) for t in ("/", "/a", "/print/b", "/a-more", "/b-more")
    )
    assert result.stat("webrobot/dupes/content") == 1  # /b
    # /a's link was queued from /print/a already: known, it never becomes a request, so the
    # duplicate-page middleware has nothing left to suppress.
    assert result.stat("webrobot/dupes/links_suppressed") == 0
    assert result.stat("webrobot/links/already_seen") >= 1
