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
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from scrapy.exceptions import NotConfigured

from webrobot.settingsmodel.parse import read

if TYPE_CHECKING:
    from scrapy.crawler import Crawler


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
