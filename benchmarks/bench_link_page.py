"""The cost per link of a page's links, from parsing to the scheduler, by page size.

    python -m benchmarks.bench_link_page [--sizes 100,100000] [--reps 3]

A page with N links (half of them to pages the crawl has queued already, as
on a real site) is handed to the crawler's link path in-process: webrobot's
spider ``parse`` (link extraction, meta robots, the item) and each request it
yields queued by webrobot's scheduler; bare Scrapy's ``CrawlSpider`` rule
(``LinkExtractor``) and Scrapy's scheduler. Spider middlewares are left out
(both crawlers have them; they are measured in the crawls). CPU microseconds
per link (the process's CPU time, ``time.process_time``: wall time on a shared
machine charges a long run for the other processes that preempt it, and the
median of many short runs escapes them) for each N: the goal is the same cost
per link at 100,000 links as at 100. Prints a Markdown table and ``BENCH-RESULT {json}``.
Under ``WEBROBOT_BENCH_QUICK`` the large page has 2,000 links; under
``WEBROBOT_BENCH_SMOKE`` 400, measured once each, and the target is not judged.
"""

from __future__ import annotations

import argparse
import gc
import json
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.micro import RESULT_PREFIX, SMOKE_NOTE, quick, smoke

ORIGIN = "http://links.test"
_runs = iter(range(1 << 30))


def page(n: int, run: int) -> bytes:
    """Fresh URLs in every run: caches of earlier runs must not make small pages look cheap."""
    links = "".join(f'<li><a href="/p/{run}/{i}.html">page {i}</a></li>\n' for i in range(n))
    return (
        f"<html><head><title>{n} links</title></head><body><ul>{links}</ul></body></html>".encode()
    )


def webrobot_cost(n: int) -> float:
    from scrapy.http import HtmlResponse, Request
    from scrapy.utils.test import get_crawler

    from webrobot.frontier.scheduler import FrontierScheduler
    from webrobot.spiders.webrobot import WebrobotSpider

    settings = {
        k: v for k, v in vars(__import__("webrobot.settings").settings).items() if k.isupper()
    }
    settings["LOG_LEVEL"] = "ERROR"
    crawler = get_crawler(WebrobotSpider, settings)
    crawler.spider = spider = crawler._create_spider(start_urls=ORIGIN + "/")
    scheduler = FrontierScheduler.from_crawler(crawler)
    scheduler.open(spider)
    run = next(_runs)
    for i in range(0, n, 2):  # half the links point at queued pages
        scheduler.enqueue_request(Request(f"{ORIGIN}/p/{run}/{i}.html"))
    response = HtmlResponse(
        ORIGIN + "/", body=page(n, run), encoding="utf-8", request=Request(ORIGIN + "/")
    )
    gc.collect()
    started = time.process_time()
    for output in spider.parse(response):
        if isinstance(output, Request):
            scheduler.enqueue_request(output)
    return (time.process_time() - started) / n * 1e6


def bare_cost(n: int) -> float:
    from scrapy.core.scheduler import Scheduler
    from scrapy.http import HtmlResponse, Request
    from scrapy.utils.test import get_crawler

    from benchmarks.bare.spiders import BareSpider

    settings = {
        "LOG_LEVEL": "ERROR",
        "SCHEDULER_PRIORITY_QUEUE": "scrapy.pqueues.ScrapyPriorityQueue",
    }
    crawler = get_crawler(BareSpider, settings)
    crawler.spider = spider = crawler._create_spider(start_urls=ORIGIN + "/")
    scheduler = Scheduler.from_crawler(crawler)
    scheduler.open(spider)
    run = next(_runs)
    for i in range(0, n, 2):
        scheduler.enqueue_request(Request(f"{ORIGIN}/p/{run}/{i}.html"))
    response = HtmlResponse(
        ORIGIN + "/", body=page(n, run), encoding="utf-8", request=Request(ORIGIN + "/")
    )
    gc.collect()
    started = time.process_time()
    spider._compile_rules()  # type: ignore[attr-defined]
    for output in spider._requests_to_follow(response):  # type: ignore[attr-defined]
        if isinstance(output, Request):
            scheduler.enqueue_request(output)
    return (time.process_time() - started) / n * 1e6


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    # benchmarks.run --quick / --smoke: the same code, briefly
    sizes_default = "100,400" if smoke() else "100,2000" if quick() else "100,100000"
    parser.add_argument("--sizes", default=sizes_default)
    parser.add_argument("--reps", type=int, default=1 if smoke() else 3)
    args = parser.parse_args(argv)
    sizes = [int(s) for s in args.sizes.split(",")]
    results: dict[str, dict[int, float]] = {"webrobot": {}, "bare": {}}
    for n in sizes:
        # Small pages: more repetitions (not in a smoke run, whose numbers are not judged).
        reps = args.reps if smoke() else max(args.reps, 200_000 // n // 100)
        for name, cost in (("webrobot", webrobot_cost), ("bare", bare_cost)):
            results[name][n] = statistics.median(cost(n) for _ in range(reps))
    print("| links on the page | webrobot CPU us/link | bare Scrapy CPU us/link |")
    print("|---:|---:|---:|")
    for n in sizes:
        print(f"| {n:,} | {results['webrobot'][n]:.1f} | {results['bare'][n]:.1f} |")
    small, large = min(sizes), max(sizes)
    ratio = results["webrobot"][large] / results["webrobot"][small]
    print(RESULT_PREFIX + json.dumps({"us_per_link": results, "large_over_small": ratio,
                                      "target": f"per-link cost at {large:,} links within 1.5x of {small:,}",
                                      "measured": f"{ratio:.2f}x", "met": None if smoke() else ratio <= 1.5,
                                      **({"note": SMOKE_NOTE} if smoke() else {})}))  # fmt: skip


if __name__ == "__main__":
    main()
