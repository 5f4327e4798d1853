"""End-to-end: a shared crawl whose Redis reaches ``maxmemory`` (policy
``noeviction``: every write answered ``OOM command not allowed``) pauses, says
so once, and goes on without loss when memory is freed; judged by the sites'
logs and the exported items."""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path

import pytest
import redis

from tests.redisserver import RedisServer
from tests.test_distributed_crawl import (
    build_web,
    export,
    html_pages,
    start_workers,
    stop_all,
    wait_for,
)
from webrobot.demo.server import SiteServer

pytestmark = pytest.mark.slow


def test_redis_at_maxmemory_pauses_the_crawl_and_loses_nothing(
    make_site: Callable[..., SiteServer], tmp_path: Path
) -> None:
    web = build_web(make_site, delay=0.1, fanout=4)
    server = RedisServer(tmp_path / "redis", options=("--maxmemory-policy", "noeviction")).start()
    admin = server.client()
    workers = start_workers(tmp_path, web, server, n=2)
    try:
        # Both workers in the crawl: each must meet the full Redis, not start after it.
        wait_for(
            lambda: (
                sum(len(site.hits) for site in web.sites) >= 12
                and all(web.started_by(worker.name) for worker in workers)
            ),
            60,
            "the crawl to be under way with both workers",
        )
        # Redis is full: below what it holds, so every write is refused.
        used = int(admin.info("memory")["used_memory"])
        admin.config_set("maxmemory", str(max(used // 2, 1)))
        with pytest.raises(redis.exceptions.OutOfMemoryError):
            admin.set("probe", "x")
        full = time.monotonic()
        time.sleep(6)  # Redis full for six seconds is the point: the crawl must pause
        admin.config_set("maxmemory", "0")  # memory freed
        freed = time.monotonic()
        codes = [worker.wait() for worker in workers]
        items = export(server, tmp_path / "export.jsonl")
    finally:
        stop_all(workers)
        server.stop()
    logs = [w.log() for w in workers]
    assert codes == [0, 0], [log[-2000:] for log in logs]
    for origin, counts in web.counts().items():
        assert set(counts) == web.expected[origin], f"{origin}: a page is missing"
        assert {t: n for t, n in counts.items() if n != 1} == {}, f"{origin}: fetched twice"
    # A request already reserved may start just after Redis filled up; none later.
    late = [
        h.target for site in web.sites for h in list(site.hits) if full + 1.0 < h.started < freed
    ]
    assert late == [], f"requests started while Redis was full: {late}"
    for log in logs:
        assert log.count("is full (maxmemory") == 1, log[-3000:]
        assert "cannot be reached" not in log
        assert "Traceback" not in log
    stats = [w.stats() for w in workers]
    assert all(s.get("webrobot/redis/full", 0) >= 1 for s in stats), stats
    urls = Counter(item["url"] for item in items)
    copies = {o + "/copy" for o in web.expected}
    assert {u: n for u, n in urls.items() if n != 1} == {}
    assert set(urls) - copies == html_pages(web) - copies, "every page has its item"


def test_at_maxmemory_a_script_is_refused_whole_so_no_lease_ends_without_its_items(
    tmp_path: Path,
) -> None:
    """Ending a lease (HDEL needs no memory) and storing its items (XADD does) are
    one script: at maxmemory it is refused before it starts, so the lease is still
    held and the worker finishes it once memory is freed; likewise a lease is
    never taken out of the frontier without being recorded."""
    from scrapy import Request, Spider

    from webrobot.distributed.frontier import LeasedFrontier
    from webrobot.distributed.keys import CrawlKeys

    keys = CrawlKeys("test:full")
    server = RedisServer(tmp_path / "redis", options=("--maxmemory-policy", "noeviction")).start()
    try:
        admin = server.client()
        frontier = LeasedFrontier(server.client(), Spider(name="s"), keys)
        for n in range(3):
            frontier.push(Request(f"http://a/{n}"))
        leased = frontier.lease()
        assert leased is not None
        lease_id, _ = leased
        admin.config_set("maxmemory", "1")  # full
        with pytest.raises(redis.exceptions.OutOfMemoryError):
            frontier.finish([lease_id], [("k", b"item")], [])
        with pytest.raises(redis.exceptions.OutOfMemoryError):
            frontier.lease()
        assert admin.hexists(keys.leased, lease_id), "the lease ended without its item"
        assert frontier.counts() == (2, 1), "a request left the frontier unleased"
        assert admin.xlen(keys.items) == 0
        admin.config_set("maxmemory", "0")  # freed
        assert frontier.finish([lease_id], [("k", b"item")], [])[0] == 1
        assert admin.xlen(keys.items) == 1
        assert frontier.lease() is not None
        assert frontier.counts() == (1, 1)
    finally:
        server.stop()


def test_a_full_redis_is_said_as_such_once_and_counted(caplog: pytest.LogCaptureFixture) -> None:
    from scrapy.utils.test import get_crawler

    from webrobot.distributed.outage import Outage, is_full

    refused = redis.exceptions.OutOfMemoryError(
        "OOM command not allowed when used memory > 'maxmemory'."
    )
    in_script = redis.exceptions.ResponseError(
        "command not allowed when used memory > 'maxmemory'. script: 1f2e, on @user_script:3."
    )
    assert is_full(refused) and is_full(in_script)
    assert not is_full(redis.exceptions.ConnectionError("Connection refused"))
    stats = get_crawler().stats
    outage = Outage(30.0, "redis://r/0", stats)
    with caplog.at_level("INFO"):
        outage.failed(refused, 10.0)
        outage.failed(in_script, 11.0)
        assert outage.down and outage.given_up(40.0)
        assert outage.message(40.0).startswith("Redis at redis://r/0 full (maxmemory) for 30 s")
        outage.succeeded(12.5)
    lines = [r.getMessage() for r in caplog.records]
    assert len(lines) == 2, lines
    assert "is full (maxmemory" in lines[0] and "cannot be reached" not in lines[0]
    assert "takes writes again after 2.5 s" in lines[1]
    assert stats.get_value("webrobot/redis/full") == 2
    assert stats.get_value("webrobot/redis/outages") == 1
