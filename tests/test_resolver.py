"""The resolver of WEBROBOT_RESOLVE: mapped names answered from the table (IPv4 and
IPv6), other names passed on; end to end, a crawl of a name mapped to 127.0.0.1
judged by what the server saw, and the network guard judging the mapped address."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from twisted.internet.address import IPv4Address, IPv6Address

from tests.crawling import run_crawl
from webrobot.demo.server import Reply, SiteServer
from webrobot.urls.hostmap import HostMap
from webrobot.urls.resolver import MappedResolver, _MappedNameResolver, host_map, use_table


class _Receiver:
    def __init__(self) -> None:
        self.addresses: list[Any] = []
        self.began = self.complete = False

    def resolutionBegan(self, resolution: Any) -> None:
        self.began = True

    def addressResolved(self, address: Any) -> None:
        self.addresses.append(address)

    def resolutionComplete(self) -> None:
        self.complete = True


class _Fallback:
    def __init__(self) -> None:
        self.asked: list[str] = []

    def resolveHostName(self, receiver: Any, name: str, port: int = 0, *args: Any) -> Any:
        self.asked.append(name)
        return None


TABLE = HostMap({"shop.test": "127.0.0.1", "both.test": ["::1", "127.0.0.2"], "six.test": "::1"})


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("shop.test", "127.0.0.1"),
        ("SHOP.TEST.", "127.0.0.1"),
        ("both.test", "127.0.0.2"),
        ("six.test", "::1"),
    ],
)
def test_the_simple_resolver_answers_mapped_names_at_once(name: str, expected: str) -> None:
    resolver = MappedResolver(None, 0, 1.0, TABLE)  # type: ignore[arg-type]  # no reactor needed
    answers: list[str] = []
    resolver.getHostByName(name).addCallback(answers.append)
    assert answers == [expected]


@pytest.mark.parametrize(
    ("name", "types", "expected"),
    [
        ("shop.test", None, [IPv4Address("TCP", "127.0.0.1", 8443)]),
        (
            "both.test",
            None,
            [IPv6Address("TCP", "::1", 8443), IPv4Address("TCP", "127.0.0.2", 8443)],
        ),
        ("both.test", [IPv4Address], [IPv4Address("TCP", "127.0.0.2", 8443)]),
        ("six.test", [IPv6Address], [IPv6Address("TCP", "::1", 8443)]),
    ],
)
def test_the_name_resolver_gives_every_mapped_address(
    name: str, types: Any, expected: list[Any]
) -> None:
    fallback = _Fallback()
    receiver = _Receiver()
    _MappedNameResolver(TABLE, fallback).resolveHostName(receiver, name, 8443, types)  # type: ignore[arg-type]
    assert receiver.began and receiver.complete
    assert receiver.addresses == expected
    assert fallback.asked == []


def test_names_not_in_the_table_go_to_the_usual_resolver() -> None:
    fallback = _Fallback()
    receiver = _Receiver()
    _MappedNameResolver(TABLE, fallback).resolveHostName(receiver, "www.shop.test", 80)  # type: ignore[arg-type]
    assert fallback.asked == ["www.shop.test"] and receiver.addresses == []


def test_names_under_invalid_fail_at_once_without_the_usual_resolver() -> None:
    """RFC 6761: an ``.invalid`` name is answered negatively at once, by both
    interfaces, and DNS (the fallback, the thread pool) is never asked."""
    from twisted.internet.error import DNSLookupError

    fallback = _Fallback()
    receiver = _Receiver()
    _MappedNameResolver(TABLE, fallback).resolveHostName(receiver, "No-Such-Host.Invalid.", 80)  # type: ignore[arg-type]
    assert fallback.asked == []
    assert receiver.began and receiver.complete and receiver.addresses == []
    resolver = MappedResolver(None, 0, 1.0, TABLE)  # type: ignore[arg-type]  # no reactor: no DNS
    errors: list[Any] = []
    resolver.getHostByName("no-such-host.invalid").addErrback(errors.append)
    assert len(errors) == 1 and errors[0].check(DNSLookupError)
    assert "no-such-host.invalid" in str(errors[0].value)


def test_a_mapped_invalid_name_is_answered_from_the_table() -> None:
    table = HostMap({"probe.bed.invalid": "127.0.0.3"})
    receiver = _Receiver()
    _MappedNameResolver(table, _Fallback()).resolveHostName(receiver, "probe.bed.invalid", 80)  # type: ignore[arg-type]
    assert receiver.addresses == [IPv4Address("TCP", "127.0.0.3", 80)]


def test_the_network_guard_asks_no_dns_for_invalid_names(monkeypatch: pytest.MonkeyPatch) -> None:
    import asyncio

    from tests.components import webrobot_crawler
    from webrobot.urls import networkmiddleware

    asked: list[str] = []
    monkeypatch.setattr(networkmiddleware, "_resolve", lambda host: asked.append(host) or [])
    guard = networkmiddleware.NetworkGuardMiddleware(
        webrobot_crawler(WEBROBOT_RESOLVE={"probe.bed.invalid": "127.0.0.3"})
    )
    assert asyncio.run(guard._addresses("no-such-host.invalid")) == []
    assert [str(a) for a in asyncio.run(guard._addresses("probe.bed.invalid"))] == ["127.0.0.3"]
    assert asked == []


def test_a_bad_table_names_the_setting() -> None:
    with pytest.raises(
        ValueError, match=r"^setting WEBROBOT_RESOLVE: 'shop.test': 'x' is not an IP address$"
    ):
        host_map({"WEBROBOT_RESOLVE": '{"shop.test": "x"}'})


def _resolve(table: dict[str, Any]) -> str:
    return json.dumps(table)


def test_a_crawl_of_a_mapped_name_reaches_the_server(
    make_site: Callable[..., SiteServer], tmp_path: Path
) -> None:
    site = make_site("shop")
    site.add("/robots.txt", Reply.text("User-agent: *\nDisallow: /private\n"))
    site.html("/", "<title>shop</title><a href='/p/1'>1</a><a href='/private'>x</a>")
    site.html("/p/1", "<title>one</title>")
    start = f"http://shop.test:{site.port}/"
    result = run_crawl(
        tmp_path,
        args={"start_urls": start},
        settings={"WEBROBOT_RESOLVE": _resolve({"shop.test": "127.0.0.1"})},
    )
    assert result.returncode == 0, result.stderr
    assert sorted(site.targets()) == ["/", "/p/1", "/robots.txt"]
    assert {h.headers["host"] for h in site.hits} == {f"shop.test:{site.port}"}
    assert sorted(result.item_urls()) == [start, start + "p/1"]


def test_the_network_guard_judges_the_mapped_address(tmp_path: Path) -> None:
    blocked = SiteServer("blocked", host="127.0.0.2").start()
    try:
        blocked.html("/", "<title>blocked</title>")
        result = run_crawl(
            tmp_path,
            args={"start_urls": f"http://inside.test:{blocked.port}/"},
            settings={
                "WEBROBOT_RESOLVE": _resolve({"inside.test": "127.0.0.2"}),
                "WEBROBOT_BLOCKED_NETWORKS": '["127.0.0.2/32"]',
            },
        )
    finally:
        blocked.stop()
    assert result.returncode == 0, result.stderr
    assert blocked.targets() == []
    assert result.stat("webrobot/url/refused/blocked_network") == 1


def test_a_bad_table_stops_the_crawl_with_one_line(tmp_path: Path) -> None:
    result = run_crawl(
        tmp_path,
        args={"start_urls": "http://shop.test:9/"},
        settings={"WEBROBOT_RESOLVE": _resolve({"shop.test": "shop.example"})},
    )
    assert result.returncode == 2
    assert (
        "setting WEBROBOT_RESOLVE: 'shop.test': 'shop.example' is not an IP address" in result.log
    )


def test_a_crawlers_table_is_used_only_with_the_mapped_resolver() -> None:
    from webrobot.urls import resolver

    table = HostMap({"late.test": "127.0.0.9"})
    assert not use_table(table, {"TWISTED_DNS_RESOLVER": "scrapy.resolver.CachingThreadedResolver"})
    assert not use_table(table, {"TWISTED_DNS_RESOLVER": "no.such.Resolver"})
    assert resolver._lookup(HostMap(), "late.test") is None
    assert use_table(table, {"TWISTED_DNS_RESOLVER": "webrobot.urls.resolver.MappedResolver"})
    assert resolver._lookup(HostMap(), "late.test") == ("127.0.0.9",)
    resolver._CRAWLER_TABLES.hosts.pop("late.test")


def test_a_site_configs_table_reaches_the_downloads(
    make_site: Callable[..., SiteServer], tmp_path: Path
) -> None:
    site = make_site("configured")
    site.html("/", "<title>configured</title><a href='/next'>next</a>")
    site.html("/next", "<title>next</title>")
    start = f"http://configured.test:{site.port}/"
    config = tmp_path / "configured.toml"
    config.write_text(
        f'start_urls = ["{start}"]\n[settings]\nWEBROBOT_RESOLVE = {{"configured.test" = "127.0.0.1"}}\n',
        "utf-8",
    )
    result = run_crawl(tmp_path / "out", args={"config": str(config)})
    assert result.returncode == 0, result.stderr
    assert sorted(site.targets()) == ["/", "/next", "/robots.txt"]


@pytest.mark.parametrize(
    ("name", "asked"),
    [("www.example.com", False), ("shop.test", True), ("localhost", True),
     ("a.localhost", True), ("127.0.0.9", True), ("::1", True), ("x.invalid", False)],
)  # fmt: skip
def test_with_the_table_only_no_other_name_reaches_dns(name: str, asked: bool) -> None:
    """WEBROBOT_RESOLVE_ONLY: mapped names from the table, localhost and address
    literals as usual, anything else fails at once by both interfaces."""
    from twisted.internet.error import DNSLookupError

    fallback = _Fallback()
    receiver = _Receiver()
    resolver = _MappedNameResolver(TABLE, fallback, table_only=True)
    resolver.resolveHostName(receiver, name, 80)  # type: ignore[arg-type]
    mapped = name == "shop.test"
    assert fallback.asked == ([name] if asked and not mapped else [])
    if not asked:
        assert receiver.began and receiver.complete and receiver.addresses == []
        errors: list[Any] = []
        simple = MappedResolver(None, 0, 1.0, TABLE, table_only=True)  # type: ignore[arg-type]
        simple.getHostByName(name).addErrback(errors.append)
        assert len(errors) == 1 and errors[0].check(DNSLookupError)
        assert name in str(errors[0].value)


def test_with_the_table_only_the_network_guard_asks_no_dns(monkeypatch: pytest.MonkeyPatch) -> None:
    import asyncio

    from tests.components import webrobot_crawler
    from webrobot.urls import networkmiddleware

    asked: list[str] = []
    monkeypatch.setattr(networkmiddleware, "_resolve", lambda host: asked.append(host) or [])
    guard = networkmiddleware.NetworkGuardMiddleware(
        webrobot_crawler(WEBROBOT_RESOLVE={"shop.test": "127.0.0.3"}, WEBROBOT_RESOLVE_ONLY=True)
    )
    assert asyncio.run(guard._addresses("cdn.example.com")) == []
    assert [str(a) for a in asyncio.run(guard._addresses("shop.test"))] == ["127.0.0.3"]
    assert asked == []
