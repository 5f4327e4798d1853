"""Scrapy's DNS resolver with the ``WEBROBOT_RESOLVE`` table in front of it.

:class:`MappedResolver` is Scrapy's default :class:`~scrapy.resolver.CachingThreadedResolver`
(the DNS cache, ``DNS_TIMEOUT``) that answers the names of
:class:`~webrobot.urls.hostmap.HostMap` from the table, IPv4 and IPv6, and any
other name as before. The webrobot project installs it
(``TWISTED_DNS_RESOLVER`` in ``webrobot/settings.py``); with an empty table it
changes nothing, except that names under the special-use top-level domain
``.invalid`` fail at once without asking DNS, as RFC 6761 asks of resolvers
(:func:`~webrobot.urls.hostmap.never_resolves`; a name the table maps is
answered from the table). Like every Scrapy resolver it is built once per process from
the process's settings (the project's, ``-s``); a crawler's own table (a site
config's ``[settings]``, a spider's ``custom_settings``) is added to it when the
crawler starts (:func:`use_table`, called by the network guard).

Why in :mod:`webrobot.urls`: see :mod:`webrobot.urls.hostmap`; the network
guard reads the same table, so it judges the address the download connects to.

What the resolver answered for a name that failed is kept (:func:`name_answer`):
the download handlers turn every failed look-up into one "no results" error, and
a name that does not exist (``EAI_NONAME``, a name never asked) must be told from
a resolver that could not be reached (``EAI_AGAIN``, a timeout), which says nothing
about the name (:mod:`webrobot.urls.deadpolicy`).
"""

from __future__ import annotations

import ipaddress
import logging
import socket
from typing import TYPE_CHECKING, Any

from scrapy.resolver import CachingThreadedResolver, HostResolution
from scrapy.utils.misc import load_object
from twisted.internet import defer
from twisted.internet.address import IPv4Address, IPv6Address
from twisted.internet.error import DNSLookupError
from twisted.internet.interfaces import IHostnameResolver
from zope.interface import implementer  # type: ignore[import-untyped]

from webrobot.settingsmodel.parse import read
from webrobot.urls.deadpolicy import NO_SUCH_NAME
from webrobot.urls.hostmap import HostMap, HostMapError, normal_host, not_asked

if TYPE_CHECKING:
    from collections.abc import Sequence
    from typing import Self

    from scrapy.crawler import Crawler
    from twisted.internet.base import ReactorBase
    from twisted.internet.defer import Deferred

logger = logging.getLogger(__name__)


def host_map(settings: Any) -> HostMap:
    """The ``WEBROBOT_RESOLVE`` table of ``settings``; :class:`ValueError` names the setting."""
    try:
        return HostMap(read(settings, "WEBROBOT_RESOLVE"))
    except HostMapError as exc:
        raise ValueError(f"setting WEBROBOT_RESOLVE: {exc}") from None


class MappedResolver(CachingThreadedResolver):
    def __init__(
        self,
        reactor: ReactorBase,
        cache_size: int,
        timeout: float,
        hosts: HostMap,
        table_only: bool = False,
    ) -> None:
        super().__init__(reactor, cache_size, timeout)
        self.hosts = hosts
        self.table_only = table_only

    @classmethod
    def from_crawler(cls, crawler: Crawler, reactor: ReactorBase) -> Self:
        settings = crawler.settings
        try:
            hosts = host_map(settings)
        except ValueError as exc:
            # The network guard refuses to start the crawl with the same message.
            logger.error("%s", exc)
            hosts = HostMap()
        cache_size = settings.getint("DNSCACHE_SIZE") if settings.getbool("DNSCACHE_ENABLED") else 0
        table_only = read(settings, "WEBROBOT_RESOLVE_ONLY")
        return cls(reactor, cache_size, settings.getfloat("DNS_TIMEOUT"), hosts, table_only)

    def install_on_reactor(self) -> None:
        super().install_on_reactor()
        # The simple resolver gives one IPv4 address; this one gives every mapped address.
        mapped: Any = _MappedNameResolver(
            self.hosts, self.reactor.nameResolver, table_only=self.table_only
        )
        self.reactor.installNameResolver(mapped)

    def getHostByName(self, name: str, timeout: Sequence[int] = ()) -> Deferred[str]:
        addresses = _lookup(self.hosts, name)
        if addresses:
            ipv4 = [a for a in addresses if ipaddress.ip_address(a).version == 4]
            return defer.succeed((ipv4 or list(addresses))[0])
        if not_asked(name, table_only=self.table_only):
            _note_answer(name, NO_SUCH_NAME)
            return defer.fail(DNSLookupError(f"{name}: not looked up ({_why(name)})"))
        asked = super().getHostByName(name, timeout)
        asked.addCallbacks(_resolved, _not_resolved, callbackArgs=(name,), errbackArgs=(name,))
        return asked


#: What the resolver last answered for names that failed: name -> :data:`NO_SUCH_NAME`
#: or :data:`RESOLVER_FAILED` (a bounded table: the oldest names go first).
_ANSWERS: dict[str, str] = {}
_ANSWERS_KEPT = 10_000
#: The resolver could not be reached or did not answer in time: nothing is known of the name.
RESOLVER_FAILED = "resolver_failed"
#: getaddrinfo's errors that say the name does not exist (or has no address).
NO_NAME_ERRNOS = frozenset(
    code for code in (getattr(socket, n, None) for n in ("EAI_NONAME", "EAI_NODATA")) if code
)


def dns_answer(message: str) -> str | None:
    """What a failed look-up's message says: :data:`NO_SUCH_NAME` for
    ``[Errno -2] Name or service not known`` (``EAI_NONAME``, ``EAI_NODATA``) or a
    name never asked, :data:`RESOLVER_FAILED` for another resolver error
    (``EAI_AGAIN``, a timeout), None when the message is not a resolver's."""
    if any(f"[Errno {code}]" in message for code in NO_NAME_ERRNOS) or "not looked up" in message:
        return NO_SUCH_NAME
    if "[Errno " in message or "timeout error" in message:
        return RESOLVER_FAILED
    return None


def name_answer(host: str) -> str | None:
    """What the resolver answered when ``host`` last failed to resolve in this
    process: :data:`NO_SUCH_NAME`, :data:`RESOLVER_FAILED`, or None (not known)."""
    return _ANSWERS.get(normal_host(host))


def _note_answer(name: str, answer: str) -> None:
    name = normal_host(name)
    _ANSWERS.pop(name, None)
    if len(_ANSWERS) >= _ANSWERS_KEPT:
        _ANSWERS.pop(next(iter(_ANSWERS)))
    _ANSWERS[name] = answer


def _resolved(address: str, name: str) -> str:
    _ANSWERS.pop(normal_host(name), None)
    return address


def _not_resolved(failure: Any, name: str) -> Any:
    _note_answer(name, dns_answer(failure.getErrorMessage()) or RESOLVER_FAILED)
    return failure


#: Tables of crawlers (site configs, ``custom_settings``) added when they start:
#: every :class:`MappedResolver` of the process consults them too.
_CRAWLER_TABLES = HostMap()


def use_table(hosts: HostMap, settings: Any) -> bool:
    """Add a crawler's ``hosts`` to what the downloads' resolver answers; ``False`` when
    ``settings`` name another resolver (then the downloads resolve these names
    through DNS, and so must anything that judges their addresses)."""
    try:
        resolver = load_object(settings.get("TWISTED_DNS_RESOLVER") or "")
    except (ValueError, ImportError, AttributeError, NameError):
        return False
    if not (isinstance(resolver, type) and issubclass(resolver, MappedResolver)):
        return False
    _CRAWLER_TABLES.hosts.update(hosts.hosts)
    return True


def _lookup(hosts: HostMap, name: str) -> tuple[str, ...] | None:
    found = hosts.lookup(name) if hosts else None
    if found is None and _CRAWLER_TABLES:
        found = _CRAWLER_TABLES.lookup(name)
    return found


@implementer(IHostnameResolver)
class _MappedNameResolver:
    # Twisted's interfaces are zope interfaces, which mypy cannot check: Any.
    def __init__(self, hosts: HostMap, fallback: Any, *, table_only: bool = False) -> None:
        self.hosts = hosts
        self.fallback = fallback
        self.table_only = table_only

    def resolveHostName(
        self,
        resolutionReceiver: Any,
        hostName: str,
        portNumber: int = 0,
        addressTypes: Sequence[type[Any]] | None = None,
        transportSemantics: str = "TCP",
    ) -> Any:
        addresses = _lookup(self.hosts, hostName)
        if not addresses and not not_asked(hostName, table_only=self.table_only):
            return self.fallback.resolveHostName(
                resolutionReceiver, hostName, portNumber, addressTypes, transportSemantics
            )
        if not addresses:
            _note_answer(hostName, NO_SUCH_NAME)
        resolution = HostResolution(hostName)
        resolutionReceiver.resolutionBegan(resolution)
        for address in addresses or ():  # none: "no results for hostname lookup"
            kind = IPv6Address if ipaddress.ip_address(address).version == 6 else IPv4Address
            if addressTypes is None or kind in addressTypes:
                resolutionReceiver.addressResolved(kind("TCP", address, portNumber))
        resolutionReceiver.resolutionComplete()
        return resolution


def _why(name: str) -> str:
    return (
        "a special-use name that never resolves"
        if not_asked(name)
        else "WEBROBOT_RESOLVE_ONLY: only the names of WEBROBOT_RESOLVE are answered"
    )
