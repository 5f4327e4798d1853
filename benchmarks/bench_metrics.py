"""What metrics cost a crawl (``WEBROBOT_METRICS_PORT``), per page.

Metrics add no work per request: the crawl's stats and report tally are kept
anyway, and are read only when ``/metrics`` or the live status page is asked
for. So the cost per page is the cost of one scrape, and of one status page,
spread over the pages crawled between two of them. This measures both on the
state of a crawl of ``--sites`` sites (the scrape reads every site's tally, the
page lists every site), then converts them to a share of the crawl's CPU per
page at the benchmark crawl's speed, for Prometheus scraping every
``--interval`` seconds and a person keeping the status page open (it reloads
every 10 s). The crawl-level A/B (``python -m benchmarks.run --crawlers
webrobot,webrobot:WEBROBOT_METRICS_PORT=0 --scrape-metrics 1``) measures the
same thing end to end, within the noise of a whole crawl.
"""

from __future__ import annotations

import argparse
import random
from typing import Any

from benchmarks.micro import fmt_time, per_call, print_table, report_target, size
from webrobot.report.document import build_report
from webrobot.report.health import HealthThresholds
from webrobot.report.html import render_html
from webrobot.report.kinds import PAGE
from webrobot.report.metricsmodel import LiveState, values
from webrobot.report.model import CrawlTally

#: The benchmark crawl of webrobot on the single-site web (docs/benchmarks.md):
#: CPU seconds per 1000 pages and pages per second.
CRAWL_CPU_PER_PAGE = 3.1e-3
CRAWL_PAGES_PER_SECOND = 260.0
TARGET = 0.03


def crawl_state(sites: int, pages: int, seed: int = 7) -> tuple[CrawlTally, dict[str, Any]]:
    rng = random.Random(seed)
    tally = CrawlTally()
    keys = [f"http://site{i}.test:80" for i in range(sites)]
    for n in range(pages):
        site = keys[n % sites]
        tally.scheduled(site)
        tally.dequeued(site)
        tally.reached_downloader(site, robots=False)
        tally.left_downloader(site, PAGE, now=n / CRAWL_PAGES_PER_SECOND)
        status = 200 if rng.random() < 0.95 else rng.choice((301, 404, 500))
        tally.downloaded(site, status, 15_000, PAGE, now=n / CRAWL_PAGES_PER_SECOND)
        tally.item_scraped(site)
        if rng.random() < 0.3:
            tally.refused(site, rng.choice(("robots_txt", "offsite", "depth", "repeated_segment")))
    for site in keys:
        tally.robots_resolved(site, 0.0, {"outcome": "rules", "status": 200})
    # Stats of that size: a few hundred keys, as a real crawl's.
    stats: dict[str, Any] = {f"downloader/response_status_count/{c}": pages for c in (200, 404)}
    stats.update({f"webrobot/robots/outcome/{o}": sites for o in ("rules", "unavailable")})
    stats.update({f"webrobot/politeness/delay_source/{s}": pages for s in ("crawl_delay",)})
    stats.update({f"scrapy/other/{i}": i for i in range(300)})
    return tally, stats


def scrape(tally: CrawlTally, stats: dict[str, Any]) -> bytes:
    """What answering GET /metrics does: read the values, write the text format."""
    from prometheus_client import CollectorRegistry, generate_latest

    from webrobot.report.metrics import CrawlCollector

    class Server:
        def values(self) -> dict[str, Any]:
            live = LiveState(started=0.0, frontier=10, redis=True, leases=4, index=(5, 5))
            return values(stats, tally, 60.0, live)

    registry = CollectorRegistry(auto_describe=False)
    registry.register(CrawlCollector(Server()))  # type: ignore[arg-type]
    return generate_latest(registry)


def status_page(tally: CrawlTally) -> str:
    """What answering GET / does: the report as it stands, as HTML."""
    report = build_report(tally, 60.0, HealthThresholds(), {"spider": "bench", "as_of": "now"})
    return render_html(report, refresh=10)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.bench_metrics")
    parser.add_argument("--interval", type=float, default=15.0, help="Prometheus scrape interval")
    args = parser.parse_args(argv)
    pages = size(10_000, 2000, 200)
    rows = []
    worst = 0.0
    for sites in (1, 16, 1000):
        tally, stats = crawl_state(sites, pages)
        status_page(tally)  # imports pygal once, as the first page load does
        per_scrape = per_call(lambda state: scrape(*state), [(tally, stats)], repeat=3)
        per_page_view = per_call(status_page, [tally], repeat=3, min_seconds=0.2)
        pages_between_scrapes = args.interval * CRAWL_PAGES_PER_SECOND
        pages_between_views = 10.0 * CRAWL_PAGES_PER_SECOND
        share_scrape = per_scrape / pages_between_scrapes / CRAWL_CPU_PER_PAGE
        share_both = share_scrape + per_page_view / pages_between_views / CRAWL_CPU_PER_PAGE
        if sites <= 16:
            worst = max(worst, share_both)
        rows.append((sites, fmt_time(per_scrape), fmt_time(per_page_view),
                     f"{100 * share_scrape:.3f} %", f"{100 * share_both:.3f} %"))  # fmt: skip
    print_table(
        f"per scrape and per status page, on a crawl of {pages} pages; shares of the crawl's CPU per "
        f"page at {CRAWL_PAGES_PER_SECOND:.0f} pages/s, {CRAWL_CPU_PER_PAGE * 1e3:.1f} ms CPU per page, "
        f"scraped every {args.interval:g} s",
        ("sites", "per scrape", "per status page", "scrapes", "scrapes + page open"),
        rows,
    )
    report_target(
        "metrics on: at most 3 % more CPU per page",
        f"{100 * worst:.2f} % (scrapes every {args.interval:g} s and the status page open, up to 16 sites)",
        worst <= TARGET,
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
