"""The identity of a site: scheme + host + port, as robots.txt and politeness see it.

Every per-site structure in webrobot (robots.txt cache, download slot, budgets,
report rows) is keyed by :func:`site_key`, so two ports on one host are two sites
and ``http://a/`` and ``http://a:80/`` are one.
"""

from __future__ import annotations

from urllib.parse import ParseResult, SplitResult, urlsplit

DEFAULT_PORTS = {"http": 80, "https": 443}


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


def site_key(url: str) -> str:
    """``'HTTP://Example.COM/a'`` -> ``'http://example.com:80'``."""
    return site_key_from_parts(urlsplit(url))


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
