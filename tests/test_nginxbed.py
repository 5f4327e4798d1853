"""The nginx test bed itself (tests/nginxbed.py): what each origin answers, the
certificates it shows, and the access log the crawl tests are judged by."""

from __future__ import annotations

import gzip
import ssl
import threading
from pathlib import Path

import pytest

from tests.nginxbed import (
    Hit,
    NginxBed,
    overlaps,
    pages_served,
    requests_per_page,
    robots,
    robots_fetches,
    site_pages,
    start_gaps,
    unspaced,
)

pytestmark = pytest.mark.slow


def front_door(bed: NginxBed) -> NginxBed:
    """shop.test moved to TLS; blog.test moved to https://www.blog.test (HSTS there)."""
    shop = site_pages(6, ["http://shop.test", "https://shop.test", "https://www.shop.test", ""])
    shop["/robots.txt"] = robots(crawl_delay=0.3)
    bed.redirect("http://shop.test", "https://shop.test")
    bed.serve("https://shop.test", shop)
    bed.redirect("https://www.shop.test", "https://shop.test")
    bed.redirect("http://www.shop.test", "https://shop.test")
    blog = site_pages(4, ["http://blog.test", ""], title="post")
    blog["/robots.txt"] = robots(crawl_delay=0.3)
    bed.redirect("http://blog.test", "https://www.blog.test")
    bed.redirect("https://blog.test", "https://www.blog.test")
    bed.redirect("http://www.blog.test", "https://www.blog.test")
    bed.serve("https://www.blog.test", blog, hsts=True)
    return bed


def test_virtual_hosts_redirect_to_https_and_www(nginx_bed: NginxBed) -> None:
    bed = front_door(nginx_bed).start()
    assert bed.address.startswith("127.0.0.")
    status, headers, _ = bed.get("http://shop.test/p/1?x=1")
    assert (status, headers["location"]) == (301, "https://shop.test/p/1?x=1")
    status, headers, _ = bed.get("http://shop.test/robots.txt")
    assert (status, headers["location"]) == (301, "https://shop.test/robots.txt")
    status, headers, body = bed.get("https://shop.test/p/1")
    assert status == 200 and b"<title>page 1</title>" in body
    assert "strict-transport-security" not in headers
    status, headers, _ = bed.get("http://blog.test/p/2")
    assert (status, headers["location"]) == (301, "https://www.blog.test/p/2")
    status, headers, _ = bed.get("https://blog.test/")
    assert (status, headers["location"]) == (301, "https://www.blog.test/")
    status, headers, body = bed.get("https://www.blog.test/")
    assert status == 200 and b"post home" in body
    assert headers["strict-transport-security"] == "max-age=31536000"
    status, _, body = bed.get("https://www.blog.test/robots.txt")
    assert (status, body) == (200, b"User-agent: *\nDisallow:\nCrawl-delay: 0.3\n")
    status, _, _ = bed.get("https://www.blog.test/p/99")
    assert status == 404


def test_gzip_and_keep_alive(nginx_bed: NginxBed) -> None:
    bed = front_door(nginx_bed).start()
    status, headers, body = bed.get("https://shop.test/p/0", headers={"Accept-Encoding": "gzip"})
    assert status == 200 and headers["content-encoding"] == "gzip"
    assert b"<title>page 0</title>" in gzip.decompress(body)
    assert headers.get("connection", "keep-alive").lower() == "keep-alive"


def test_an_unknown_name_gets_no_site(nginx_bed: NginxBed) -> None:
    bed = front_door(nginx_bed).start()
    with pytest.raises(ssl.SSLError):
        bed.get("https://elsewhere.test/")
    with pytest.raises(ConnectionError):
        bed.get("http://elsewhere.test/")


def test_the_access_log_records_each_request(nginx_bed: NginxBed) -> None:
    bed = front_door(nginx_bed).start()
    bed.get("http://shop.test/p/0", headers={"User-Agent": "probe"})
    bed.get("https://shop.test/p/0?a=b", headers={"User-Agent": "probe"})
    bed.get("https://shop.test/robots.txt")
    bed.get("https://www.blog.test/robots.txt")
    hits = bed.hits()
    assert [(h.scheme, h.host, h.status, h.uri) for h in hits] == [
        ("http", "shop.test", 301, "/p/0"),
        ("https", "shop.test", 200, "/p/0?a=b"),
        ("https", "shop.test", 200, "/robots.txt"),
        ("https", "www.blog.test", 200, "/robots.txt"),
    ]
    assert {h.remote_addr for h in hits} == {"127.0.0.1"}
    assert hits[0].agent == "probe" and hits[0].path == "/p/0"
    assert all(h.start <= h.end for h in hits)
    assert start_gaps(hits) == sorted(start_gaps(hits), key=lambda _: 0)  # in start order
    assert min(start_gaps(hits)) >= 0
    assert bed.hits("www.blog.test") == hits[3:]
    assert pages_served(hits) == {"https://shop.test/p/0?a=b": 1}
    assert requests_per_page(hits) == 2.0, "one redirect, one page"
    assert robots_fetches(hits) == {"https://shop.test": 1, "https://www.blog.test": 1}


def test_overlapping_requests_show_in_the_log(nginx_bed: NginxBed) -> None:
    """A slowed origin makes requests last; two at once overlap in the log, two in
    turn do not (what the one-request-at-a-time checks rely on)."""
    pages = site_pages(2, [""])
    bed = nginx_bed.serve("https://slow.test", pages, delay=0.2).start()
    bed.get("https://slow.test/p/0")
    bed.get("https://slow.test/p/1")
    in_turn = bed.hits()
    assert len(in_turn) == 2 and min(h.duration for h in in_turn) >= 0.19
    assert overlaps(in_turn) == []
    assert min(start_gaps(in_turn)) >= min(h.duration for h in in_turn)
    threads = [threading.Thread(target=bed.get, args=("https://slow.test/p/0",)) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    bed.wait_until(lambda: len(bed.hits()) == 4, "both requests in the access log")
    at_once = bed.hits()[2:]
    assert len(overlaps(at_once)) == 1


@pytest.mark.parametrize("cert", ["selfsigned", "expired", "wrongname"])
def test_bad_certificates_fail_checks_and_still_serve(nginx_bed: NginxBed, cert: str) -> None:
    bed = nginx_bed.serve("https://bad.test", {"/": "<title>bad</title>"}, cert=cert)  # type: ignore[arg-type]
    bed.serve("https://good.test", {"/": "<title>good</title>"}).start()
    assert bed.get("https://good.test/")[0] == 200, "a certificate of the bed's authority passes"
    with pytest.raises(ssl.SSLCertVerificationError) as failed:
        bed.get("https://bad.test/")
    reason = {
        "selfsigned": "self-signed certificate",
        "expired": "certificate has expired",
        "wrongname": "Hostname mismatch",
    }[cert]
    assert reason in str(failed.value)
    assert bed.get("https://bad.test/", verify=False)[0] == 200, "served to who does not check"


def test_a_rejected_handshake_then_a_reload_that_accepts_it(nginx_bed: NginxBed) -> None:
    bed = nginx_bed.serve("https://flaky.test", {"/": "<title>up</title>"}, cert="reject").start()
    with pytest.raises(ssl.SSLError):
        bed.get("https://flaky.test/", verify=False)
    bed.wait_until(lambda: bed.rejected_handshakes() == 1, "the refusal in the error log")
    assert bed.hits() == [], "no request reached the site"
    bed.set_cert("https://flaky.test", "good")
    bed.reload()
    assert bed.get("https://flaky.test/")[0] == 200


def test_a_dropped_connection(nginx_bed: NginxBed) -> None:
    bed = nginx_bed.drop("http://gone.test").start()
    with pytest.raises(ConnectionError):
        bed.get("http://gone.test/")
    bed.wait_until(lambda: len(bed.hits()) == 1, "the request in the access log")
    assert [h.status for h in bed.hits()] == [444]


def test_site_pages_reach_every_page_through_relative_links() -> None:
    pages = site_pages(5, ["http://a.test", "https://www.a.test"])
    assert set(pages) == {"/", "/p/0", "/p/1", "/p/2", "/p/3", "/p/4"}
    assert '<a href="1">' in pages["/p/0"] and '<a href="http://a.test/p/1">' in pages["/p/0"]
    assert '<a href="https://www.a.test/p/2">' in pages["/p/0"]
    assert 'href="5"' not in pages["/p/4"]


def test_hit_parses_a_log_line() -> None:
    line = (
        '{"msec":"1700000000.250","request_time":"0.200","scheme":"https","host":"Shop.test",'
        '"status":"200","uri":"/p/1?a=1","method":"GET","remote_addr":"127.0.0.1",'
        '"server_port":"443","agent":"webrobot","bytes":"10","connection":"3",'
        '"connection_requests":"2","ssl_protocol":"TLSv1.3"}'
    )
    hit = Hit.parse(line)
    assert hit.start == pytest.approx(1700000000.05)
    assert (hit.url, hit.path, hit.origin) == (
        "https://shop.test/p/1?a=1",
        "/p/1",
        "https://shop.test",
    )


def test_overlaps_and_gaps_are_computed_from_starts() -> None:
    def hit(start: float, duration: float) -> Hit:
        return Hit(start + duration, duration, "http", "h", 200, "/", "GET", "", "", 1)

    assert overlaps([hit(0, 1), hit(1.5, 1)]) == []
    assert len(overlaps([hit(0, 1), hit(0.5, 1), hit(3, 1)])) == 1
    assert start_gaps([hit(2, 0.1), hit(0, 0.1), hit(0.5, 0.1)]) == pytest.approx([0.5, 1.5])


def test_unspaced_finds_requests_sent_too_close_not_one_read_late() -> None:
    def hit(start: float) -> Hit:
        return Hit(start, 0.0, "http", "h", 200, f"/{start}", "GET", "", "", 1)

    assert unspaced([hit(0), hit(1), hit(2.05)], 1.0) == []
    read_late = [hit(0), hit(1.4), hit(2.0), hit(3.0)]  # 1.4 then 0.6: the one at 1.4 was late
    assert unspaced(read_late, 1.0) == []
    two_clocks = [hit(0), hit(0.01), hit(1.0), hit(1.01)]
    assert unspaced(two_clocks, 1.0) == [
        "0.010 s from http://h/0 to http://h/0.01",
        "0.010 s from http://h/1.0 to http://h/1.01",
    ]


def test_a_bed_that_cannot_bind_says_why(tmp_path: Path) -> None:
    """Another process on the ports of every address tried: the bed gives up with
    a reason (the fixture turns it into a skip)."""
    from tests.nginxbed import BedUnavailable

    bed = NginxBed(tmp_path)
    bed._bindable = lambda: "cannot bind 127.0.0.2:80 (needs root)"  # type: ignore[method-assign]
    with pytest.raises(BedUnavailable, match="needs root"):
        bed.start()
