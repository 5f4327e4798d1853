"""Counts the warnings and warning log lines of the libraries webrobot runs
(:data:`webrobot.report.libraries.LIBRARIES`: Pillow, trafilatura, PDFium...) and
logs them at DEBUG instead of printing them, one per picture or page.

While the spider is open (``WEBROBOT_QUIET_LIBRARY_WARNINGS``, on by default):

* a Python warning raised in one of those libraries (the decoding of images runs
  in threads; this catches it there too) is counted in
  ``webrobot/warnings/<library>``, every occurrence (a filter makes Python hand on
  each one, not only the first from each line), and the first of each text is
  logged at DEBUG; any other warning goes on to where it went before (Scrapy's
  log), so webrobot's, Scrapy's and the project's own warnings are shown as ever;
* a WARNING log line of one of their loggers is counted the same way and logged at
  DEBUG (ERROR and above are left alone).

Both are put back as they were when the spider closes. The hooks are process-wide,
so that the warnings of images decoded in threads are caught too; the watch rules'
pictures, read before the spider opens, log theirs at DEBUG themselves
(:func:`webrobot.monitor.rules.image_hash`).
"""

from __future__ import annotations

import logging
import warnings
from typing import TYPE_CHECKING, Any, TextIO

from scrapy import signals
from scrapy.exceptions import NotConfigured

from webrobot.report.libraries import MODULES_PATTERN, library_of_file, library_of_logger
from webrobot.settingsmodel.parse import read

if TYPE_CHECKING:
    from typing import Self

    from scrapy.crawler import Crawler
    from scrapy.statscollectors import StatsCollector

logger = logging.getLogger(__name__)

STATS_PREFIX = "webrobot/warnings/"


class _DemoteLibraryLines(logging.Filter):
    """On a log handler: a library's WARNING line is counted and passed on as DEBUG."""

    def __init__(self, owner: LibraryWarnings, handler: logging.Handler) -> None:
        super().__init__()
        self.owner = owner
        self.handler = handler

    def filter(self, record: logging.LogRecord) -> bool:
        if record.levelno != logging.WARNING:
            return True
        library = library_of_logger(record.name)
        if library is None:
            return True
        if not getattr(record, "_webrobot_counted", False):  # once, whatever the handlers
            record._webrobot_counted = True
            self.owner.count(library)
        record.levelno, record.levelname = logging.DEBUG, "DEBUG"
        return self.handler.level <= logging.DEBUG


class LibraryWarnings:
    """Counts third-party libraries' warnings and logs them at DEBUG."""

    def __init__(self, crawler: Crawler) -> None:
        if not read(crawler.settings, "WEBROBOT_QUIET_LIBRARY_WARNINGS"):
            raise NotConfigured("WEBROBOT_QUIET_LIBRARY_WARNINGS is off")
        assert crawler.stats is not None
        self.stats: StatsCollector = crawler.stats
        self._told: set[tuple[str, str, str]] = set()
        self._previous: Any = None
        self._filters: list[tuple[logging.Handler, _DemoteLibraryLines]] = []
        # From the spider's opening to its closing: a crawler that is only built changes
        # nothing in the process (the hooks are process-wide).
        crawler.signals.connect(self.install, signal=signals.spider_opened)
        crawler.signals.connect(self.uninstall, signal=signals.spider_closed)
        crawler.signals.connect(self.uninstall, signal=signals.engine_stopped)

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> Self:
        return cls(crawler)

    def count(self, library: str) -> None:
        self.stats.inc_value(STATS_PREFIX + library)

    # -- Python warnings ---------------------------------------------------------
    def showwarning(
        self,
        message: Warning | str,
        category: type[Warning],
        filename: str,
        lineno: int,
        file: TextIO | None = None,
        line: str | None = None,
    ) -> None:
        library = library_of_file(filename)
        if library is None:
            self._previous(message, category, filename, lineno, file, line)
            return
        self.count(library)
        told = (library, category.__name__, str(message))
        if told not in self._told:
            self._told.add(told)
            logger.debug(
                "%s warned: %s: %s (%s:%d); each such warning is counted in %s%s",
                library, category.__name__, message, filename, lineno, STATS_PREFIX, library,
            )  # fmt: skip

    # -- switching it on and off ---------------------------------------------------
    def install(self) -> None:
        if self._previous is not None:
            return
        self._previous = warnings.showwarning
        warnings.showwarning = self.showwarning
        warnings.filterwarnings("always", module=MODULES_PATTERN)
        for handler in logging.getLogger().handlers:
            demote = _DemoteLibraryLines(self, handler)
            handler.addFilter(demote)
            self._filters.append((handler, demote))

    def uninstall(self) -> None:
        if self._previous is None:
            return
        if warnings.showwarning == self.showwarning:
            warnings.showwarning = self._previous
        self._previous = None
        warnings.filters[:] = [  # type: ignore[index]
            entry for entry in warnings.filters
            if not (entry[0] == "always" and entry[3] is not None
                    and entry[3].pattern == MODULES_PATTERN)
        ]  # fmt: skip
        warnings._filters_mutated()  # type: ignore[attr-defined]
        for handler, demote in self._filters:
            handler.removeFilter(demote)
        self._filters = []
