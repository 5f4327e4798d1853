"""Settings that cannot be used stop the crawl with one clear line.

A component that finds a bad setting while it is built (a broken blocklist
file, a negative limit) hands the :class:`~webrobot.config.ConfigError` to the
spider's ``config_error``, the path a bad site config takes: the spider logs
one ERROR line naming the file or setting, what was expected, and closes with
reason ``config_error`` before any request; ``scrapy crawl`` exits with
status 2. With a spider that has no such attribute the error is raised.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from scrapy.exceptions import NotConfigured

from webrobot.config import ConfigError

if TYPE_CHECKING:
    from scrapy.crawler import Crawler


def setting_error(crawler: Crawler, error: ConfigError) -> NotConfigured:
    """Report ``error`` to the spider; returns the ``NotConfigured`` that a
    middleware raises to step aside (the crawl will not start anyway)."""
    spider = crawler.spider
    if spider is None or not hasattr(spider, "config_error"):
        raise error
    if spider.config_error is None:
        spider.config_error = error
    return NotConfigured(str(error))


def non_negative_setting(crawler: Crawler, name: str) -> int:
    """An integer setting that is a limit (0: no limit); ConfigError if below 0."""
    try:
        value = crawler.settings.getint(name)
    except ValueError:
        value = -1
    if value < 0:
        raise ConfigError(
            "settings", name, f"expected a whole number >= 0 (0: no limit), got {crawler.settings.get(name)!r}"
        )
    return value
