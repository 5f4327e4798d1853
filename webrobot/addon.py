"""``ADDONS = {"webrobot.Addon": 0}``: every part of webrobot, on, in any Scrapy project.

The add-on puts each setting of :mod:`webrobot.settingsmodel.model` at its default
with Scrapy's ``"addon"`` priority (so a project's ``settings.py``, a spider's
``custom_settings``, a site config and ``-s`` override any of them), enables the
components listed there (a component the project already lists keeps the
project's order, or stays disabled with ``None``), switches the crawl to Redis
when ``WEBROBOT_REDIS_URL`` is set, installs the browser's download handler when
``WEBROBOT_RENDER`` asks for rendering, sends the requests held for robots.txt
through the crash-safe frontier when there is one (``JOBDIR``), and checks
every value once.

A webrobot part that is off because nothing asks for it (no ``JOBDIR``, no
``WEBROBOT_WARC_DIR``...) is not a warning: Scrapy's ``Disabled <part>: <why>``
lines for webrobot's own components go to DEBUG, and one INFO line names them
all with their reasons when the spider opens (:class:`QuietDisabled`).

A value that cannot be used takes the one route of a bad setting
(:func:`webrobot.settingsmodel.startup.setting_error`): the spider is closed when it opens,
with reason ``config_error`` and one ERROR line naming the setting, the value
and what was expected, before any request. So does a feature switched on without
its extra (``webrobot[redis]``, ``webrobot[browser]``): the line names the extra
to install.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from scrapy import signals as scrapy_signals
from scrapy.exceptions import CloseSpider
from scrapy.utils.misc import load_object

from webrobot import compat
from webrobot.distributed.addon import switch_to_redis
from webrobot.frontier.scheduler import hold_new_requests_in_frontier
from webrobot.monitor.asks import asked_parts
from webrobot.render.middleware import configure_rendering
from webrobot.settingsmodel.checks import (
    check,
    misspelt_setting_message,
    misspelt_settings,
    unknown_setting_message,
    unknown_settings,
)
from webrobot.settingsmodel.model import BY_NAME, COMPONENTS, SETTINGS
from webrobot.settingsmodel.parse import SettingValueError, error_lines, read
from webrobot.settingsmodel.startup import refuse_to_open, scrapy_setting_names, setting_error
from webrobot.sites.config import ConfigError

if TYPE_CHECKING:
    from typing import Self

    from scrapy.crawler import Crawler
    from scrapy.settings import BaseSettings

logger = logging.getLogger(__name__)

#: Unknown ``WEBROBOT_*`` names already warned about in this process (once each).
_WARNED: set[str] = set()


#: Scrapy's message for a component that raised ``NotConfigured`` with a reason.
DISABLED_MESSAGE = "Disabled %(clspath)s: %(eargs)s"
#: The loggers Scrapy writes it with (components, add-ons).
DISABLED_LOGGERS = ("scrapy.middleware", "scrapy.addons")


class QuietDisabled(logging.Filter):
    """Turns Scrapy's ``Disabled <webrobot part>: <why>`` WARNINGs of one crawler into
    DEBUG records and keeps them, for the one INFO line of :meth:`summary`."""

    def __init__(self, crawler: Crawler) -> None:
        super().__init__()
        self.crawler = crawler
        self.parts: list[tuple[str, str]] = []

    def filter(self, record: logging.LogRecord) -> bool:
        args = record.args
        if (
            record.msg == DISABLED_MESSAGE and isinstance(args, dict)
            and str(args.get("clspath", "")).startswith("webrobot.")
            and getattr(record, "crawler", None) is self.crawler
        ):  # fmt: skip
            self.parts.append((str(args["clspath"]).rsplit(".", 1)[-1], str(args["eargs"])))
            record.levelno, record.levelname = logging.DEBUG, "DEBUG"
        return True

    def install(self) -> None:
        for name in DISABLED_LOGGERS:
            logging.getLogger(name).addFilter(self)

    def remove(self) -> None:
        for name in DISABLED_LOGGERS:
            logging.getLogger(name).removeFilter(self)

    def summary(self) -> None:
        """Log the parts that are off, once, and stop filtering."""
        self.remove()
        if self.parts:
            logger.info(
                "webrobot parts off as configured (%d): %s",
                len(self.parts), "; ".join(f"{name} ({why})" for name, why in self.parts),
            )  # fmt: skip


#: Scrapy's loggers of a crawler's start-up lines: add-ons, settings, components.
STARTUP_LOGGERS = ("scrapy.addons", "scrapy.crawler", "scrapy.middleware")


class QuietRefusedStart(logging.Filter):
    """Drops Scrapy's start-up INFO lines (enabled add-ons, overridden settings, enabled
    components: about ninety) of a crawler that will not start, while its components
    are built: the setting error is the line to read. Warnings and errors pass, and
    so do other crawlers' lines."""

    def __init__(self, crawler: Crawler) -> None:
        super().__init__()
        self.crawler = crawler

    def filter(self, record: logging.LogRecord) -> bool:
        if record.levelno > logging.INFO:
            return True
        owner = getattr(record, "crawler", None)  # Scrapy's "Overridden settings" names none
        return owner is not None and owner is not self.crawler

    def install(self) -> None:
        for name in STARTUP_LOGGERS:
            logging.getLogger(name).addFilter(self)

    def remove(self) -> None:
        for name in STARTUP_LOGGERS:
            logging.getLogger(name).removeFilter(self)


class Addon:
    def __init__(self, crawler: Crawler) -> None:
        self.crawler = crawler
        self.quiet = QuietDisabled(crawler)
        self.quiet.install()
        self.refused_start = QuietRefusedStart(crawler)
        # Every error found while the components are built ends the crawl before the
        # spider opens: no feed, index or report is opened.
        compat.before_spider_opens(crawler, self._before_spider_opens)
        crawler.signals.connect(self._spider_opened, signal=scrapy_signals.spider_opened)

    def _before_spider_opens(self) -> None:
        self.refused_start.remove()
        refuse_to_open(self.crawler)

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> Self:
        return cls(crawler)

    def update_settings(self, settings: BaseSettings) -> None:
        for setting in SETTINGS:
            settings.set(setting.name, setting.default, priority="addon")
        for group, components in COMPONENTS.items():
            _enable(settings, group, {path: c.order for path, c in components.items()})
        _keep_http_handlers(settings)
        _leave_out_when_off(settings)
        switch_to_redis(self.crawler, settings)
        hold_new_requests_in_frontier(settings)
        warn_unknown(settings)
        for problem in [*check(settings.get), *_ask_for_parts(settings)]:
            setting_error(self.crawler, problem)
            # Back to the default, so every component builds and the crawl
            # stops cleanly when the spider opens (with the error above).
            default = BY_NAME[problem.name].default if problem.name in BY_NAME else None
            settings.set(
                problem.name, default, priority=settings.getpriority(problem.name) or "addon"
            )
        try:
            configure_rendering(self.crawler)
        except ConfigError as exc:
            setting_error(self.crawler, exc)
        if getattr(self.crawler.spider, "config_error", None) is not None:
            write_no_outputs(settings)
            # Known now, before Scrapy lists what it builds: the error is the one line.
            self.refused_start.install()

    def _spider_opened(self) -> None:
        self.refused_start.remove()  # (removed already where the check before opening runs)
        self.quiet.summary()
        error = getattr(self.crawler.spider, "config_error", None)
        if error is None:
            return
        for line in error_lines(error):
            logger.error("webrobot cannot start: %s", line)
        assert self.crawler.stats is not None
        self.crawler.stats.set_value("webrobot/config_error", str(error))
        raise CloseSpider("config_error")


#: What a crawl that cannot start would otherwise leave behind: an empty feed, an empty
#: index, a report saying "0 sites, healthy", empty WARC files.
NO_OUTPUTS = {
    "FEEDS": {},
    "WEBROBOT_INDEX_ENABLED": False,
    "WEBROBOT_REPORT_ENABLED": False,
    "WEBROBOT_WARC_DIR": "",
}


def write_no_outputs(settings: BaseSettings) -> None:
    """A crawl that will not start (a config error) writes nothing a person could take
    for a result: its feeds, index, report and archive are switched off before any
    extension opens them (the stats file, which says why it stopped, stays)."""
    for name, value in NO_OUTPUTS.items():
        settings.set(name, value, priority=max(settings.getpriority(name) or 0, 40))


def warn_unknown(settings: BaseSettings) -> list[str]:
    """Warn once per process about each ``WEBROBOT_*`` setting that webrobot does not
    declare (a misspelling, most likely), naming the closest declared one, and about
    each other setting that neither Scrapy nor webrobot declares but that is close to
    one that is (``DOWNLOAD_DELY``: did you mean ``DOWNLOAD_DELAY``?; a project's own
    settings, like no known one, are left alone); returns the lines warned now."""
    names = list(settings.attributes)
    found = [(name, unknown_setting_message(name, c)) for name, c in unknown_settings(names)]
    found += [
        (name, misspelt_setting_message(name, closest))
        for name, closest in misspelt_settings(names, scrapy_setting_names())
    ]
    lines = []
    for name, line in found:
        if name in _WARNED:
            continue
        _WARNED.add(name)
        lines.append(line)
        logger.warning("%s", line)
    return lines


def _keep_http_handlers(settings: BaseSettings) -> None:
    """A project's ``DOWNLOAD_HANDLERS`` (for another scheme, say) keeps webrobot's
    handler for the schemes it does not name (http, https: the bounded keep-alive
    pool of :mod:`webrobot.politeness.connections`)."""
    handlers = settings.getdict("DOWNLOAD_HANDLERS")
    missing = {k: v for k, v in BY_NAME["DOWNLOAD_HANDLERS"].default.items() if k not in handlers}
    if missing:
        handlers.update(missing)
        priority = settings.getpriority("DOWNLOAD_HANDLERS") or "addon"
        settings.set("DOWNLOAD_HANDLERS", handlers, priority=priority)


#: Scrapy extensions that do nothing unless their setting turns them on, and whose module
#: is costly to import. Scrapy imports every extension of ``EXTENSIONS_BASE`` to build its
#: list, a ``None`` in ``EXTENSIONS`` included (RemoteControl brings aiohttp's web server:
#: about a tenth of a second of CPU at every start). While their setting is off they are
#: taken out of the base list, so a crawl never imports them.
IMPORTED_ONLY_WHEN_ON = {
    "scrapy.extensions.remote_control.RemoteControl": "REMOTE_CONTROL_ENABLED",
}


def _ask_for_parts(settings: BaseSettings) -> list[SettingValueError]:
    """Mine what the monitor compares (``WEBROBOT_EXTRACT_REQUIRED``), decided here
    from the settings, before any component is built; the parts asked that no part of
    the table names, as problems."""
    problems = []
    try:
        for name in PART_LISTS:
            words = read(settings, name)
            expected = _unknown_part(words) if words else ""
            if expected:
                problems.append(SettingValueError(name, words, expected))
        asked = asked_parts(settings)
    except SettingValueError:
        return problems  # a value check() names
    if asked:
        current = set(settings.getlist("WEBROBOT_EXTRACT_REQUIRED"))
        settings.set("WEBROBOT_EXTRACT_REQUIRED", sorted(current | asked), priority="addon")
    return problems


#: Settings whose words name mining parts (:data:`webrobot.extract.parts.PARTS`).
PART_LISTS = ("WEBROBOT_EXTRACT", "WEBROBOT_EXTRACT_REQUIRED")


def _unknown_part(words: list[str]) -> str:
    """What is expected instead, when ``words`` name a part the table does not have."""
    # The table of parts imports every extractor: only a crawl that mines pays for it.
    from webrobot.extract import parts

    try:
        parts.enabled_parts(words)
    except ValueError:
        return f"{parts.ALL} or any of {', '.join(parts.BY_NAME)}"
    return ""


def _leave_out_when_off(settings: BaseSettings) -> None:
    base = settings.getdict("EXTENSIONS_BASE")
    off = [p for p, on in IMPORTED_ONLY_WHEN_ON.items() if p in base and not settings.getbool(on)]
    if off:
        kept = {path: order for path, order in base.items() if path not in off}
        # At the base list's own priority: above it, it would outrank EXTENSIONS and
        # bring back the Scrapy extensions EXTENSIONS switches off.
        settings.set("EXTENSIONS_BASE", kept, priority=settings.getpriority("EXTENSIONS_BASE") or 0)


def _enable(settings: BaseSettings, group: str, components: dict[str, int | None]) -> None:
    """Add ``components`` to the component dict ``group``, keyed by import path (as
    Scrapy's own base dicts are, so that ``None`` disables a Scrapy component), except
    those the project already lists, by path or by class."""
    current = settings.getdict(group)
    listed = {load_object(key) for key in current}
    for path, order in components.items():
        if load_object(path) not in listed:
            current[path] = order
    settings.set(group, current, priority=settings.getpriority(group) or 0)
