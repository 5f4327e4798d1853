"""The WEBROBOT_RESOLVE table: names normalised, addresses checked, unknown names fall through."""

from __future__ import annotations

from typing import Any

import pytest

from webrobot.urls.hostmap import (
    HostMap,
    HostMapError,
    never_resolves,
    normal_host,
    parse_host_map,
)


@pytest.mark.parametrize(
    ("table", "expected"),
    [
        ({}, {}),
        ({"shop.test": "127.0.0.1"}, {"shop.test": ("127.0.0.1",)}),
        ({"Shop.TEST.": " 127.0.0.1 "}, {"shop.test": ("127.0.0.1",)}),
        ({"b.test": ["::1", "127.0.0.2"]}, {"b.test": ("::1", "127.0.0.2")}),
        ({"v6.test": "[0:0::1]"}, {"v6.test": ("::1",)}),
        ({"bücher.test": "127.0.0.1"}, {"xn--bcher-kva.test": ("127.0.0.1",)}),
    ],
)
def test_tables_are_normalised(table: dict[str, Any], expected: dict[str, tuple[str, ...]]) -> None:
    assert parse_host_map(table) == expected


@pytest.mark.parametrize(
    ("table", "words"),
    [
        ({"shop.test": "shop.example"}, "'shop.example' is not an IP address"),
        ({"shop.test": "127.0.0.256"}, "not an IP address"),
        ({"shop.test": []}, "expected an IP address or a list"),
        ({"shop.test": 12}, "expected an IP address or a list"),
        ({"shop.test": ["127.0.0.1", 5]}, "expected an IP address, got 5"),
        ({"": "127.0.0.1"}, "expected a host name"),
    ],
)
def test_bad_entries_name_the_entry_and_the_problem(table: dict[str, Any], words: str) -> None:
    with pytest.raises(HostMapError, match=words) as caught:
        parse_host_map(table)
    assert repr(next(iter(table))) in str(caught.value)


@pytest.mark.parametrize(
    ("host", "expected"),
    [
        ("shop.test", ("127.0.0.1",)),
        ("SHOP.test.", ("127.0.0.1",)),
        ("www.shop.test", None),  # no wildcard: only the names listed
        ("other.test", None),
        ("[::1]", None),
    ],
)
def test_lookup(host: str, expected: tuple[str, ...] | None) -> None:
    assert HostMap({"shop.test": "127.0.0.1"}).lookup(host) == expected


def test_an_empty_table_is_false_and_answers_nothing() -> None:
    assert not HostMap()
    assert HostMap().lookup("shop.test") is None
    assert HostMap({"a.test": "127.0.0.1"})


@pytest.mark.parametrize(
    ("host", "expected"),
    [
        ("A.Test", "a.test"),
        ("a.test.", "a.test"),
        ("[::1]", "::1"),
        ("bücher.test", "xn--bcher-kva.test"),
    ],
)
def test_normal_host(host: str, expected: str) -> None:
    assert normal_host(host) == expected


@pytest.mark.parametrize(
    ("host", "expected"),
    [
        ("no-such-host.invalid", True),
        ("A.B.INVALID.", True),
        ("invalid", True),
        ("invalid.test", False),
        ("notinvalid", False),
        ("shop.invalidated", False),
        ("example.com", False),
        ("127.0.0.1", False),
    ],
)
def test_names_under_invalid_never_resolve(host: str, expected: bool) -> None:
    """RFC 6761 6.4: ``invalid`` and every name under it, whatever the case or the final dot."""
    assert never_resolves(host) is expected
