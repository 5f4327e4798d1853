"""The report's hosts table and the progress line's hosts part: per host, the
schemes and origins seen, whether it moved to https (and how that was learnt),
the URLs asked over https instead of http, and its certificate problems.
Pure: no Scrapy, no I/O."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any
from urllib.parse import urlsplit

from webrobot.urls.hostnotes import HostNotes
from webrobot.urls.sitekey import host_key


def hosts_report(origins: Iterable[str], notes: HostNotes) -> list[dict[str, Any]]:
    """One row per host, sorted by host name; ``origins`` are the site keys of the
    report's sites that were requested (a host only refused has no row)."""
    by_host: dict[str, set[str]] = {}
    for origin in origins:
        by_host.setdefault(host_key(origin), set()).add(origin)
    for host in (*notes.learned, *notes.upgraded, *notes.tls):
        by_host.setdefault(host, set())
    rows = []
    for host, seen in sorted(by_host.items()):
        rows.append({
            "host": host,
            "schemes": sorted({urlsplit(o).scheme for o in seen}),
            "origins": sorted(seen),
            "https_only": notes.learned.get(host),
            "upgraded": notes.upgraded.get(host, 0),
            "tls_problems": sorted(notes.tls.get(host, ())),
        })  # fmt: skip
    return rows


def refused_only_hosts(origins: Iterable[str], rows: Iterable[dict[str, Any]]) -> int:
    """Hosts among the report's site keys ``origins`` that have no row in the hosts
    table ``rows``: links to them were only refused, never requested."""
    return len({host_key(origin) for origin in origins} - {row["host"] for row in rows})


def hosts_progress(hosts: int, notes: HostNotes) -> str:
    """``hosts: 3 (2 moved to https, 41 URLs upgraded, 1 with TLS problems)``; empty
    when nothing was learnt about any front door."""
    if not notes:
        return ""
    parts = []
    if notes.learned:
        parts.append(f"{len(notes.learned)} moved to https")
    if notes.upgraded:
        parts.append(f"{sum(notes.upgraded.values())} URLs upgraded")
    if notes.tls:
        parts.append(f"{len(notes.tls)} with TLS problems")
    return f"hosts: {hosts} ({', '.join(parts)})"
