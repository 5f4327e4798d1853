"""What a shared crawl costs its Redis, read from Redis's own counters.

    .venv/bin/python -m benchmarks.redis_cost [--pages 2000] [--sites 4] [--latency 0.05]
                                              [--workers 1,2,4] [--cluster-workers 1,2,4]
                                              [--cost-workers 2] [--out DIR]

Starts the benchmark web (``benchmarks.server``, every answer delayed by
``--latency`` so that workers wait on the network, as on the Internet, and the
figures show coordination cost rather than CPU contention on a small machine)
and a throwaway ``redis-server``, then for each crawler:

* ``webrobot``: the project, ``WEBROBOT_REDIS_URL`` set (leases, shared
  politeness, robots.txt claims, content index, items in Redis);
* ``scrapy-redis``: the ``bare`` CrawlSpider with scrapy-redis's scheduler and
  dupefilter (``SCHEDULER_PERSIST``), the usual way to share a Scrapy crawl;

runs ``--cost-workers`` workers on the same sites with an emptied Redis whose
counters were reset (``FLUSHALL``, ``CONFIG RESETSTAT``) and reports, per fetched
page: Redis commands (``INFO commandstats``, also per command), Redis CPU
seconds (``INFO cpu``: ``used_cpu_user`` + ``used_cpu_sys``), network bytes
(``total_net_input_bytes`` + ``total_net_output_bytes``) and memory left at
the end (``used_memory``). The machine's load average at the start and the end
is written too: on a shared machine, others' work slows the crawls. Then webrobot's pages/s with each ``--workers``
count: pages over the time from the first worker's start to the last page
the servers answered (so the idle wait before workers close is not counted).
With ``--cluster-workers``, the same against a local Redis Cluster of three
masters and three replicas (``WEBROBOT_REDIS_CLUSTER``), with its commands and
Redis CPU per page summed over the masters.

Writes ``redis_cost.json`` and a Markdown table to ``--out``.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

import redis

from benchmarks.crawls import crawl_command, server_stats, shared_settings
from benchmarks.run import ServerProcess
from benchmarks.web import WebSpec
from tests.rediscluster import RedisClusterNodes
from tests.redisserver import RedisServer

#: Settings per crawler on top of the benchmark's shared ones.
SCRAPY_REDIS = {
    "SCHEDULER": "scrapy_redis.scheduler.Scheduler",
    "DUPEFILTER_CLASS": "scrapy_redis.dupefilter.RFPDupeFilter",
    "SCHEDULER_PERSIST": "True",
}
WEBROBOT = {
    "WEBROBOT_REDIS_IDLE_CLOSE": "2",
    "WEBROBOT_REDIS_POLL_INTERVAL": "0.5",
}


class PageClock:
    """Polls the servers' page counter; remembers when it last grew."""

    def __init__(self, control_url: str) -> None:
        self.control_url = control_url
        self.pages = int(server_stats(control_url)["total"]["pages"])
        self.last_change = time.monotonic()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def _run(self) -> None:
        while not self._stop.wait(0.1):
            pages = int(server_stats(self.control_url)["total"]["pages"])
            if pages != self.pages:
                self.pages, self.last_change = pages, time.monotonic()

    def stop(self) -> None:
        self._stop.set()
        self._thread.join()


def redis_counters(client: redis.Redis) -> dict[str, Any]:
    commands = {
        name.removeprefix("cmdstat_"): int(stats["calls"])
        for name, stats in client.info("commandstats").items()
    }
    cpu = client.info("cpu")
    net = client.info("stats")
    memory = client.info("memory")
    return {
        "commands": commands,
        "cpu": float(cpu["used_cpu_user"]) + float(cpu["used_cpu_sys"]),
        "net_bytes": int(net["total_net_input_bytes"]) + int(net["total_net_output_bytes"]),
        "memory": int(memory["used_memory"]),
    }


def run_workers(crawler: str, workers: int, server: ServerProcess, redis_url: str, workdir: Path,
                settings: dict[str, str], timeout: float) -> dict[str, Any]:  # fmt: skip
    """``workers`` crawl processes on the benchmark web; pages and timings."""
    before = server_stats(server.control)["total"]
    clock = PageClock(server.control)
    started = time.monotonic()
    procs = []
    for number in range(workers):
        folder = workdir / f"{crawler}-{workers}w-{number}"
        folder.mkdir(parents=True, exist_ok=True)
        command, env, cwd = crawl_command(
            "bare" if crawler == "scrapy-redis" else "webrobot", server.start_urls, folder,
            {**settings, "REDIS_URL": redis_url, "WEBROBOT_REDIS_URL": redis_url if crawler == "webrobot" else ""},
        )  # fmt: skip
        with open(folder / "stderr.txt", "wb") as err:
            procs.append(
                subprocess.Popen(command, cwd=cwd, env=env, stdout=subprocess.DEVNULL, stderr=err)
            )
    deadline = started + timeout
    codes = []
    for proc in procs:
        try:
            codes.append(proc.wait(timeout=max(1.0, deadline - time.monotonic())))
        except subprocess.TimeoutExpired:
            proc.kill()
            codes.append(proc.wait())
    clock.stop()
    after = server_stats(server.control)["total"]
    pages = int(after["pages"] - before["pages"])
    busy = max(clock.last_change - started, 1e-9)
    return {
        "crawler": crawler, "workers": workers, "codes": codes, "pages": pages,
        "robots": int(after["robots"] - before["robots"]),
        "disallowed": int(after["disallowed"] - before["disallowed"]),
        "seconds": round(busy, 2), "pages_per_second": round(pages / busy, 1),
    }  # fmt: skip


def cost_run(crawler: str, workers: int, server: ServerProcess, redis_server: RedisServer, workdir: Path,
             settings: dict[str, str], timeout: float) -> dict[str, Any]:  # fmt: skip
    client = redis_server.client()
    client.flushall()
    client.config_resetstat()
    before = redis_counters(client)
    run = run_workers(crawler, workers, server, redis_server.url, workdir, settings, timeout)
    after = redis_counters(client)
    pages = max(run["pages"], 1)
    commands = after["commands"]
    total = sum(commands.values()) - commands.get("info", 0) - commands.get("config|resetstat", 0)
    per_command = {
        name: round(calls / pages, 2)
        for name, calls in sorted(commands.items(), key=lambda kv: -kv[1])
        if not name.startswith(("info", "config", "flushall"))
    }
    return {
        **run,
        "commands_per_page": round(total / pages, 2),
        "per_command": per_command,
        "redis_cpu_ms_per_page": round((after["cpu"] - before["cpu"]) * 1000 / pages, 3),
        "net_bytes_per_page": round((after["net_bytes"] - before["net_bytes"]) / pages),
        "memory_bytes_per_page": round((after["memory"] - before["memory"]) / pages),
    }


def cluster_run(workers: int, server: ServerProcess, cluster: RedisClusterNodes, workdir: Path,
                settings: dict[str, str], timeout: float) -> dict[str, Any]:  # fmt: skip
    """webrobot on the cluster: pages/s, and commands and CPU per page over all masters."""
    masters = [redis.Redis(host="127.0.0.1", port=port) for port in cluster.master_ports()]
    try:
        for client in masters:
            client.flushall()
            client.config_resetstat()
        before = [redis_counters(client) for client in masters]
        run = run_workers("webrobot", workers, server, cluster.url, workdir / "cluster",
                          {**settings, "WEBROBOT_REDIS_CLUSTER": "true"}, timeout)  # fmt: skip
        after = [redis_counters(client) for client in masters]
    finally:
        for client in masters:
            client.close()
    pages = max(run["pages"], 1)
    skipped = ("info", "config|resetstat", "flushall", "cluster|slots", "cluster|shards", "command|docs",
               "command", "ping", "readonly",  # the client's own topology checks
               "replconf")  # the replicas' acknowledgements  # fmt: skip
    total = sum(
        calls for a in after for name, calls in a["commands"].items() if name not in skipped
    )
    per_master = [
        round((a["cpu"] - b["cpu"]) * 1000 / pages, 3) for a, b in zip(after, before, strict=True)
    ]
    calls: dict[str, int] = {}
    for a in after:
        for name, count in a["commands"].items():
            if name not in skipped:
                calls[name] = calls.get(name, 0) + count
    per_command = {
        name: round(count / pages, 2)
        for name, count in sorted(calls.items(), key=lambda kv: -kv[1])
    }
    return {**run, "redis": f"cluster of {len(masters)} masters",
            "commands_per_page": round(total / pages, 2), "per_command": per_command,
            "redis_cpu_ms_per_page": round(sum(per_master), 3),
            "redis_cpu_ms_per_page_per_master": sorted(per_master, reverse=True)}  # fmt: skip


def markdown(cost: list[dict[str, Any]], speed: list[dict[str, Any]], machine: str) -> str:
    lines = [
        f"Machine: {machine}", "",
        "| crawler | workers | pages | Redis commands / page | Redis CPU ms / page | network bytes / page | memory bytes / page |",
        "|---|---|---|---|---|---|---|",
    ]  # fmt: skip
    for row in cost:
        lines.append(
            f"| {row['crawler']} | {row['workers']} | {row['pages']} | {row['commands_per_page']} | "
            f"{row['redis_cpu_ms_per_page']} | {row['net_bytes_per_page']} | {row['memory_bytes_per_page']} |"
        )
    lines += ["", "| crawler | Redis | workers | pages | seconds | pages/s | commands / page | Redis CPU ms / page |",
              "|---|---|---|---|---|---|---|---|"]  # fmt: skip
    for row in speed:
        lines.append(
            f"| {row['crawler']} | {row.get('redis', 'one server')} | {row['workers']} | {row['pages']} | "
            f"{row['seconds']} | {row['pages_per_second']} | {row.get('commands_per_page', '')} | "
            f"{row.get('redis_cpu_ms_per_page', '')} |"
        )
    return "\n".join(lines) + "\n"


def _load() -> list[float]:
    """The machine's load average (1, 5, 15 minutes): how busy it was with other work."""
    return [round(value, 2) for value in os.getloadavg()]


def machine() -> str:
    cpus = os.cpu_count()
    model = ""
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    version = subprocess.run(
        ["redis-server", "--version"], capture_output=True, text=True, check=False
    ).stdout.split()
    redis_version = next((part.split("=", 1)[1] for part in version if part.startswith("v=")), "?")
    return f"{cpus} CPUs ({model or 'unknown'}), Python {sys.version.split()[0]}, redis-server {redis_version}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks.redis_cost", description=__doc__.split("\n\n")[0]
    )
    parser.add_argument("--pages", type=int, default=2000)
    parser.add_argument("--sites", type=int, default=4)
    parser.add_argument("--latency", type=float, default=0.05)
    parser.add_argument("--concurrency", type=int, default=8, help="requests in flight per worker")
    parser.add_argument("--cost-workers", type=int, default=2)
    parser.add_argument("--workers", default="1,2,4", help="worker counts for pages/s ('' : none)")
    parser.add_argument(
        "--cluster-workers",
        default="1,2,4",
        help="worker counts for pages/s on a 3-master cluster ('' : none)",
    )
    parser.add_argument(
        "--no-cost", action="store_true", help="skip the cost comparison with scrapy-redis"
    )
    parser.add_argument("--timeout", type=float, default=900)
    parser.add_argument("--out", type=Path, default=None)
    args = parser.parse_args(argv)
    load_start = _load()
    out = args.out or Path(tempfile.mkdtemp(prefix="redis-cost-"))
    out.mkdir(parents=True, exist_ok=True)
    spec = WebSpec(pages=args.pages, sites=args.sites)
    common = {**shared_settings("multi", args.concurrency, args.sites), "LOG_LEVEL": "INFO"}
    cost: list[dict[str, Any]] = []
    speed: list[dict[str, Any]] = []
    with ServerProcess(spec, out / "server.log", latency=args.latency) as server, \
            RedisServer(out / "redis") as redis_server:  # fmt: skip
        for crawler, own in (
            () if args.no_cost else (("scrapy-redis", SCRAPY_REDIS), ("webrobot", WEBROBOT))
        ):
            row = cost_run(
                crawler,
                args.cost_workers,
                server,
                redis_server,
                out,
                {**common, **own},
                args.timeout,
            )
            cost.append(row)
            print(json.dumps(row), flush=True)
        for workers in [int(n) for n in args.workers.split(",") if n.strip()]:
            redis_server.client().flushall()
            row = run_workers(
                "webrobot",
                workers,
                server,
                redis_server.url,
                out,
                {**common, **WEBROBOT},
                args.timeout,
            )
            speed.append(row)
            print(json.dumps(row), flush=True)
    cluster_counts = [int(n) for n in args.cluster_workers.split(",") if n.strip()]
    if cluster_counts:
        with ServerProcess(spec, out / "server-cluster.log", latency=args.latency) as server, \
                RedisClusterNodes(out / "cluster") as cluster:  # fmt: skip
            for workers in cluster_counts:
                row = cluster_run(
                    workers, server, cluster, out, {**common, **WEBROBOT}, args.timeout
                )
                speed.append(row)
                print(json.dumps(row), flush=True)
    result = {"machine": machine(), "load_average": {"start": load_start, "end": _load()}, "pages": args.pages, "sites": args.sites, "latency": args.latency,
              "concurrency": args.concurrency, "cost": cost, "speed": speed}  # fmt: skip
    (out / "redis_cost.json").write_text(json.dumps(result, indent=2), "utf-8")
    loads = result["load_average"]
    table = markdown(cost, speed, f"{result['machine']}, load average (1, 5, 15 min) "
                     f"{loads['start']} at the start, {loads['end']} at the end")  # fmt: skip
    (out / "redis_cost.md").write_text(table, "utf-8")
    print(table)
    print(f"Written to {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
