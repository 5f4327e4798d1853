"""Refuse spider-trap URLs before they are requested: too long
(``URLLENGTH_LIMIT``), too many path segments, a repeated path segment, and
deeper than ``DEPTH_LIMIT``.

The links of pages are checked by the same rules (:class:`TrapCheck`) before
they are scheduled, by the link gate (:mod:`webrobot.urls.linkgate`); this
downloader middleware checks what no spider middleware sees: start requests,
redirect targets and retries (Scrapy's spider-side ``UrlLengthMiddleware`` only saw links from
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

from webrobot.settingsmodel.parse import ConfigError, read
from webrobot.settingsmodel.startup import non_negative_setting, setting_error
from webrobot.urls.refusals import Refuser
from webrobot.urls.sitekey import request_site
from webrobot.urls.traps import DEPTH, TOO_LONG, TrapRules, WarningGate
from webrobot.wiring import per_crawler

if TYPE_CHECKING:
    from typing import Self

    from scrapy import Request
    from scrapy.crawler import Crawler
    from scrapy.exceptions import IgnoreRequest

logger = logging.getLogger(__name__)


class TrapCheck:
    """The URL trap rules of a crawl, their too-long warning and their refusals: one
    per crawler, shared by this middleware (start requests, redirects, retries)
    and the link gate (:mod:`webrobot.urls.linkgate`: links, before they are
    scheduled), so that the warning's interval holds for both."""

    def __init__(self, crawler: Crawler) -> None:
        self.crawler = crawler
        self.refuser = Refuser(crawler)
        try:
            self.rules = TrapRules(
                max_url_length=non_negative_setting(crawler, "URLLENGTH_LIMIT"),
                max_segment_repeats=non_negative_setting(crawler, "WEBROBOT_MAX_SEGMENT_REPEATS"),
                max_path_segments=non_negative_setting(crawler, "WEBROBOT_MAX_PATH_SEGMENTS"),
            )
        except ConfigError as exc:
            raise setting_error(crawler, exc) from None
        self.warnings = WarningGate(read(crawler.settings, "WEBROBOT_TOO_LONG_WARNING_INTERVAL"))

    @classmethod
    def of(cls, crawler: Crawler) -> TrapCheck | None:
        """The crawl's one instance; ``None`` when ``WEBROBOT_TRAPS_ENABLED`` is off."""
        if not read(crawler.settings, "WEBROBOT_TRAPS_ENABLED"):
            return None
        return per_crawler(crawler, TrapCheck, cls)

    def refusal(self, url: str) -> tuple[str, str] | None:
        """The reason and detail of the trap rule ``url`` breaks, or ``None``."""
        return self.rules.refusal(url)

    def refuse(self, request: Request, reason: str, detail: str) -> IgnoreRequest:
        """Count, log and signal the refusal (:meth:`refusal`'s answer); returns the exception."""
        if reason == TOO_LONG:
            self._warn_too_long(request, detail)
        return self.refuser.refuse(request, reason, detail)

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


class UrlTrapMiddleware:
    """Refuses spider-trap URLs before they are requested: too long, too many or repeated segments,
    too deep."""

    def __init__(self, crawler: Crawler) -> None:
        check = TrapCheck.of(crawler)
        if check is None:
            raise NotConfigured("WEBROBOT_TRAPS_ENABLED is off")
        self.crawler = crawler
        self.check = check
        self.refuser = check.refuser
        try:
            self.max_depth = non_negative_setting(crawler, "DEPTH_LIMIT")
        except ConfigError as exc:
            raise setting_error(crawler, exc) from None

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> Self:
        return cls(crawler)

    def process_request(self, request: Request) -> None:
        refusal = self.check.refusal(request.url)
        if refusal is not None:
            raise self.check.refuse(request, *refusal)
        depth = request.meta.get("depth", 0)
        if self.max_depth and depth > self.max_depth:
            raise self.refuser.refuse(
                request, DEPTH, f"depth {depth} > DEPTH_LIMIT {self.max_depth}"
            )
