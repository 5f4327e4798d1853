"""Cluster mode's pieces against a real 6-node Redis Cluster: key layout, the
client, the two-step finish and what covers its gap."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import redis
from redis.cluster import RedisCluster, key_slot
from scrapy import Request, Spider
from scrapy.http import HtmlResponse
from scrapy.settings import Settings

from tests.crawling import scrapy_command
from tests.rediscluster import RedisClusterNodes
from tests.redisserver import RedisServer
from webrobot.distributed.crawlstate import reset_crawl
from webrobot.distributed.digests import RedisDigestSet
from webrobot.distributed.frontier import RECLAIMED_KEY, REQUEUE_KEY, LeasedFrontier
from webrobot.distributed.keys import CrawlKeys, explain, redis_from_settings
from webrobot.distributed.lineage import ReclaimedPageLinks
from webrobot.distributed.politeness import SharedPoliteness

pytestmark = pytest.mark.slow

KEYS = CrawlKeys("test:crawl", cluster=True)


class PageSpider(Spider):
    name = "pages"


@pytest.fixture(scope="module")
def cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RedisClusterNodes]:
    with RedisClusterNodes(tmp_path_factory.mktemp("cluster")) as nodes:
        yield nodes


@pytest.fixture
def client(cluster: RedisClusterNodes) -> Iterator[RedisCluster]:
    client = cluster.client()
    client.flushall(target_nodes=RedisCluster.PRIMARIES)
    yield client
    client.close()


def settings(url: str, cluster: bool) -> Settings:
    return Settings({"WEBROBOT_REDIS_URL": url, "WEBROBOT_REDIS_CLUSTER": cluster})


def test_crawl_wide_keys_share_a_slot_and_digests_spread() -> None:
    crawl = [KEYS.frontier, KEYS.leases, KEYS.leased, KEYS.sequence, KEYS.clock, KEYS.dead,
             KEYS.items, KEYS.budget, KEYS.meta]  # fmt: skip
    assert {key_slot(k.encode()) for k in crawl} == {key_slot(b"test:crawl")}
    site = "http://a.example:80"
    robots = KEYS.robots_key(site)
    assert robots == "test:crawl:robots:{a.example}http://a.example:80"
    # The robots.txt of both schemes of a host and the host's politeness clock: one slot.
    https = KEYS.robots_key("https://a.example:443")
    assert key_slot(robots.encode()) == key_slot(https.encode())
    assert key_slot(robots.encode()) == key_slot(b"webrobot:politeness:{a.example}")
    buckets = RedisDigestSet(None, KEYS.visited, 14)  # type: ignore[arg-type]
    slots = {key_slot(buckets.slot(str(n).encode())[0].encode()) for n in range(200)}
    assert len(slots) > 150, "visited buckets spread over the slots"
    plain = CrawlKeys("test:crawl")
    assert (
        plain.frontier == "test:crawl:frontier"
        and plain.robots_key(site) == f"test:crawl:robots:{site}"
    )
    assert KEYS.patterns() == ["test:crawl:*", "{test:crawl}:*"]


def test_the_client_follows_the_setting(
    cluster: RedisClusterNodes, redis_server: RedisServer
) -> None:
    client = redis_from_settings(settings(cluster.url, True))
    assert isinstance(client, RedisCluster)
    client.close()
    assert not isinstance(redis_from_settings(settings(redis_server.url, False)), RedisCluster)
    with pytest.raises(redis.ConnectionError, match="no Redis Cluster at"):
        redis_from_settings(settings(redis_server.url, True))


def test_finish_marks_then_queues_and_a_retry_queues_its_own_marks(client: RedisCluster) -> None:
    frontier = LeasedFrontier(client, PageSpider(), KEYS)
    digests = RedisDigestSet(client, KEYS.visited, 14)
    a, b = digests.slot(b"a"), digests.slot(b"b")
    frontier.push(Request("http://x/page"))
    lease_id, _ = frontier.lease()  # type: ignore[misc]
    held, queued = frontier.finish([lease_id], [("http://x/page", b"item")], [
        (a, 0, frontier.encode(Request("http://x/a"))),
        (b, 0, frontier.encode(Request("http://x/b"))),
    ])  # fmt: skip
    assert (held, queued) == (1, [True, True])
    assert frontier.counts() == (2, 0) and frontier.fresh == set()
    assert client.xlen(KEYS.items) == 1
    # Marked already: not queued again ...
    assert frontier.finish([], [], [(a, 0, frontier.encode(Request("http://x/a")))]) == (0, [False])
    # ... unless this worker made the mark itself and its queueing failed (kept in fresh),
    # or the link comes from a page taken again after its lease expired (put in fresh).
    frontier.fresh.add(a)
    again = frontier.encode(Request("http://x/a", meta={"depth": 2}))
    assert frontier.finish([], [], [(a, 0, again)]) == (0, [True])
    assert frontier.fresh == set()
    assert frontier.counts() == (3, 0)
    assert reset_crawl(client, KEYS) >= 5
    assert frontier.counts() == (0, 0) and len(digests) == 0


def test_a_request_taken_again_after_its_lease_expired_marks_its_links(
    client: RedisCluster,
) -> None:
    frontier = LeasedFrontier(client, PageSpider(), KEYS, lease_ttl=0.001)
    frontier.push(Request("http://x/page"))
    _, first = frontier.lease()  # type: ignore[misc]
    assert RECLAIMED_KEY not in first.meta
    deadline = time.monotonic() + 5
    while frontier.reclaim_expired()[0] == 0:  # the first sweeps may fall in a grace period
        assert time.monotonic() < deadline, "the expired lease was not re-queued"
    _, again = frontier.lease()  # type: ignore[misc]
    assert again.meta[RECLAIMED_KEY] is True
    middleware = ReclaimedPageLinks(None)  # type: ignore[arg-type]
    links: list[Any] = [Request("http://x/a"), {"item": 1}]
    response = HtmlResponse("http://x/page", body=b"", request=again)
    out = list(middleware.process_spider_output(response, links))
    assert out[0].meta[REQUEUE_KEY] is True and out[1] == {"item": 1}
    fresh_response = HtmlResponse("http://x/page", body=b"", request=first)
    assert (
        REQUEUE_KEY
        not in next(middleware.process_spider_output(fresh_response, [Request("http://x/b")])).meta
    )


def test_reset_removes_both_key_forms(client: RedisCluster, tmp_path: Path) -> None:
    client.set(KEYS.frontier, 1)
    client.set(f"{KEYS.visited}:1f", 1)
    client.set("other:key", 1)
    assert reset_crawl(client, KEYS) == 2
    assert client.exists("other:key") == 1


def test_a_cluster_node_used_as_one_redis_says_what_to_set(cluster: RedisClusterNodes) -> None:
    seeded = scrapy_command(
        "webrobot-seed",
        "webrobot",
        "http://127.0.0.1:9/a",
        "-s",
        f"WEBROBOT_REDIS_URL={cluster.url}",
    )
    assert seeded.returncode == 1
    assert "(a Redis Cluster: set WEBROBOT_REDIS_CLUSTER=true)" in seeded.stderr
    assert explain(redis.ResponseError("MOVED 3999 127.0.0.1:7001")).endswith(
        "set WEBROBOT_REDIS_CLUSTER=true)"
    )
    assert explain(redis.ConnectionError("refused")) == "refused"


def test_a_heartbeat_deadline_is_on_the_clock_of_the_crawl_slot_master(
    cluster: RedisClusterNodes, client: RedisCluster
) -> None:
    """Another node's clock may differ: a worker that has not read the Redis
    clock lately reads it on the master that compares the workers' deadlines."""
    frontier = LeasedFrontier(client, PageSpider(), KEYS, lease_ttl=30)
    frontier.push(Request("http://x/page"))
    masters = {port: redis.Redis(host="127.0.0.1", port=port) for port in cluster.master_ports()}
    crawl_master = cluster.master_of(KEYS.leases)

    def server_ms() -> int:
        seconds, micros = masters[crawl_master].time()
        return int(seconds) * 1000 + int(micros) // 1000

    try:
        before = server_ms()
        for master in masters.values():
            master.config_resetstat()
        lease_id, _ = frontier.lease()  # type: ignore[misc]
        times = {
            port: master.info("commandstats").get("cmdstat_time", {}).get("calls", 0)
            for port, master in masters.items()
        }
        assert times == {port: int(port == crawl_master) for port in masters}
        after = server_ms()
    finally:
        for master in masters.values():
            master.close()
    assert client.hexists(KEYS.leased, lease_id)
    deadline = float(client.zscore(KEYS.leases, frontier.worker_id) or 0)
    # The lease read the server's clock somewhere between the two readings here;
    # a loaded machine may put seconds between them, so bound it on both sides.
    assert before + 30_000 <= deadline <= after + 30_000, "one TTL from the Redis server's time"


def test_holds_on_sites_in_different_slots_are_renewed(client: RedisCluster) -> None:
    """Each host's politeness state is a slot of its own: renewing a worker's holds
    on several hosts must not be one cross-slot script."""
    sites = [f"127.0.0.1:{port}" for port in (8001, 8002, 8003, 8004)]
    keys = [f"webrobot:politeness:{{{site}}}" for site in sites]
    assert len({key_slot(key.encode()) for key in keys}) > 1
    # The default hold TTL: a short one gives a start back whenever its answer takes a
    # third of it, which a loaded machine's cluster client did.
    politeness = SharedPoliteness(client, cluster=True)
    for site in sites:
        assert politeness.reserve(site, 0.0, "download_delay", 0.0)[0] == 0.0
    field = f"u:{politeness.worker_id}"
    before = [int(client.hget(key, field)) for key in keys]
    time.sleep(0.05)  # the clock moves on (millisecond stamps): a renewal must be later
    politeness._renew_holds()
    after = [int(client.hget(key, field)) for key in keys]
    assert all(a > b for a, b in zip(after, before, strict=True)), (before, after)
