"""webrobot's ``scrapy`` commands (``COMMANDS_MODULE``), and what the shared-crawl
commands check before they start."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from webrobot.optional import MissingExtra, require_redis
from webrobot.settingsmodel.parse import SettingValueError, read

if TYPE_CHECKING:
    from scrapy import Spider
    from scrapy.settings import BaseSettings


def load_spider_class(loader: Any, name: str) -> tuple[type[Spider] | None, str]:
    """The spider class ``name`` from a spider loader, or None and why not (one line)."""
    try:
        return loader.load(name), ""
    except KeyError as exc:
        return None, f"{exc.args[0]} (known spiders: {', '.join(sorted(loader.list()))})"


def shared_crawl_problem(settings: BaseSettings) -> str | None:
    """Why a command cannot reach the shared crawl in Redis (one line), or None."""
    try:
        url = read(settings, "WEBROBOT_REDIS_URL").strip()
    except SettingValueError as exc:
        return str(exc)
    if not url:
        return "WEBROBOT_REDIS_URL is empty: pass -s WEBROBOT_REDIS_URL=redis://HOST:PORT/DB"
    try:
        require_redis()  # imported only by a command that uses Redis
    except MissingExtra as exc:
        return str(exc)
    return None
