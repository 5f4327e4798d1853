"""``python -m benchmarks.link_flood``: one page with 10k, 50k and 100k links.

Each page is served by a local :class:`~webrobot.demo.server.SiteServer`;
``--onsite`` (default 0.1) of its links point to pages of the same site that
the server answers with a tiny page (followed up to
``WEBROBOT_MAX_LINKS_PER_PAGE``, 100 here so that every size fetches the same
pages), the rest to other sites (refused by the scope). Each crawl is its own
``scrapy crawl`` process; wall time, CPU time (user + system: the fair measure
on a shared machine, where a long crawl is preempted more than a short one) and
peak RSS come from ``os.wait4`` on it, less those of a crawl of a 10-link page. The goal: time and memory per link
stay flat as the page grows.

``--sizes 2000,5000`` picks other sizes; ``--settings NAME=VALUE`` passes
settings; ``--project DIR`` measures the webrobot checked out in ``DIR``
(another worktree, for a before/after table).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from webrobot.demo.server import Reply, SiteServer

PROJECT_ROOT = Path(__file__).resolve().parent.parent


def flood_page(size: int, onsite_share: float) -> str:
    onsite_count = int(size * onsite_share)
    offsite = (
        f'<a href="http://other{i}.example/p{i}">o{i}</a>' for i in range(size - onsite_count)
    )
    onsite = (f'<a href="/p/{i}">s{i}</a>' for i in range(onsite_count))
    return "<html><body>" + "\n".join([*offsite, *onsite]) + "</body></html>"


def crawl(
    size: int, onsite_share: float, settings: dict[str, str], project: Path = PROJECT_ROOT
) -> dict[str, float]:
    server = SiteServer("flood")
    server.html("/", flood_page(size, onsite_share))
    server.add_prefix("/p/", lambda hit: Reply.html("<html><title>p</title></html>"))
    server.add("/robots.txt", Reply.text("User-agent: *\nAllow: /\n"))
    with server, tempfile.TemporaryDirectory() as tmp:
        stats_path = Path(tmp, "stats.json")
        merged = {
            "LOG_LEVEL": "INFO", "DOWNLOAD_DELAY": "0", "AUTOTHROTTLE_ENABLED": "False",
            "CONCURRENT_REQUESTS_PER_DOMAIN": "16", "WEBROBOT_PROGRESS_INTERVAL": "0",
            "WEBROBOT_REPORT_ENABLED": "False", "WEBROBOT_STATS_FILE": str(stats_path),
            "LOG_FILE": str(Path(tmp, "crawl.log")), "WEBROBOT_MAX_LINKS_PER_PAGE": "100", **settings,
        }  # fmt: skip
        command = [
            sys.executable,
            "-m",
            "scrapy",
            "crawl",
            "webrobot",
            "-a",
            f"start_urls={server.url('/')}",
        ]
        for name, value in merged.items():
            command += ["-s", f"{name}={value}"]
        env = {**os.environ, "PYTHONPATH": str(project)}
        started = time.monotonic()
        process = subprocess.Popen(command, cwd=project, env=env, stdout=subprocess.DEVNULL,
                                   stderr=subprocess.DEVNULL)  # fmt: skip
        _, status, usage = os.wait4(process.pid, 0)
        wall = time.monotonic() - started
        stats = json.loads(stats_path.read_text("utf-8")) if stats_path.exists() else {}
    return {
        "links": size,
        "exit": os.waitstatus_to_exitcode(status),
        "wall_s": wall,
        "cpu_s": usage.ru_utime + usage.ru_stime,
        "peak_rss_mib": usage.ru_maxrss / 1024,
        "requests": len(server.hits),
        "refused_offsite": stats.get("webrobot/url/refused/offsite", 0),
        "over_cap": stats.get("webrobot/url/refused/page_link_cap", 0),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="10000,50000,100000")
    parser.add_argument(
        "--project", type=Path, default=PROJECT_ROOT, help="the webrobot tree to measure"
    )
    parser.add_argument("--onsite", type=float, default=0.1, help="share of links to the same site")
    parser.add_argument("--settings", action="append", default=[], metavar="NAME=VALUE")
    args = parser.parse_args(argv)
    settings = dict(item.split("=", 1) for item in args.settings)
    baseline = crawl(
        10, args.onsite, settings, args.project
    )  # interpreter, Scrapy and one tiny crawl: subtracted below
    print(f"baseline (10 links): {baseline['wall_s']:.2f} s, {baseline['peak_rss_mib']:.1f} MiB")
    print(
        "| links | wall s | µs/link | CPU µs/link | peak RSS MiB | bytes/link | requests | offsite refused "
        "| over cap |"
    )
    print("|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for size in (int(s) for s in args.sizes.split(",")):
        r = crawl(size, args.onsite, settings, args.project)
        per_link_us = (r["wall_s"] - baseline["wall_s"]) / size * 1e6
        per_link_cpu_us = (r["cpu_s"] - baseline["cpu_s"]) / size * 1e6
        per_link_bytes = (r["peak_rss_mib"] - baseline["peak_rss_mib"]) * 1024 * 1024 / size
        print(
            f"| {size:,} | {r['wall_s']:.1f} | {per_link_us:.0f} | {per_link_cpu_us:.0f} | "
            f"{r['peak_rss_mib']:.0f} | "
            f"{per_link_bytes:.0f} | {r['requests']} | {r['refused_offsite']} | {r['over_cap']} |",
            flush=True,
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
