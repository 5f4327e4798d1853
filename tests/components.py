"""Build webrobot components in-process, for unit tests of the Scrapy glue."""

from __future__ import annotations

from typing import Any

from scrapy.crawler import Crawler
from scrapy.utils.test import get_crawler

import webrobot.settings

#: webrobot's own defaults (get_crawler alone would use Scrapy's).
PROJECT_SETTINGS = {name: getattr(webrobot.settings, name) for name in dir(webrobot.settings) if name.isupper()}


def webrobot_crawler(**settings: Any) -> Crawler:
    """A crawler with webrobot's settings plus ``settings``; stats and fingerprinter ready."""
    return get_crawler(settings_dict={**PROJECT_SETTINGS, **settings})
