"""Keep a seen-store under ``JOBDIR``: loaded when a job resumes, written at a clean
close (and every ``WEBROBOT_SEEN_CHECKPOINT_INTERVAL`` seconds if that is set).

Checkpoints, not a log: the store is written whole (atomically) at those
moments, never once per URL. By default only at a clean close, because that
is the only moment Scrapy's own JOBDIR request queue is consistent too: a
store saved later than the queue would remember URLs that the queue then lost
after a crash, and those pages would never be crawled.
"""

from __future__ import annotations

import logging
import os
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

from scrapy.utils.asyncio import create_looping_call
from scrapy.utils.job import job_dir

from webrobot.seen.storefile import Stored, load_store, read_header, save_store
from webrobot.seen.stores import StoreFileError
from webrobot.settingsmodel.parse import read

if TYPE_CHECKING:
    from collections.abc import Callable

    from scrapy.crawler import Crawler

logger = logging.getLogger(__name__)


class StoreCheckpoint:
    def __init__(self, crawler: Crawler, filename: str, what: str) -> None:
        self.crawler = crawler
        self.what = what  # for messages: "visited-URL store", "content fingerprints"
        jobdir = job_dir(crawler.settings)
        self.path: Path | None = Path(jobdir, filename) if jobdir else None
        self.interval = read(crawler.settings, "WEBROBOT_SEEN_CHECKPOINT_INTERVAL")
        self._task: Any = None

    def load(self) -> Stored | None:
        """The store saved by an earlier run of this job, or None (none, or unusable)."""
        if self.path is None or not self.path.exists():
            return None
        started = time.monotonic()
        try:
            store = load_store(self.path)
            clean = read_header(self.path).get("clean", True)
        except StoreFileError as exc:
            aside = self.path.with_name(self.path.name + ".bad")
            try:
                os.replace(self.path, aside)  # kept for a person to look at, not overwritten
                kept = f"the file is kept as {aside}"
            except OSError as move_error:
                kept = f"the file could not be set aside: {move_error}"
            assert self.crawler.stats is not None
            self.crawler.stats.inc_value("webrobot/dupes/checkpoint_unreadable")
            logger.error(
                "Cannot resume the %s: %s. Starting with an empty one (%s).", self.what, exc, kept
            )
            return None
        if not clean:
            logger.warning(
                "The last run of this job did not close cleanly: its %s is from a periodic "
                "checkpoint, and pages found after it may be missed or fetched again", self.what,
            )  # fmt: skip
        logger.info(
            "Resumed the %s from %s: %d keys in %.2f s",
            self.what, self.path, len(store), time.monotonic() - started,
        )  # fmt: skip
        return store

    def save(self, store: Stored, clean: bool = True) -> None:
        if self.path is None:
            return
        started = time.monotonic()
        try:
            size = save_store(store, self.path, clean=clean, saved_at=time.time())
        except OSError as exc:
            logger.error("Cannot write the %s checkpoint %s: %s", self.what, self.path, exc)
            return
        logger.info(
            "Saved the %s to %s: %d keys, %d bytes in %.2f s",
            self.what, self.path, len(store), size, time.monotonic() - started,
        )  # fmt: skip

    def start_periodic(self, get_store: Callable[[], Stored]) -> None:
        if self.path is None or self.interval <= 0 or self._task is not None:
            return
        self._task = create_looping_call(lambda: self.save(get_store(), clean=False))
        self._task.start(self.interval, now=False)

    def stop_periodic(self) -> None:
        if self._task is not None and self._task.running:
            self._task.stop()
        self._task = None
