"""What the crawl learnt about each host's front door, for the report and the progress line:
which hosts moved to https (and how it was learnt), how many of their URLs were
asked over https instead of http, and the certificate problems each https
origin showed. Pure: no Scrapy, no I/O."""

from __future__ import annotations

from collections import Counter


class HostNotes:
    """Per host (:func:`webrobot.urls.sitekey.host_key`), at most ``max_hosts`` of each kind."""

    def __init__(self, max_hosts: int = 100_000) -> None:
        self.max_hosts = max_hosts
        self.learned: dict[str, str] = {}  # host -> "redirect" | "hsts"
        self.upgraded: Counter[str] = Counter()
        self.tls: dict[str, set[str]] = {}  # host -> problem kinds

    def _room(self, table: dict[str, object] | Counter[str], host: str) -> bool:
        return host in table or self.max_hosts <= 0 or len(table) < self.max_hosts

    def learn(self, host: str, how: str) -> None:
        if self._room(self.learned, host):  # type: ignore[arg-type]
            self.learned.setdefault(host, how)

    def upgrade(self, host: str) -> None:
        if self._room(self.upgraded, host):
            self.upgraded[host] += 1

    def tls_problems(self, host: str, kinds: tuple[str, ...]) -> None:
        if kinds and self._room(self.tls, host):  # type: ignore[arg-type]
            self.tls.setdefault(host, set()).update(kinds)

    def __bool__(self) -> bool:
        return bool(self.learned or self.upgraded or self.tls)
