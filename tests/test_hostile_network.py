"""No request reaches a blocked network by any path: start URL, link, page
redirect, robots.txt redirect, meta refresh. A loopback alias (127.0.0.2)
named in WEBROBOT_BLOCKED_NETWORKS stands in for the blocked network; judged by
what its server saw. Plus the address rules themselves, table-driven."""

from __future__ import annotations

import ipaddress
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from tests.crawling import run_crawl
from webrobot.demo.server import Reply, SiteServer
from webrobot.urls.netpolicy import (
    BLOCKED,
    INTERNAL,
    NetworkPolicy,
    NetworkSettingError,
    parse_networks,
)

BLOCKED_ALIAS = "127.0.0.2"


@pytest.fixture
def blocked_site() -> Iterator[SiteServer]:
    site = SiteServer("blocked", host=BLOCKED_ALIAS).start()
    site.add("/robots.txt", Reply.text("User-agent: *\nDisallow:\n"))
    site.add_prefix("/", lambda hit: Reply.html("<title>blocked</title><a href='/more'>more</a>"))
    yield site
    site.stop()


@pytest.mark.slow
def test_a_blocked_network_receives_no_request_by_any_path(
    make_site: Callable[..., SiteServer], blocked_site: SiteServer, tmp_path: Path
) -> None:
    home, moved = make_site("home"), make_site("moved")
    # robots.txt redirected to the blocked network: never fetched there.
    home.add("/robots.txt", Reply(301, b"", {"Location": blocked_site.url("/robots.txt")}))
    # robots.txt redirected across hosts (allowed, RFC 9309): its rules are obeyed.
    moved.add("/robots.txt", Reply(301, b"", {"Location": home.url("/moved-robots.txt")}))
    home.add("/moved-robots.txt", Reply.text("User-agent: *\nDisallow: /secret\n"))
    moved.html("/", "<title>moved</title><a href='/secret'>s</a><a href='/open'>o</a>")
    moved.html("/open", "<title>open</title>")
    moved.html("/secret", "<title>secret</title>")
    home.html("/", (
        f"<title>home</title><a href='/redirect'>r</a><a href='/js'>j</a><a href='/refresh'>m</a>"
        f"<a href='{blocked_site.url('/linked')}'>l</a><a href='{moved.url('/')}'>m</a>"
    ))  # fmt: skip
    home.add("/redirect", Reply(302, b"", {"Location": blocked_site.url("/redirected")}))
    home.add("/js", Reply(302, b"", {"Location": "javascript:alert(1)"}))
    home.html(
        "/refresh", f'<meta http-equiv="refresh" content="0; url={blocked_site.url("/refreshed")}">'
    )
    starts = ",".join([home.url("/"), blocked_site.url("/start"), moved.url("/")])
    config = tmp_path / "home.toml"
    config.write_text(
        f'start_urls = ["{home.url("/")}", "{blocked_site.url("/start")}", "{moved.url("/")}"]\n'
        f'allowed_domains = ["127.0.0.1", "{BLOCKED_ALIAS}"]\n',
        "utf-8",
    )
    result = run_crawl(
        tmp_path / "out",
        args={"config": str(config)},
        settings={"WEBROBOT_BLOCKED_NETWORKS": f'["{BLOCKED_ALIAS}/32"]', "WEBROBOT_REPORT_ENABLED": "True",
                  "WEBROBOT_REPORT_DIR": str(tmp_path / "report")},
    )  # fmt: skip
    assert starts
    assert result.returncode == 0, result.stderr
    assert blocked_site.targets() == [], "the blocked network was requested"
    assert (
        result.stat("webrobot/url/refused/blocked_network") >= 4
    )  # start, robots.txt, redirect, link/refresh
    assert result.stat("webrobot/url/refused/redirect_scheme") == 1
    assert "Traceback" not in result.log
    assert "/open" in moved.targets() and "/secret" not in moved.targets(), (
        "the moved robots.txt is obeyed"
    )
    assert home.count("/moved-robots.txt") == 1
    report = (tmp_path / "report" / "report.json").read_text("utf-8")
    assert "blocked_network" in report, "the refusals are in the report"


ADDRESS_CASES = [
    # address, crawl started on a private network, blocked networks, expected reason
    ("169.254.169.254", False, (), BLOCKED),
    ("169.254.169.254", True, (), BLOCKED),
    ("169.254.0.1", True, (), BLOCKED),
    ("fe80::1", True, (), BLOCKED),
    ("fd00:ec2::254", True, (), BLOCKED),
    ("::ffff:169.254.169.254", True, (), BLOCKED),
    ("127.0.0.1", False, (), INTERNAL),
    ("::1", False, (), INTERNAL),
    ("10.1.2.3", False, (), INTERNAL),
    ("192.168.0.1", False, (), INTERNAL),
    ("172.16.0.1", False, (), INTERNAL),
    ("100.64.0.1", False, (), INTERNAL),
    ("0.0.0.0", False, (), INTERNAL),
    ("fc00::1", False, (), INTERNAL),
    ("::ffff:127.0.0.1", False, (), INTERNAL),
    ("127.0.0.1", True, (), None),
    ("10.1.2.3", True, (), None),
    ("127.0.0.2", True, ("127.0.0.2/32",), BLOCKED),
    ("8.8.8.8", False, (), None),
    ("2001:4860:4860::8888", False, (), None),
    ("93.184.216.34", False, ("93.184.216.0/24",), BLOCKED),
]


@pytest.mark.parametrize(("address", "internal", "blocked", "expected"), ADDRESS_CASES)
def test_address_rules(
    address: str, internal: bool, blocked: tuple[str, ...], expected: str | None
) -> None:
    policy = NetworkPolicy(parse_networks(blocked), internal_allowed=internal)
    refusal = policy.refusal([ipaddress.ip_address(address)])
    assert (refusal[0] if refusal else None) == expected


def test_one_bad_address_refuses_the_host() -> None:
    addresses = [ipaddress.ip_address("8.8.8.8"), ipaddress.ip_address("169.254.169.254")]
    assert NetworkPolicy(internal_allowed=True).refusal(addresses) is not None


@pytest.mark.parametrize("bad", ["10.0.0.0/33", "example.com", "", "300.1.1.1"])
def test_a_bad_blocked_network_is_named(bad: str) -> None:
    with pytest.raises(
        NetworkSettingError, match="WEBROBOT_BLOCKED_NETWORKS.*expected IP networks"
    ):
        parse_networks([bad])
