"""The crawl report, written when the spider closes: ``report.json`` (every
number) and ``report.html`` (one self-contained page), plus the health checks,
which are also logged as warnings.

Where: ``WEBROBOT_REPORT_DIR`` if set; else next to the first local items feed
(so a Scrapyd job's report lands in its items folder as ``<job>.report.html``);
else ``report/`` in the current folder (:func:`webrobot.report.document.report_location`);
a Scrapyd job's files are named after the job where no feed names them.
"""

from __future__ import annotations

import json
import logging
import time
from collections import Counter
from pathlib import Path
from typing import TYPE_CHECKING, Any

from scrapy import signals
from scrapy.exceptions import NotConfigured

from webrobot import signals as webrobot_signals
from webrobot.report.budget import budget_refusals, pagecount_budget, site_budget
from webrobot.report.collector import ReportCollector, waiting_requests
from webrobot.report.document import build_report, iso, report_location, site_report
from webrobot.report.frontier import freshness_report, priorities_report
from webrobot.report.givenup import fold_into_dead_hosts, not_held
from webrobot.report.health import HealthThresholds, fold_dead_hosts
from webrobot.report.hosts import hosts_report, refused_only_hosts
from webrobot.report.html import render_html
from webrobot.settingsmodel.parse import read
from webrobot.urls.sitekey import host_key
from webrobot.urls.templatemiddleware import template_tally
from webrobot.urls.upgrademiddleware import host_notes
from webrobot.version import __version__

if TYPE_CHECKING:
    from typing import Self

    from scrapy import Spider
    from scrapy.crawler import Crawler

logger = logging.getLogger(__name__)


def frontier_report(crawler: Crawler) -> dict[str, Any]:
    """The report's frontier sections: pages and refusals per URL template,
    requests per priority rank."""
    tally = template_tally(crawler)
    stats = crawler.stats.get_stats() if crawler.stats is not None else {}
    config = getattr(crawler.spider, "config", None)
    return {
        "templates": tally.report() if tally is not None else [],
        "templates_single_urls": tally.single_urls() if tally is not None else 0,
        "priorities": priorities_report(stats, getattr(config, "priorities", ())),
        "freshness": freshness_report(stats),
    }


def budgets_report(
    crawler: Crawler, collector: ReportCollector, reason: str
) -> list[dict[str, Any]]:
    """The page budgets that apply to the crawl: reached or not, and by how much and why
    the crawl passed one (:mod:`webrobot.report.budget`)."""
    hosts: dict[str, tuple[Counter[str], int]] = {}
    for site, tally in collector.tally.sites.items():
        sent, refused = hosts.get(host_key(site), (Counter(), 0))
        hosts[host_key(site)] = (sent + tally.sent, refused + budget_refusals(tally.refused))
    found = (
        pagecount_budget(
            collector.pagecount, collector.handed, reason, collector.pagecount_reached,
            collector.after_pagecount,
        ),
        site_budget(read(crawler.settings, "WEBROBOT_MAX_PAGES_PER_SITE"), hosts),
    )  # fmt: skip
    return [budget for budget in found if budget is not None]


def thresholds(crawler: Crawler) -> HealthThresholds:
    settings = crawler.settings
    return HealthThresholds(
        max_error_rate=read(settings, "WEBROBOT_HEALTH_MAX_ERROR_RATE"),
        max_trap_refusals=read(settings, "WEBROBOT_HEALTH_MAX_TRAP_REFUSALS"),
        robots_required=read(settings, "ROBOTSTXT_OBEY"),
    )


def current_report(
    crawler: Crawler,
    collector: ReportCollector,
    limits: HealthThresholds,
    reason: str,
    finished: float | None,
) -> dict[str, Any]:
    """The report as the crawl stands now (``finished``: epoch seconds, None while it runs)."""
    now = collector.now()
    spider = crawler.spider
    meta: dict[str, Any] = {
        "webrobot_version": __version__,
        "spider": getattr(spider, "name", ""),
        "started_at": iso(collector.started_wall),
        "finished_at": iso(finished),
        "elapsed_seconds": round(now, 3),
        "finish_reason": reason,
    }
    stats = crawler.stats.get_stats() if crawler.stats is not None else {}
    meta["disk"] = {
        "pauses": stats.get("webrobot/disk/pauses", 0),
        "paused_seconds": stats.get("webrobot/disk/paused_seconds", 0),
        "write_errors": stats.get("webrobot/disk/write_error", 0),
        "failed_write": stats.get("webrobot/disk/failed", ""),
    }
    # The parts first: the hosts given up as dead (``dead_hosts``) say which site keys
    # are not sites of the crawl.
    parts: dict[str, Any] = {}
    for _, part in crawler.signals.send_catch_log(
        signal=webrobot_signals.report_parts, finished=finished is not None
    ):
        if isinstance(part, dict):
            parts.update(part)
    tally = collector.tally
    dead = {str(row["host"]) for row in parts.get("dead_hosts") or ()}
    leave_out = tally.given_up_sites(dead)
    report = build_report(tally, now, limits, meta, leave_out)
    report.update(frontier_report(crawler))
    sites = {key: t for key, t in tally.sites.items() if key not in leave_out}
    report["hosts"] = hosts_report([k for k, t in sites.items() if t.crawled], host_notes(crawler))
    report["hosts_refused_only"] = refused_only_hosts(sites, report["hosts"])
    report["budgets"] = budgets_report(crawler, collector, reason)
    report.update(parts)
    if "dead_hosts" in parts:
        left_out = {key: site_report(tally.sites[key], tally, now) for key in leave_out}
        report["dead_hosts"] = fold_into_dead_hosts(parts["dead_hosts"], left_out)
    if "held" in parts:
        report["held"] = not_held(parts["held"], dead, tally.dead_hosts)
    health = report["health"]
    health["flags"] = fold_dead_hosts(health["flags"], report.get("dead_hosts") or ())
    health["ok"] = not health["flags"]
    if "changes" in report:  # what changed is what a monitored crawl's reader looks for first
        report = {"changes": report.pop("changes"), **report}
    if finished is None:
        report["as_of"] = iso(time.time())
        report["now"] = {
            # What the progress line says (the scheduler's count), not the report's estimate.
            "frontier": waiting_requests(crawler, tally),
            "in_flight": tally.in_downloader(),
            "sites": dict(tally.states(now)),
        }
    return report


class CrawlReport:
    """Writes the crawl report (report.json, report.html) and its health checks when the spider
    closes."""

    def __init__(self, crawler: Crawler) -> None:
        if not read(crawler.settings, "WEBROBOT_REPORT_ENABLED"):
            raise NotConfigured("WEBROBOT_REPORT_ENABLED is off")
        self.crawler = crawler
        self.collector = ReportCollector.of(crawler)
        self.limits = thresholds(crawler)
        crawler.signals.connect(self.spider_closed, signal=signals.spider_closed)

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> Self:
        return cls(crawler)

    def location(self, job: str = "") -> tuple[Path, str]:
        feeds = self.crawler.settings.getdict("FEEDS")
        folder, prefix = report_location(
            read(self.crawler.settings, "WEBROBOT_REPORT_DIR") or "",
            [str(uri) for uri in feeds],
            job,
        )
        return Path(folder), prefix

    def spider_closed(self, spider: Spider, reason: str) -> None:
        report = current_report(self.crawler, self.collector, self.limits, reason, time.time())
        for flag in report["health"]["flags"]:
            logger.warning("Crawl health: %s: %s", flag["site"], flag["message"])
        for budget in report["budgets"]:
            logger.info("Crawl budget: %s", budget["message"])
        # Scrapyd passes each job's id as the spider argument _job.
        folder, prefix = self.location(str(getattr(spider, "_job", "") or ""))
        json_path, html_path = folder / f"{prefix}report.json", folder / f"{prefix}report.html"
        try:
            folder.mkdir(parents=True, exist_ok=True)
            json_path.write_text(json.dumps(report, indent=1), encoding="utf-8")
            html_path.write_text(render_html(report), encoding="utf-8")
        except OSError as exc:
            logger.error("Could not write the crawl report to %s: %s", folder, exc)
            return
        flags = len(report["health"]["flags"])
        logger.info(
            "Crawl report: %s (%d sites, %s)", html_path, report["totals"]["sites_crawled"],
            f"{flags} health warnings" if flags else "healthy",
        )  # fmt: skip
        assert self.crawler.stats is not None
        self.crawler.stats.set_value("webrobot/report/health_flags", flags)
