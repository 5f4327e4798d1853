"""Build webrobot components in-process, for unit tests of the Scrapy glue."""

from __future__ import annotations

from typing import Any

from scrapy.crawler import Crawler
from scrapy.utils.test import get_crawler

import webrobot.settings

#: webrobot's own defaults (get_crawler alone would use Scrapy's).
PROJECT_SETTINGS = {
    name: getattr(webrobot.settings, name) for name in dir(webrobot.settings) if name.isupper()
}


def webrobot_crawler(**settings: Any) -> Crawler:
    """A crawler with webrobot's settings plus ``settings``; stats and fingerprinter ready."""
    return get_crawler(settings_dict={**PROJECT_SETTINGS, **settings})


def enabled_components(name: str, **settings: Any) -> dict[str, int]:
    """The import paths of the components enabled in ``name`` (``DOWNLOADER_MIDDLEWARES``...)
    of a crawler with webrobot's project settings (the add-on applied), with their orders."""
    from scrapy.utils.conf import build_component_list
    from scrapy.utils.misc import load_object
    from scrapy.utils.python import global_object_name

    merged = webrobot_crawler(**settings).settings.getwithbase(name)
    orders = {load_object(key): order for key, order in merged.items()}
    return {
        key if isinstance(key, str) else global_object_name(key): orders[load_object(key)]
        for key in build_component_list(merged)
    }
