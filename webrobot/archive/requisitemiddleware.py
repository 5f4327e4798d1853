"""Fetch and archive each page's requisites, so that an archived page replays
whole: thin glue around :mod:`webrobot.archive.requisites`.

On when the crawl archives (``WEBROBOT_WARC_DIR``) unless
``WEBROBOT_REQUISITES_ENABLED`` (site config key ``requisites``) is off.

* :class:`RequisiteSpiderMiddleware` (outermost spider middleware) reads the
  requisites of every archived HTML page from its parse tree (the one the
  spider then uses) and queues a request for each, marked with the
  ``webrobot_requisite`` meta key (its kind) and the embeds it is away from the
  page (``_requisite_hops``). It queues them before the spider's callback
  runs, outside the spider middlewares that judge links (scope, depth, file
  extensions, nofollow), because requisites are not links (and a link refused
  as off-site must not mark its URL visited before the requisite is queued); the downloader middlewares
  (network guard, scope, blocklist, robots.txt, politeness, budget) and the
  visited set still apply to them like to every request. They get the page's
  priority plus :data:`PRIORITY_BOOST`, so they are fetched soon after their
  page and a crawl stopped early holds whole pages.
* :class:`RequisiteDownloaderMiddleware` takes every requisite's final
  response (after redirects, retries and decompression): counts it, queues
  what a stylesheet (``@import``, ``url()``) or a frame document names in
  turn (one more embed), and keeps it from the spider: a requisite is never
  itemised, indexed or followed for links. Its records were written by the
  archive middleware next to the downloader like every fetch's.

A requisite whose host was found dead (its name does not resolve, or its port
refuses connections: :class:`~webrobot.urls.deadhosts.DeadHosts`, by this
crawl or remembered from an earlier one) is not requested at all.

Counted: ``webrobot/requisite/<kind>/<outcome>`` (outcome ``archived``,
``http_error``, ``error``, ``no_such_name``, ``refused`` or the refusal's reason:
``robots_txt``, ``blocklist``, ``budget``, ``offsite``...). Which page lacks which requisite
is in the crawl report (``archive`` in report.json).
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any, Self
from urllib.parse import urljoin

from scrapy import Request, signals
from scrapy.exceptions import IgnoreRequest, NotConfigured
from scrapy.http import HtmlResponse, TextResponse
from scrapy.http.request import NO_CALLBACK

from webrobot import signals as webrobot_signals
from webrobot.archive.requisites import (
    ARCHIVED,
    ERROR,
    FONT,
    FRAME,
    HTTP_ERROR,
    ICON,
    IMAGE,
    MAX_EMBED_CHAIN,
    MEDIA,
    NOT_FETCHED,
    OTHER,
    QUEUED,
    REQUISITES_FEATURE,
    SCRIPT,
    STYLESHEET,
    Requisite,
    RequisiteLedger,
    css_requisites,
    decode_css,
    html_requisites,
)
from webrobot.optional import MissingExtra, check, installed
from webrobot.pages.embeds import embed_request
from webrobot.pages.metarobots import policy
from webrobot.pages.wholepage import whole_selector
from webrobot.render.middleware import LOADED_KEY
from webrobot.robots.middleware import RobotsMiddleware
from webrobot.settingsmodel.parse import read
from webrobot.signals import HOPS_META, REQUISITE_META, ROBOTS_FETCH_META
from webrobot.sitemaps.follow import SITEMAP_KEY
from webrobot.urls.canonical import canonicalizer_for
from webrobot.urls.deadhosts import STATS_PREFIX as DEAD_STATS
from webrobot.urls.deadhosts import DeadHosts
from webrobot.urls.refusals import Refuser
from webrobot.urls.scopemiddleware import CrawlScope
from webrobot.urls.sitekey import request_site
from webrobot.wiring import Key, find_per_crawler, per_crawler, set_per_crawler

if TYPE_CHECKING:
    from collections.abc import Iterable, Iterator

    from scrapy.crawler import Crawler
    from scrapy.http import Response

logger = logging.getLogger(__name__)

#: Added to the page's priority: requisites go ahead of the pages waiting.
PRIORITY_BOOST = 100_000
STATS_PREFIX = "webrobot/requisite/"
#: Requisites not fetched because their host is dead (those held for it included).
DEAD_SKIPPED = DEAD_STATS + "skipped"


def requisites_wanted(crawler: Crawler) -> bool:
    settings = crawler.settings
    if not read(settings, "WEBROBOT_WARC_DIR") or not read(settings, "WEBROBOT_REQUISITES_ENABLED"):
        return False
    if not installed("warcio"):
        return False  # no archive at all: the archive's own line names the extra
    try:
        check("tinycss2", "warc", REQUISITES_FEATURE)
    except MissingExtra as exc:
        if not find_per_crawler(crawler, _TOLD_MISSING):  # one line, though two middlewares ask
            set_per_crawler(crawler, _TOLD_MISSING, True)
            logger.error("No page requisites: %s", exc)
        return False
    return True


#: Whether the crawl was told tinycss2 is missing.
_TOLD_MISSING = Key[bool]("webrobot.archive.requisitemiddleware.told_missing")


class RequisiteTracker:
    """One per crawler: the ledger of pages and requisites, and their counts."""

    @classmethod
    def of(cls, crawler: Crawler) -> RequisiteTracker:
        return per_crawler(crawler, RequisiteTracker, cls)

    def __init__(self, crawler: Crawler) -> None:
        self.crawler = crawler
        assert crawler.stats is not None
        self.stats = crawler.stats
        self.ledger = RequisiteLedger()
        self.dead = DeadHosts.of(crawler)
        self.dead.listen(self._host_dead)
        self.refuser = Refuser(crawler)
        self._canonicalizer: Any = None
        crawler.signals.connect(self.request_refused, signal=webrobot_signals.request_refused)
        crawler.signals.connect(self.request_dropped, signal=signals.request_dropped)
        crawler.signals.connect(self.report, signal=webrobot_signals.report_parts)

    def count(self, kind: str, outcome: str) -> None:
        self.stats.inc_value(f"{STATS_PREFIX}{kind}/{outcome}")

    def finished(self, request: Request, outcome: str) -> None:
        kind = request.meta.get(REQUISITE_META)
        if kind is None or request.callback is NO_CALLBACK:
            return  # not a requisite, or an embed fetched for another part (mining)
        self.count(str(kind), outcome)
        self.ledger.outcome(request.url, outcome)
        for url in request.meta.get("redirect_urls") or ():
            self.ledger.outcome(url, outcome)

    def request_refused(self, request: Request, reason: str, site: str) -> None:
        self.finished(request, reason)

    def _host_dead(self, url: str, reason: str) -> None:
        """A host was found dead: the requisites already queued for it and held while
        its robots.txt is retried are refused now, not when robots.txt gives up."""
        try:
            robots = self.crawler.get_downloader_middleware(RobotsMiddleware)
        except (RuntimeError, AttributeError):  # no engine (yet): nothing is held
            return
        if robots is None:
            return
        for site, pending in list(robots.pending.items()):
            if self.dead.lookup(site) is None:
                continue
            for request in pending.take_held(_awaited_by_nobody):
                self.refuser.refuse(
                    request, reason, f"the host of {site} is dead", stat=DEAD_SKIPPED, said=True
                )

    def request_dropped(self, request: Request) -> None:
        if request.meta.get(REQUISITE_META) is not None:
            self.ledger.seen_before(request.url)

    def page_frame_in_scope(self, url: str) -> bool:
        """A frame document the spider will crawl as a page (its site is in scope)."""
        spider = self.crawler.spider
        scope = CrawlScope.of(self.crawler).get()
        if scope is None:
            return False
        if self._canonicalizer is None:
            self._canonicalizer = canonicalizer_for(getattr(spider, "config", None))
        try:
            return scope.refusal(self._canonicalizer(url)) is None
        except ValueError:
            return False

    def requests(
        self, parent: Request, requisites: Iterable[Requisite], hops: int
    ) -> Iterator[Request]:
        """A request for each requisite (``hops`` embeds from the page)."""
        if hops > MAX_EMBED_CHAIN:
            return
        for requisite in requisites:
            if requisite.kind == FRAME and hops == 1 and self.page_frame_in_scope(requisite.url):
                continue  # crawled (and archived with its requisites) as a page
            dead = self.dead.skip(requisite.url)
            if dead is not None:  # not asked: its host was found dead
                self.count(requisite.kind, dead)
                self.ledger.outcome(requisite.url, dead)
                continue
            try:
                request = embed_request(
                    requisite.url,
                    requisite.kind,
                    referer=parent.url,
                    hops=hops,
                    priority=parent.priority + (PRIORITY_BOOST if hops == 1 else 0),
                )
            except ValueError:
                self.count(requisite.kind, "bad_url")
                continue
            yield request

    def report(self, finished: bool = True) -> dict[str, Any]:
        """The archive's report section; while the crawl runs (``finished`` False) a
        requisite not answered yet is ``queued``, at the end ``not_fetched``."""
        sites = {}
        for site, row in sorted(
            self.ledger.by_site(QUEUED if not finished else NOT_FETCHED).items()
        ):
            sites[site] = {
                "pages_whole": row.whole,
                "pages_missing_requisites": row.missing,
                "missing_by_reason": dict(sorted(row.reasons.items())),
                "examples": [
                    {"page": page, "requisite": requisite, "reason": reason}
                    for page, requisite, reason in row.examples
                ],
            }
        return {"archive": {"sites": sites}}


def _awaited_by_nobody(request: Request) -> bool:
    """A requisite queued for the archive (not one a component awaits)."""
    return request.meta.get(REQUISITE_META) is not None and request.callback is not NO_CALLBACK


#: Playwright's resource types -> requisite kinds
_RESOURCE_KINDS = {
    "stylesheet": STYLESHEET, "script": SCRIPT, "image": IMAGE, "font": FONT, "media": MEDIA,
    "document": FRAME, "texttrack": MEDIA, "manifest": OTHER,
}  # fmt: skip


def _browser_loaded(loaded: Iterable[tuple[str, str]], known: set[str]) -> list[Requisite]:
    """Requisites for what the browser loaded while rendering the page (``fetch()``
    and XHR answers are ``other``), those the markup names left out."""
    out = []
    for url, resource_type in loaded:
        url = url.split("#", 1)[0]
        if url in known or not url.startswith(("http://", "https://")):
            continue
        known.add(url)
        out.append(Requisite(url, _RESOURCE_KINDS.get(resource_type, OTHER)))
    return out


def _is_html(response: Response) -> bool:
    if isinstance(response, HtmlResponse):
        return True
    content_type = (response.headers.get(b"Content-Type") or b"").decode("latin-1").lower()
    return "html" in content_type and isinstance(response, TextResponse)


def _page_archived(response: Response) -> bool:
    directives = response.meta.get("robots") or ()
    return policy(list(directives)).archive if directives else True


class RequisiteSpiderMiddleware:
    """Yields the requisites of each archived HTML page beside the page's output."""

    def __init__(self, crawler: Crawler) -> None:
        if not requisites_wanted(crawler):
            raise NotConfigured("no WEBROBOT_WARC_DIR, or WEBROBOT_REQUISITES_ENABLED is off")
        self.crawler = crawler
        self.tracker = RequisiteTracker.of(crawler)

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> Self:
        return cls(crawler)

    def _requests(self, response: Response) -> list[Request]:
        request = response.request
        meta = response.meta
        if request is None or meta.get(REQUISITE_META) is not None:
            return []
        if meta.get(ROBOTS_FETCH_META) or meta.get(SITEMAP_KEY):
            return []
        # A page from the HTTP cache (a re-crawl) queues its requisites too: the
        # cache revalidates them, and a changed one is archived again.
        if "download_stopped" in response.flags or 300 <= response.status < 400:
            return []
        if not _page_archived(response):
            return []
        self.tracker.ledger.outcome(response.url, ARCHIVED)  # a frame crawled as a page
        if not _is_html(response):
            return []
        try:
            root = whole_selector(response).root  # type: ignore[arg-type]
        except Exception:  # noqa: BLE001 - lxml refuses some inputs; the spider says so
            return []
        requisites = html_requisites(root, response.url)
        self.tracker.ledger.page(response.url, request_site(response), (r.url for r in requisites))
        requisites.extend(_browser_loaded(meta.get(LOADED_KEY) or (), {r.url for r in requisites}))
        if not any(r.kind == ICON for r in requisites):
            # Browsers ask every site for /favicon.ico when a page names no icon: its
            # answer (a 404 too) is archived once per site, so a replay asks nothing new.
            # Not counted as the page's need: the page does not name it.
            requisites.append(Requisite(urljoin(response.url, "/favicon.ico"), ICON))
        return list(self.tracker.requests(request, requisites, 1))

    def process_spider_input(self, response: Response) -> None:
        engine = self.crawler.engine
        assert engine is not None
        for request in self._requests(response):
            engine.crawl(request)


class RequisiteDownloaderMiddleware:
    """Takes each requisite's final response: counts it, queues what it embeds,
    and keeps it from the spider."""

    def __init__(self, crawler: Crawler) -> None:
        if not requisites_wanted(crawler):
            raise NotConfigured("no WEBROBOT_WARC_DIR, or WEBROBOT_REQUISITES_ENABLED is off")
        self.crawler = crawler
        self.tracker = RequisiteTracker.of(crawler)
        crawler.signals.connect(self.spider_closed, signal=signals.spider_closed)

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> Self:
        return cls(crawler)

    def process_response(self, request: Request, response: Response) -> Response:
        kind = request.meta.get(REQUISITE_META)
        if kind is None:
            return response
        if request.callback is NO_CALLBACK:
            return response  # awaited by a component (images described for mining): its own
        if response.status >= 400:
            self.tracker.finished(request, HTTP_ERROR)
        else:
            self.tracker.finished(request, ARCHIVED)
            self._embedded(request, response, str(kind))
        raise IgnoreRequest(f"requisite {response.url[:200]} archived, not a page")

    def process_exception(self, request: Request, exception: Exception) -> None:
        if request.meta.get(REQUISITE_META) is None or isinstance(exception, IgnoreRequest):
            return  # refusals are counted by the request_refused signal
        if request.callback is NO_CALLBACK:
            return  # awaited by a component (images described for mining): its own
        dead = self.tracker.dead.download_failed(request.url, exception)
        self.tracker.finished(request, dead or ERROR)

    def _embedded(self, request: Request, response: Response, kind: str) -> None:
        """Queue what a stylesheet or a frame document needs in turn."""
        if "download_stopped" in response.flags:
            return
        content_type = (response.headers.get(b"Content-Type") or b"").decode("latin-1").lower()
        hops = int(request.meta.get(HOPS_META) or 1) + 1
        requisites: list[Requisite] = []
        if "text/css" in content_type or (kind == STYLESHEET and "html" not in content_type):
            charset = None
            if "charset=" in content_type:
                charset = content_type.split("charset=", 1)[1].split(";")[0].strip()
            requisites = css_requisites(decode_css(response.body, charset), response.url)
        elif kind == FRAME and _is_html(response):
            try:
                root = whole_selector(response).root  # type: ignore[arg-type]
            except Exception:  # noqa: BLE001 - unparsable frame: nothing more to fetch
                root = None
            requisites = html_requisites(root, response.url)
        if not requisites:
            return
        self.tracker.ledger.embeds(request.url, (r.url for r in requisites))
        if response.url != request.url:
            self.tracker.ledger.embeds(response.url, (r.url for r in requisites))
        engine = self.crawler.engine
        assert engine is not None
        for child in self.tracker.requests(request, requisites, hops):
            engine.crawl(child)

    def spider_closed(self) -> None:
        by_site = self.tracker.ledger.by_site()
        stats = self.crawler.stats
        assert stats is not None
        for site, row in sorted(by_site.items()):
            if row.missing:
                logger.info(
                    "Archive of %s: %d pages whole, %d with requisites missing (%s)",
                    site, row.whole, row.missing,
                    ", ".join(f"{k}: {v}" for k, v in sorted(row.reasons.items())),
                )  # fmt: skip
        stats.set_value(STATS_PREFIX + "pages/whole", sum(r.whole for r in by_site.values()))
        stats.set_value(STATS_PREFIX + "pages/missing", sum(r.missing for r in by_site.values()))
