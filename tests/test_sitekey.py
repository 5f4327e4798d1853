from __future__ import annotations

import pytest

from webrobot.sitekey import robots_url, site_key


@pytest.mark.parametrize(
    ("url", "key"),
    [
        ("http://Example.COM/a?b", "http://example.com:80"),
        ("http://example.com:80/", "http://example.com:80"),
        ("https://example.com/", "https://example.com:443"),
        ("http://example.com:8080/", "http://example.com:8080"),
        ("http://[::1]:8000/x", "http://[::1]:8000"),
        ("http://Example.com.:80/", "http://example.com:80"),  # a fully qualified name is the same host
    ],
)
def test_site_key(url: str, key: str) -> None:
    assert site_key(url) == key


def test_ports_make_different_sites() -> None:
    assert site_key("http://127.0.0.1:8001/") != site_key("http://127.0.0.1:8002/")


def test_robots_url() -> None:
    assert robots_url("HTTP://Example.com:80/a/b?c") == "http://example.com/robots.txt"
    assert robots_url("https://example.com:8443/a") == "https://example.com:8443/robots.txt"
