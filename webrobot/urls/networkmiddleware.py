"""Never send a request to an address the robot must not reach.

:class:`NetworkGuardMiddleware` resolves each request's host (cached) and
refuses it, through :class:`~webrobot.urls.refusals.Refuser`, when any of its
addresses is refused by :class:`~webrobot.urls.netpolicy.NetworkPolicy`:
link-local and cloud-metadata addresses and ``WEBROBOT_BLOCKED_NETWORKS``
always, loopback and private addresses unless the crawl's start URLs are on
such an address. It runs first among the filters (priority 45), so it sees
start requests, links, page redirects, retries and every robots.txt request
and robots.txt redirect (those go through the downloader middlewares too).

:class:`RedirectSchemeMiddleware` refuses, before Scrapy's redirect
middleware reads it, a redirect whose ``Location`` is not http(s)
(``javascript:``, ``file:``, ``data:``...): counted, logged, and the 3xx
response is dropped instead of ending in a traceback.

The check is made on the addresses the host resolves to when the request
leaves (a name in ``WEBROBOT_RESOLVE`` resolves to its addresses there, as
the download's resolver, :mod:`webrobot.urls.resolver`, resolves it); a host whose records change between this look-up and the download's
own (DNS rebinding) is not caught. A host that does not resolve passes: the
download fails on it anyway. A name under ``.invalid`` has no address without a
DNS query (:func:`~webrobot.urls.hostmap.never_resolves`), as in the resolver.
"""

from __future__ import annotations

import logging
import socket
from collections import OrderedDict
from typing import TYPE_CHECKING
from urllib.parse import urljoin, urlsplit

from scrapy.exceptions import NotConfigured
from scrapy.utils.defer import maybe_deferred_to_future
from scrapy.utils.httpobj import urlparse_cached
from twisted.internet.threads import deferToThread

from webrobot.settingsmodel.parse import ConfigError, read
from webrobot.settingsmodel.startup import setting_error
from webrobot.urls.hostmap import HostMap, not_asked
from webrobot.urls.netpolicy import (
    IPAddress,
    NetworkPolicy,
    NetworkSettingError,
    as_address,
    is_internal,
    parse_networks,
)
from webrobot.urls.refusals import Refuser
from webrobot.urls.resolver import host_map, use_table

if TYPE_CHECKING:
    from typing import Self

    from scrapy import Request
    from scrapy.crawler import Crawler
    from scrapy.http import Response

logger = logging.getLogger(__name__)

#: Host names whose addresses are remembered (then the oldest is forgotten).
RESOLVED_REMEMBERED = 10_000
#: Private request meta key: the first address the request's host resolved to
#: (the ``ip`` politeness unit groups requests by it).
RESOLVED_ADDRESS = "_webrobot_address"
REDIRECT_SCHEME = "redirect_scheme"


def _resolve(host: str) -> list[IPAddress]:
    try:
        infos = socket.getaddrinfo(host, None, proto=socket.IPPROTO_TCP)
    except (OSError, UnicodeError):
        return []
    addresses = []
    for info in infos:
        address = as_address(str(info[4][0]))
        if address is not None:
            addresses.append(address)
    return addresses


class NetworkGuardMiddleware:
    """Refuses requests to addresses the robot must not reach: link-local, metadata, blocked and
    private networks."""

    def __init__(self, crawler: Crawler) -> None:
        settings = crawler.settings
        if not read(settings, "WEBROBOT_NETWORK_GUARD_ENABLED"):
            raise NotConfigured("WEBROBOT_NETWORK_GUARD_ENABLED is off")
        try:
            self.blocked = parse_networks(read(settings, "WEBROBOT_BLOCKED_NETWORKS"))
        except NetworkSettingError as exc:
            error = ConfigError("settings", "WEBROBOT_BLOCKED_NETWORKS", str(exc).split(": ", 1)[1])
            raise setting_error(crawler, error) from None
        try:
            self.hosts = host_map(settings)
        except ValueError as exc:
            raise setting_error(crawler, exc) from None
        if self.hosts and not use_table(self.hosts, settings):
            logger.warning(
                "WEBROBOT_RESOLVE is set but the downloads resolve names through %s: set "
                "TWISTED_DNS_RESOLVER = 'webrobot.urls.resolver.MappedResolver' (the webrobot "
                "project does); until then the table is not used",
                settings.get("TWISTED_DNS_RESOLVER"),
            )
            self.hosts = HostMap()
        self.table_only = read(settings, "WEBROBOT_RESOLVE_ONLY")
        self.crawler = crawler
        self.refuser = Refuser(crawler)
        self.policy: NetworkPolicy | None = None
        self._resolved: OrderedDict[str, list[IPAddress]] = OrderedDict()

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> Self:
        return cls(crawler)

    async def _addresses(self, host: str) -> list[IPAddress]:
        literal = as_address(host)
        if literal is not None:
            return [literal]
        mapped = self.hosts.lookup(host) if self.hosts else None
        if mapped is not None:
            return [a for a in map(as_address, mapped) if a is not None]
        if not_asked(host, table_only=self.table_only):
            return []
        cached = self._resolved.get(host)
        if cached is not None:
            self._resolved.move_to_end(host)
            return cached
        addresses: list[IPAddress] = await maybe_deferred_to_future(deferToThread(_resolve, host))
        self._resolved[host] = addresses
        if len(self._resolved) > RESOLVED_REMEMBERED:
            self._resolved.popitem(last=False)
        return addresses

    async def _policy(self) -> NetworkPolicy:
        if self.policy is None:
            internal = False
            for url in getattr(self.crawler.spider, "start_urls", None) or ():
                host = urlsplit(str(url)).hostname
                if host and any(is_internal(a) for a in await self._addresses(host)):
                    internal = True
                    break
            self.policy = NetworkPolicy(self.blocked, internal_allowed=internal)
            if internal:
                logger.info(
                    "The start URLs are on a private network: the crawl may request private addresses"
                )
        return self.policy

    async def process_request(self, request: Request) -> None:
        parts = urlparse_cached(request)
        if parts.scheme not in ("http", "https") or not parts.hostname:
            return
        policy = await self._policy()
        addresses = await self._addresses(parts.hostname)
        if (
            not policy.internal_allowed and request.meta.get("is_start_request")
            and "redirect_urls" not in request.meta and any(is_internal(a) for a in addresses)
        ):  # fmt: skip
            # A start request (seeds of a shared crawl too) on a private network: stay inside.
            self.policy = policy = NetworkPolicy(self.blocked, internal_allowed=True)
            logger.info(
                "A start URL is on a private network: the crawl may request private addresses"
            )
        refusal = policy.refusal(addresses)
        if refusal is not None:
            reason, detail = refusal
            raise self.refuser.refuse(request, reason, f"{parts.hostname}: {detail}")
        if addresses:
            request.meta[RESOLVED_ADDRESS] = str(addresses[0])
        else:  # a redirect copies its source's meta
            request.meta.pop(RESOLVED_ADDRESS, None)


class RedirectSchemeMiddleware:
    """Refuse 3xx answers that point outside http(s) before they are followed."""

    def __init__(self, crawler: Crawler) -> None:
        self.crawler = crawler
        self.refuser = Refuser(crawler)

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> Self:
        return cls(crawler)

    def process_response(self, request: Request, response: Response) -> Response:
        if not 300 <= response.status < 400 or request.meta.get("dont_redirect"):
            return response
        location = response.headers.get(b"Location")
        if not location:
            return response
        target = location.decode("latin-1").strip()
        try:
            scheme = urlsplit(urljoin(request.url, target)).scheme.lower()
        except ValueError:
            scheme = "invalid"
        if scheme in ("http", "https"):
            return response
        raise self.refuser.refuse(request, REDIRECT_SCHEME, f"redirect to {target[:100]!r}")
