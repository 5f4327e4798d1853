"""Memory of queued requests in webrobot's in-memory frontier, through its scheduler.

    python -m benchmarks.bench_queued [--requests 1000000] [--mode compact|objects|bare|all]

Queues ``--requests`` link requests like the spider's (a URL of about 70
characters, the spider's callback, a ``Referer`` shared by the 100 links of a
page, ``depth`` and the crawl report's meta key, the breadth-first priority)
through :class:`webrobot.frontier.scheduler.FrontierScheduler` with its duplicate filter,
in a fresh process per mode:

``compact``
    the scheduler as it is: compact tuples, requests built when leased;
``objects``
    the same scheduler keeping the request objects (what it did before);
``bare``
    Scrapy's own scheduler with its memory queues and ``RFPDupeFilter``.

Prints bytes per queued request (growth of the resident set, or with
``--trace`` what ``tracemalloc`` counts: everything the scheduler, its
frontier and its visited set hold) and the process's peak RSS, then drains
a sample to check the order. Prints ``BENCH-RESULT {json}``. Queues 20,000
requests under ``WEBROBOT_BENCH_QUICK``, and 1,000 under ``WEBROBOT_BENCH_SMOKE``
(the target is then not judged: the resident set grows in pages, too coarse for so few).
"""

from __future__ import annotations

import argparse
import gc
import json
import resource
import subprocess
import sys
import time
import tracemalloc
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.micro import RESULT_PREFIX, SMOKE_NOTE, size, smoke

LINKS_PER_PAGE = 100


def _rss() -> int:
    with open("/proc/self/statm") as statm:
        return int(statm.read().split()[1]) * resource.getpagesize()


def measure(n: int, mode: str, trace: bool) -> dict[str, Any]:
    from scrapy import Request, Spider
    from scrapy.utils.test import get_crawler

    from webrobot.frontier.compactrequest import RequestCodec
    from webrobot.frontier.scheduler import FrontierScheduler

    class BenchSpider(Spider):
        name = "bench"

        def parse(self, response: Any) -> Any:
            return None

    scheduler: Any
    if mode == "bare":  # Scrapy's own scheduler, memory queues, RFPDupeFilter
        from scrapy.core.scheduler import Scheduler

        # ScrapyPriorityQueue: the downloader-aware default needs a running engine.
        crawler = get_crawler(
            BenchSpider,
            {
                "LOG_LEVEL": "ERROR",
                "SCHEDULER_PRIORITY_QUEUE": "scrapy.pqueues.ScrapyPriorityQueue",
            },
        )
        crawler.spider = spider = crawler._create_spider()
        scheduler = Scheduler.from_crawler(crawler)
    else:
        settings = {"SCHEDULER": "webrobot.frontier.scheduler.FrontierScheduler", "LOG_LEVEL": "ERROR",
                    "DUPEFILTER_CLASS": "webrobot.seen.dupefilter.SeenUrlFilter",
                    "REQUEST_FINGERPRINTER_CLASS": "webrobot.seen.requestfingerprinter.CanonicalRequestFingerprinter"}  # fmt: skip
        crawler = get_crawler(BenchSpider, settings)
        crawler.spider = spider = crawler._create_spider()
        scheduler = FrontierScheduler.from_crawler(crawler)
    scheduler.open(spider)
    if mode == "objects":

        class AsIs(RequestCodec):
            def pack(self, request: Request) -> Any:
                return request

        scheduler.codec = AsIs(spider)
    gc.collect()
    base_rss = _rss()
    if trace:
        tracemalloc.start()
    started = time.perf_counter()
    for i in range(n):
        page = i // LINKS_PER_PAGE
        depth = 1 + page % 4
        request = Request(
            f"https://www.example-site.test/topic-{i % 97}/page-{i}.html?ref=nav",
            callback=spider.parse,
            headers={
                "Referer": f"https://www.example-site.test/topic-{page % 97}/page-{page}.html"
            },
            meta={"depth": depth, "_report_frontier": True},
            priority=-depth,
        )
        scheduler.enqueue_request(request)
    seconds = time.perf_counter() - started
    if trace:
        held, _ = tracemalloc.get_traced_memory()
        tracemalloc.stop()
    else:  # without tracemalloc's own overhead: what the resident set grew by
        held = _rss() - base_rss
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
    assert len(scheduler) == n
    first = [scheduler.next_request() for _ in range(3)]
    assert all(r is not None and r.priority == -1 for r in first), "the shallowest first"
    return {
        "mode": mode,
        "requests": n,
        "bytes_per_request": held / n,
        "peak_rss_bytes": rss,
        "enqueue_us_per_request": seconds / n * 1e6,
    }


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    # benchmarks.run --quick / --smoke: the same code, briefly
    parser.add_argument("--requests", type=int, default=size(1_000_000, 20_000, 1000))
    parser.add_argument("--mode", choices=("compact", "objects", "bare", "all"), default="all")
    parser.add_argument(
        "--trace",
        action="store_true",
        help="count bytes with tracemalloc (slow) instead of the growth of the RSS",
    )
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        print(RESULT_PREFIX + json.dumps(measure(args.requests, args.mode, args.trace)), flush=True)
        return
    results = []
    for mode in ("compact", "objects", "bare") if args.mode == "all" else (args.mode,):
        done = subprocess.run(
            [sys.executable, "-m", "benchmarks.bench_queued", "--child", "--mode", mode,
             "--requests", str(args.requests), *(["--trace"] if args.trace else [])],
            capture_output=True, text=True, check=True, cwd=Path(__file__).resolve().parent.parent,
        )  # fmt: skip
        line = next(x for x in done.stdout.splitlines() if x.startswith(RESULT_PREFIX))
        results.append(json.loads(line[len(RESULT_PREFIX) :]))
    print("| queued requests | frontier | bytes per queued request | peak RSS of the process |")
    print("|---|---|---|---|")
    for r in results:
        label = {"compact": "webrobot (compact tuples)", "objects": "webrobot keeping request objects",
                 "bare": "bare Scrapy (its scheduler, RFPDupeFilter)"}[r["mode"]]  # fmt: skip
        print(
            f"| {r['requests']:,} | {label} | {r['bytes_per_request']:.0f} | {r['peak_rss_bytes'] / 2**20:.0f} MiB |"
        )
    compact = next((r for r in results if r["mode"] == "compact"), None)
    summary: dict[str, Any] = {"results": results}
    if compact is not None:
        summary.update(target="<= 600 bytes per queued request, < 1 GB peak RSS at 1,000,000 queued",
                       measured=f"{compact['bytes_per_request']:.0f} B, {compact['peak_rss_bytes'] / 2**20:.0f} MiB "
                                f"at {compact['requests']:,}",
                       met=None if smoke() else compact["bytes_per_request"] <= 600 and compact["peak_rss_bytes"] < 2**30,
                       **({"note": SMOKE_NOTE} if smoke() else {}))  # fmt: skip
    print(RESULT_PREFIX + json.dumps(summary), flush=True)


if __name__ == "__main__":
    main()
