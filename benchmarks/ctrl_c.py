"""Benchmark: how long a crawl at webrobot's default pace takes to stop after Ctrl-C.

    python -m benchmarks.ctrl_c [--sites 3] [--pages 40] [--latency 0.3] [--slow 1]
                                [--after 4] [--grace 2] [--runs 3]

Local sites on loopback (``SiteServer``), each page answering after ``--latency``
seconds (a real blog's time to first byte) and ``--slow`` pages per site after 25 s
(a page that hangs; the first ones linked). A ``scrapy crawl`` with ``JOBDIR`` and the default politeness
(``DOWNLOAD_DELAY`` 1 s, AutoThrottle, one request per site at a time) gets SIGINT
``--after`` seconds into the crawl, once a slow page is in flight; the time from
the signal to the process's exit is measured, with the exit status and finish
reason. Run once with ``WEBROBOT_SHUTDOWN_GRACE = --grace`` (the downloads in
flight let go after it, the queued ones at once) and once with a grace longer than
``DOWNLOAD_TIMEOUT`` (every download in flight waited out, as a stop that lets
nothing go does).
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from pathlib import Path

from tests.crawling import start_crawl, wait_until
from webrobot.demo.server import Hit, Reply, SiteServer
from webrobot.settingsmodel.model import BY_NAME

SLOW_ANSWER = 25.0
#: webrobot's own pace: the crawl helper's fast test settings are put back to the defaults.
DEFAULT_PACE = {
    name: str(BY_NAME[name].default)
    for name in ("DOWNLOAD_DELAY", "AUTOTHROTTLE_ENABLED", "RETRY_TIMES", "DOWNLOAD_TIMEOUT")
}


#: The slow pages whose request has arrived (a hit is recorded only once answered).
SLOW_ASKED: list[str] = []


def slow_page(hit: Hit) -> Reply:
    SLOW_ASKED.append(hit.path)
    return Reply.html("<title>slow</title>", delay=SLOW_ANSWER)


def build_sites(count: int, pages: int, latency: float, slow: int) -> list[SiteServer]:
    sites = []
    for n in range(count):
        site = SiteServer(f"site{n}").start()
        site.add("/robots.txt", Reply.text(""))
        links = "".join(f"<a href='/p{i}'>p{i}</a>" for i in range(pages))
        site.add("/", Reply.html(f"<title>home</title><body>{links}</body>", delay=latency))
        for i in range(pages):
            page = Reply.html(f"<title>p{i}</title><body>{'x' * 2000}</body>", delay=latency)
            site.add(f"/p{i}", slow_page if i < slow else page)
        sites.append(site)
    return sites


def stop_once(folder: Path, sites: list[SiteServer], after: float, grace: float) -> dict:
    settings = {**DEFAULT_PACE, "JOBDIR": str(folder / "job"), "LOG_LEVEL": "INFO",
                "WEBROBOT_SHUTDOWN_GRACE": str(grace)}  # fmt: skip
    for site in sites:
        site.hits.clear()
    SLOW_ASKED.clear()
    start_urls = ",".join(site.url("/") for site in sites)
    crawl = start_crawl(folder, args={"start_urls": start_urls}, settings=settings)
    started = time.monotonic()

    def slow_in_flight() -> bool:
        return time.monotonic() - started > after and bool(SLOW_ASKED)

    try:
        wait_until(slow_in_flight, timeout=120, what="the crawl under way")
    finally:
        asked = time.monotonic()
        crawl.interrupt()
    result = crawl.wait(timeout=600)
    took = time.monotonic() - asked
    return {
        "stop_s": round(took, 2),
        "status": result.returncode,
        "reason": result.stats.get("finish_reason"),
        "let_go": result.stat("webrobot/shutdown/let_go"),
        "pages": sum(len(site.hits) for site in sites),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sites", type=int, default=3)
    parser.add_argument("--pages", type=int, default=40)
    parser.add_argument("--latency", type=float, default=0.3)
    parser.add_argument("--slow", type=int, default=1)
    parser.add_argument("--after", type=float, default=4.0)
    parser.add_argument("--grace", type=float, default=2.0)
    parser.add_argument("--runs", type=int, default=3)
    options = parser.parse_args()
    sites = build_sites(options.sites, options.pages, options.latency, options.slow)
    waited_out = float(DEFAULT_PACE["DOWNLOAD_TIMEOUT"]) + 5
    try:
        for label, grace in (("let go", options.grace), ("waited out", waited_out)):
            runs = []
            for _ in range(options.runs):
                with tempfile.TemporaryDirectory() as folder:
                    runs.append(stop_once(Path(folder), sites, options.after, grace))
            stops = [run["stop_s"] for run in runs]
            print(f"{label:>10} (grace {grace:g} s): stop median {statistics.median(stops):.2f} s, "
                  f"max {max(stops):.2f} s; runs: {runs}")  # fmt: skip
    finally:
        for site in sites:
            site.stop()


if __name__ == "__main__":
    main()
