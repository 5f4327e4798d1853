"""What the monitor asks of the mining, decided from the settings alone, so that the
add-on can ask for it before any component is built (in whatever order they are).

Reads the watch rules' file (``WEBROBOT_WATCH``); no Scrapy.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from webrobot.monitor.rules import load_rules, parse_rule_tables
from webrobot.settingsmodel.parse import ConfigError, read


def asked_parts(settings: Any) -> frozenset[str]:
    """The mining parts the monitor compares, with ``images`` when a watch rule has
    pictures; nothing when the monitor is off. Rules that cannot be read ask for no
    images here: the monitor names their error when it is built."""
    if not read(settings, "WEBROBOT_MONITOR_DIR"):
        return frozenset()
    from webrobot.extract.parts import monitored_parts

    return monitored_parts(fetched=_watches_pictures(settings))


def _watches_pictures(settings: Any) -> bool:
    try:
        watch = read(settings, "WEBROBOT_WATCH")
        rules = load_rules(watch) if watch else ()
        more = list(read(settings, "WEBROBOT_WATCH_RULES"))
        if more:
            rules += parse_rule_tables(more, "WEBROBOT_WATCH_RULES", Path("/"))
    except (ConfigError, ImportError, re.error, ValueError):
        return False
    return any(rule.images for rule in rules)
