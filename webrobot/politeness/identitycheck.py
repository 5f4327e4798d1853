"""Set the robot's identity in one place and warn, at start, when it gives no contact.

``WEBROBOT_CONTACT_URL`` builds the ``User-Agent`` (``webrobot/<version>
(+<url>)``) unless ``USER_AGENT`` was set explicitly (a site config's
``user_agent``, ``-s`` or Scrapyd); ``WEBROBOT_FROM`` is sent as the ``From``
header by :class:`webrobot.politeness.fromheader.FromHeaderMiddleware`.
:func:`apply_identity` runs while the spider is built, before the settings
freeze, so every component (robots.txt matching included) sees the result.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from scrapy import signals
from scrapy.settings import SETTINGS_PRIORITIES

from webrobot.politeness.identity import missing_contact, user_agent
from webrobot.settingsmodel.parse import read
from webrobot.version import __version__

if TYPE_CHECKING:
    from typing import Self

    from scrapy.crawler import Crawler
    from scrapy.settings import BaseSettings

logger = logging.getLogger(__name__)


def apply_identity(settings: BaseSettings) -> None:
    contact = (read(settings, "WEBROBOT_CONTACT_URL") or "").strip()
    if not contact or (settings.getpriority("USER_AGENT") or 0) > SETTINGS_PRIORITIES["project"]:
        return
    product = settings.get("ROBOTSTXT_USER_AGENT") or "webrobot"
    settings.set("USER_AGENT", user_agent(product, __version__, contact), priority="project")


class IdentityCheck:
    """Logs one clear WARNING when the crawl starts if the robot gives no contact."""

    def __init__(self, crawler: Crawler) -> None:
        self.crawler = crawler
        crawler.signals.connect(self.spider_opened, signal=signals.spider_opened)

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> Self:
        return cls(crawler)

    def spider_opened(self) -> None:
        settings = self.crawler.settings
        problem = missing_contact(
            settings.get("USER_AGENT") or "", read(settings, "WEBROBOT_FROM") or "",
            read(settings, "WEBROBOT_PROJECT_URL") or "",
        )  # fmt: skip
        if problem is None:
            return
        assert self.crawler.stats is not None
        self.crawler.stats.set_value("webrobot/identity/no_contact", 1)
        logger.warning(
            "This robot gives site owners no way to reach its operator: %s. Set WEBROBOT_FROM "
            "to an e-mail address (sent as the From header) and WEBROBOT_CONTACT_URL to a page "
            "about this crawl (put in the User-Agent), or 'from' in the site config.",
            problem,
        )
