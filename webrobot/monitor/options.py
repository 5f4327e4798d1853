"""The monitor's settings, read and checked once, when the crawl is built: the folder,
the watch rules, what is left out of judgement, the re-check schedule, the webhook,
the notices and the store class. A value that cannot be used stops the crawl with
the setting's name and what was expected (:func:`~webrobot.settingsmodel.startup.setting_error`);
no ``WEBROBOT_MONITOR_DIR`` is :class:`~scrapy.exceptions.NotConfigured`.

:class:`~webrobot.monitor.middleware.MonitorMiddleware` is built from them.
"""

from __future__ import annotations

import logging
import re
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from scrapy.exceptions import NotConfigured
from scrapy.utils.misc import load_object

from webrobot.monitor.baseline import rules_fingerprint
from webrobot.monitor.rules import load_rules, parse_rule_tables
from webrobot.monitor.schedule import rules
from webrobot.monitor.snapshot import Ignore
from webrobot.monitor.store import PageStore
from webrobot.settingsmodel.parse import ConfigError, SettingValueError
from webrobot.settingsmodel.startup import setting, setting_error

if TYPE_CHECKING:
    from scrapy.crawler import Crawler

    from webrobot.frontier.freshness import FreshnessRules
    from webrobot.monitor.watch import WatchRule

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class MonitorOptions:
    """What the monitor's settings say, checked."""

    folder: Path
    rules: tuple[WatchRule, ...]
    ignore: Ignore
    #: CSS selectors of the page's parts left out of judgement.
    selectors: list[str]
    #: The rules a snapshot is taken under (:func:`~webrobot.monitor.baseline.rules_fingerprint`).
    rules_print: str
    template_min_pages: int
    recheck: bool
    #: re-checks by how often each page changes (:mod:`webrobot.monitor.schedule`), or None
    schedule: FreshnessRules | None
    webhook_url: str
    notify_urls: list[str]
    store_class: type[PageStore]


def monitor_options(crawler: Crawler) -> MonitorOptions:
    """The monitor's settings in ``crawler``, checked; see the module."""
    folder = setting(crawler, "WEBROBOT_MONITOR_DIR")
    if not folder:
        for name in ("WEBROBOT_WATCH", "WEBROBOT_WATCH_RULES"):
            if setting(crawler, name):
                logger.warning("%s is set but WEBROBOT_MONITOR_DIR is not: no watch rules", name)
        raise NotConfigured("WEBROBOT_MONITOR_DIR is not set")
    watch_rules: tuple[WatchRule, ...] = ()
    watch = setting(crawler, "WEBROBOT_WATCH")
    patterns = setting(crawler, "WEBROBOT_MONITOR_IGNORE_PATTERNS")
    ignore_fields = setting(crawler, "WEBROBOT_MONITOR_IGNORE_FIELDS")
    try:
        watch_rules = load_rules(watch) if watch else ()
        more = list(setting(crawler, "WEBROBOT_WATCH_RULES"))
        if more:
            watch_rules += parse_rule_tables(more, "WEBROBOT_WATCH_RULES", Path("/"))
        ignore = Ignore.of(patterns, ignore_fields)
    except ConfigError as exc:
        raise setting_error(crawler, exc) from None
    except ImportError as exc:  # an image rule without the monitor extra
        raise setting_error(crawler, SettingValueError("WEBROBOT_WATCH", watch, str(exc))) from None
    except re.error as exc:
        raise setting_error(crawler, SettingValueError(
            "WEBROBOT_MONITOR_IGNORE_PATTERNS", patterns, f"regular expressions ({exc})")) from None  # fmt: skip
    selectors: list[str] = list(setting(crawler, "WEBROBOT_MONITOR_IGNORE_SELECTORS"))
    _check_selectors(crawler, selectors)
    notify_urls: list[str] = list(setting(crawler, "WEBROBOT_MONITOR_NOTIFY"))
    _check_notify(crawler, notify_urls)
    every = float(setting(crawler, "WEBROBOT_MONITOR_RECHECK_INTERVAL"))
    return MonitorOptions(
        folder=Path(folder),
        rules=watch_rules,
        ignore=ignore,
        selectors=selectors,
        # The baseline: snapshots keep the rules and the extractors they were taken under.
        rules_print=rules_fingerprint(selectors, patterns, ignore_fields),
        template_min_pages=int(setting(crawler, "WEBROBOT_MONITOR_TEMPLATE_MIN_PAGES")),
        recheck=bool(setting(crawler, "WEBROBOT_MONITOR_RECHECK")),
        schedule=(
            rules(every, float(setting(crawler, "WEBROBOT_MONITOR_RECHECK_MAX_INTERVAL")))
            if every > 0
            else None
        ),
        webhook_url=setting(crawler, "WEBROBOT_MONITOR_WEBHOOK"),
        notify_urls=notify_urls,
        store_class=_store_class(crawler),
    )


def _check_selectors(crawler: Crawler, selectors: list[str]) -> None:
    from parsel.csstranslator import HTMLTranslator

    for selector in selectors:
        try:
            HTMLTranslator().css_to_xpath(selector)
        except Exception as exc:  # noqa: BLE001 - cssselect's several parse errors
            raise setting_error(crawler, SettingValueError(
                "WEBROBOT_MONITOR_IGNORE_SELECTORS", selector, f"CSS selectors ({exc})")) from None  # fmt: skip


def _check_notify(crawler: Crawler, notify_urls: list[str]) -> None:
    if not notify_urls:
        return
    from webrobot.monitor.notify import bad_urls
    from webrobot.optional import MissingExtra

    try:
        bad = bad_urls(notify_urls)
    except MissingExtra as exc:
        setting_error(crawler, SettingValueError("WEBROBOT_MONITOR_NOTIFY", notify_urls, str(exc)))
        # The error names the extra, once; the list of parts off only says why.
        raise NotConfigured("WEBROBOT_MONITOR_NOTIFY without its extra") from None
    if bad:
        shown = [url.split("://", 1)[0] + "://..." for url in bad]
        raise setting_error(crawler, SettingValueError(
            "WEBROBOT_MONITOR_NOTIFY", shown, "Apprise URLs of a known scheme, whole")) from None  # fmt: skip


def _store_class(crawler: Crawler) -> type[PageStore]:
    try:
        store_class = load_object(setting(crawler, "WEBROBOT_MONITOR_STORE_CLASS"))
    except (ImportError, AttributeError, NameError, ValueError):
        store_class = None
    if not (isinstance(store_class, type) and issubclass(store_class, PageStore)):
        raise setting_error(crawler, SettingValueError(
            "WEBROBOT_MONITOR_STORE_CLASS", setting(crawler, "WEBROBOT_MONITOR_STORE_CLASS"),
            "a class implementing webrobot.monitor.store.PageStore"))  # fmt: skip
    return store_class
