"""End-to-end: the real web's front door. A real ``scrapy crawl webrobot`` against
a real nginx (tests/nginxbed.py) on ports 80 and 443 of a loopback address,
serving sites that moved to TLS and to ``www.``, one host under two schemes,
virtual hosts sharing one address and bad certificates; host names resolved by
the ``WEBROBOT_RESOLVE`` table, never by DNS. Judged by nginx's access log."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.crawling import CrawlResult, run_crawl, start_crawl, wait_until
from tests.nginxbed import (
    Cert,
    NginxBed,
    by_host,
    describe,
    expected_pages,
    figures,
    moved_to_tls,
    moved_to_www,
    overlaps,
    page_paths,
    pages_served,
    requests_per_page,
    robots,
    robots_fetches,
    site_pages,
    unspaced,
)

pytestmark = pytest.mark.slow

#: Politeness by IP address: every host name on one address shares one clock.
GROUP_BY_IP = {"WEBROBOT_POLITENESS_UNIT": "ip"}
#: Stats keys the crawl counts TLS problems under, and the key of each bad certificate.
TLS_STATS_PREFIX = "webrobot/tls/"
TLS_STATS = {
    "selfsigned": "webrobot/tls/self_signed",
    "expired": "webrobot/tls/expired",
    "wrongname": "webrobot/tls/wrong_name",
}


def crawl(tmp_path: Path, bed: NginxBed, start_urls: list[str], monkeypatch: pytest.MonkeyPatch,
          settings: dict[str, Any] | None = None, timeout: float = 90) -> CrawlResult:  # fmt: skip
    """``scrapy crawl webrobot`` from ``start_urls`` with every name of the bed
    resolved to its address; the bed's certificate authority is the one the
    crawl trusts (``SSL_CERT_FILE``), so only the bad certificates are bad."""
    monkeypatch.setenv("SSL_CERT_FILE", str(bed.ca_file))
    result = run_crawl(
        tmp_path,
        args={"start_urls": ",".join(start_urls)},
        settings={"WEBROBOT_RESOLVE": json.dumps(bed.hosts), **(settings or {})},
        timeout=timeout,
    )
    for host, numbers in figures(bed.hits()).items():
        print(f"front door figures: {host} {json.dumps(numbers)}")
    assert result.returncode == 0, result.stderr[-3000:]
    return result


# --- Scope through the front door -----------------------------------------------------------


def test_an_http_start_url_redirected_to_https_www_crawls_the_whole_site(
    nginx_bed: NginxBed, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``http://blog.test/`` answers a 301 to ``https://www.blog.test/``, which
    sends HSTS; the pages link the old ``http://blog.test`` form, the
    ``http://www.`` one, the new one and relative paths. The whole site is
    crawled, each page once, and no ``http://www.blog.test`` URL is ever asked
    for: HSTS upgrades them before any request."""
    forms = ["http://blog.test", "https://www.blog.test", "http://www.blog.test", ""]
    blog = site_pages(12, forms, title="post")
    blog["/robots.txt"] = robots(crawl_delay=0.2)
    moved_to_www(nginx_bed, "blog.test", blog)
    bed = nginx_bed.start()

    result = crawl(tmp_path, bed, ["http://blog.test/"], monkeypatch)

    hits = bed.hits()
    served = pages_served(hits)
    assert set(served) == expected_pages("https://www.blog.test", blog), describe(hits)
    assert {url for url, n in served.items() if n > 1} == set(), "each page fetched once"
    assert len(result.items) == len(served), "an item for every page"
    assert {h.host for h in hits} <= {"blog.test", "www.blog.test"}
    assert robots_fetches(hits) == {"http://blog.test": 1, "https://www.blog.test": 1}, (
        "the old name's robots.txt redirects to www's own, which answers for both"
    )
    assert result.stat("webrobot/robots/shared_by_redirect") == 1
    assert [h.url for h in hits if h.origin == "http://www.blog.test"] == [], "HSTS: upgraded"
    assert result.stat("webrobot/url/upgraded") > 0


def test_a_site_under_both_schemes_is_one_host_every_page_once_one_clock(
    nginx_bed: NginxBed, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``both.test`` answers pages over http and https (no redirect, no
    HSTS: two URLs a page) and links them in both forms: each URL is fetched
    once, never two requests to the host at once, and the Crawl-delay holds
    between any two of them, whatever their schemes."""
    for scheme in ("http", "https"):  # each its own text: not copies of one another
        pages = site_pages(8, ["http://both.test", "https://both.test", ""], title=scheme)
        pages["/robots.txt"] = robots(crawl_delay=0.2)
        nginx_bed.serve(f"{scheme}://both.test", pages, delay=0.05)
    bed = nginx_bed.start()

    crawl(tmp_path, bed, ["http://both.test/p/0"], monkeypatch)

    hits = bed.hits("both.test")
    served = pages_served(hits)
    both = expected_pages("http://both.test", pages, page_paths(8)) | expected_pages(
        "https://both.test", pages, page_paths(8)
    )
    assert set(served) == both, describe(hits)
    assert {url for url, n in served.items() if n > 1} == set(), "each URL fetched once"
    assert overlaps(hits) == [], f"two requests to one host at once:\n{describe(hits)}"
    page_hits = [h for h in hits if h.path != "/robots.txt"]
    assert unspaced(page_hits, 0.2) == [], describe(hits)
    assert robots_fetches(hits) == {"http://both.test": 1, "https://both.test": 1}


def test_a_site_moved_to_tls_costs_about_one_request_per_page(
    nginx_bed: NginxBed, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Its pages link each other mostly as ``http://``: once the host has answered
    an http URL with its https form, the crawl asks for https directly."""
    shop = site_pages(40, ["http://shop.test", "http://shop.test", "https://shop.test", ""])
    shop["/robots.txt"] = robots(crawl_delay=0.1)
    moved_to_tls(nginx_bed, "shop.test", shop)
    bed = nginx_bed.start()

    result = crawl(tmp_path, bed, ["http://shop.test/p/0"], monkeypatch)

    hits = bed.hits("shop.test")
    served = pages_served(hits)
    assert set(served) == expected_pages("https://shop.test", shop, page_paths(40)), describe(hits)
    ratio = requests_per_page(hits)
    assert ratio <= 1.05, f"{ratio:.3f} requests per page:\n{describe(hits)}"
    assert result.stat("webrobot/url/upgraded") > 0
    assert robots_fetches(hits) == {"http://shop.test": 1, "https://shop.test": 1}
    assert overlaps(hits) == []
    page_hits = [h for h in hits if h.path != "/robots.txt"]
    assert unspaced(page_hits, 0.1) == [], "redirects wait their turn too"
    assert bed.hits("www.shop.test") == [], "www.shop.test is another host, outside the crawl"


def test_with_the_upgrade_off_every_http_link_costs_a_redirect(
    nginx_bed: NginxBed, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The same kind of site with ``WEBROBOT_UPGRADE_ENABLED`` off: nothing is
    lost, but each http form of a page is asked for and answered with a 301 (what
    the test above measures, made visible)."""
    shop = site_pages(20, ["http://shop.test", "http://shop.test", "https://shop.test", ""])
    shop["/robots.txt"] = robots(crawl_delay=0.05)
    moved_to_tls(nginx_bed, "shop.test", shop)
    bed = nginx_bed.start()

    result = crawl(
        tmp_path, bed, ["http://shop.test/p/0"], monkeypatch, {"WEBROBOT_UPGRADE_ENABLED": "False"}
    )

    hits = bed.hits("shop.test")
    served = pages_served(hits)
    assert set(served) == expected_pages("https://shop.test", shop, page_paths(20)), describe(hits)
    assert set(served.values()) == {1}
    ratio = requests_per_page(hits)
    assert ratio > 1.3, f"{ratio:.3f} requests per page:\n{describe(hits)}"
    assert result.stat("webrobot/url/upgraded") == 0


# --- Politeness units ------------------------------------------------------------------------


def two_hosts_on_one_address(bed: NginxBed) -> NginxBed:
    for host in ("a.test", "b.test"):
        pages = site_pages(6, ["", f"https://{host}"], title=host)
        pages["/robots.txt"] = robots()
        bed.serve(f"https://{host}", pages, delay=0.15)
    return bed.start()


def test_two_host_names_on_one_address_grouped_by_ip_get_one_request_at_a_time(
    nginx_bed: NginxBed, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    bed = two_hosts_on_one_address(nginx_bed)

    crawl(tmp_path, bed, ["https://a.test/p/0", "https://b.test/p/0"], monkeypatch, GROUP_BY_IP)

    hits = bed.hits()
    assert set(pages_served(hits)) == expected_pages(
        "https://a.test", {}, page_paths(6)
    ) | expected_pages("https://b.test", {}, page_paths(6)), describe(hits)
    assert overlaps(hits) == [], f"two requests to one address at once:\n{describe(hits)}"


def test_two_host_names_on_one_address_are_two_hosts_by_default(
    nginx_bed: NginxBed, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The other side of the test above: without grouping by IP, each host has its
    own clock, so the log does show requests to the two in progress at once
    (and never two to one host)."""
    bed = two_hosts_on_one_address(nginx_bed)

    crawl(tmp_path, bed, ["https://a.test/p/0", "https://b.test/p/0"], monkeypatch)

    hits = bed.hits()
    assert len(pages_served(hits)) == 12, describe(hits)
    assert all(overlaps(h) == [] for h in by_host(hits).values()), describe(hits)
    assert overlaps(hits), f"the two hosts were never fetched in parallel:\n{describe(hits)}"


# --- robots.txt per origin -------------------------------------------------------------------


def test_robots_txt_is_per_origin_fetched_once_and_rules_only_its_own_urls(
    nginx_bed: NginxBed, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``http://both.test/robots.txt`` forbids ``/a/``, the https one ``/b/``; the
    pages link both folders in both schemes. The host's clock takes the longer
    Crawl-delay of the two files."""
    links = [f"{origin}/{folder}/x" for origin in ("http://both.test", "https://both.test")
             for folder in ("a", "b")]  # fmt: skip
    forms = ["http://both.test", "https://both.test"]
    plain = site_pages(4, forms, title="http", extra=links)
    secure = site_pages(4, forms, title="https", extra=links)
    for scheme, pages in (("http", plain), ("https", secure)):
        pages["/a/x"] = f"<html><title>{scheme} a</title></html>"
        pages["/b/x"] = f"<html><title>{scheme} b</title></html>"
    plain["/robots.txt"] = robots(crawl_delay=0.1, disallow=["/a/"])
    secure["/robots.txt"] = robots(crawl_delay=0.3, disallow=["/b/"])
    bed = nginx_bed.serve("http://both.test", plain).serve("https://both.test", secure).start()

    result = crawl(tmp_path, bed, ["http://both.test/p/0"], monkeypatch)

    hits = bed.hits()
    asked = {h.url for h in hits}
    assert robots_fetches(hits) == {"http://both.test": 1, "https://both.test": 1}
    assert "http://both.test/a/x" not in asked, "forbidden by http://both.test/robots.txt"
    assert "https://both.test/b/x" not in asked, "forbidden by https://both.test/robots.txt"
    assert {"https://both.test/a/x", "http://both.test/b/x"} <= set(pages_served(hits)), (
        "each file rules its own origin only"
    )
    assert result.stat("robotstxt/forbidden") == 2, "one refusal per origin's rule"
    # Once both files are known, every request waits for the longer delay.
    known = max(h.end for h in hits if h.path == "/robots.txt")
    later = [h for h in hits if h.start >= known and h.path != "/robots.txt"]
    assert len(later) >= 3, describe(hits)
    assert unspaced(later, 0.3) == [], describe(hits)


# --- TLS as the web has it --------------------------------------------------------------------

BAD_CERTS = ("selfsigned", "expired", "wrongname")


def test_bad_certificates_are_crawled_and_counted(
    nginx_bed: NginxBed, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    bed = nginx_bed
    for kind in (*BAD_CERTS, "good"):
        pages = site_pages(3, ["", f"https://{kind}.test"], title=kind)
        pages["/robots.txt"] = robots()
        bed.serve(f"https://{kind}.test", pages, cert=kind)  # type: ignore[arg-type]
    bed.start()

    result = crawl(
        tmp_path, bed, [f"https://{kind}.test/p/0" for kind in (*BAD_CERTS, "good")], monkeypatch
    )

    hits = bed.hits()
    for kind in (*BAD_CERTS, "good"):
        served = pages_served(bed.hits(f"{kind}.test"))
        assert set(served) == expected_pages(f"https://{kind}.test", {}, page_paths(3)), (
            f"{kind}: nothing lost\n{describe(hits)}"
        )
    tls = {k: v for k, v in result.stats.items() if k.startswith(TLS_STATS_PREFIX)}
    assert tls == {TLS_STATS[kind]: 1 for kind in BAD_CERTS}, "each bad origin counted once"


def test_with_verified_certificates_required_bad_ones_get_no_request(
    nginx_bed: NginxBed, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``DOWNLOAD_VERIFY_CERTIFICATES = True``: a certificate of the authority the
    crawl trusts passes; the handshake with a bad one fails on the crawler's
    side, so nginx never sees a request for those sites."""
    bed = nginx_bed
    for kind in (*BAD_CERTS, "good"):
        pages = site_pages(2, [""], title=kind)
        pages["/robots.txt"] = robots()
        bed.serve(f"https://{kind}.test", pages, cert=kind)  # type: ignore[arg-type]
    bed.start()

    result = crawl(
        tmp_path, bed, [f"https://{kind}.test/p/0" for kind in (*BAD_CERTS, "good")], monkeypatch,
        {"DOWNLOAD_VERIFY_CERTIFICATES": "True",
         # robots.txt of the bad sites cannot be fetched: give up on them soon.
         "WEBROBOT_ROBOTS_BACKOFF_BASE": "0.2", "WEBROBOT_ROBOTS_DEFER_MAX": "1"},
    )  # fmt: skip

    hits = bed.hits()
    assert set(pages_served(hits)) == expected_pages("https://good.test", {}, page_paths(2))
    assert {h.host for h in hits} == {"good.test"}, describe(hits)
    assert result.stat("webrobot/robots/outcome/unreachable") == len(BAD_CERTS), "counted"


def test_refused_handshakes_are_retried_with_backoff_and_nothing_is_lost(
    nginx_bed: NginxBed, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``flaky.test`` refuses TLS handshakes for its robots.txt, then (after the
    first page) for its pages, each time until the crawl has been refused once:
    the crawl counts the failures, backs off, tries again and fetches every page
    once."""
    pages = site_pages(5, [""], title="flaky")
    pages["/robots.txt"] = robots(crawl_delay=0.5)
    bed = nginx_bed.serve("https://flaky.test", pages, cert="reject").start()

    def switch(cert: Cert) -> None:
        bed.set_cert("https://flaky.test", cert)
        bed.reload()

    monkeypatch.setenv("SSL_CERT_FILE", str(bed.ca_file))
    running = start_crawl(
        tmp_path,
        args={"start_urls": "https://flaky.test/p/0"},
        settings={
            "WEBROBOT_RESOLVE": json.dumps(bed.hosts),
            "RETRY_TIMES": "4",
            "WEBROBOT_POLITENESS_BACKOFF_BASE": "1.0",  # longer than the Crawl-delay
            "WEBROBOT_ROBOTS_BACKOFF_BASE": "0.3",
        },
    )
    try:
        wait_until(lambda: bed.rejected_handshakes() >= 1, 30, "a refused handshake (robots.txt)")
        switch("good")
        wait_until(
            lambda: "https://flaky.test/p/0" in pages_served(bed.hits()), 30, "the first page"
        )
        switch("reject")
        wait_until(lambda: bed.rejected_handshakes() >= 2, 30, "a refused handshake (a page)")
        switch("good")
        result = running.wait(90)
    finally:
        if running.process.poll() is None:
            running.process.kill()
            running.process.wait()
    assert result.returncode == 0, result.stderr[-3000:]
    hits = bed.hits()
    served = pages_served(hits)
    assert set(served) == expected_pages("https://flaky.test", {}, page_paths(5)), (
        f"nothing lost:\n{describe(hits)}\n{result.log[-3000:]}"
    )
    assert set(served.values()) == {1}, "each page once"
    # Network errors like any other: each refused handshake a counted download error
    # (robots.txt's and the page's), the page retried, the host backed off.
    assert result.stat("downloader/exception_count") >= bed.rejected_handshakes() == 2
    assert result.stat("webrobot/robots/error/DownloadFailedError") >= 1
    assert result.stat("retry/count") >= 1
    assert result.stat("webrobot/politeness/delay_source/backoff") >= 1
