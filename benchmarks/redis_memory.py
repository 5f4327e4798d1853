"""Bytes per URL that a shared crawl's visited-URL set costs in Redis.

    .venv/bin/python -m benchmarks.redis_memory [N ...]     (default: 100000 1000000)

Starts a throwaway redis-server (Debian's package), adds N request
fingerprints of distinct URLs the way workers do (RedisDigestSet slots) for
several bucket sizes, and reports the growth of ``INFO memory``'s
``used_memory`` and the sum of ``MEMORY USAGE`` over the keys, per URL. For
comparison: scrapy-redis's own dupefilter format (40-character hex SHA1 in one
set), and the frontier's cost per queued request. Then the shared content index
(content digest -> URL digest hashes, one entry per page and per side: kept,
followed), per page and side.
"""

from __future__ import annotations

import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import redis
from scrapy import Request, Spider
from scrapy.utils.request import RequestFingerprinter

from tests.redisserver import RedisServer
from webrobot.distributed.contentdupes import RedisFirstSeen
from webrobot.distributed.digests import RedisDigestSet
from webrobot.distributed.frontier import LeasedFrontier
from webrobot.distributed.keys import CrawlKeys

BATCH = 10_000


def fingerprints(n: int) -> list[bytes]:
    fingerprinter = RequestFingerprinter()
    return [
        fingerprinter.fingerprint(Request(f"http://site{i % 97}.example/page/{i}"))
        for i in range(n)
    ]


def measure(client: redis.Redis, fill: Callable[[], None]) -> tuple[float, float, set[bytes]]:
    client.flushall()
    time.sleep(0.1)
    before = int(client.info("memory")["used_memory"])
    fill()
    used = int(client.info("memory")["used_memory"]) - before
    usage = 0
    encodings: set[bytes] = set()
    for key in client.scan_iter(count=1000):
        usage += int(client.memory_usage(key, samples=0) or 0)
        if len(encodings) < 4:
            encodings.add(client.object("encoding", key) or b"?")
    return used, usage, encodings


def digests_filler(client: redis.Redis, fps: list[bytes], bits: int) -> Callable[[], None]:
    digests = RedisDigestSet(client, "bench:visited", bits)

    def fill() -> None:
        pipe = client.pipeline(transaction=False)
        for i, fp in enumerate(fps, 1):
            key, member = digests.slot(fp)
            pipe.sadd(key, member)
            if i % BATCH == 0:
                pipe.execute()
        pipe.execute()

    return fill


def content_filler(client: redis.Redis, fps: list[bytes], bits: int) -> Callable[[], None]:
    index = RedisFirstSeen(client, "bench:content:kept", bits)

    def fill() -> None:
        pipe = client.pipeline(transaction=False)
        for i, fp in enumerate(fps, 1):
            bucket, member = index.digests.slot(fp)
            pipe.hsetnx(bucket, member, i * 0x9E3779B97F4A7C15 % 2**63)  # a URL digest
            if i % BATCH == 0:
                pipe.execute()
        pipe.execute()

    return fill


def hex_set_filler(client: redis.Redis, fps: list[bytes]) -> Callable[[], None]:
    def fill() -> None:
        pipe = client.pipeline(transaction=False)
        for i, fp in enumerate(fps, 1):
            pipe.sadd("bench:dupefilter", fp.hex())
            if i % BATCH == 0:
                pipe.execute()
        pipe.execute()

    return fill


def frontier_filler(client: redis.Redis, n: int) -> Callable[[], None]:
    frontier = LeasedFrontier(client, Spider(name="bench"), CrawlKeys("bench"))

    def fill() -> None:
        for i in range(n):
            url = f"http://site{i % 97}.example/section/{i // 97}/page-{i}.html"
            request = Request(
                url,
                priority=-3,
                meta={"depth": 3},
                headers={"Referer": url.rsplit("/", 1)[0] + "/"},
            )
            frontier.add(frontier.encode(request), request.priority, None)

    return fill


def main(sizes: list[int]) -> None:
    with tempfile.TemporaryDirectory() as tmp, RedisServer(Path(tmp)) as server:
        client = server.client()
        version = client.info("server")["redis_version"]
        limit = client.config_get("set-max-intset-entries")["set-max-intset-entries"]
        print(f"redis-server {version}, set-max-intset-entries {limit}")
        print(
            f"{'URLs':>9}  {'layout':<34} {'used_memory/URL':>16} {'MEMORY USAGE/URL':>17}  encoding"
        )
        for n in sizes:
            fps = fingerprints(n)
            rows = [
                (f"digests, {bits} bucket bits", digests_filler(client, fps, bits))
                for bits in (12, 14, 16)
            ]
            rows.append(("scrapy-redis hex SHA1 set", hex_set_filler(client, fps)))
            for name, fill in rows:
                used, usage, encodings = measure(client, fill)
                enc = ",".join(sorted(e.decode() for e in encodings))
                print(f"{n:>9}  {name:<34} {used / n:>16.1f} {usage / n:>17.1f}  {enc}")
        limit = client.config_get("hash-max-listpack-entries")["hash-max-listpack-entries"]
        print(f"content index, per page and side (hash-max-listpack-entries {limit})")
        for n in sizes:
            fps = fingerprints(n)
            for bits in (12, 14):
                used, usage, encodings = measure(client, content_filler(client, fps, bits))
                enc = ",".join(sorted(e.decode() for e in encodings))
                name = f"content, {bits} bucket bits"
                print(f"{n:>9}  {name:<34} {used / n:>16.1f} {usage / n:>17.1f}  {enc}")
        n = 10_000
        used, usage, _ = measure(client, frontier_filler(client, n))
        print(f"{n:>9}  {'frontier (queued requests)':<34} {used / n:>16.1f} {usage / n:>17.1f}")


if __name__ == "__main__":
    main([int(a) for a in sys.argv[1:]] or [100_000, 1_000_000])
