"""Learning that a host moved to https, and rewriting its http URLs. Table-driven."""

from __future__ import annotations

import pytest

from webrobot.urls.upgrade import UpgradeRules, hsts_max_age


@pytest.mark.parametrize(
    ("source", "target", "learnt"),
    [
        ("http://shop.test/p/1", "https://shop.test/p/1", True),
        ("http://shop.test/", "https://shop.test", True),  # "/" and "" are one path
        ("http://Shop.Test/p/1?a=1", "https://shop.test:443/p/1?a=1", True),
        ("http://shop.test:8080/p", "https://shop.test:8443/p", True),  # another port pair
        ("http://shop.test/p/1", "https://www.shop.test/p/1", False),  # another host
        (
            "http://shop.test/p/1",
            "https://shop.test/",
            False,
        ),  # another page: a moved page, not TLS
        ("http://shop.test/p/1?a=1", "https://shop.test/p/1?a=2", False),
        ("http://shop.test/p/1", "http://shop.test/p/2", False),
        ("https://shop.test/p/1", "http://shop.test/p/1", False),  # a downgrade teaches nothing
        ("http://shop.test/p/1", "ftp://shop.test/p/1", False),
        ("http://shop.test:bad/p", "https://shop.test/p", False),
    ],
)
def test_what_a_redirect_teaches(source: str, target: str, learnt: bool) -> None:
    rules = UpgradeRules()
    assert rules.learn_redirect(source, target) is learnt
    assert (rules.upgrade(source) is not None) is learnt


@pytest.mark.parametrize(
    ("value", "age"),
    [
        ("max-age=31536000", 31536000),
        ("max-age=31536000; includeSubDomains", 31536000),
        ('includeSubDomains; Max-Age="600"; preload', 600),
        ("max-age=0", 0),
        ("includeSubDomains", None),
        ("max-age=abc", None),
        ("", None),
    ],
)
def test_hsts_max_age(value: str, age: int | None) -> None:
    assert hsts_max_age(value) == age


@pytest.mark.parametrize(
    ("url", "value", "http_url", "https_url"),
    [
        ("https://blog.test/", "max-age=600", "http://blog.test/a?b#c", "https://blog.test/a?b#c"),
        ("https://blog.test:443/x", "max-age=600", "http://blog.test:80/a", "https://blog.test/a"),
        # RFC 6797: a port other than 80 keeps its number.
        (
            "https://blog.test:8443/",
            "max-age=600",
            "http://blog.test:8443/a",
            "https://blog.test:8443/a",
        ),
        ("https://[::1]/", "max-age=600", "http://[::1]/a", "https://[::1]/a"),
        ("http://blog.test/", "max-age=600", "http://blog.test/a", None),  # ignored over http
        ("https://blog.test/", "includeSubDomains", "http://blog.test/a", None),  # no max-age
        ("https://blog.test/", "max-age=0", "http://blog.test/a", None),
    ],
)
def test_what_hsts_teaches(url: str, value: str, http_url: str, https_url: str | None) -> None:
    rules = UpgradeRules()
    rules.learn_hsts(url, value)
    assert rules.upgrade(http_url) == https_url


def test_upgrades_apply_to_their_host_only() -> None:
    rules = UpgradeRules()
    assert rules.learn_redirect("http://shop.test/", "https://shop.test/")
    assert not rules.learn_redirect("http://shop.test/x", "https://shop.test/x"), "known already"
    assert rules.upgrade("http://shop.test/p/9?q=1") == "https://shop.test/p/9?q=1"
    assert rules.upgrade("HTTP://SHOP.TEST/p") == "https://shop.test/p"
    assert rules.upgrade("http://user@shop.test/p") == "https://user@shop.test/p"
    assert rules.upgrade("https://shop.test/p") is None, "https already"
    assert rules.upgrade("http://www.shop.test/p") is None, "another host"
    assert rules.upgrade("http://shop.test:8080/p") is None, "another port: another service"


def test_max_age_zero_forgets_the_host() -> None:
    rules = UpgradeRules()
    assert rules.learn_hsts("https://blog.test/", "max-age=600")
    assert rules.upgrade("http://blog.test/") == "https://blog.test/"
    assert not rules.learn_hsts("https://blog.test/", "max-age=0")
    assert rules.upgrade("http://blog.test/") is None


def test_hosts_are_forgotten_oldest_first() -> None:
    rules = UpgradeRules(max_hosts=2)
    for name in ("a", "b", "c"):
        rules.learn_redirect(f"http://{name}.test/", f"https://{name}.test/")
    assert len(rules) == 2
    assert rules.upgrade("http://a.test/") is None
    assert rules.upgrade("http://c.test/") == "https://c.test/"


@pytest.mark.parametrize(
    ("learnt", "url", "http"),
    [
        (
            ("http://shop.test/", "https://shop.test/"),
            "https://shop.test/p?q",
            "http://shop.test/p?q",
        ),
        (
            ("http://shop.test:8080/", "https://shop.test:8443/"),
            "https://shop.test:8443/p",
            "http://shop.test:8080/p",
        ),
        (("http://shop.test:8080/", "https://shop.test:8443/"), "https://shop.test/p", None),
        (("http://shop.test/", "https://shop.test/"), "https://www.shop.test/p", None),
        (("http://shop.test/", "https://shop.test/"), "http://shop.test/p", None),
    ],
)
def test_downgrade_names_the_http_form_of_a_learnt_upgrade(
    learnt: tuple[str, str], url: str, http: str | None
) -> None:
    rules = UpgradeRules()
    rules.learn_redirect(*learnt)
    assert rules.downgrade(url) == http


def test_an_https_url_is_in_scope_when_its_http_form_is() -> None:
    from webrobot.urls.scope import OFFSITE, SiteScope

    scope = SiteScope(start_urls=["http://shop.test:8080/"])
    rules = UpgradeRules()
    scope.upgrades = rules
    assert scope.refusal("https://shop.test:8443/p") == OFFSITE
    rules.learn_redirect("http://shop.test:8080/p", "https://shop.test:8443/p")
    assert scope.refusal("https://shop.test:8443/p") is None
    assert scope.refusal("https://shop.test:9443/p") == OFFSITE
