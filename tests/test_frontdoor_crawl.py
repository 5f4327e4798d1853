"""The web's front door on loopback: a start URL that redirects to another name, a
site that moved to TLS, virtual hosts on one server. Names are mapped to 127.0.0.1
by WEBROBOT_RESOLVE (no DNS); servers on ephemeral ports; judged by what each
server saw requested."""

from __future__ import annotations

import itertools
import json
import threading
from collections import Counter
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from tests.crawling import run_crawl
from tests.redisserver import RedisServer
from tests.test_distributed_crawl import LONG_LEASES, Worker
from webrobot.demo.server import Hit, Reply, SiteServer
from webrobot.demo.tls import server_context

pytestmark = pytest.mark.slow


def _resolve(*names: str) -> str:
    return json.dumps(dict.fromkeys(names, "127.0.0.1"))


@pytest.fixture
def tls_site() -> Iterator[Callable[[str, tuple[str, ...]], SiteServer]]:
    started: list[SiteServer] = []

    def factory(name: str, names: tuple[str, ...]) -> SiteServer:
        site = SiteServer(name, tls=server_context(*names)).start()
        started.append(site)
        return site

    yield factory
    for site in started:
        site.stop()


def _redirect_all(to: Callable[[], str]) -> Callable[[Hit], Reply]:
    return lambda hit: Reply(301, b"", {"Location": to() + hit.target})


def test_a_start_url_that_redirects_to_www_crawls_that_host(
    make_site: Callable[..., SiteServer], tmp_path: Path
) -> None:
    apex, www = make_site("apex"), make_site("www")
    apex.add_prefix("/", _redirect_all(lambda: f"http://www.blog.test:{www.port}"))
    old = f"http://blog.test:{apex.port}"
    new = f"http://www.blog.test:{www.port}"
    www.add("/robots.txt", Reply.text("User-agent: *\nDisallow: /private\n"))
    www.html(
        "/",
        f"<a href='/a'>a</a><a href='{old}/b'>b</a><a href='{new}/c'>c</a><a href='/private'>p</a>",
    )
    for page in ("a", "b", "c"):
        www.html(f"/{page}", f"<title>{page}</title><a href='{old}/'>home</a><a href='/a'>a</a>")
    result = run_crawl(
        tmp_path,
        args={"start_urls": old + "/"},
        settings={"WEBROBOT_RESOLVE": _resolve("blog.test", "www.blog.test")},
    )
    assert result.returncode == 0, result.stderr
    seen = Counter(www.targets())
    assert set(seen) == {"/robots.txt", "/", "/a", "/b", "/c"}
    # The old name's robots.txt redirects to www's own (RFC 9309 follows it): that answer is
    # www's too, so it is asked once.
    assert seen.pop("/robots.txt") == 1 and max(seen.values()) == 1, seen
    assert result.stat("webrobot/robots/shared_by_redirect") == 1
    assert result.stat("webrobot/scope/redirect_seed") == 1
    assert result.stat("webrobot/url/refused/offsite") == 0
    assert sorted(result.item_urls()) == [new + p for p in ("/", "/a", "/b", "/c")]
    # The old name's links cost a redirect each (another name: nothing to upgrade), once.
    assert max(Counter(apex.targets()).values()) == 1


def test_without_redirect_seeds_the_redirect_target_is_off_site(
    make_site: Callable[..., SiteServer], tmp_path: Path
) -> None:
    apex, www = make_site("apex"), make_site("www")
    apex.add_prefix("/", _redirect_all(lambda: f"http://www.blog.test:{www.port}"))
    www.html("/", "<title>www</title>")
    result = run_crawl(
        tmp_path,
        args={"start_urls": f"http://blog.test:{apex.port}/"},
        settings={
            "WEBROBOT_RESOLVE": _resolve("blog.test", "www.blog.test"),
            "WEBROBOT_SCOPE_REDIRECT_SEEDS": "False",
        },
    )
    assert result.returncode == 0, result.stderr
    # Only the old name's robots.txt, redirected there (RFC 9309 follows it); no page.
    assert www.targets() == ["/robots.txt"]
    assert result.stat("webrobot/url/refused/offsite") == 1
    assert result.stat("webrobot/scope/redirect_seed") == 0


def _moved_to_tls(
    make_site: Callable[..., SiteServer], tls_site: Callable[..., SiteServer], pages: int
) -> tuple[SiteServer, SiteServer]:
    """shop.test answers every http request with a 301 to the same URL over https
    (robots.txt too); its pages link each other as http://, https:// and relative."""
    http = make_site("http")
    https = tls_site("https", ("shop.test",))
    http.add_prefix("/", _redirect_all(lambda: f"https://shop.test:{https.port}"))
    https.add("/robots.txt", Reply.text("User-agent: *\nDisallow:\n"))
    for n in range(pages):
        nxt, after = (n + 1) % pages, (n + 2) % pages
        https.html(
            f"/p/{n}",
            f"<title>page {n}</title><a href='http://shop.test:{http.port}/p/{nxt}'>next</a>"
            f"<a href='https://shop.test:{https.port}/p/{after}'>after</a><a href='/p/{n}'>self</a>"
            f"<a href='http://shop.test:{http.port}/p/{after}'>after, old link</a>",
        )
    return http, https


@pytest.mark.parametrize("upgrade", [True, False])
def test_a_site_that_moved_to_tls(
    make_site: Callable[..., SiteServer],
    tls_site: Callable[..., SiteServer],
    tmp_path: Path,
    upgrade: bool,
) -> None:
    pages = 20
    http, https = _moved_to_tls(make_site, tls_site, pages)
    result = run_crawl(
        tmp_path,
        args={"start_urls": f"http://shop.test:{http.port}/p/0"},
        settings={
            "WEBROBOT_RESOLVE": _resolve("shop.test"),
            "WEBROBOT_UPGRADE_ENABLED": str(upgrade),
        },
    )
    assert result.returncode == 0, result.stderr
    fetched = Counter(t for t in https.targets() if t.startswith("/p/"))
    # Every page once: the 301 of the start URL is not dropped as a duplicate of its
    # source, and the http and https forms of a page are one.
    assert fetched == Counter({f"/p/{n}": 1 for n in range(pages)})
    assert len(result.items) == pages
    assert https.count("/robots.txt") == 1 and http.count("/robots.txt") == 1
    page_requests = len(http.targets()) + sum(fetched.values()) - http.count("/robots.txt")
    if upgrade:
        # robots.txt's own redirect taught the upgrade: the start URL went out as https.
        assert result.stat("webrobot/url/upgrade_learned/redirect") == 1
        assert result.stat("webrobot/url/upgraded") >= pages
        assert page_requests / pages <= 1.05, (http.targets(), page_requests)
    else:
        assert result.stat("webrobot/url/upgraded") == 0
        assert page_requests / pages > 1.5, "each http link costs a redirect"


def test_virtual_hosts_of_one_server_share_a_clock_by_ip(
    make_site: Callable[..., SiteServer], tmp_path: Path
) -> None:
    site = make_site("shared")
    # Each name's own pages (the same pages under three names would be duplicates).
    site.add_prefix(
        "/p/", lambda hit: Reply.html(f"<title>{hit.headers['host']}{hit.path}</title>", delay=0.15)
    )
    site.add(
        "/",
        lambda hit: Reply.html(
            f"<title>{hit.headers['host']}</title>"
            + "".join(f"<a href='/p/{n}'>{n}</a>" for n in range(4))
        ),
    )

    def overlaps(unit: str) -> int:
        site.hits.clear()
        starts = [f"http://{name}.test:{site.port}/" for name in ("a", "b", "c")]
        result = run_crawl(
            tmp_path / unit,
            args={"start_urls": ",".join(starts)},
            settings={
                "WEBROBOT_RESOLVE": _resolve("a.test", "b.test", "c.test"),
                "WEBROBOT_POLITENESS_UNIT": unit,
            },
        )
        assert result.returncode == 0, result.stderr
        hits = sorted(site.hits, key=lambda h: h.started)
        assert sum(h.path.startswith("/p/") for h in hits) == 12, "each name's four pages"
        # The server notes a reply finished after its last byte went out, so under load the
        # next request may arrive a moment before that note: an overlap is one of more than
        # a third of a page's 0.15 s, as two slots at once give.
        return sum(1 for a, b in itertools.pairwise(hits) if b.started < a.finished - 0.05)

    assert overlaps("ip") == 0, "one request at a time to the one server"
    assert overlaps("host") > 0, "three hosts: three slots (the test can tell the units apart)"


def test_a_shared_crawl_follows_the_start_urls_redirect_on_every_worker(
    make_site: Callable[..., SiteServer], redis_server: RedisServer, tmp_path: Path
) -> None:
    """Two workers on Redis: whichever follows the start URL's redirect to www, both
    crawl www's pages (the scope it gained is shared), each page once."""
    apex, www = make_site("apex"), make_site("www")
    apex.add_prefix("/", _redirect_all(lambda: f"http://www.blog.test:{www.port}"))
    pages = 12
    www.html("/", "".join(f"<a href='/p/{n}'>{n}</a>" for n in range(pages)))
    # A worker that starts late on a loaded machine would find every page taken: the
    # pages are answered once both workers have asked for one (or after 30 s, and then
    # the test fails as it should).
    askers: set[str] = set()
    both_asked = threading.Event()

    def page(n: int) -> Callable[[Hit], Reply]:
        def answer(hit: Hit) -> Reply:
            askers.add(hit.headers.get("user-agent", ""))
            if len(askers) >= 2:
                both_asked.set()
            both_asked.wait(30)
            return Reply.html(
                f"<title>{n}</title><a href='/p/{(n + 1) % pages}'>next</a>", delay=0.1
            )

        return answer

    for n in range(pages):
        www.add(f"/p/{n}", page(n))
    settings = {
        "WEBROBOT_REDIS_URL": redis_server.url,
        "WEBROBOT_RESOLVE": _resolve("blog.test", "www.blog.test"),
        "CONCURRENT_REQUESTS_PER_DOMAIN": "2",
        "WEBROBOT_POLITENESS_CLASS": "webrobot.politeness.clock.SitePoliteness",  # let both fetch at once
        **LONG_LEASES,
    }
    args = {"start_urls": f"http://blog.test:{apex.port}/"}
    workers = [Worker(tmp_path / f"w{i}", f"worker-{i}", args, settings) for i in range(2)]
    try:
        for worker in workers:
            assert worker.wait(120) == 0, worker.log()[-3000:]
    finally:
        for worker in workers:
            if worker.process.poll() is None:
                worker.kill()
    fetched = Counter(h.target for h in www.hits if h.path.startswith("/p/"))
    assert fetched == Counter({f"/p/{n}": 1 for n in range(pages)})
    stats = [worker.stats() for worker in workers]
    assert sum(s.get("webrobot/url/refused/offsite", 0) for s in stats) == 0
    assert sum(s.get("webrobot/scope/redirect_seed", 0) for s in stats) == 1
    by_worker = Counter(h.headers.get("user-agent") for h in www.hits if h.path.startswith("/p/"))
    assert len(by_worker) == 2, f"both workers crawled www: {by_worker}"


def test_hsts_teaches_the_upgrade_before_any_http_request(
    tls_site: Callable[..., SiteServer], tmp_path: Path
) -> None:
    """Pages sent with Strict-Transport-Security link their own port as http://: asked as
    https from the first page on (an http request to this TLS-only port would fail)."""
    https = tls_site("hsts", ("shop.test",))
    pages = 6
    for n in range(pages):
        https.add(
            f"/p/{n}",
            Reply.html(
                f"<title>{n}</title><a href='http://shop.test:{https.port}/p/{(n + 1) % pages}'>next</a>",
                **{"Strict-Transport-Security": "max-age=600"},
            ),
        )
    result = run_crawl(
        tmp_path,
        args={"start_urls": f"https://shop.test:{https.port}/p/0"},
        settings={"WEBROBOT_RESOLVE": _resolve("shop.test")},
    )
    assert result.returncode == 0, result.stderr
    assert Counter(t for t in https.targets() if t.startswith("/p/")) == Counter(
        {f"/p/{n}": 1 for n in range(pages)}
    )
    assert result.stat("webrobot/url/upgrade_learned/hsts") == 1
    assert (
        result.stat("webrobot/url/upgraded") == pages
    )  # p/5 links p/0 too: upgraded, then a duplicate
    assert result.stat("downloader/exception_count") == 0


def test_each_robots_txt_of_a_redirect_chain_is_asked_once(
    make_site: Callable[..., SiteServer], tmp_path: Path
) -> None:
    """http://a -> http://b -> http://www (robots.txt too), as a site that moved to TLS
    and then to www answers: the chain's answer is every origin's in it, so each file is
    asked once, though pages of b are asked (old links) and b's rules are needed."""
    a, b, www = make_site("a"), make_site("b"), make_site("www")
    a.add_prefix("/", _redirect_all(lambda: f"http://b.test:{b.port}"))
    b.add_prefix("/", _redirect_all(lambda: f"http://www.test:{www.port}"))
    www.add("/robots.txt", Reply.text("User-agent: *\nDisallow: /private\n"))
    www.html(
        "/",
        f"<a href='http://b.test:{b.port}/page'>old</a><a href='http://b.test:{b.port}/private'>p</a>",
    )
    www.html("/page", "<title>page</title>")
    result = run_crawl(
        tmp_path,
        args={"start_urls": f"http://a.test:{a.port}/"},
        settings={"WEBROBOT_RESOLVE": _resolve("a.test", "b.test", "www.test")},
    )
    assert result.returncode == 0, result.stderr
    assert a.count("/robots.txt") == b.count("/robots.txt") == www.count("/robots.txt") == 1
    assert result.stat("webrobot/robots/shared_by_redirect") == 2
    assert sorted(t for t in www.targets() if t != "/robots.txt") == ["/", "/page"]
    assert "/private" not in b.targets(), "b's rules (the chain's answer) are obeyed"
