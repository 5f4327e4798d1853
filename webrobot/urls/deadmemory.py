"""Hosts found dead, remembered from one crawl to the next: for how long, and which
URLs a remembered host covers. Pure: no Scrapy, no I/O, no clock (the time is
handed in).

A page's requisites (its images, stylesheets, scripts) often live on other hosts,
and on an old page many of those hosts are gone. Asking each one again costs a
robots.txt fetch, its tries and the wait of whatever waits on it. So a host given
up as dead (:mod:`webrobot.urls.deadpolicy` decides when, and names it with
:func:`~webrobot.urls.deadpolicy.host_label`) is remembered: later requisites on it
are not asked, and are listed as not fetched with the reason. A name that does not
resolve is dead on every port (:data:`~webrobot.urls.deadpolicy.NO_SUCH_NAME`); a
refused connection only on its port (:data:`~webrobot.urls.deadpolicy.REFUSED`).

The memory outlives the crawl (the glue saves :meth:`DeadHostMemory.to_json` to a
file) for ``expiry`` seconds from when the host was last found dead: a host that
comes back is asked again after that.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from webrobot.urls.deadpolicy import NO_SUCH_NAME, REFUSED, host_label, url_host

#: The kinds of dead host remembered.
KINDS = (NO_SUCH_NAME, REFUSED)
#: The version of :meth:`DeadHostMemory.to_json`'s layout.
FORMAT = 1


def host_keys(url: str) -> tuple[str, str] | None:
    """The two names ``url``'s host may be remembered under: as a name that does
    not resolve (``host``) and as a refused port (``host:port``); ``None`` for a
    URL without a usable host and port."""
    host, port = url_host(url)
    if not host or port is None:
        return None
    return host_label(NO_SUCH_NAME, host, port), host_label(REFUSED, host, port)


@dataclass
class RememberedHost:
    """One host (or host and port) found dead."""

    reason: str
    #: Unix time it was last found dead.
    found: float
    #: What the error said, for the log and the report.
    detail: str = ""
    #: Whether it was read from an earlier crawl's memory (not found by this one).
    remembered: bool = False


class DeadHostMemory:
    """Hosts found dead, each for ``expiry`` seconds (0: for ever), at most ``max_hosts``
    (the oldest forgotten first)."""

    def __init__(self, expiry: float, max_hosts: int = 100_000) -> None:
        self.expiry = expiry
        self.max_hosts = max_hosts
        self.hosts: dict[str, RememberedHost] = {}

    def _key(self, url: str, reason: str) -> str | None:
        keys = host_keys(url)
        if keys is None:
            return None
        return keys[0] if reason == NO_SUCH_NAME else keys[1]

    def found(self, url: str, reason: str, now: float, detail: str = "") -> bool:
        """Note that ``url``'s host is dead for ``reason``; ``True`` if it was not
        known dead already (a new finding to count and log)."""
        if reason not in KINDS:
            raise ValueError(f"not a dead host's reason: {reason!r}")
        key = self._key(url, reason)
        if key is None:
            return False
        known = self.hosts.pop(key, None)
        self.hosts[key] = RememberedHost(reason, now, detail[:300])
        if len(self.hosts) > self.max_hosts > 0:
            del self.hosts[next(iter(self.hosts))]
        return known is None or known.remembered or not self._alive(known, now)

    def _alive(self, host: RememberedHost, now: float) -> bool:
        return self.expiry <= 0 or now - host.found < self.expiry

    def lookup(self, url: str, now: float) -> RememberedHost | None:
        """What is known of ``url``'s host, if it counts as dead at ``now``."""
        keys = host_keys(url)
        if keys is None:
            return None
        for key in keys:
            host = self.hosts.get(key)
            if host is not None:
                if self._alive(host, now):
                    return host
                del self.hosts[key]
        return None

    def found_now(self) -> dict[str, RememberedHost]:
        """The hosts this crawl found dead (not only remembered)."""
        return {key: host for key, host in self.hosts.items() if not host.remembered}

    def to_json(self, now: float) -> dict[str, Any]:
        """What to keep for the next crawl: the hosts still dead at ``now``."""
        return {
            "format": FORMAT,
            "hosts": {
                key: {"reason": host.reason, "found": host.found, "detail": host.detail}
                for key, host in self.hosts.items()
                if self._alive(host, now)
            },
        }

    def load(self, data: Any, now: float) -> int:
        """Take the hosts of an earlier crawl's :meth:`to_json` that are still dead at
        ``now``; returns how many. Anything unreadable is skipped, never raised: a
        damaged memory costs the crawl a few questions asked again, nothing more."""
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            return 0
        hosts = data.get("hosts")
        if not isinstance(hosts, dict):
            return 0
        taken = 0
        for key, entry in hosts.items():
            if not isinstance(key, str) or not isinstance(entry, dict) or key in self.hosts:
                continue
            reason, found = entry.get("reason"), entry.get("found")
            if reason not in KINDS or not isinstance(found, (int, float)):
                continue
            host = RememberedHost(str(reason), float(found), str(entry.get("detail") or ""), True)
            if self._alive(host, now) and found <= now + 60:
                self.hosts[key] = host
                taken += 1
        return taken
