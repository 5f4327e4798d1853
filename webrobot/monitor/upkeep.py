"""What the monitor does once a crawl is over: the summary line a person reads, and the
upkeep that keeps a year of weekly crawls in bounded state.

Scrapy glue around :mod:`webrobot.monitor.summary` (the line) and the stores'
``compact`` and ``rotate_log`` (:mod:`webrobot.monitor.store`).
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from webrobot.monitor.summary import summary_line
from webrobot.settingsmodel.startup import setting

if TYPE_CHECKING:
    from scrapy.crawler import Crawler

    from webrobot.monitor.reportpart import ChangesTally
    from webrobot.monitor.store import PageStore

logger = logging.getLogger(__name__)


def summary(crawler: Crawler, folder: Path, tally: ChangesTally) -> str:
    """The crawl's summary line: its events counted, the entries added with
    :meth:`ChangesTally.note`, the pages found unchanged, where to read more (the
    events, the report's changes section)."""
    where = [str(folder / "events.jsonl")]
    if setting(crawler, "WEBROBOT_REPORT_ENABLED"):
        from webrobot.report.document import report_location

        report_folder, prefix = report_location(
            str(setting(crawler, "WEBROBOT_REPORT_DIR") or ""),
            [str(uri) for uri in crawler.settings.getdict("FEEDS")],
            str(getattr(crawler.spider, "_job", "") or ""),
        )
        where.append(str(Path(report_folder) / f"{prefix}report.html#changes"))
    unchanged = 0
    if crawler.stats is not None:
        unchanged = int(crawler.stats.get_value("webrobot/monitor/unchanged", 0))
    return summary_line(tally.counts, tally.summary, where, unchanged)


def keep_bounded(
    crawler: Crawler, store: PageStore, folder: Path, count: Callable[[str, int], None]
) -> None:
    """Old events out of the store, ``events.jsonl`` rotated by size or age."""
    try:
        count("webrobot/monitor/compacted", store.compact())
        mb = float(setting(crawler, "WEBROBOT_MONITOR_EVENTS_MAX_MB"))
        days = float(setting(crawler, "WEBROBOT_MONITOR_EVENTS_MAX_DAYS"))
        files = int(setting(crawler, "WEBROBOT_MONITOR_EVENTS_FILES"))
        if store.rotate_log(int(mb * 1024 * 1024), days * 86400, files, time.time()):
            logger.info("Monitor: %s rotated", folder / "events.jsonl")
            count("webrobot/monitor/rotated", 1)
    except Exception as exc:  # noqa: BLE001 - SQLite's, Redis's or the disk's errors: logged, never the close
        logger.error("Monitor: the state in %s could not be compacted: %s", folder, exc)
        count("webrobot/monitor/error", 1)
