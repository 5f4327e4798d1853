"""Settings that cannot be used stop the crawl with one clear line: the one route.

Whoever finds a value that cannot be used (the add-on's check of every
setting when the crawler starts, a component reading a file a setting names,
a site config) hands the error, a :class:`~webrobot.settingsmodel.parse.SettingValueError`
or a :class:`~webrobot.sites.config.ConfigError`, to :func:`setting_error`. It is
kept as the spider's ``config_error`` (any spider: the ``webrobot`` spider
declares the attribute, others get it), and the spider is closed when it
opens, with reason ``config_error`` and one ERROR line naming the setting,
the value and what was expected, before any request (:class:`webrobot.Addon`
and the ``webrobot`` spider do that); ``scrapy crawl`` exits with status 2.
Before the spider exists the error is raised.

Once every component is built, and before the engine opens the spider (where the
feeds, the index, the report, the archive are opened), :func:`refuse_to_open` ends
a crawl that carries an error with :class:`StartupError` (the add-on installs it):
nothing is opened, so an existing feed, index or report is left as it was. Only the
stats file (``WEBROBOT_STATS_FILE``) is written, with reason ``config_error``.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

from scrapy.exceptions import NotConfigured

from webrobot.settingsmodel.parse import error_lines, read

if TYPE_CHECKING:
    from scrapy.crawler import Crawler

logger = logging.getLogger(__name__)

#: The finish reason of a crawl refused before it started.
FINISH_REASON = "config_error"
#: Attribute a command sets on a crawler when it prints the start-up error itself, as
#: the last line on the terminal: the error then goes to the log only when the log
#: is a file (``LOG_FILE``), so that a terminal shows it once.
COMMAND_SAYS_ERRORS = "_webrobot_command_says_errors"

#: Sent when a crawl is refused before its spider opens. kwargs: error (the exception)
startup_refused = object()


class StartupError(Exception):
    """A crawl refused before anything was opened: ``error`` is why (a
    :class:`~webrobot.settingsmodel.parse.SettingValueError` or a ``ConfigError``)."""

    def __init__(self, error: BaseException) -> None:
        super().__init__(str(error))
        self.error = error

    def lines(self) -> list[str]:
        return error_lines(self.error)


def refuse_to_open(crawler: Crawler) -> None:
    """Raise :class:`StartupError` if anything built so far found an error (the
    spider's ``config_error``); logs each line of it once at ERROR, counts it in the
    stats and sends :data:`startup_refused` (the stats file is written)."""
    error = getattr(crawler.spider, "config_error", None)
    if error is None:
        return
    if not getattr(crawler, COMMAND_SAYS_ERRORS, False) or crawler.settings.get("LOG_FILE"):
        for line in error_lines(error):
            logger.error("webrobot cannot start: %s", line)
    if crawler.stats is not None:
        crawler.stats.set_value("webrobot/config_error", str(error))
        crawler.stats.set_value("finish_reason", FINISH_REASON)
    crawler.signals.send_catch_log(signal=startup_refused, error=error)
    for name in UNHANDLED_ERROR_LOGGERS:
        if _QUIET not in logging.getLogger(name).filters:
            logging.getLogger(name).addFilter(_QUIET)
    raise StartupError(error)


#: Where an error nothing handled is logged with its traceback at the end of a crawl
#: run by Scrapy's own ``crawl`` command: asyncio's "Task exception was never
#: retrieved", Twisted's "Unhandled error in Deferred" (through Scrapy's observer).
UNHANDLED_ERROR_LOGGERS = ("asyncio", "twisted")


class QuietRefusal(logging.Filter):
    """Drops the traceback of a :class:`StartupError` nothing handled: its lines were
    logged once already, and Scrapy's command exits with status 1."""

    def filter(self, record: logging.LogRecord) -> bool:
        error = record.exc_info[1] if record.exc_info else None
        if isinstance(error, StartupError):
            return False
        return f"{StartupError.__module__}.{StartupError.__name__}" not in record.getMessage()


_QUIET = QuietRefusal()


def setting_error(crawler: Crawler, error: Exception) -> NotConfigured:
    """Report ``error`` to the spider; returns the ``NotConfigured`` that a
    middleware raises to step aside (the crawl will not start anyway)."""
    spider = crawler.spider
    if spider is None:
        raise error
    if getattr(spider, "config_error", None) is None:
        spider.config_error = error  # type: ignore[attr-defined]  # any spider may carry it
    return NotConfigured(str(error))


def setting(crawler: Crawler, name: str) -> Any:
    """The typed value of a declared setting; a value that cannot be used takes
    the route of :func:`setting_error` and the declared default is returned."""
    try:
        return read(crawler.settings, name)
    except ValueError as exc:
        setting_error(crawler, exc)
        return read({}, name)


def non_negative_setting(crawler: Crawler, name: str) -> int:
    """An integer setting that is a limit (0: no limit)."""
    return int(setting(crawler, name))


def scrapy_setting_names() -> frozenset[str]:
    """Every setting Scrapy declares a default for (``scrapy.settings.default_settings``):
    the names a misspelt setting is compared with, beside webrobot's own."""
    from scrapy.settings import default_settings

    return frozenset(name for name in dir(default_settings) if name.isupper())
