"""How often the robot knocks: each site's next request time (Crawl-delay, backoff,
Retry-After), the downloader whose slots are sites, and who the robot says it is."""

from __future__ import annotations

from typing import Any


def __getattr__(name: str) -> Any:
    # This path was a module before: SitePoliteness (WEBROBOT_POLITENESS_CLASS) still
    # loads from here, deprecated (webrobot.deprecated).
    from webrobot.deprecated import moved_attribute

    return moved_attribute(__name__, name)
