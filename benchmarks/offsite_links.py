"""``python -m benchmarks.offsite_links``: a site whose pages link to many other sites.

A local :class:`~webrobot.demo.server.SiteServer` serves ``--pages`` pages, each
linking to two pages below it (a tree that reaches them all), a few other pages
of the site, and ``--offsite`` pages of other sites: host names of their own
(``h<n>.offsite.example``; a fifth of each page's are the first page's, linked again), which no
DNS knows and which the crawl's scope refuses. Two crawlers, interleaved in one
run, each in its own ``scrapy crawl`` process with the same settings (no
download delay, AutoThrottle off, ``--concurrency`` requests per site):

* ``addon``: a plain ``CrawlSpider`` (bare Scrapy's, ``benchmarks/bare/``) in a
  project with ``ADDONS = {"webrobot.Addon": 0}`` (``benchmarks/addon/``);
* ``webrobot``: the bundled spider of the webrobot project.

``NAME@DIR`` measures the webrobot checked out in ``DIR`` (``git archive <commit>
| tar -x -C DIR``), for a before/after table in one run. **pages** are the
distinct pages the server served; **pages/s** = pages / Scrapy's
``elapsed_time_seconds``; **offsite** = ``webrobot/url/refused/offsite``, which
must be the number of distinct off-site URLs (each refused once); **queued** =
``scheduler/enqueued`` (a link refused before the scheduler is not queued).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from webrobot.demo.server import Reply, SiteServer

PROJECT_ROOT = Path(__file__).resolve().parent.parent
#: crawler -> (settings module, spider)
CRAWLERS = {
    "addon": ("benchmarks.addon.settings", "bare"),
    "webrobot": ("webrobot.settings", "webrobot"),
}


def offsite_links(page: int, count: int) -> list[str]:
    """The off-site links of ``page``: a fifth of them the first page's, linked again."""
    shared = count // 5
    own = [f"http://h{page * count + k}.offsite.example/p" for k in range(count - shared)]
    return own + [f"http://h{k}.offsite.example/p" for k in range(shared)]


def page_html(page: int, pages: int, offsite: int) -> str:
    onsite = [f"/p/{j}" for j in (2 * page + 1, 2 * page + 2) if j < pages]
    onsite += [f"/p/{(page * 7 + k) % (pages - 1) + 1}" for k in (3, 11)]
    anchors = "\n".join(
        f'<a href="{href}">link {i}</a>'
        for i, href in enumerate(onsite + offsite_links(page, offsite))
    )
    return f"<html><head><title>Page {page}</title></head><body><h1>Page {page}</h1>{anchors}</body></html>"


def distinct_offsite(pages: int, offsite: int) -> int:
    return len({url for page in range(pages) for url in offsite_links(page, offsite)})


def serve(pages: int, offsite: int) -> SiteServer:
    server = SiteServer("offsite-links")
    server.add("/robots.txt", Reply.text("User-agent: *\nDisallow: /private/\n"))
    server.html("/", page_html(0, pages, offsite))
    server.add_prefix(
        "/p/", lambda hit: Reply.html(page_html(int(hit.path.rsplit("/", 1)[1]), pages, offsite))
    )
    return server


def crawl(
    crawler: str, server: SiteServer, settings: dict[str, str], timeout: float
) -> dict[str, Any]:
    name, _, root = crawler.partition("@")
    project = Path(root).resolve() if root else PROJECT_ROOT
    module, spider = CRAWLERS[name]
    server.hits.clear()
    with tempfile.TemporaryDirectory() as tmp:
        stats_path = Path(tmp, "stats.json")
        merged = {
            **settings,
            "WEBROBOT_STATS_FILE": str(stats_path),
            "LOG_FILE": str(Path(tmp, "crawl.log")),
            "WEBROBOT_REPORT_ENABLED": "False",
            "WEBROBOT_INDEX_ENABLED": "False",
            "WEBROBOT_PROGRESS_INTERVAL": "0",
        }
        command = [sys.executable, "-m", "scrapy", "crawl", spider, "-a",
                   f"start_urls={server.url('/')}", "-O", str(Path(tmp, "items.jsonl"))]  # fmt: skip
        for key, value in merged.items():
            command += ["-s", f"{key}={value}"]
        env = {**os.environ, "PYTHONPATH": str(project), "SCRAPY_SETTINGS_MODULE": module}
        started = time.monotonic()
        process = subprocess.Popen(command, cwd=tmp, env=env, stdout=subprocess.DEVNULL,
                                   stderr=subprocess.DEVNULL)  # fmt: skip
        try:
            process.wait(timeout)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        wall = time.monotonic() - started
        stats = json.loads(stats_path.read_text("utf-8")) if stats_path.exists() else {}
    pages = {hit.path for hit in list(server.hits) if hit.path == "/" or hit.path.startswith("/p/")}
    seconds = float(stats.get("elapsed_time_seconds") or wall)
    return {
        "crawler": crawler,
        "exit": process.returncode,
        "pages": len(pages),
        "seconds": seconds,
        "pages_per_s": len(pages) / seconds if seconds else 0.0,
        "offsite": stats.get("webrobot/url/refused/offsite", 0),
        "queued": stats.get("scheduler/enqueued", 0),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pages", type=int, default=300)
    parser.add_argument("--offsite", type=int, default=20, help="off-site links per page")
    parser.add_argument("--concurrency", type=int, default=8, help="requests in flight per site")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--crawlers", default="addon,webrobot", help="NAME[@DIR],...")
    parser.add_argument("--timeout", type=float, default=600.0, help="seconds a crawl may take")
    parser.add_argument("--settings", action="append", default=[], metavar="NAME=VALUE")
    args = parser.parse_args(argv)
    crawlers = [c for c in args.crawlers.split(",") if c]
    for crawler in crawlers:
        if crawler.partition("@")[0] not in CRAWLERS:
            parser.error(f"unknown crawler {crawler!r} (known: {', '.join(CRAWLERS)})")
    settings = {
        "DOWNLOAD_DELAY": "0", "AUTOTHROTTLE_ENABLED": "False", "LOG_LEVEL": "INFO",
        "CONCURRENT_REQUESTS": "32", "CONCURRENT_REQUESTS_PER_DOMAIN": str(args.concurrency),
        **dict(item.split("=", 1) for item in args.settings),
    }  # fmt: skip
    expected = distinct_offsite(args.pages, args.offsite)
    print(
        f"{args.pages} pages, {args.offsite} off-site links each ({expected} distinct off-site URLs)"
    )
    runs: dict[str, list[dict[str, Any]]] = {c: [] for c in crawlers}
    with serve(args.pages, args.offsite) as server:
        for _ in range(args.repeat):
            for crawler in crawlers:
                result = crawl(crawler, server, settings, args.timeout)
                runs[crawler].append(result)
                print(json.dumps(result), flush=True)
    print()
    print("| crawler | pages | seconds | pages/s | offsite refused | queued | checks |")
    print("|---|---:|---:|---:|---:|---:|---|")
    for crawler, results in runs.items():
        problems = sorted(
            {f"exit {r['exit']}" for r in results if r["exit"]}
            | {f"{r['pages']} pages" for r in results if r["pages"] != args.pages}
            | {f"offsite {r['offsite']} != {expected}" for r in results if r["offsite"] != expected}
        )
        print(
            f"| {crawler} | {statistics.median(r['pages'] for r in results):.0f} "
            f"| {statistics.median(r['seconds'] for r in results):.1f} "
            f"| {statistics.median(r['pages_per_s'] for r in results):.0f} "
            f"| {statistics.median(r['offsite'] for r in results):.0f} "
            f"| {statistics.median(r['queued'] for r in results):.0f} "
            f"| {'; '.join(problems) or 'ok'} |"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
