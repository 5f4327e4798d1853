"""``/metrics`` (Prometheus text format) and a live status page (``/``) while the
crawl runs, on ``WEBROBOT_METRICS_PORT``.

Served by Twisted, which already runs the crawl: each scrape is answered in the
reactor's thread, so the collector reads the crawl's stats and report tally as
they stand, without locks, and nothing is counted per request for the metrics
(:mod:`webrobot.report.metricsmodel` turns them into values). prometheus-client
(``pip install 'webrobot[metrics]'``) writes the exposition format; it is
imported only when the setting is on.

The address is 127.0.0.1 unless the setting names a host. Port ``0`` takes a free
port, which is logged, put in the stats (``webrobot/metrics/url``) and written to
``<log file without .log>.metrics.txt`` next to ``LOG_FILE`` (where a Scrapyd job's
log is, so its logs folder lists it) and to ``metrics.txt`` in ``JOBDIR``; both
files are removed when the crawl ends. Both pages are read-only: any method but
GET and HEAD is answered 405. Each answer is counted, with the CPU time it
took (``webrobot/metrics/scrapes``, ``webrobot/metrics/page_views``,
``webrobot/metrics/cpu_seconds``). ``WEBROBOT_METRICS_LINGER`` keeps them answering
for a while after the crawl ends, so that the last scrape of a short crawl sees
its final counts.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

from scrapy import signals
from scrapy.exceptions import NotConfigured

from webrobot.optional import MissingExtra, require
from webrobot.report.collector import ReportCollector
from webrobot.report.extension import current_report, thresholds
from webrobot.report.html import render_html
from webrobot.report.metricsmodel import METRICS, LiveState, values
from webrobot.settingsmodel.parse import read, split_address
from webrobot.settingsmodel.startup import setting
from webrobot.wiring import Key, find_per_crawler

if TYPE_CHECKING:
    from typing import Self

    from scrapy.crawler import Crawler
    from twisted.internet.defer import Deferred
    from twisted.internet.interfaces import IListeningPort
    from twisted.web.server import Request as WebRequest

logger = logging.getLogger(__name__)

FEATURE = "Metrics (WEBROBOT_METRICS_PORT)"


class RedisOutage(Protocol):
    """What the metrics read of a shared crawl's :class:`~webrobot.distributed.outage.Outage`."""

    @property
    def down(self) -> bool: ...


#: The worker's Redis outage, found by the name its maker (a floor above) keeps it under.
REDIS_OUTAGE = Key[RedisOutage]("webrobot.distributed.outage")


class IndexProgress(Protocol):
    """What the metrics read of the full-text index (:mod:`webrobot.search.extension`)."""

    def index_progress(self) -> tuple[int, int] | None: ...


#: The crawl's full-text index, kept under its maker's name (a floor above).
FULL_TEXT_INDEX = Key[IndexProgress]("webrobot.search.extension")


@runtime_checkable
class HoldsLeases(Protocol):
    """A scheduler of a shared crawl (:mod:`webrobot.distributed.scheduler`): the
    requests this worker holds a lease on now."""

    @property
    def leases_held(self) -> int: ...


def address_files(settings: Any) -> list[Path]:
    """Where the URL of a crawl's metrics is written: next to the log file, in JOBDIR."""
    files = []
    log_file = settings.get("LOG_FILE")
    if log_file:
        log = Path(str(log_file))
        stem = log.name.removesuffix(".log")
        files.append(log.with_name(f"{stem}.metrics.txt"))
    jobdir = settings.get("JOBDIR")
    if jobdir:
        files.append(Path(str(jobdir)) / "metrics.txt")
    return files


class CrawlCollector:
    """A prometheus-client collector that reads the crawl when scraped."""

    def __init__(self, server: MetricsServer) -> None:
        self.server = server

    def collect(self) -> Iterator[Any]:
        from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily

        current = self.server.values()
        for metric in METRICS:
            samples = current.get(metric.name)
            if samples is None:
                continue
            family: CounterMetricFamily | GaugeMetricFamily
            if metric.kind == "counter":
                family = CounterMetricFamily(
                    metric.name.removesuffix("_total"), metric.doc, labels=metric.labels
                )
            else:
                family = GaugeMetricFamily(metric.name, metric.doc, labels=metric.labels)
            for labels, value in sorted(samples.items()):
                family.add_metric([v for _, v in labels], value)
            yield family


class MetricsServer:
    """Serves /metrics and a live status page while the crawl runs."""

    def __init__(self, crawler: Crawler) -> None:
        address = setting(crawler, "WEBROBOT_METRICS_PORT")
        if not address:
            raise NotConfigured("WEBROBOT_METRICS_PORT is not set")
        try:
            require("prometheus_client", "metrics", FEATURE)
        except MissingExtra as exc:
            logger.error("%s", exc)  # the one line that names the extra
            raise NotConfigured("prometheus-client is not installed") from exc
        host_port = split_address(address)
        assert host_port is not None
        self.host, self.port = host_port
        self.crawler = crawler
        self.collector = ReportCollector.of(crawler)
        self.limits = thresholds(crawler)
        self.refresh = read(crawler.settings, "WEBROBOT_METRICS_REFRESH")
        self.linger = read(crawler.settings, "WEBROBOT_METRICS_LINGER")
        self.redis = bool(read(crawler.settings, "WEBROBOT_REDIS_URL").strip())
        self.listening: IListeningPort | None = None
        self.url = ""
        self.files: list[Path] = []
        self.cpu_seconds = 0.0  # spent answering /metrics and /
        crawler.signals.connect(self.spider_opened, signal=signals.spider_opened)
        crawler.signals.connect(self.spider_closed, signal=signals.spider_closed)

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> Self:
        return cls(crawler)

    # -- what a scrape reads --------------------------------------------------
    def live(self) -> LiveState:
        crawler = self.crawler
        engine = crawler.engine
        scheduler = engine.scheduler if engine is not None else None
        frontier = self.collector.tally.frontier()
        if not self.redis:  # a shared crawl's length asks Redis: this worker's part instead
            try:
                frontier = len(scheduler)  # type: ignore[arg-type]
            except TypeError:
                pass
        outage = find_per_crawler(crawler, REDIS_OUTAGE)
        full_text = find_per_crawler(crawler, FULL_TEXT_INDEX)
        return LiveState(
            started=self.collector.started_wall,
            frontier=frontier,
            redis=self.redis,
            redis_up=outage is None or not outage.down,
            leases=scheduler.leases_held if isinstance(scheduler, HoldsLeases) else 0,
            index=full_text.index_progress() if full_text is not None else None,
        )

    def values(self) -> dict[str, Any]:
        stats = self.crawler.stats.get_stats() if self.crawler.stats is not None else {}
        return values(stats, self.collector.tally, self.collector.now(), self.live())

    def answered(self, what: str, started: float) -> None:
        """Count a scrape or a status page view and the CPU time it took (this thread's)."""
        self.cpu_seconds += time.thread_time() - started
        stats = self.crawler.stats
        if stats is not None:
            stats.inc_value(f"webrobot/metrics/{what}")
            stats.set_value("webrobot/metrics/cpu_seconds", round(self.cpu_seconds, 4))

    def status_page(self) -> str:
        report = current_report(self.crawler, self.collector, self.limits, "running", None)
        return render_html(report, refresh=self.refresh)

    # -- serving ---------------------------------------------------------------
    def resource(self) -> Any:
        from prometheus_client import CollectorRegistry
        from prometheus_client.exposition import choose_encoder
        from twisted.web.resource import Resource

        registry = CollectorRegistry(auto_describe=False)
        registry.register(CrawlCollector(self))  # type: ignore[arg-type]
        server = self

        class ReadOnly(Resource):
            isLeaf = True

            def render(self, request: WebRequest) -> bytes:
                if request.method not in (b"GET", b"HEAD"):
                    request.setResponseCode(405)
                    request.setHeader(b"Allow", b"GET, HEAD")
                    return b"read-only: GET or HEAD\n"
                return bytes(super().render(request))

        # Rendered in the reactor's thread (prometheus-client's own Twisted resource
        # would collect in a thread pool, while the crawl changes what it reads).
        class MetricsPage(ReadOnly):
            def render_GET(self, request: WebRequest) -> bytes:
                started = time.thread_time()
                accept = request.getHeader(b"Accept")
                encoder, content_type = choose_encoder(accept.decode("latin-1") if accept else "")
                request.setHeader(b"Content-Type", content_type.encode("latin-1"))
                body = encoder(registry)
                server.answered("scrapes", started)
                return bytes(body)

        class StatusPage(ReadOnly):
            def render_GET(self, request: WebRequest) -> bytes:
                started = time.thread_time()
                request.setHeader(b"Content-Type", b"text/html; charset=utf-8")
                request.setHeader(b"Cache-Control", b"no-store")
                body = server.status_page().encode("utf-8")
                server.answered("page_views", started)
                return body

        root = Resource()
        root.putChild(b"", StatusPage())  # type: ignore[arg-type]
        root.putChild(b"metrics", MetricsPage())  # type: ignore[arg-type]
        return root

    def spider_opened(self) -> None:
        from twisted.internet import reactor
        from twisted.internet.error import CannotListenError
        from twisted.web.server import Site

        site = Site(self.resource())
        site.log = lambda request: None  # type: ignore[method-assign]  # no access log
        site.noisy = False
        try:
            self.listening = reactor.listenTCP(self.port, site, interface=self.host)  # type: ignore[attr-defined,arg-type]
        except CannotListenError as exc:
            logger.error(
                "Metrics off: cannot listen on %s:%d (WEBROBOT_METRICS_PORT): %s",
                self.host, self.port, exc.socketError,
            )  # fmt: skip
            assert self.crawler.stats is not None
            self.crawler.stats.set_value("webrobot/metrics/error", str(exc.socketError))
            return
        port = self.listening.getHost().port  # type: ignore[attr-defined,misc]
        host = f"[{self.host}]" if ":" in self.host else self.host
        self.url = f"http://{host}:{port}/metrics"
        assert self.crawler.stats is not None
        self.crawler.stats.set_value("webrobot/metrics/url", self.url)
        logger.info("Metrics: %s; live status: http://%s:%d/", self.url, host, port)
        for path in address_files(self.crawler.settings):
            try:
                path.parent.mkdir(parents=True, exist_ok=True)
                partial = path.with_name(path.name + ".part")  # readers never see half of it
                partial.write_text(self.url + "\n", encoding="utf-8")
                partial.replace(path)
            except OSError as exc:
                logger.warning("Could not write the metrics address to %s: %s", path, exc)
            else:
                self.files.append(path)

    def spider_closed(self) -> Deferred[None] | None:
        """Stop serving, after ``WEBROBOT_METRICS_LINGER`` seconds (the crawl's
        shutdown waits for them: a last scrape sees the final counts)."""
        if self.listening is None or self.linger <= 0:
            self.stop()
            return None
        from twisted.internet import reactor
        from twisted.internet.task import deferLater

        logger.info("Metrics: serving the final counts for %g s more", self.linger)
        return deferLater(reactor, self.linger, self.stop)  # type: ignore[arg-type]

    def stop(self) -> None:
        for path in self.files:
            path.unlink(missing_ok=True)
        self.files = []
        if self.listening is not None:
            self.listening.stopListening()  # type: ignore[misc]
            self.listening = None
