from __future__ import annotations

from webrobot.urls.scope import DENY_PATTERN, NOT_ALLOWED, OFFSITE, SiteScope


def test_start_sites_are_exact_scheme_host_port() -> None:
    scope = SiteScope(start_urls=["http://127.0.0.1:8001/"])
    assert scope.refusal("http://127.0.0.1:8001/a") is None
    assert scope.refusal("http://127.0.0.1:8002/a") == OFFSITE
    assert scope.refusal("https://127.0.0.1:8001/a") == OFFSITE
    assert scope.refusal("http://other/") == OFFSITE


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
