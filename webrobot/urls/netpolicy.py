"""Where the robot may never send a request, judged on IP addresses.

Pure logic: no Scrapy, no I/O (host names are resolved by the caller, see
:mod:`webrobot.urls.networkmiddleware`).

* Always refused: link-local addresses (``169.254.0.0/16``, ``fe80::/10``),
  where cloud metadata services answer (``169.254.169.254``,
  ``fd00:ec2::254``), and the networks the user names
  (``WEBROBOT_BLOCKED_NETWORKS``).
* Refused unless the crawl itself started there: loopback and private
  addresses (``127.0.0.0/8``, ``10/8``, ``172.16/12``, ``192.168/16``,
  ``::1``, ``fc00::/7``, CGNAT ``100.64/10``, unspecified ``0.0.0.0``...). A
  crawl whose start URLs resolve to such an address (the demo, a test, an
  intranet) may stay inside; a crawl of public sites can never be led into
  the machine's own network by a link, a redirect or a robots.txt redirect.
"""

from __future__ import annotations

import ipaddress
import json
from collections.abc import Iterable
from dataclasses import dataclass

IPAddress = ipaddress.IPv4Address | ipaddress.IPv6Address
IPNetwork = ipaddress.IPv4Network | ipaddress.IPv6Network

#: Never requested, whatever the start URLs.
ALWAYS_BLOCKED: tuple[IPNetwork, ...] = (
    ipaddress.ip_network("169.254.0.0/16"),  # link-local, cloud metadata (169.254.169.254)
    ipaddress.ip_network("fe80::/10"),  # IPv6 link-local
    ipaddress.ip_network("fd00:ec2::254/128"),  # AWS metadata over IPv6
)
#: Requested only by a crawl whose start URLs are there.
INTERNAL = "private_network"
BLOCKED = "blocked_network"


class NetworkSettingError(ValueError):
    pass


def parse_networks(
    values: object, setting: str = "WEBROBOT_BLOCKED_NETWORKS"
) -> tuple[IPNetwork, ...]:
    """``["10.1.0.0/16", "127.0.0.2"]`` (or that JSON list, or comma-separated
    text, as ``-s`` gives it) -> networks; a bad entry raises
    :class:`NetworkSettingError` naming the setting, the entry and what was expected."""
    if values is None or values == "":
        return ()
    if isinstance(values, str):
        text = values.strip()
        if text.startswith("["):
            try:
                values = json.loads(text)
            except json.JSONDecodeError as exc:
                raise NetworkSettingError(
                    f"setting {setting}: expected a JSON list of networks: {exc}"
                ) from None
        else:
            values = text.split(",")
    if not isinstance(values, list | tuple):
        raise NetworkSettingError(f"setting {setting}: expected a list of networks, got {values!r}")
    networks = []
    for value in values:
        try:
            networks.append(ipaddress.ip_network(str(value).strip(), strict=False))
        except ValueError:
            raise NetworkSettingError(
                f"setting {setting}: expected IP networks like '10.0.0.0/8' or addresses, got {value!r}"
            ) from None
    return tuple(networks)


def as_address(host: str) -> IPAddress | None:
    """The address a host is written as (``'[::1]'``, ``'127.0.0.1'``), or None for a name."""
    host = host.strip("[]")
    try:
        address = ipaddress.ip_address(host.partition("%")[0])
    except ValueError:
        return None
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        return address.ipv4_mapped
    return address


def is_internal(address: IPAddress) -> bool:
    """Loopback, private, shared (CGNAT), unspecified or otherwise not globally reachable."""
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        address = address.ipv4_mapped
    return not address.is_global or address.is_loopback or address.is_private


@dataclass(frozen=True)
class NetworkPolicy:
    blocked: tuple[IPNetwork, ...] = ()
    internal_allowed: bool = False  # the crawl started on an internal address

    def refusal(self, addresses: Iterable[IPAddress]) -> tuple[str, str] | None:
        """``(reason, detail)`` if any of a host's addresses may not be requested, else None."""
        for address in addresses:
            if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
                address = address.ipv4_mapped
            for network in (*ALWAYS_BLOCKED, *self.blocked):
                if address.version == network.version and address in network:
                    return BLOCKED, f"{address} is in {network}"
            if not self.internal_allowed and is_internal(address):
                return (
                    INTERNAL,
                    f"{address} is not a public address and the crawl did not start on one",
                )
        return None
