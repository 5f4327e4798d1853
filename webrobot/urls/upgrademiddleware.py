"""Ask hosts that moved to https over https: learn the upgrade, then rewrite their http URLs.

:class:`UpgradeMiddleware` (a downloader middleware) learns from responses
(:mod:`webrobot.urls.upgrade`: an http URL redirected to the same URL over
https, or ``Strict-Transport-Security`` over https; counted as
``webrobot/url/upgrade_learned/redirect`` and ``.../hsts``, logged once per
host) and rewrites each request of such a host, before it is sent, to https:
the rewritten request goes back through the scheduler, so when its https form
was fetched already the duplicate filter drops it. :class:`UpgradeLinksMiddleware`
(a spider middleware) rewrites the links of pages as they are found, before the
duplicate filter sees them. Every rewrite is counted (``webrobot/url/upgraded``).

On by default (``WEBROBOT_UPGRADE_ENABLED``), as browsers honour HSTS. The
robots.txt requests are left alone: robots.txt is per origin, so
``http://h/robots.txt`` is asked as it is (its redirect is followed, as RFC
9309 says). A request with the ``dont_upgrade`` meta key is left alone too.

The known hosts are this process's (each worker of a shared crawl learns them
from its own first redirect).
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING
from urllib.parse import urljoin

from scrapy.exceptions import NotConfigured
from scrapy.spidermiddlewares.base import BaseSpiderMiddleware

from webrobot.settingsmodel.parse import read
from webrobot.signals import ROBOTS_FETCH_META
from webrobot.urls.hostnotes import HostNotes
from webrobot.urls.sitekey import host_key, request_host
from webrobot.urls.upgrade import HSTS, REDIRECT, UpgradeRules
from webrobot.wiring import per_crawler

if TYPE_CHECKING:
    from typing import Self

    from scrapy import Request
    from scrapy.crawler import Crawler
    from scrapy.http import Response

logger = logging.getLogger(__name__)
UPGRADED = "webrobot/url/upgraded"
LEARNED = "webrobot/url/upgrade_learned/"
DONT_UPGRADE = "dont_upgrade"


def host_notes(crawler: Crawler) -> HostNotes:
    """The crawl's one :class:`HostNotes` (upgrades, TLS problems), read by the report."""
    return per_crawler(crawler, HostNotes, lambda c: HostNotes(_max_sites(c)))


def upgrade_rules(crawler: Crawler) -> UpgradeRules:
    """The crawl's one :class:`UpgradeRules`, shared by both middlewares and the report."""
    return per_crawler(crawler, UpgradeRules, lambda c: UpgradeRules(_max_sites(c)))


def _max_sites(crawler: Crawler) -> int:
    """How many hosts the notes and the rules remember (``WEBROBOT_POLITENESS_SITES``)."""
    return int(read(crawler.settings, "WEBROBOT_POLITENESS_SITES"))


def _left_alone(request: Request) -> bool:
    meta = request.meta
    return bool(meta.get(DONT_UPGRADE) or meta.get(ROBOTS_FETCH_META))


class UpgradeMiddleware:
    """Asks hosts known to be https-only over https: learns the upgrade, rewrites their http URLs."""

    def __init__(self, crawler: Crawler) -> None:
        if not read(crawler.settings, "WEBROBOT_UPGRADE_ENABLED"):
            raise NotConfigured("WEBROBOT_UPGRADE_ENABLED is off")
        self.crawler = crawler
        self.rules = upgrade_rules(crawler)
        self.notes = host_notes(crawler)

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> Self:
        return cls(crawler)

    def process_request(self, request: Request) -> Request | None:
        if _left_alone(request):
            return None
        upgraded = self.rules.upgrade(request.url)
        if upgraded is None:
            return None
        assert self.crawler.stats is not None
        self.crawler.stats.inc_value(UPGRADED)
        self.notes.upgrade(request_host(request))
        logger.debug("Asking %s as %s: its host moved to https", request.url, upgraded)
        return request.replace(url=upgraded)

    def process_response(self, request: Request, response: Response) -> Response:
        url = request.url
        if url.startswith("http:"):
            if 300 <= response.status < 400:
                location = response.headers.get(b"Location")
                if location:
                    target = urljoin(url, location.decode("latin-1").strip())
                    if self.rules.learn_redirect(url, target):
                        self._learned(REDIRECT, url, target)
        elif url.startswith("https:"):
            value = response.headers.get(b"Strict-Transport-Security")
            if value and self.rules.learn_hsts(url, value.decode("latin-1")):
                self._learned(HSTS, url, url)
        return response

    def _learned(self, how: str, url: str, target: str) -> None:
        assert self.crawler.stats is not None
        self.crawler.stats.inc_value(LEARNED + how)
        self.notes.learn(host_key(url), how)
        via = "a redirect to https" if how == REDIRECT else "Strict-Transport-Security"
        logger.info("%s moved to https (%s): its http URLs are asked over https", url, via)


class UpgradeLinksMiddleware(BaseSpiderMiddleware):
    """Rewrite the links of a page to https when their host is known to be https-only."""

    def __init__(self, crawler: Crawler) -> None:
        super().__init__(crawler)
        if not read(crawler.settings, "WEBROBOT_UPGRADE_ENABLED"):
            raise NotConfigured("WEBROBOT_UPGRADE_ENABLED is off")
        self.rules = upgrade_rules(crawler)
        self.notes = host_notes(crawler)

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> Self:
        return cls(crawler)

    def get_processed_request(self, request: Request, response: Response | None) -> Request | None:
        if not self.rules or _left_alone(request):
            return request
        upgraded = self.rules.upgrade(request.url)
        if upgraded is None:
            return request
        assert self.crawler.stats is not None
        self.crawler.stats.inc_value(UPGRADED)
        self.notes.upgrade(request_host(request))
        return request.replace(url=upgraded)
