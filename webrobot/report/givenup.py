"""Hosts given up as dead in the report: which site keys are theirs, and which of
those are not sites of the crawl at all.

A host given up as dead (its name does not resolve, its port refuses:
:mod:`webrobot.urls.deadpolicy`) from which nothing was requested but its
robots.txt, such as the host of an image a page embeds, was never a site of the
crawl: it is listed once under "Hosts given up" (report.json's ``dead_hosts``),
with its robots.txt tries and the URLs refused for it, and it is not counted in
the report's ``sites``, their totals (``deferrals`` included), the hosts table,
"Sites not reached" (``held``) or the progress line's site states. A site of a
dead host from which something else was requested (a page, an image that
failed) stays a site, and the host is listed under "Hosts given up" too.

Pure: no Scrapy, no I/O.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Collection, Iterable, Mapping
from typing import Any

from webrobot.urls.deadpolicy import NO_SUCH_NAME, REFUSED, host_label, url_host


def site_labels(site: str) -> tuple[str, str]:
    """The ``dead_hosts`` spellings a site key would have: its name, given up for not
    resolving, and its ``host:port``, given up for refusing."""
    host, port = url_host(site)
    return host_label(NO_SUCH_NAME, host, port), host_label(REFUSED, host, port)


def on_dead_host(site: str, labels: Collection[str]) -> bool:
    """Is the site key ``site`` on a host of ``labels`` (``dead_hosts``' ``host``)?"""
    if not labels:
        return False
    name, port = site_labels(site)
    return name in labels or port in labels


def dead_label(site: str, labels: Collection[str]) -> str | None:
    """The ``dead_hosts`` host that ``site`` is on (None: not on a dead host)."""
    name, port = site_labels(site)
    return port if port in labels else name if name in labels else None


def fold_into_dead_hosts(
    dead_rows: Iterable[Mapping[str, Any]], sites: Mapping[str, Mapping[str, Any]]
) -> list[dict[str, Any]]:
    """``dead_hosts`` with what the crawl did of the site keys left out of ``sites``
    (``sites``: those rows, as :func:`webrobot.report.document.site_report` makes
    them): each host's site keys (``sites``), robots.txt requests
    (``robots_fetches``) and URLs refused by reason (``refused``)."""
    rows = [dict(row) for row in dead_rows]
    by_label = {str(row["host"]): row for row in rows}
    for row in rows:
        row.setdefault("sites", [])
        row.setdefault("robots_fetches", 0)
        row.setdefault("refused", {})
    for site, site_row in sorted(sites.items()):
        label = dead_label(site, by_label)
        if label is None:
            continue
        row = by_label[label]
        row["sites"] = [*row["sites"], site]
        row["robots_fetches"] += int(site_row["robots"]["fetches"])
        refused = Counter(row["refused"])
        refused.update(site_row["refused"])
        row["refused"] = dict(sorted(refused.items(), key=lambda kv: (-kv[1], kv[0])))
    return rows


def not_held(
    held: Iterable[Mapping[str, Any]], given_up: Collection[str], failing: Collection[str] = ()
) -> list[Mapping[str, Any]]:
    """``held`` (report.json's sites still held for robots.txt) without the sites on a
    host given up as dead (``given_up``, ``dead_hosts``' hosts: listed under "Hosts given
    up"), nor those on a host that failed once as dead (``failing``) and holds nothing."""
    return [
        row for row in held
        if not on_dead_host(str(row["site"]), given_up)
        and not (not row.get("requests") and on_dead_host(str(row["site"]), failing))
    ]  # fmt: skip
