"""Refuse spider-trap URLs before they are requested: too long
(``URLLENGTH_LIMIT``), too many path segments, a repeated path segment, and
deeper than ``DEPTH_LIMIT``.

A downloader middleware, so start requests, redirect targets and retries are
checked too (Scrapy's spider-side ``UrlLengthMiddleware`` only saw links from
pages; it is switched off in the settings). Each refusal goes through
:class:`~webrobot.urls.refusals.Refuser`; a too-long URL is also logged as a
WARNING with its site and first 200 characters, at most once per site every
``WEBROBOT_TOO_LONG_WARNING_INTERVAL`` seconds, because a long URL usually
means a trap a person should look at.
"""

from __future__ import annotations

import logging
from time import monotonic
from typing import TYPE_CHECKING

from scrapy.exceptions import NotConfigured

from webrobot.settings_model import ConfigError, read
from webrobot.startup import non_negative_setting, setting_error
from webrobot.urls.refusals import Refuser
from webrobot.urls.sitekey import request_site
from webrobot.urls.traps import DEPTH, TOO_LONG, TrapRules, WarningGate

if TYPE_CHECKING:
    from typing import Self

    from scrapy import Request
    from scrapy.crawler import Crawler

logger = logging.getLogger(__name__)


class UrlTrapMiddleware:
    def __init__(self, crawler: Crawler) -> None:
        if not read(crawler.settings, "WEBROBOT_TRAPS_ENABLED"):
            raise NotConfigured("WEBROBOT_TRAPS_ENABLED is off")
        self.crawler = crawler
        self.refuser = Refuser(crawler)
        try:
            self.rules = TrapRules(
                max_url_length=non_negative_setting(crawler, "URLLENGTH_LIMIT"),
                max_segment_repeats=non_negative_setting(crawler, "WEBROBOT_MAX_SEGMENT_REPEATS"),
                max_path_segments=non_negative_setting(crawler, "WEBROBOT_MAX_PATH_SEGMENTS"),
            )
            self.max_depth = non_negative_setting(crawler, "DEPTH_LIMIT")
        except ConfigError as exc:
            raise setting_error(crawler, exc) from None
        self.warnings = WarningGate(read(crawler.settings, "WEBROBOT_TOO_LONG_WARNING_INTERVAL"))

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> Self:
        return cls(crawler)

    def process_request(self, request: Request) -> None:
        refusal = self.rules.refusal(request.url)
        if refusal is not None:
            reason, detail = refusal
            if reason == TOO_LONG:
                self._warn_too_long(request, detail)
            raise self.refuser.refuse(request, reason, detail)
        depth = request.meta.get("depth", 0)
        if self.max_depth and depth > self.max_depth:
            raise self.refuser.refuse(
                request, DEPTH, f"depth {depth} > DEPTH_LIMIT {self.max_depth}"
            )

    def _warn_too_long(self, request: Request, detail: str) -> None:
        site = request_site(request)
        held = self.warnings.allow(site, monotonic())
        if held is None:
            return
        logger.warning(
            "URL too long (%s), not requested, at %s: %s...%s",
            detail, site, request.url[:200],
            f" ({held} more since the last warning for this site)" if held else "",
        )  # fmt: skip
