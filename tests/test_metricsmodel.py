"""The metrics' declarations and values (webrobot.report.metricsmodel), and the
prometheus-client collector that exposes them (webrobot.report.metrics)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from types import SimpleNamespace
from typing import Any

import pytest

from webrobot.report.metricsmodel import METRICS, LiveState, values
from webrobot.report.model import CrawlTally

prometheus_client = pytest.importorskip("prometheus_client")
from prometheus_client.parser import text_string_to_metric_families

from webrobot.report.metrics import CrawlCollector

NAME = re.compile(r"^webrobot_[a-z][a-z0-9_]*$")
#: label names whose values could be unbounded: never used
UNBOUNDED = {"url", "host", "site", "path", "domain", "template", "worker"}


def busy_tally() -> CrawlTally:
    """Two sites: a.test with 3 pages (one 404), 1 item dropped, refusals; b.test deferred."""
    tally = CrawlTally()
    for path_status in (200, 200, 404):
        tally.scheduled("a")
        tally.dequeued("a")
        tally.reached_downloader("a", robots=False)
        tally.left_downloader("a", kind="page", now=1.0)
        tally.downloaded("a", path_status, 100, kind="page", now=1.0)
    tally.scheduled("a")  # one left in the frontier
    tally.reached_downloader("a", robots=True)  # robots.txt of a in flight
    tally.downloaded("a", 200, 50, kind="robots", now=1.0)
    tally.item_scraped("a")
    tally.item_scraped("a")
    tally.item_dropped("a", "duplicate content")
    tally.refused("a", "offsite")
    tally.refused("a", "offsite")
    tally.refused("b", "robots_txt")
    tally.scheduled("b")
    tally.deferred("b", now=2.0, delay=60.0, reason="status 503")
    return tally


STATS = {
    "webrobot/robots/fetched": 4,
    "webrobot/robots/outcome/rules": 2,
    "webrobot/robots/outcome/unreachable": 1,
    "webrobot/robots/deferred": 3,
    "webrobot/politeness/delay_source/crawl_delay": 7,
    "webrobot/politeness/throttled/503": 2,
    "webrobot/warc/records/response": 5,
    "webrobot/redis/outages": 1,
    "webrobot/redis/error_count": 9,
    "webrobot/redis/lease/acked": 12,
    "webrobot/redis/lease/lost": 1,
    "webrobot/redis/worker": "host:1:abc",  # text: not a metric
    "webrobot/monitor/events/changed": 4,
    "webrobot/monitor/events/match": 1,
    "webrobot/monitor/webhook/failed": 2,
    "finish_reason": "finished",
}


def test_names_and_labels_follow_prometheus_rules() -> None:
    names = [m.name for m in METRICS]
    assert len(names) == len(set(names))
    for metric in METRICS:
        assert NAME.match(metric.name), metric.name
        assert metric.kind in ("counter", "gauge")
        assert metric.name.endswith("_total") == (metric.kind == "counter"), metric.name
        assert not set(metric.labels) & UNBOUNDED, metric.name
        assert metric.doc.endswith("."), metric.name


def test_values_read_the_tally_and_the_stats() -> None:
    tally = busy_tally()
    live = LiveState(started=1000.0, frontier=2)
    out = values(STATS, tally, 10.0, live)
    assert out["webrobot_pages_total"] == {(): 3.0}
    assert out["webrobot_requests_total"] == {(): 3.0}
    assert out["webrobot_responses_total"] == {(("status", "200"),): 2.0, (("status", "404"),): 1.0}
    assert out["webrobot_request_failures_total"] == {(): 1.0}
    assert out["webrobot_items_total"] == {(): 2.0}
    assert out["webrobot_items_dropped_total"] == {(): 1.0}
    assert out["webrobot_received_bytes_total"] == {(): 350.0}
    assert out["webrobot_refusals_total"] == {
        (("reason", "offsite"),): 2.0,
        (("reason", "robots_txt"),): 1.0,
    }
    assert out["webrobot_robots_txt_outcomes_total"] == {
        (("outcome", "rules"),): 2.0,
        (("outcome", "unreachable"),): 1.0,
    }
    assert out["webrobot_robots_txt_fetches_total"] == {(): 4.0}
    assert out["webrobot_robots_txt_deferrals_total"] == {(): 3.0}
    assert out["webrobot_sites"] == {
        (("state", "active"),): 0.0,
        (("state", "waiting_robots"),): 1.0,
        (("state", "deferred"),): 1.0,
        (("state", "exhausted"),): 0.0,
    }
    assert out["webrobot_site_deferred_longest_seconds"] == {(): 8.0}
    assert out["webrobot_frontier_requests"] == {(): 2.0}
    assert out["webrobot_requests_in_flight"] == {(): 1.0}
    assert out["webrobot_politeness_waits_total"] == {(("source", "crawl_delay"),): 7.0}
    assert out["webrobot_politeness_throttled_total"] == {(("status", "503"),): 2.0}
    assert out["webrobot_warc_records_total"] == {(("type", "response"),): 5.0}
    assert out["webrobot_monitor_events_total"] == {
        (("event", "changed"),): 4.0,
        (("event", "match"),): 1.0,
    }
    assert out["webrobot_monitor_webhook_failures_total"] == {(): 2.0}
    assert out["webrobot_crawl_start_time_seconds"] == {(): 1000.0}
    assert not any(name.startswith("webrobot_redis") for name in out), (
        "no Redis outside a shared crawl"
    )
    assert "webrobot_index_handed_total" not in out, "no index progress without an index"


def test_a_deferral_that_ended_is_not_the_longest_any_more() -> None:
    tally = busy_tally()
    live = LiveState(started=0.0, frontier=0)
    assert values({}, tally, 61.0, live)["webrobot_site_deferred_longest_seconds"] == {(): 59.0}
    assert values({}, tally, 63.0, live)["webrobot_site_deferred_longest_seconds"] == {(): 0.0}


def test_shared_crawl_and_index_metrics() -> None:
    live = LiveState(started=0.0, frontier=0, redis=True, redis_up=False, leases=3, index=(10, 7))
    out = values(STATS, CrawlTally(), 0.0, live)
    assert out["webrobot_redis_up"] == {(): 0.0}
    assert out["webrobot_redis_outages_total"] == {(): 1.0}
    assert out["webrobot_redis_errors_total"] == {(): 9.0}
    assert out["webrobot_redis_leases"] == {(): 3.0}
    assert out["webrobot_redis_lease_outcomes_total"] == {
        (("outcome", "acked"),): 12.0,
        (("outcome", "lost"),): 1.0,
    }
    assert out["webrobot_index_handed_total"] == {(): 10.0}
    assert out["webrobot_index_applied_total"] == {(): 7.0}
    declared = {m.name for m in METRICS}
    assert set(out) <= declared
    assert set(out) == declared, "with Redis and an index, every declared metric has a value"


class FakeServer:
    def __init__(self, stats: dict[str, Any], tally: CrawlTally, live: LiveState) -> None:
        self.stats, self.tally, self.live = stats, tally, live

    def values(self) -> dict[str, Any]:
        return values(self.stats, self.tally, 10.0, self.live)


def exposed(server: Any) -> dict[str, Any]:
    from prometheus_client import CollectorRegistry, generate_latest

    registry = CollectorRegistry(auto_describe=False)
    registry.register(CrawlCollector(server))
    text = generate_latest(registry).decode()
    return {f.name: f for f in text_string_to_metric_families(text)}


def samples(family: Any) -> Iterator[tuple[str, dict[str, str], float]]:
    for sample in family.samples:
        yield sample.name, sample.labels, sample.value


def test_the_collector_exposes_every_value_in_the_text_format() -> None:
    live = LiveState(started=5.0, frontier=1, redis=True, leases=2, index=(3, 3))
    families = exposed(FakeServer(dict(STATS), busy_tally(), live))
    # The parser gives a counter's family name without _total.
    names = {f.name + ("_total" if f.type == "counter" else "") for f in families.values()}
    assert names == {m.name for m in METRICS}
    assert {f.type for f in families.values()} == {"counter", "gauge"}
    pages = list(samples(families["webrobot_pages"]))
    assert pages == [("webrobot_pages_total", {}, 3.0)]
    statuses = {s[1]["status"]: s[2] for s in samples(families["webrobot_responses"])}
    assert statuses == {"200": 2.0, "404": 1.0}
    sites = {s[1]["state"]: s[2] for s in samples(families["webrobot_sites"])}
    assert sites == {"active": 0.0, "waiting_robots": 1.0, "deferred": 1.0, "exhausted": 0.0}


def test_a_scrape_sees_the_crawl_as_it_is_now() -> None:
    tally = busy_tally()
    server = FakeServer({}, tally, LiveState(started=0.0, frontier=0))
    before = exposed(server)["webrobot_pages"].samples[0].value
    tally.downloaded("a", 200, 10, kind="page", now=3.0)
    after = exposed(server)["webrobot_pages"].samples[0].value
    assert (before, after) == (3.0, 4.0)


def test_live_state_is_read_from_the_crawler() -> None:
    """The glue's reading of a crawler: a shared crawl's frontier is not asked of Redis."""
    from webrobot.distributed.outage import OUTAGE
    from webrobot.report.metrics import MetricsServer
    from webrobot.search.extension import FULL_TEXT_INDEX
    from webrobot.wiring import set_per_crawler

    server = MetricsServer.__new__(MetricsServer)
    outage: Any = SimpleNamespace(down=True)
    index: Any = SimpleNamespace(index_progress=lambda: (5, 4))
    scheduler = SimpleNamespace(leases_held=4, __len__=None)
    server.crawler = SimpleNamespace(engine=SimpleNamespace(scheduler=scheduler))  # type: ignore[assignment]
    set_per_crawler(server.crawler, OUTAGE, outage)
    set_per_crawler(server.crawler, FULL_TEXT_INDEX, index)
    tally = busy_tally()
    server.collector = SimpleNamespace(tally=tally, started_wall=7.0)  # type: ignore[assignment]
    server.redis = True
    live = server.live()
    assert live == LiveState(
        started=7.0, frontier=tally.frontier(), redis=True, redis_up=False, leases=4, index=(5, 4)
    )
