from __future__ import annotations

from collections.abc import Callable
from urllib.parse import urlsplit

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scrapy import Request
from scrapy.http import Response

from webrobot.urls.sitekey import (
    host_key,
    host_key_from_parts,
    request_host,
    request_site,
    robots_url,
    site_key,
    site_key_from_parts,
)


@pytest.mark.parametrize(
    ("url", "key"),
    [
        ("http://Example.COM/a?b", "http://example.com:80"),
        ("http://example.com:80/", "http://example.com:80"),
        ("https://example.com/", "https://example.com:443"),
        ("http://example.com:8080/", "http://example.com:8080"),
        ("http://[::1]:8000/x", "http://[::1]:8000"),
        (
            "http://Example.com.:80/",
            "http://example.com:80",
        ),  # a fully qualified name is the same host
    ],
)
def test_site_key(url: str, key: str) -> None:
    assert site_key(url) == key


def test_ports_make_different_sites() -> None:
    assert site_key("http://127.0.0.1:8001/") != site_key("http://127.0.0.1:8002/")


def test_robots_url() -> None:
    assert robots_url("HTTP://Example.com:80/a/b?c") == "http://example.com/robots.txt"
    assert robots_url("https://example.com:8443/a") == "https://example.com:8443/robots.txt"


def _parsed_key(url: str) -> str:
    """The key from a full parse of the URL, with no shortcut."""
    return site_key_from_parts(urlsplit(url))


def _outcome(compute: Callable[[str], str], url: str) -> str:
    try:
        return compute(url)
    except ValueError as exc:
        return f"ValueError: {exc}"


@settings(max_examples=600, deadline=None)
@given(
    st.text(alphabet="hHtTpPsS:/?#@[]%.-+09aZé \t\r\n\x00\x7f", max_size=30),
    st.sampled_from(["", "http://", "HTTPS://", "ftp://", "http:/", " http://", "h\ttp://"]),
)
def test_site_key_agrees_with_a_full_parse(tail: str, head: str) -> None:
    url = head + tail
    # twice: the second call is answered from what the first remembered
    assert _outcome(site_key, url) == _outcome(_parsed_key, url)
    assert _outcome(site_key, url) == _outcome(_parsed_key, url)


def test_request_site_is_computed_once_per_request() -> None:
    first = Request("http://Example.com:80/a")
    assert request_site(first) == "http://example.com:80"
    assert request_site(Response("http://example.com:8080/b")) == "http://example.com:8080"
    redirected = first.replace(url="http://other.example/")  # a new request, a new key
    assert request_site(redirected) == "http://other.example:80"
    assert request_site(first) == "http://example.com:80"


@settings(max_examples=600, deadline=None)
@given(
    st.text(alphabet="hHtTpPsS:/?#@[]%.-+09aZé \t\r\n\x00\x7f", max_size=30),
    st.sampled_from(["", "http://", "HTTPS://", "ftp://", "http:/", " http://", "h\ttp://"]),
)
def test_host_key_agrees_with_a_full_parse(tail: str, head: str) -> None:
    url = head + tail
    full = _outcome(lambda u: host_key_from_parts(urlsplit(u)), url)
    assert _outcome(host_key, url) == full
    assert _outcome(host_key, url) == full


def test_request_host_is_computed_once_per_request() -> None:
    first = Request("https://Example.com:443/a")
    assert request_host(first) == "example.com"
    assert request_host(Response("http://example.com:8080/b")) == "example.com:8080"
    assert request_host(first.replace(url="http://example.com/")) == "example.com"
