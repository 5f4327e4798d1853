"""Record the pages a crawl finally gave up on.

A downloader middleware placed next to the engine (before the retry
middleware, so it sees only what retries did not fix): a page request whose
final answer is a 429 or a 5xx, or which got no answer at all (a network
error), has *failed*. Each is

* counted in ``webrobot/page/failed/<reason>`` (``http_503``,
  ``connectionrefusederror``, ``tcptimedouterror``...),
* logged,
* listed in the crawl report (``failed`` in report.json, a table in
  report.html),
* when the error says its host is dead (a name that does not exist, a refused
  port: :mod:`webrobot.urls.deadhosts`), its host given up, named once,
* marked in its request meta (``_webrobot_failed``), so that the crash-safe
  frontier keeps it as failed for good instead of forgetting it: a resumed job
  retries such pages with ``-s WEBROBOT_RETRY_FAILED=True``.

robots.txt fetches are not pages (their failures defer the site instead), nor
are page requisites (counted in ``webrobot/requisite/<kind>/error``).
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from scrapy.exceptions import IgnoreRequest

from webrobot.politeness.clock import THROTTLE_STATUSES
from webrobot.report.collector import ReportCollector, collector_wanted
from webrobot.signals import FAILED_META, REQUISITE_META, ROBOTS_FETCH_META
from webrobot.urls.deadhosts import DeadHosts

if TYPE_CHECKING:
    from typing import Self

    from scrapy import Request
    from scrapy.crawler import Crawler
    from scrapy.http import Response

logger = logging.getLogger(__name__)


def failure_reason(status: int | None = None, exception: BaseException | None = None) -> str:
    """``http_<status>`` or the exception's class name in lower case."""
    if exception is not None:
        return type(exception).__name__.lower()
    return f"http_{status}"


class PageFailureMiddleware:
    """Records the pages a crawl finally gave up on, once retries have had their turn."""

    def __init__(self, crawler: Crawler) -> None:
        self.crawler = crawler
        assert crawler.stats is not None
        self.stats = crawler.stats
        self.collector = ReportCollector.of(crawler) if collector_wanted(crawler.settings) else None
        self._logged = 0

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> Self:
        return cls(crawler)

    def process_response(self, request: Request, response: Response) -> Response:
        if response.status in THROTTLE_STATUSES and not self._not_a_page(request):
            self._failed(request, failure_reason(response.status))
        return response

    def process_exception(self, request: Request, exception: Exception) -> None:
        if not isinstance(exception, IgnoreRequest) and not self._not_a_page(request):
            self._failed(request, failure_reason(exception=exception))
            dead = DeadHosts.of(self.crawler)
            kind = dead.kind(exception, request.url)
            if kind is not None:  # its host is dead: named once, as a robots.txt failure names it
                tries = int(request.meta.get("retry_times", 0)) + 1
                dead.give_up(request.url, kind, tries, 0.0, str(exception))

    @staticmethod
    def _not_a_page(request: Request) -> bool:
        meta = request.meta
        return bool(meta.get(ROBOTS_FETCH_META)) or meta.get(REQUISITE_META) is not None

    def _failed(self, request: Request, reason: str) -> None:
        request.meta[FAILED_META] = reason
        self.stats.inc_value(f"webrobot/page/failed/{reason}")
        self.stats.inc_value("webrobot/page/failed")
        if self.collector is not None:
            self.collector.page_failed(request.url, reason)
        retries = request.meta.get("retry_times", 0)
        logger.info(
            "Gave up on %s: %s%s", request.url[:300], reason,
            f" (after {retries} retries)" if retries else "",
        )  # fmt: skip
