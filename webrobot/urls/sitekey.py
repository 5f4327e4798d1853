"""The two identities of a site: its origin (scheme + host + port) and its host.

* The **origin** (:func:`site_key`, ``http://example.com:80``) is what one
  robots.txt rules (RFC 9309: a robots.txt is for its own scheme, host and
  port), so the robots.txt cache, fetches and decisions are keyed by it; so are
  the report's rows of robots.txt outcomes and the trap rules.
* The **host** (:func:`host_key`, ``example.com``; ``example.com:8080`` when
  the port is not the scheme's default; ``[::1]:8000``) is one server as a
  person sees it: ``http://example.com/`` and ``https://example.com/`` are one
  host, ``http://h:8701`` and ``http://h:8702`` two (another port is usually
  another service). Politeness (download slots, the clock, Crawl-delay), scope
  and budgets use it, as Heritrix keys its queues, Nutch its fetch queues and
  Scrapy its download slots.

Every component asks for the site of each request it sees, so the key is
computed once per request and kept with it (:func:`request_site`, a weak
mapping like Scrapy's ``urlparse_cached``: a request's URL cannot change), and
:func:`site_key` remembers the key of each ``scheme://authority`` prefix it has
parsed, so most URLs are not parsed at all. Pure: no Scrapy, no I/O.
"""

from __future__ import annotations

import re
from typing import Protocol
from urllib.parse import ParseResult, SplitResult, urlsplit
from weakref import WeakKeyDictionary

DEFAULT_PORTS = {"http": 80, "https": 443}
#: Origin prefixes remembered by :func:`site_key` (then forgotten all at once).
ORIGINS_REMEMBERED = 10_000
#: ``scheme://authority`` exactly as ``urlsplit`` cuts it, when nothing that
#: ``urlsplit`` strips or removes (C0 controls, spaces) is in it; the prefix
#: must end the URL or be followed by the path, query or fragment.
_ORIGIN = re.compile(r"[A-Za-z][A-Za-z0-9+.-]*://[^/?#\x00-\x20\x7f]*(?=[/?#]|\Z)")
_by_origin: dict[str, str] = {}


_host_by_origin: dict[str, str] = {}


class HasUrl(Protocol):
    @property
    def url(self) -> str: ...


def site_key_from_parts(parts: SplitResult | ParseResult) -> str:
    scheme = parts.scheme.lower()
    host = (parts.hostname or "").lower()
    if host.endswith(".") and not host.endswith(".."):
        host = host[:-1]  # example.com. is example.com, fully qualified
    try:
        port = parts.port
    except ValueError:
        port = None
    if port is None:
        port = DEFAULT_PORTS.get(scheme, 0)
    if ":" in host:  # IPv6 literal
        host = f"[{host}]"
    return f"{scheme}://{host}:{port}"


def host_key_from_parts(parts: SplitResult | ParseResult) -> str:
    """The host name, plus ``:port`` when the port is not the scheme's default."""
    scheme = parts.scheme.lower()
    host = (parts.hostname or "").lower()
    if host.endswith(".") and not host.endswith(".."):
        host = host[:-1]
    try:
        port = parts.port
    except ValueError:
        port = None
    if ":" in host:  # IPv6 literal
        host = f"[{host}]"
    if port is None or port == DEFAULT_PORTS.get(scheme, 0):
        return host
    return f"{host}:{port}"


def split_port(host: str) -> tuple[str, str]:
    """``'a:8080'`` -> ``('a', ':8080')``; ``'[::1]:81'`` -> ``('[::1]', ':81')``; ``'a'`` -> ``('a', '')``."""
    if host.startswith("["):
        end = host.find("]") + 1
        return host[:end], host[end:]
    name, colon, port = host.rpartition(":")
    return (name, colon + port) if colon else (host, "")


def host_key(url: str) -> str:
    """``'HTTPS://Example.COM:443/a'`` -> ``'example.com'``; ``'http://a:8080/'`` -> ``'a:8080'``."""
    match = _ORIGIN.match(url)
    if match is None:
        return host_key_from_parts(urlsplit(url))
    origin = match.group()
    key = _host_by_origin.get(origin)
    if key is None:
        key = host_key_from_parts(urlsplit(origin))
        if len(_host_by_origin) >= ORIGINS_REMEMBERED:
            _host_by_origin.clear()
        _host_by_origin[origin] = key
    return key


def site_host(site: str) -> str:
    """The host of an origin key: ``'https://example.com:443'`` -> ``'example.com'``."""
    return host_key(site)


def site_key(url: str) -> str:
    """``'HTTP://Example.COM/a'`` -> ``'http://example.com:80'``."""
    match = _ORIGIN.match(url)
    if match is None:
        return site_key_from_parts(urlsplit(url))
    origin = match.group()
    key = _by_origin.get(origin)
    if key is None:
        key = site_key_from_parts(urlsplit(origin))
        if len(_by_origin) >= ORIGINS_REMEMBERED:
            _by_origin.clear()
        _by_origin[origin] = key
    return key


_by_request: WeakKeyDictionary[HasUrl, str] = WeakKeyDictionary()


def request_site(request: HasUrl) -> str:
    """The site key of a request (or response), computed once per object."""
    key = _by_request.get(request)
    if key is None:
        key = _by_request[request] = site_key(request.url)
    return key


_host_by_request: WeakKeyDictionary[HasUrl, str] = WeakKeyDictionary()


def request_host(request: HasUrl) -> str:
    """The host key of a request (or response), computed once per object."""
    key = _host_by_request.get(request)
    if key is None:
        key = _host_by_request[request] = host_key(request.url)
    return key


def robots_url(url: str) -> str:
    """The robots.txt URL of the site ``url`` belongs to (default port left out)."""
    parts = urlsplit(url)
    scheme = parts.scheme.lower()
    netloc = (parts.hostname or "").lower()
    if ":" in netloc:
        netloc = f"[{netloc}]"
    try:
        port = parts.port
    except ValueError:
        port = None
    if port is not None and port != DEFAULT_PORTS.get(scheme):
        netloc = f"{netloc}:{port}"
    return f"{scheme}://{netloc}/robots.txt"
