"""Two taps for the crawl report, at both ends of the downloader middlewares.

* :class:`FrontierTapMiddleware` runs first: it sees every request the engine
  takes out of the scheduler (so the report knows each site's frontier), and,
  last in the exception chain, every ``IgnoreRequest`` a middleware raised
  (refusals that did not go through :class:`webrobot.urls.refusals.Refuser`, such as
  Scrapy's own robots.txt middleware, are counted by reason).
* :class:`DownloadErrorTapMiddleware` runs last, next to the downloader: it
  sees every download exception by type before the retry middleware turns it
  into a new attempt.

Neither changes anything; both only report to
:class:`webrobot.report.collector.ReportCollector`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from scrapy.exceptions import IgnoreRequest, NotConfigured

from webrobot.report.collector import ReportCollector, collector_wanted

if TYPE_CHECKING:
    from typing import Self

    from scrapy import Request
    from scrapy.crawler import Crawler


class _Tap:
    """A passive downloader middleware feeding the crawl's report collector."""

    def __init__(self, crawler: Crawler) -> None:
        if not collector_wanted(crawler.settings):
            raise NotConfigured("the crawl report and progress line are off")
        self.collector = ReportCollector.of(crawler)

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> Self:
        return cls(crawler)


class FrontierTapMiddleware(_Tap):
    """Counts each request as it leaves the frontier for the download, for the crawl report."""

    def process_request(self, request: Request) -> None:
        self.collector.left_scheduler(request)

    def process_exception(self, request: Request, exception: Exception) -> None:
        if isinstance(exception, IgnoreRequest):
            self.collector.ignored(request, exception)


class DownloadErrorTapMiddleware(_Tap):
    """Counts download errors by type, for the crawl report."""

    def process_exception(self, request: Request, exception: Exception) -> None:
        self.collector.download_error(request, exception)
