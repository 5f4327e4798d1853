"""The crawl report (``report.json``, drawn as ``report.html`` by
:mod:`webrobot.report.html`): each site's row made from its tally, the totals, the
health flags; and where the report files go.

Pure: no Scrapy, no I/O; epoch seconds are passed in for the timestamps shown to people.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Collection, Iterable, Mapping
from datetime import UTC, datetime
from typing import Any
from urllib.parse import unquote, urlsplit

from webrobot.report.health import HealthThresholds, check_health
from webrobot.report.kinds import KINDS
from webrobot.report.model import CrawlTally, SiteTally


def iso(epoch: float | None) -> str | None:
    if epoch is None:
        return None
    return datetime.fromtimestamp(epoch, UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def site_report(tally: SiteTally, crawl: CrawlTally, now: float) -> dict[str, Any]:
    robots = tally.robots
    deferred = tally.deferred_seconds
    if tally.deferred_from is not None:
        deferred += max(0.0, min(now, tally.deferred_until) - tally.deferred_from)
    return {
        "crawled": tally.crawled,
        "robots": {
            "fetches": robots.fetches,
            "status": robots.status,
            "outcome": robots.outcome,
            "resolved": robots.resolved,
            "rules": robots.rules,
            "fetched_at": iso(robots.fetched_at),
            "expires": iso(robots.expires),
            "crawl_delay": robots.crawl_delay,
            "errors": dict(sorted(robots.errors.items())),
        },
        "requested": tally.requests,
        "downloaded": tally.responses - tally.unchanged,
        "requests": _by_kind(tally.sent),
        "responses": _by_kind(tally.received),
        "unchanged": tally.unchanged,
        "items": tally.items,
        "items_dropped": tally.items_dropped,
        "duplicates": crawl.flag_count(tally, "duplicate"),
        "noindex": crawl.flag_count(tally, "noindex"),
        "nofollow": crawl.flag_count(tally, "nofollow"),
        "refused": dict(sorted(tally.refused.items(), key=lambda kv: (-kv[1], kv[0]))),
        "errors": dict(sorted(tally.errors.items(), key=lambda kv: (-kv[1], kv[0]))),
        "failed": tally.failed,
        "fetches": tally.fetches,
        "error_rate": round(tally.failed / tally.fetches, 4) if tally.fetches else 0.0,
        "status": {str(code): n for code, n in sorted(tally.status.items())},
        "bytes": tally.bytes,
        "delay": tally.delay,
        "deferrals": tally.deferrals,
        "deferred_seconds": round(deferred, 3),
        "frontier": tally.frontier,
        "first_request_after": None if tally.first_at is None else round(tally.first_at, 3),
        "last_response_after": None if tally.last_at is None else round(tally.last_at, 3),
    }


def _by_kind(counts: Mapping[str, int]) -> dict[str, int]:
    """Counts by fetch kind, in :data:`~webrobot.report.kinds.KINDS` order, zeros left out."""
    order = [k for k in KINDS if k in counts] + sorted(set(counts) - set(KINDS))
    return {kind: counts[kind] for kind in order if counts[kind]}


_SUMMED = ("requested", "downloaded", "unchanged", "fetches", "items", "items_dropped",
           "duplicates", "noindex", "nofollow", "failed", "bytes", "deferrals",
           "deferred_seconds", "frontier")  # fmt: skip


def totals(
    sites: Mapping[str, Mapping[str, Any]], given_up: Iterable[Mapping[str, Any]] = ()
) -> dict[str, Any]:
    """The sums of the ``sites`` rows; ``refused`` also counts the URLs refused on the
    sites of hosts given up as dead (``given_up``: their rows, not among ``sites``)."""
    out: dict[str, Any] = {name: 0 for name in _SUMMED}
    refused: Counter[str] = Counter()
    for row in given_up:
        refused.update(row["refused"])
    errors: Counter[str] = Counter()
    status: Counter[str] = Counter()
    requests: Counter[str] = Counter()
    responses: Counter[str] = Counter()
    for row in sites.values():
        for name in _SUMMED:
            out[name] += row[name]
        requests.update(row["requests"])
        responses.update(row["responses"])
        refused.update(row["refused"])
        errors.update(row["errors"])
        status.update(row["status"])
    out["deferred_seconds"] = round(out["deferred_seconds"], 3)
    out["sites"] = len(sites)
    out["sites_crawled"] = sum(1 for row in sites.values() if row["crawled"])
    # Sites that had pages requested (the others only had their robots.txt asked, or waited).
    out["sites_with_pages"] = sum(1 for row in sites.values() if row["requested"])
    out["robots_fetches"] = sum(row["robots"]["fetches"] for row in sites.values())
    out["refused"] = dict(sorted(refused.items(), key=lambda kv: (-kv[1], kv[0])))
    out["errors"] = dict(sorted(errors.items(), key=lambda kv: (-kv[1], kv[0])))
    out["status"] = dict(sorted(status.items(), key=lambda kv: int(kv[0])))
    out["requests"] = _by_kind(requests)
    out["responses"] = _by_kind(responses)
    out["error_rate"] = round(out["failed"] / out["fetches"], 4) if out["fetches"] else 0.0
    return out


def build_report(
    crawl: CrawlTally,
    now: float,
    limits: HealthThresholds,
    meta: Mapping[str, Any],
    leave_out: Collection[str] = (),
) -> dict[str, Any]:
    """The whole report.json document; ``meta`` adds spider, times, finish reason.
    ``leave_out``: site keys that are not sites of the crawl (hosts given up as dead
    of which only robots.txt was asked: :mod:`webrobot.report.givenup`)."""
    sites = {
        key: site_report(t, crawl, now)
        for key, t in sorted(crawl.sites.items())
        if key not in leave_out
    }
    given_up = [site_report(crawl.sites[key], crawl, now) for key in leave_out]
    flags = check_health(sites, limits)
    return {
        **meta,
        "health": {
            "ok": not flags,
            "flags": flags,
            "thresholds": {
                "max_error_rate": limits.max_error_rate,
                "max_trap_refusals": limits.max_trap_refusals,
                "robots_required": limits.robots_required,
            },
        },
        "totals": totals(sites, given_up),
        "sites": sites,
        "failed": crawl.failed_pages,
        "failed_total": crawl.failed_total,
        "timeline": crawl.timeline.as_dict(),
    }


# -- where the report goes -----------------------------------------------------
def report_location(report_dir: str, feed_uris: Iterable[str], job: str = "") -> tuple[str, str]:
    """(folder, file name prefix) of the report files.

    ``WEBROBOT_REPORT_DIR`` if set; else next to the first local items feed
    (``out/items.jsonl`` -> ``out/items.report.json``; Scrapyd's
    ``items/<project>/<spider>/<job>.jl`` -> ``<job>.report.json``, one pair per
    job); else ``report/`` in the current folder. ``job`` (Scrapyd's job id)
    names the files where no feed does, so jobs do not overwrite each other.
    """
    prefix = f"{job}." if job else ""
    if report_dir:
        return report_dir, prefix
    for uri in feed_uris:
        path = _local_path(uri)
        if path:
            folder, _, name = path.rpartition("/")
            stem = name.rsplit(".", 1)[0] if "." in name.lstrip(".") else name
            return folder or ".", f"{stem}."
    return "report", prefix


def _local_path(uri: str) -> str | None:
    if "%(" in uri or uri in ("-", "") or uri.startswith("stdout:"):
        return None
    if uri.startswith("file://"):
        return unquote(urlsplit(uri).path) or None
    if re.match(r"^[A-Za-z][A-Za-z0-9+.-]*://", uri):
        return None  # s3://, ftp://, gs:// ...: not a local file
    return uri
