"""What one politeness clock covers: host keys, addresses, registered domains; and each
unit's robots.txt delay, the longest of its origins'. Table-driven."""

from __future__ import annotations

import pytest

from webrobot.politeness.unit import DOMAIN, HOST, IP, PolitenessUnit, RobotsDelays
from webrobot.urls.domains import registered_domain
from webrobot.urls.sitekey import host_key, site_host, split_port


@pytest.mark.parametrize(
    ("url", "host"),
    [
        ("http://Shop.Test/a", "shop.test"),
        ("https://shop.test/a", "shop.test"),
        ("http://shop.test:80/", "shop.test"),
        ("https://shop.test:443/", "shop.test"),
        ("https://shop.test:80/", "shop.test:80"),  # https on 80 is not https's default
        ("http://shop.test:8701/", "shop.test:8701"),
        ("http://shop.test:8702/", "shop.test:8702"),
        ("http://[::1]/", "[::1]"),
        ("https://[::1]:8443/x", "[::1]:8443"),
        ("http://shop.test./", "shop.test"),
        ("http://user:pw@shop.test/", "shop.test"),
    ],
)
def test_host_key(url: str, host: str) -> None:
    assert host_key(url) == host


def test_an_origin_key_has_the_host_of_its_urls() -> None:
    assert site_host("https://shop.test:443") == "shop.test" == site_host("http://shop.test:80")
    assert site_host("http://shop.test:8080") == "shop.test:8080"


@pytest.mark.parametrize(
    ("host", "parts"),
    [
        ("a", ("a", "")),
        ("a:8080", ("a", ":8080")),
        ("[::1]", ("[::1]", "")),
        ("[::1]:81", ("[::1]", ":81")),
    ],
)
def test_split_port(host: str, parts: tuple[str, str]) -> None:
    assert split_port(host) == parts


@pytest.mark.parametrize(
    ("unit", "host", "address", "key"),
    [
        (HOST, "www.shop.test", "127.0.0.1", "www.shop.test"),
        (HOST, "shop.test:8080", None, "shop.test:8080"),
        (IP, "www.shop.test", "127.0.0.5", "127.0.0.5"),
        (IP, "blog.test", "127.0.0.5", "127.0.0.5"),
        (IP, "blog.test:8080", "127.0.0.5", "127.0.0.5:8080"),
        (IP, "six.test", "::1", "[::1]"),
        (IP, "unresolved.test", None, "unresolved.test"),  # no address known: its host
        (DOMAIN, "www.shop.test", None, "shop.test"),
        (DOMAIN, "static.example.co.uk", None, "example.co.uk"),
        (DOMAIN, "a.example.co.uk:8080", None, "example.co.uk:8080"),
        (DOMAIN, "alice.github.io", None, "alice.github.io"),  # a private suffix: one owner each
        (DOMAIN, "127.0.0.1:8001", None, "127.0.0.1:8001"),
        (DOMAIN, "[::1]", None, "[::1]"),
        (DOMAIN, "localhost", None, "localhost"),
    ],
)
def test_unit_keys(unit: str, host: str, address: str | None, key: str) -> None:
    assert PolitenessUnit(unit, registered_domain).key(host, address) == key


@pytest.mark.parametrize(
    ("host", "domain"),
    [
        ("www.example.com", "example.com"),
        ("example.com", "example.com"),
        ("a.b.example.com", "example.com"),
        ("www.bbc.co.uk", "bbc.co.uk"),
        ("shop.test", "shop.test"),
        ("www.blog.test", "blog.test"),  # not a known suffix: the last two labels
        ("xn--bcher-kva.de", "xn--bcher-kva.de"),
        ("www.xn--bcher-kva.de", "xn--bcher-kva.de"),
        ("192.168.1.1", "192.168.1.1"),
        ("[2001:db8::1]", "2001:db8::1"),
        ("intranet", "intranet"),
    ],
)
def test_registered_domain(host: str, domain: str) -> None:
    assert registered_domain(host) == domain


def test_an_unknown_unit_is_refused() -> None:
    with pytest.raises(ValueError, match="expected one of host, ip, domain"):
        PolitenessUnit("origin")
    with pytest.raises(ValueError, match="registered-domain function"):
        PolitenessUnit(DOMAIN)


def test_a_units_robots_delay_is_the_longest_of_its_origins() -> None:
    delays = RobotsDelays()
    assert delays.set("shop.test", "http://shop.test:80", 0.5, "crawl_delay") == (
        0.5,
        "crawl_delay",
    )
    # https's robots.txt has a longer one: it rules both schemes' requests.
    assert delays.set("shop.test", "https://shop.test:443", 2.0, "request_rate") == (
        2.0,
        "request_rate",
    )
    # A later, shorter delay of http does not lower it; https's going away does.
    assert delays.set("shop.test", "http://shop.test:80", 0.1, "crawl_delay") == (
        2.0,
        "request_rate",
    )
    assert delays.set("shop.test", "https://shop.test:443", None, None) == (0.1, "crawl_delay")
    assert delays.set("other.test", "http://other.test:80", None, None) == (0.0, None)


def test_units_are_forgotten_least_recently_used_first() -> None:
    delays = RobotsDelays(max_units=2)
    delays.set("a", "http://a:80", 5.0, None)
    delays.set("b", "http://b:80", 1.0, None)
    delays.set("a", "https://a:443", 1.0, None)  # a used again
    delays.set("c", "http://c:80", 1.0, None)  # b forgotten
    assert delays.set("a", "https://a:443", 1.0, None) == (5.0, "crawl_delay")
    assert delays.set("b", "https://b:443", 0.5, None) == (0.5, "crawl_delay")
