"""Benchmark: a crawl of many small sites under an open-file limit of 1024 against
the same crawl under a high limit.

    python -m benchmarks.open_files [--sites 3000] [--pages 3] [--concurrency 64]
                                    [--low 1024] [--high 20000] [--handler scrapy]

One asyncio server on loopback listens on one port per site (tests/manysites.py);
each crawl runs in a subprocess whose RLIMIT_NOFILE (soft and hard) is set before
it starts. Prints the wall time of each crawl, their ratio, the descriptor
errors ("Too many open files" in the log, ``webrobot/descriptors/exhausted``) and
whether every page was fetched exactly once. ``--handler scrapy`` runs Scrapy's
own HTTP/1.1 handler instead of webrobot's (its pool bounds idle connections per
host only), to see what the bound is for.
"""

from __future__ import annotations

import argparse
import json
import resource
import sys
import tempfile
import time
from pathlib import Path

from tests.crawling import start_crawl
from tests.manysites import ManySites

SCRAPY_HANDLER = "scrapy.core.downloader.handlers.http11.HTTP11DownloadHandler"


def crawl(workdir: Path, web: ManySites, limit: int, concurrency: int, handler: str) -> dict:
    web.log.clear()
    settings = {"CONCURRENT_REQUESTS": str(concurrency), "LOG_LEVEL": "INFO",
                "DOWNLOAD_TIMEOUT": "60", "WEBROBOT_INDEX_ENABLED": "False",
                "WEBROBOT_REPORT_ENABLED": "False"}  # fmt: skip
    if handler == "scrapy":
        settings["DOWNLOAD_HANDLERS"] = json.dumps({"http": SCRAPY_HANDLER})

    def limits() -> None:
        resource.setrlimit(resource.RLIMIT_NOFILE, (limit, limit))

    started = time.monotonic()
    result = start_crawl(workdir, args={"start_urls": ",".join(web.urls())}, settings=settings,
                         preexec_fn=limits).wait(timeout=3600)  # fmt: skip
    took = time.monotonic() - started
    hits = web.hits()
    expected = {(port, path) for port in web.ports for path in ["/robots.txt", *web.paths()]}
    return {
        "limit": limit,
        "seconds": round(took, 1),
        "items": len(result.items),
        "emfile_in_log": result.log.count("Too many open files"),
        "exhausted": result.stat("webrobot/descriptors/exhausted"),
        "idle_closed": result.stat("webrobot/descriptors/idle_closed"),
        "every_page_once": set(hits) == expected and all(n == 1 for n in hits.values()),
        "connections": web.connections,
        "exit": result.returncode,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sites", type=int, default=3000)
    parser.add_argument("--pages", type=int, default=3)
    parser.add_argument("--concurrency", type=int, default=64)
    parser.add_argument("--low", type=int, default=1024)
    parser.add_argument("--high", type=int, default=20000)
    parser.add_argument("--handler", choices=("webrobot", "scrapy"), default="webrobot")
    parser.add_argument(
        "--repeat",
        type=int,
        default=1,
        help="pairs of runs, alternating low and high (the best of each counts)",
    )
    args = parser.parse_args(argv)
    runs: list[dict] = []
    with ManySites(args.sites, args.pages) as web, tempfile.TemporaryDirectory() as tmp:
        for n in range(args.repeat):
            order = (args.high, args.low) if n % 2 == 0 else (args.low, args.high)
            for limit in order:
                web.connections = 0
                where = Path(tmp) / f"{n}-{limit}"
                runs.append(crawl(where, web, limit, args.concurrency, args.handler))
                print(json.dumps(runs[-1]), flush=True)
    high = min(r["seconds"] for r in runs if r["limit"] == args.high)
    low = min(r["seconds"] for r in runs if r["limit"] == args.low)
    print(f"{args.sites} sites x {args.pages} pages, CONCURRENT_REQUESTS={args.concurrency}, "
          f"{args.handler} handler: best {high} s at {args.high} open files, "
          f"best {low} s at {args.low} ({low / max(high, 0.001):.2f}x)")  # fmt: skip
    return 0 if all(r["every_page_once"] and not r["emfile_in_log"] for r in runs) else 1


if __name__ == "__main__":
    sys.exit(main())
