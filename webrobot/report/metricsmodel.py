"""The crawl's Prometheus metrics: every metric declared once (name, type, help,
labels), and their values read from what the crawl already keeps, its stats and
its report tally, when a scrape asks. Nothing is counted per request for them.

Names follow Prometheus's rules: ``webrobot_`` first, base units (``_seconds``,
``_bytes``), ``_total`` for counters. Label values are bounded sets (HTTP status
codes, refusal reasons, robots.txt outcomes, site states, lease outcomes): no
URL and no host is ever a label value.

Pure: no Scrapy, no prometheus-client, no I/O (the glue is
:mod:`webrobot.report.metrics`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from webrobot.report.model import SITE_STATES, CrawlTally

Labels = tuple[tuple[str, str], ...]


@dataclass(frozen=True, slots=True)
class Metric:
    name: str  # the exposed name (a counter's ends in _total)
    kind: str  # "counter" or "gauge"
    doc: str
    labels: tuple[str, ...] = ()
    #: where it is only exposed: "" (always), "redis" (a shared crawl),
    #: "index" (the full-text index is on)
    only: str = ""


def _c(name: str, doc: str, *labels: str, only: str = "") -> Metric:
    return Metric(f"webrobot_{name}_total", "counter", doc, labels, only)


def _g(name: str, doc: str, *labels: str, only: str = "") -> Metric:
    return Metric(f"webrobot_{name}", "gauge", doc, labels, only)


METRICS: tuple[Metric, ...] = (
    _g("crawl_start_time_seconds", "When the spider opened (Unix time)."),
    _c("requests", "Page requests sent (each retry and redirect hop counts)."),
    _c("pages", "Page responses received, any status (304 included)."),
    _c("responses", "Page responses by HTTP status code.", "status"),
    _c("request_failures", "Page requests that got no response or a status of 400 or more."),
    _c("items", "Items scraped."),
    _c("items_dropped", "Items dropped by a pipeline (duplicates, noindex pages)."),
    _c("received_bytes", "Body bytes received (robots.txt included)."),
    _c(
        "refusals",
        "URLs refused, by reason (offsite, robots_txt, depth, trap defences...).",
        "reason",
    ),
    _c("robots_txt_fetches", "robots.txt attempts (a redirect chain is one)."),
    _c(
        "robots_txt_outcomes",
        "Sites' robots.txt decisions: rules, unavailable, forbidden, unreachable.",
        "outcome",
    ),
    _c(
        "robots_txt_deferrals",
        "Failed robots.txt attempts after which a site's requests stayed held.",
    ),
    _g(
        "sites",
        "Sites by state: active, waiting_robots (robots.txt in flight), deferred, exhausted.",
        "state",
    ),
    _g(
        "site_deferred_longest_seconds",
        "How long the site deferred the longest has been waiting now (0: none is deferred).",
    ),
    _g("frontier_requests", "Requests waiting in this process's frontier."),
    _g("requests_in_flight", "Requests (robots.txt included) in the downloader."),
    _c(
        "politeness_waits",
        "Request starts held back for politeness, by what set the time.",
        "source",
    ),
    _c(
        "politeness_throttled",
        "Failing answers that slowed their site down (429, 5xx, no_response).",
        "status",
    ),
    _c("index_handed", "Pages (and removals) handed to the full-text index process.", only="index"),
    _c(
        "index_applied",
        "Pages (and removals) the full-text index process has applied.",
        only="index",
    ),
    _c("index_errors", "Pages that could not be indexed, or an index that could not be opened."),
    _c("warc_records", "WARC records written, by type (request, response, revisit).", "type"),
    _c("warc_errors", "Fetches whose WARC records could not be written."),
    _c("monitor_events", "Monitor events by kind (new, changed, removed, moved, match).", "event"),
    _c(
        "monitor_webhook_failures",
        "Webhook tries of monitor events that failed (each is tried again).",
    ),
    _g(
        "redis_up",
        "1 while this worker reaches the shared crawl's Redis, 0 during an outage.",
        only="redis",
    ),
    _c("redis_outages", "Times this worker found Redis unreachable.", only="redis"),
    _c("redis_errors", "Failed Redis commands.", only="redis"),
    _g(
        "redis_leases",
        "Requests of the shared frontier this worker holds a lease on now.",
        only="redis",
    ),
    _c(
        "redis_lease_outcomes",
        "Leases by outcome: acked, expired (of dead workers, put back), lost, released, revived, "
        "strays, handed_back, dead.",
        "outcome",
        only="redis",
    ),
)
BY_NAME: dict[str, Metric] = {m.name: m for m in METRICS}


@dataclass(frozen=True, slots=True)
class LiveState:
    """What the glue reads from the running crawl besides stats and tally."""

    started: float  # epoch seconds
    frontier: int
    redis: bool = False  # a shared crawl
    redis_up: bool = True
    leases: int = 0
    index: tuple[int, int] | None = None  # (handed, applied); None: no index


def _prefixed(stats: Mapping[str, Any], prefix: str, label: str) -> dict[Labels, float]:
    out: dict[Labels, float] = {}
    for key, value in stats.items():
        if (
            key.startswith(prefix)
            and isinstance(value, int | float)
            and not isinstance(value, bool)
        ):
            rest = key[len(prefix) :]
            if rest and "/" not in rest:
                out[((label, rest),)] = float(value)
    return out


def _num(stats: Mapping[str, Any], key: str) -> float:
    value = stats.get(key, 0)
    return float(value) if isinstance(value, int | float) else 0.0


def values(
    stats: Mapping[str, Any], tally: CrawlTally, now: float, live: LiveState
) -> dict[str, dict[Labels, float]]:
    """Every metric that applies to this crawl: name -> {labels: value}. ``now``
    is seconds since the crawl started (the tally's clock)."""
    sites = tally.sites.values()
    status: dict[Labels, float] = {}
    refused: dict[Labels, float] = {}
    for site in sites:
        for code, n in site.status.items():
            key = (("status", str(code)),)
            status[key] = status.get(key, 0.0) + n
        for reason, n in site.refused.items():
            key = (("reason", reason),)
            refused[key] = refused.get(key, 0.0) + n
    longest = 0.0
    for site in sites:
        if site.deferred_from is not None and site.state(now) == "deferred":
            longest = max(longest, now - site.deferred_from)
    states = tally.states(now)
    out: dict[str, dict[Labels, float]] = {
        "webrobot_crawl_start_time_seconds": {(): live.started},
        "webrobot_requests_total": {(): float(sum(s.requests for s in sites))},
        "webrobot_pages_total": {(): float(sum(s.responses for s in sites))},
        "webrobot_responses_total": status,
        "webrobot_request_failures_total": {(): float(sum(s.failed for s in sites))},
        "webrobot_items_total": {(): float(sum(s.items for s in sites))},
        "webrobot_items_dropped_total": {(): float(sum(s.items_dropped for s in sites))},
        "webrobot_received_bytes_total": {(): float(sum(s.bytes for s in sites))},
        "webrobot_refusals_total": refused,
        "webrobot_robots_txt_fetches_total": {(): _num(stats, "webrobot/robots/fetched")},
        "webrobot_robots_txt_outcomes_total": _prefixed(
            stats, "webrobot/robots/outcome/", "outcome"
        ),
        "webrobot_robots_txt_deferrals_total": {(): _num(stats, "webrobot/robots/deferred")},
        "webrobot_sites": {(("state", s),): float(states[s]) for s in SITE_STATES},
        "webrobot_site_deferred_longest_seconds": {(): round(longest, 3)},
        "webrobot_frontier_requests": {(): float(live.frontier)},
        "webrobot_requests_in_flight": {(): float(tally.in_downloader())},
        "webrobot_politeness_waits_total": _prefixed(
            stats, "webrobot/politeness/delay_source/", "source"
        ),
        "webrobot_politeness_throttled_total": _prefixed(
            stats, "webrobot/politeness/throttled/", "status"
        ),
        "webrobot_index_errors_total": {(): _num(stats, "webrobot/index/error")},
        "webrobot_warc_records_total": _prefixed(stats, "webrobot/warc/records/", "type"),
        "webrobot_warc_errors_total": {(): _num(stats, "webrobot/warc/error")},
        "webrobot_monitor_events_total": _prefixed(stats, "webrobot/monitor/events/", "event"),
        "webrobot_monitor_webhook_failures_total": {
            (): _num(stats, "webrobot/monitor/webhook/failed")
        },
    }
    if live.index is not None:
        out["webrobot_index_handed_total"] = {(): float(live.index[0])}
        out["webrobot_index_applied_total"] = {(): float(live.index[1])}
    if live.redis:
        out["webrobot_redis_up"] = {(): 1.0 if live.redis_up else 0.0}
        out["webrobot_redis_outages_total"] = {(): _num(stats, "webrobot/redis/outages")}
        out["webrobot_redis_errors_total"] = {(): _num(stats, "webrobot/redis/error_count")}
        out["webrobot_redis_leases"] = {(): float(live.leases)}
        out["webrobot_redis_lease_outcomes_total"] = _prefixed(
            stats, "webrobot/redis/lease/", "outcome"
        )
    return out
