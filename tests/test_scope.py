from __future__ import annotations

import pytest

from webrobot.urls.domains import registered_domain
from webrobot.urls.scope import DENY_PATTERN, NOT_ALLOWED, OFFSITE, SiteScope

START = ["http://shop.test/p/0", "http://127.0.0.1:8001/"]
#: url -> in scope under (host, origin, domain)
CASES = [
    ("http://shop.test/p/1", (True, True, True)),
    ("https://shop.test/p/1", (True, False, True)),  # the same host over TLS
    ("https://shop.test:443/p/1", (True, False, True)),
    ("http://shop.test:8080/p/1", (False, False, True)),  # another port: another service
    ("https://www.shop.test/", (False, False, True)),
    ("http://static.shop.test/a.css", (False, False, True)),
    ("http://notshop.test/", (False, False, False)),
    ("http://127.0.0.1:8001/a", (True, True, True)),
    ("https://127.0.0.1:8001/a", (True, False, True)),
    ("http://127.0.0.1:8002/a", (False, False, True)),  # an address is its own domain, any port
    ("http://127.0.0.2:8001/a", (False, False, False)),
    ("http://other/", (False, False, False)),
]


@pytest.mark.parametrize(("mode", "column"), [("host", 0), ("origin", 1), ("domain", 2)])
@pytest.mark.parametrize(("url", "expected"), CASES)
def test_what_a_start_url_brings_into_scope(
    mode: str, column: int, url: str, expected: tuple[bool, bool, bool]
) -> None:
    scope = SiteScope(start_urls=START, mode=mode, domain_of=registered_domain)
    assert (scope.refusal(url) is None) is expected[column]
    assert scope.refusal(url) in (None, OFFSITE)


@pytest.mark.parametrize(
    ("mode", "target", "now_in", "still_out"),
    [
        ("host", "https://www.shop.test/", "http://www.shop.test/x", "http://static.shop.test/"),
        ("origin", "https://www.shop.test/", "https://www.shop.test/x", "http://www.shop.test/x"),
        ("domain", "https://www.other.test/", "http://static.other.test/", "http://third.test/"),
    ],
)
def test_a_redirect_target_joins_the_scope(
    mode: str, target: str, now_in: str, still_out: str
) -> None:
    scope = SiteScope(start_urls=["http://shop.test/"], mode=mode, domain_of=registered_domain)
    assert scope.refusal(now_in) == OFFSITE or mode == "domain" and "shop.test" in now_in
    assert scope.add(target) is True
    assert scope.add(target) is False  # once
    assert scope.refusal(now_in) is None
    assert scope.refusal(still_out) == OFFSITE


def test_allowed_domains_are_not_widened_by_redirects() -> None:
    scope = SiteScope(start_urls=["http://a.test/"], allowed_domains=["a.test"])
    assert scope.add("https://b.test/") is False
    assert scope.refusal("https://b.test/") == OFFSITE


def test_a_bad_mode_is_refused() -> None:
    with pytest.raises(ValueError, match="expected one of host, origin, domain"):
        SiteScope(mode="site")
    with pytest.raises(ValueError, match="registered-domain function"):
        SiteScope(mode="domain")


def test_allowed_domains_cover_subdomains_any_port() -> None:
    scope = SiteScope(start_urls=["http://example.com/"], allowed_domains=["example.com"])
    assert scope.refusal("https://www.example.com:8443/") is None
    assert scope.refusal("http://notexample.com/") == OFFSITE


def test_deny_and_allow_patterns() -> None:
    scope = SiteScope(start_urls=["http://a/"], allow=[r"/docs/"], deny=[r"/docs/private"])
    assert scope.refusal("http://a/docs/x") is None
    assert scope.refusal("http://a/docs/private/y") == DENY_PATTERN
    assert scope.refusal("http://a/blog/") == NOT_ALLOWED


def test_no_start_sites_means_no_site_restriction() -> None:
    assert SiteScope().refusal("http://anything/") is None


def test_idn_start_url_and_domain_match_punycode_urls() -> None:
    """Scrapy sends IDN hosts in punycode, and the scope sees canonical URLs."""
    scope = SiteScope(start_urls=["http://bücher.example/"])
    assert scope.refusal("http://xn--bcher-kva.example/a") is None
    wide = SiteScope(start_urls=["http://bücher.example/"], allowed_domains=["Bücher.example"])
    assert wide.refusal("http://www.xn--bcher-kva.example:81/") is None
