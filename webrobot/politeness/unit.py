"""What one politeness clock covers: a host (default), an IP address, or a registered domain.

``WEBROBOT_POLITENESS_UNIT``:

``host``
    the host name plus a port other than the scheme's default
    (:func:`webrobot.urls.sitekey.host_key`): ``http://h/`` and ``https://h/``
    share one clock and one download slot, as one server sees them, while
    ``h:8701`` and ``h:8702`` have their own. Heritrix's default queue key,
    Nutch's ``fetcher.queue.mode=byHost`` (the scheme left out since
    NUTCH-2623), StormCrawler's and Scrapy's download slots do the same.
``ip``
    the address the host resolves to (plus a port other than the default):
    many virtual hosts on one server get one request at a time between them.
    Nutch's ``byIP``, Heritrix's IP queue policy. The address is the one the
    network guard resolved for the request; a request it did not resolve
    (the guard off, a name that does not resolve) keeps its host's clock.
``domain``
    the registered domain (:mod:`webrobot.urls.domains`, the Public Suffix
    List): ``www.example.com`` and ``static.example.com`` share one clock.
    Nutch's ``byDomain``.

robots.txt stays per origin; each unit's Crawl-delay is the longest one of the
robots.txt files of its origins (:class:`RobotsDelays`).

Pure logic: no Scrapy, no I/O (the registered-domain function is passed in).
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable

from webrobot.urls.sitekey import split_port

HOST, IP, DOMAIN = "host", "ip", "domain"
UNITS = (HOST, IP, DOMAIN)


class PolitenessUnit:
    """:meth:`key` of a request: its host key, address or registered domain."""

    def __init__(self, unit: str = HOST, domain_of: Callable[[str], str] | None = None) -> None:
        if unit not in UNITS:
            raise ValueError(f"politeness unit {unit!r}: expected one of {', '.join(UNITS)}")
        if unit == DOMAIN and domain_of is None:
            raise ValueError("the domain unit needs a registered-domain function")
        self.unit = unit
        self.domain_of = domain_of

    def key(self, host: str, address: str | None = None) -> str:
        """``host`` is a host key (:func:`~webrobot.urls.sitekey.host_key`); ``address``
        the address it resolved to, when known."""
        if self.unit == HOST:
            return host
        if self.unit == IP:
            if not address:
                return host
            _, port = split_port(host)
            return (f"[{address}]" if ":" in address else address) + port
        name, port = split_port(host)
        if name.startswith("["):
            return host  # an IPv6 address is its own domain
        assert self.domain_of is not None
        return self.domain_of(name) + port


class RobotsDelays:
    """The robots.txt delay of each unit: the longest of its origins' robots.txt files.

    :meth:`set` records one origin's delay and returns the unit's new
    ``(delay, source)``; an origin whose robots.txt has none counts as 0."""

    def __init__(self, max_units: int = 100_000) -> None:
        self.max_units = max_units
        self._units: OrderedDict[str, dict[str, tuple[float, str]]] = OrderedDict()

    def set(
        self, unit: str, origin: str, delay: float | None, source: str | None
    ) -> tuple[float, str | None]:
        origins = self._units.get(unit)
        if origins is None:
            origins = self._units[unit] = {}
            if self.max_units > 0 and len(self._units) > self.max_units:
                self._units.popitem(last=False)
        else:
            self._units.move_to_end(unit)
        origins[origin] = (max(0.0, delay or 0.0), source or "crawl_delay")
        longest, longest_source = max(origins.values())
        return longest, (longest_source if longest > 0 else source)
