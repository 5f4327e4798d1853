"""Learn which hosts moved to https, and ask them over https from then on.

A host is known to be https-only once it has

* answered an ``http`` URL with a redirect to the same URL over ``https``
  (same host name, path and query; the port may change: ``http://h/x`` ->
  ``https://h/x``, or ``http://h:8080/x`` -> ``https://h:8443/x``), or
* sent ``Strict-Transport-Security`` with a ``max-age`` above 0 over https
  (RFC 6797: its http URLs are asked on port 443, or on their own port when it
  is not 80). ``max-age=0`` forgets the host, as browsers do.

From then on :meth:`UpgradeRules.upgrade` turns each of its ``http`` URLs into
the ``https`` one before any request, so a site that moved to TLS costs about
one request per page instead of two, and the two forms of one URL are fetched
once. Browsers (HSTS), wget, wget2 and curl (HSTS stores) and Screaming Frog
(which rewrites the http links of a host known to be https-only) do the same.

Pure logic: no Scrapy, no I/O.
"""

from __future__ import annotations

import re
from collections import OrderedDict
from urllib.parse import SplitResult, urlsplit, urlunsplit

HTTP_PORT, HTTPS_PORT = 80, 443
REDIRECT, HSTS = "redirect", "hsts"
_MAX_AGE = re.compile(r"(?:^|;)\s*max-age\s*=\s*\"?(\d+)\"?\s*(?:;|$)", re.IGNORECASE)


def _authority(parts: SplitResult, default: int) -> tuple[str, int] | None:
    host = (parts.hostname or "").lower().rstrip(".")
    try:
        port = parts.port or default
    except ValueError:
        return None
    return (host, port) if host else None


def hsts_max_age(value: str) -> int | None:
    """The ``max-age`` of a ``Strict-Transport-Security`` value, ``None`` if it has none."""
    match = _MAX_AGE.search(value)
    return int(match.group(1)) if match else None


class UpgradeRules:
    """Hosts (``(name, http port)``) known to be https-only, and their https port.

    Up to ``max_hosts`` are remembered (least recently learnt forgotten)."""

    def __init__(self, max_hosts: int = 100_000) -> None:
        self.max_hosts = max_hosts
        self._https_port: OrderedDict[tuple[str, int], int] = OrderedDict()
        self._http_port: dict[tuple[str, int], int] = {}  # (name, https port) -> http port

    def __len__(self) -> int:
        return len(self._https_port)

    def _learn(self, http: tuple[str, int], https_port: int) -> bool:
        known = self._https_port.get(http) == https_port
        self._https_port[http] = https_port
        self._https_port.move_to_end(http)
        self._http_port[(http[0], https_port)] = http[1]
        if self.max_hosts > 0 and len(self._https_port) > self.max_hosts:
            (name, _), port = self._https_port.popitem(last=False)
            self._http_port.pop((name, port), None)
        return not known

    def learn_redirect(self, source: str, target: str) -> bool:
        """``source`` (http) answered with a redirect to ``target``; ``True`` when this
        taught a new upgrade (the same URL over https)."""
        old, new = urlsplit(source), urlsplit(target)
        if old.scheme.lower() != "http" or new.scheme.lower() != "https":
            return False
        http, https = _authority(old, HTTP_PORT), _authority(new, HTTPS_PORT)
        if http is None or https is None or http[0] != https[0]:
            return False
        if (old.path or "/") != (new.path or "/") or old.query != new.query:
            return False
        return self._learn(http, https[1])

    def learn_hsts(self, url: str, value: str) -> bool:
        """An https response of ``url`` sent ``Strict-Transport-Security: value``;
        ``True`` when this taught a new upgrade."""
        parts = urlsplit(url)
        if parts.scheme.lower() != "https":
            return False  # RFC 6797: ignored over http
        https = _authority(parts, HTTPS_PORT)
        age = hsts_max_age(value)
        if https is None or age is None:
            return False
        name, port = https
        # http://h/ (80) goes to https://h/ (443); another port keeps its number.
        http = (name, HTTP_PORT if port == HTTPS_PORT else port)
        if age == 0:
            known = self._https_port.pop(http) if http in self._https_port else None
            if known is not None:
                self._http_port.pop((name, known), None)
            return False
        return self._learn(http, HTTPS_PORT if port == HTTPS_PORT else port)

    def upgrade(self, url: str) -> str | None:
        """The https form of ``url`` when its host is known to be https-only, else ``None``."""
        return _switch(url, "http", HTTP_PORT, self._https_port, "https", HTTPS_PORT)

    def downgrade(self, url: str) -> str | None:
        """The http URL whose upgrade ``url`` is (an https URL of a host known to be
        https-only), else ``None``: the scope counts the two forms as one site."""
        return _switch(url, "https", HTTPS_PORT, self._http_port, "http", HTTP_PORT)


def _switch(
    url: str,
    scheme: str,
    default_port: int,
    ports: dict[tuple[str, int], int],
    to_scheme: str,
    to_default_port: int,
) -> str | None:
    """``url`` (of ``scheme``) under ``to_scheme`` on the port ``ports`` names for its
    host and port, user info, path, query and fragment kept; ``None`` when it names none."""
    if not ports or url[: len(scheme) + 1].lower() != scheme + ":":
        return None
    parts = urlsplit(url)
    authority = _authority(parts, default_port)
    if authority is None:
        return None
    port = ports.get(authority)
    if port is None:
        return None
    name = f"[{authority[0]}]" if ":" in authority[0] else authority[0]
    netloc = name if port == to_default_port else f"{name}:{port}"
    if parts.username is not None:
        netloc = parts.netloc.rpartition("@")[0] + "@" + netloc
    return urlunsplit((to_scheme, netloc, parts.path, parts.query, parts.fragment))
