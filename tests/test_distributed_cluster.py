"""End-to-end: three workers share one crawl on a real 6-node Redis Cluster
(3 masters, 3 replicas); one worker and one master are SIGKILLed mid-crawl.
Judged by what the local sites saw requested and by the crawl's export."""

from __future__ import annotations

import itertools
import json
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.arrivals import Arrivals
from tests.crawling import scrapy_command
from tests.rediscluster import RedisClusterNodes
from tests.test_distributed_crawl import (
    Web,
    Worker,
    build_web,
    html_pages,
    stop_all,
    wait_for,
)
from webrobot.demo.server import Reply, SiteServer

pytestmark = pytest.mark.slow

CRAWL_DELAY = 0.5
#: How much sooner than the Crawl-delay a request may reach the site: each worker's
#: reading of the Redis clock is early by up to its round trip (a few ms), and a request
#: leaves after the worker noted it left by as long as the machine keeps the worker from
#: its write (up to 65 ms measured with a load of 13 on two cores).
SLACK = 0.1
JOINED = "Joined the shared crawl"
#: Seconds after the master's kill within which the failover and the workers' retries
#: through it are over (the node timeout is 1 s; a loaded machine takes a few).
FAILOVER = 15
DISALLOWED = "/n1/"


@pytest.fixture
def cluster(tmp_path: Path) -> Any:
    with RedisClusterNodes(tmp_path / "cluster") as nodes:
        yield nodes


def robots(index: int) -> Reply:
    if index == 0:
        return Reply.text(f"User-agent: *\nCrawl-delay: {CRAWL_DELAY:g}\n")
    return Reply.text(f"User-agent: *\nDisallow: {DISALLOWED}\n")


def allowed(web: Web) -> dict[str, set[str]]:
    """Each site's pages that robots.txt allows."""
    return {
        site.origin: {
            t for t in web.expected[site.origin] if index == 0 or not t.startswith(DISALLOWED)
        }
        for index, site in enumerate(web.sites)
    }


def export(cluster: RedisClusterNodes, path: Path) -> list[dict[str, Any]]:
    result = scrapy_command("webrobot-export", "webrobot", "-o", str(path),
                            "-s", f"WEBROBOT_REDIS_URL={cluster.live_url()}", "-s", "WEBROBOT_REDIS_CLUSTER=true")  # fmt: skip
    assert result.returncode == 0, result.stderr
    return [json.loads(line) for line in path.read_text("utf-8").splitlines() if line]


def test_a_killed_worker_and_a_killed_master_lose_nothing(
    make_site: Callable[..., SiteServer], cluster: RedisClusterNodes, tmp_path: Path
) -> None:
    web = build_web(make_site, delay=0.1, robots=robots)
    settings = {"WEBROBOT_REDIS_URL": cluster.url, "WEBROBOT_REDIS_CLUSTER": "true"}
    workers = [Worker(tmp_path / f"worker-{i}", f"worker-{i}", {"start_urls": web.start_urls()}, settings)
               for i in range(3)]  # fmt: skip
    victim = workers[0]
    # When each request to the Crawl-delay site reached the machine (the kernel's stamp):
    # on a loaded machine the site's handler thread notes it up to tens of ms late.
    arrivals = Arrivals(web.sites[0])
    # The master of the crawl's frontier, leases and item stream: the worst one to lose.
    master = cluster.master_of("{webrobot:webrobot}:frontier")
    joined: set[str] = set()
    try:

        def under_way() -> bool:
            # Every worker has joined: a worker needs the crawl's master up to join at all.
            joined.update(w.name for w in workers if w.name not in joined and JOINED in w.log())
            pages = sum(1 for site in web.sites for t in site.targets() if t != "/robots.txt")
            return len(joined) == len(workers) and pages >= 12 and bool(web.started_by(victim.name))

        wait_for(under_way, 60, "the crawl to be under way, with the victim working")
        victim.kill()
        cluster.kill(master)
        killed_at = time.monotonic()  # the servers' clock (Hit.started)
        codes = [worker.wait(timeout=80) for worker in workers[1:]]
        items = export(cluster, tmp_path / "export.jsonl")
    finally:
        stop_all(workers)
    assert codes == [0, 0], [w.log()[-3000:] for w in workers[1:]]
    assert master not in cluster.master_ports(), "the killed master stays dead"
    assert "Failover election won" in "".join(cluster.log(p) for p in cluster.ports), (
        "a replica took over"
    )

    expected = allowed(web)
    for site in web.sites:
        counts = Counter(t for t in site.targets() if t != "/robots.txt")
        assert set(counts) == expected[site.origin], (
            f"{site.origin}: every allowed page, nothing else"
        )
        assert site.count("/robots.txt") == 1, f"{site.origin}: robots.txt fetched once"
        hits = sorted(site.hits, key=lambda hit: hit.started)
        overlaps = [
            (a.target, b.target) for a, b in itertools.pairwise(hits) if b.started < a.finished
        ]
        assert overlaps == [], f"{site.origin}: requests overlapped"
    sent = sorted(arrivals.of(h) for h in list(web.sites[0].hits) if h.target != "/robots.txt")
    short = [
        (round(b - a, 3), round(a - killed_at, 3), round(b - killed_at, 3))
        for a, b in itertools.pairwise(sent)
        if b - a < CRAWL_DELAY - SLACK
    ]
    # Around the failover a worker's request may reach the site long after its start was
    # recorded: the cluster client blocks the worker while it retries through the
    # failover (docs/scaling.md, "What a failover can and cannot lose"). The request after
    # it may then come early: once per surviving worker, after the master's kill and
    # before the failover is long over. No other gap is short.
    assert len(short) <= len(workers) - 1 and all(0 < b < FAILOVER for _, _, b in short), (
        f"Crawl-delay not held across workers (gap, its two requests' seconds after the "
        f"master's kill): {short}"
    )
    assert web.offsite.targets() == []
    assert len({w.name for w in workers if web.fetched_by(w.name)}) >= 2, "the work was shared"

    # Every page a server answered with HTML has its item in the export, once.
    exported = Counter(item["url"] for item in items)
    assert {u: n for u, n in exported.items() if n != 1} == {}, "one item per page"
    copies = {o + "/copy" for o in web.expected}
    pages = {o + t for o, ts in expected.items() for t in ts} & html_pages(web)
    assert set(exported) - copies == pages - copies
    assert len(set(exported) & copies) == 1
    stats = [worker.stats() for worker in workers[1:]]
    assert all(s["finish_reason"] == "finished" for s in stats)
    assert all(s.get("webrobot/redis/outages", 0) >= 1 for s in stats), (
        "the failover came mid-crawl"
    )
    client = cluster.client()
    try:
        assert client.zcard("{webrobot:webrobot}:frontier") == 0
        assert client.hlen("{webrobot:webrobot}:leased") == 0
    finally:
        client.close()
