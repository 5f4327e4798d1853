"""Host names answered from a table instead of DNS, as curl's ``--resolve`` does.

``WEBROBOT_RESOLVE`` maps host names to addresses (``{"shop.test":
"127.0.0.1"}``, or a list of addresses per name). Tests and the demo use it to
give many names to servers on this machine without a hosts file or a DNS
server; an operator can use it to crawl a site on a new server before its DNS
record moves. Names not in the table are resolved as usual, except the special-use names
under ``.invalid`` (:func:`never_resolves`), which fail at once, and, with
``WEBROBOT_RESOLVE_ONLY``, every name but ``localhost`` (:func:`not_asked`): an offline
crawl or a test bed then never sends a DNS query.

It lives in :mod:`webrobot.urls` beside the network guard
(:mod:`webrobot.urls.networkmiddleware`) because both must agree on where a
host is: the guard judges the address the table gives, the address the
download will really connect to, so a name mapped to a link-local or private
address is refused as any other name resolving there. The resolver that the
downloader uses (:mod:`webrobot.urls.resolver`) reads the same table.

Pure logic: no Scrapy, no I/O.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Mapping
from typing import Any

#: RFC 6761 6.4: names under this top-level domain never exist, and "name resolution
#: APIs and libraries SHOULD recognize [them] as special and SHOULD always return
#: immediate negative responses".
INVALID_TLD = "invalid"


def never_resolves(host: str) -> bool:
    """Whether ``host`` is ``invalid`` or a name under it: it fails without a DNS
    query (a name the ``WEBROBOT_RESOLVE`` table maps is looked up there first)."""
    name = normal_host(host)
    return name == INVALID_TLD or name.endswith("." + INVALID_TLD)


def not_asked(host: str, *, table_only: bool = False) -> bool:
    """Whether a name not in the table fails without a DNS query: an ``.invalid`` name
    always, and with ``table_only`` (``WEBROBOT_RESOLVE_ONLY``) every name but an address
    literal and ``localhost`` (RFC 6761 6.3: the loopback's own name, answered by the
    system without DNS)."""
    if never_resolves(host):
        return True
    if not table_only:
        return False
    name = normal_host(host)
    if name == "localhost" or name.endswith(".localhost"):
        return False
    try:
        ipaddress.ip_address(name)
    except ValueError:
        return True
    return False


class HostMapError(ValueError):
    """A table entry that cannot be used; the text says which and why."""


def normal_host(host: str) -> str:
    """``'Shop.Test.'`` -> ``'shop.test'``; IDNA names in punycode; IPv6 without brackets."""
    host = host.strip().lower()
    if host.startswith("[") and host.endswith("]"):
        host = host[1:-1]
    if host.endswith(".") and not host.endswith(".."):
        host = host[:-1]
    try:
        return host.encode("idna").decode("ascii")
    except UnicodeError:
        return host


def _address(name: str, value: Any) -> str:
    if not isinstance(value, str):
        raise HostMapError(f"{name!r}: expected an IP address, got {value!r}")
    try:
        return str(ipaddress.ip_address(value.strip().strip("[]")))
    except ValueError:
        raise HostMapError(f"{name!r}: {value!r} is not an IP address") from None


def parse_host_map(table: Mapping[str, Any]) -> dict[str, tuple[str, ...]]:
    """``{"Shop.Test": "127.0.0.1", "b.test": ["::1", "127.0.0.2"]}`` ->
    ``{"shop.test": ("127.0.0.1",), "b.test": ("::1", "127.0.0.2")}``."""
    hosts: dict[str, tuple[str, ...]] = {}
    for name, value in table.items():
        if not isinstance(name, str) or not normal_host(name):
            raise HostMapError(f"{name!r}: expected a host name")
        values = [value] if isinstance(value, str) else value
        if not isinstance(values, list | tuple) or not values:
            raise HostMapError(f"{name!r}: expected an IP address or a list of them, got {value!r}")
        hosts[normal_host(name)] = tuple(_address(name, v) for v in values)
    return hosts


class HostMap:
    """The table of ``WEBROBOT_RESOLVE``: :meth:`lookup` gives a name's addresses,
    or ``None`` when the name is not in it (resolve it as usual)."""

    def __init__(self, table: Mapping[str, Any] | None = None) -> None:
        self.hosts = parse_host_map(table or {})

    def __bool__(self) -> bool:
        return bool(self.hosts)

    def lookup(self, host: str) -> tuple[str, ...] | None:
        if not self.hosts:
            return None
        return self.hosts.get(normal_host(host))
