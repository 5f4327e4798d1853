"""Render pages in headless Chromium through scrapy-playwright, with every rule unchanged.

Off by default (``WEBROBOT_RENDER = ""``). ``WEBROBOT_RENDER = "browser"``
(``render = "browser"`` in a site config) renders every page of the crawl;
``"on-request"`` renders only requests whose meta has ``render = "browser"``.
scrapy-playwright is an optional dependency (``pip install webrobot[browser]``),
imported only when rendering is on; the browser is the system's Chromium
(``WEBROBOT_BROWSER_PATH``), never one downloaded by Playwright.

What stays the same for a rendered page:

* the page's own request goes through every downloader middleware first
  (scope, traps, URL templates, robots.txt, budgets) and through its site's
  download slot (delay, Crawl-delay, one request at a time);
* every request the browser makes while rendering is checked against the
  robots.txt of its site by the robots middleware itself (fetching that
  robots.txt if needed); a disallowed one is aborted and counted as a refusal
  (``robotstxt/forbidden``) like any other; pictures, media and fonts are not
  fetched (``WEBROBOT_RENDER_BLOCKED_TYPES``), and at most
  ``WEBROBOT_RENDER_MAX_SUBREQUESTS`` go out per page;
* the response body is the rendered DOM, so meta robots directives, links,
  the MD5 fingerprint and duplicate detection all see what the browser built;
* with an archive, the sub-requests the browser was allowed to make (scripts,
  stylesheets, ``fetch()`` and XHR answers...) are listed in the response's
  ``_render_loaded`` meta key, and the archive fetches each as a page requisite
  on the normal path (:mod:`webrobot.archive.requisitemiddleware`), so
  script-loaded resources are in the WARC files too.

:func:`configure_rendering` runs while the spider is built (settings not yet
frozen) and installs scrapy-playwright's download handler; robots.txt and
sitemap fetches, and every request not to be rendered, keep Scrapy's own
handler (scrapy-playwright passes them through).
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

from scrapy.exceptions import IgnoreRequest, NotConfigured
from scrapy.http import Request
from scrapy.http.request import NO_CALLBACK

from webrobot.optional import MissingExtra, check
from webrobot.render.rendering import (
    BROWSER,
    CHECK,
    LOCAL,
    OFF,
    check_mode,
    classify_subrequest,
    wants_browser,
)
from webrobot.settingsmodel.parse import ConfigError, read
from webrobot.signals import REQUISITE_META, SITEMAP_META

if TYPE_CHECKING:
    from typing import Self

    from scrapy.crawler import Crawler
    from scrapy.http import Response
    from scrapy.settings import BaseSettings

logger = logging.getLogger(__name__)
#: request meta: (URL, resource type) of each sub-request the browser made for the page
LOADED_KEY = "_render_loaded"

#: Chromium flags for a robot: no sandbox (root in containers), nothing phoning home.
BROWSER_ARGS = (
    "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
    "--disable-extensions", "--hide-scrollbars",
)  # fmt: skip
HANDLER = "scrapy_playwright.handler.ScrapyPlaywrightDownloadHandler"
#: request meta: pages being rendered (the browser's navigation to them is the page itself)
RENDERING_KEY = "_rendering"


def render_mode(settings: BaseSettings) -> str:
    try:
        return check_mode(read(settings, "WEBROBOT_RENDER") or "")
    except ValueError as exc:
        raise ConfigError("settings", "WEBROBOT_RENDER", str(exc)) from None


def configure_rendering(crawler: Crawler) -> None:
    """Install scrapy-playwright when rendering is on; a clear ConfigError when it cannot be."""
    settings = crawler.settings
    if render_mode(settings) == OFF:
        return
    try:
        check("scrapy_playwright", "browser", "Rendering pages (WEBROBOT_RENDER)")
    except MissingExtra as exc:
        raise ConfigError("settings", "WEBROBOT_RENDER", str(exc)) from None
    guard = SubrequestGuard(crawler)
    handlers = dict(settings.getdict("DOWNLOAD_HANDLERS"))
    handlers.update({"http": HANDLER, "https": HANDLER})
    settings.set("DOWNLOAD_HANDLERS", handlers, priority="spider")
    launch = dict(settings.getdict("PLAYWRIGHT_LAUNCH_OPTIONS"))
    launch.setdefault("executable_path", read(settings, "WEBROBOT_BROWSER_PATH"))
    launch.setdefault("args", list(BROWSER_ARGS))
    launch.setdefault("headless", True)
    settings.set("PLAYWRIGHT_LAUNCH_OPTIONS", launch, priority="spider")
    settings.set("PLAYWRIGHT_BROWSER_TYPE", "chromium", priority="spider")
    settings.set("PLAYWRIGHT_ABORT_REQUEST", guard.should_abort, priority="spider")


class SubrequestGuard:
    """Decides each request the browser makes while rendering a page."""

    def __init__(self, crawler: Crawler) -> None:
        self.crawler = crawler
        settings = crawler.settings
        self.blocked_types = frozenset(read(settings, "WEBROBOT_RENDER_BLOCKED_TYPES"))
        self.max_per_page = read(settings, "WEBROBOT_RENDER_MAX_SUBREQUESTS")
        self.rendering: set[str] = set()
        self.sent: dict[str, int] = {}
        #: page URL -> (URL, Playwright resource type) of each sub-request let through,
        #: kept only when the crawl archives requisites
        self.keep_loaded = bool(read(settings, "WEBROBOT_WARC_DIR")) and read(
            settings, "WEBROBOT_REQUISITES_ENABLED"
        )
        self.loaded: dict[str, list[tuple[str, str]]] = {}
        self._robots: Any = None

    def _count(self, what: str) -> None:
        assert self.crawler.stats is not None
        self.crawler.stats.inc_value(f"webrobot/render/subrequest/{what}")

    def _robots_middleware(self) -> Any:
        if self._robots is None:
            from webrobot.robots.middleware import RobotsMiddleware

            engine = self.crawler.engine
            assert engine is not None
            for mw in engine.downloader.middleware.middlewares:
                if isinstance(mw, RobotsMiddleware):
                    self._robots = mw
                    break
        return self._robots

    async def should_abort(self, pw_request: Any) -> bool:
        url: str = pw_request.url
        page_url = self._page_of(pw_request)
        if pw_request.is_navigation_request() and url in self.rendering:
            return False  # the page itself: its request passed every rule already
        kind = classify_subrequest(url, pw_request.resource_type, self.blocked_types)
        if kind == LOCAL:
            return False
        if kind != CHECK:
            self._count(kind)
            return True
        if self.max_per_page and page_url is not None:
            sent = self.sent.get(page_url, 0)
            if sent >= self.max_per_page:
                self._count("over_limit")
                return True
            self.sent[page_url] = sent + 1
        robots = self._robots_middleware()
        if robots is not None:
            try:
                await robots.process_request(
                    Request(url, callback=NO_CALLBACK, meta={"_render_subrequest": True})
                )
            except IgnoreRequest:
                self._count("refused")
                return True
        self._count("allowed")
        if self.keep_loaded and page_url is not None and page_url in self.rendering:
            self.loaded.setdefault(page_url, []).append((url, str(pw_request.resource_type)))
        return False

    def _page_of(self, pw_request: Any) -> str | None:
        try:
            return str(pw_request.frame.page.main_frame.url) or None
        except Exception:  # noqa: BLE001 - a request of a closed page or a worker
            return None


class RenderMiddleware:
    """Marks the requests to render (scrapy-playwright's ``playwright`` meta key)."""

    def __init__(self, crawler: Crawler) -> None:
        try:
            self.mode = render_mode(crawler.settings)
        except ConfigError as exc:
            from webrobot.settingsmodel.startup import setting_error

            raise setting_error(crawler, exc) from None
        if self.mode == OFF:
            raise NotConfigured("WEBROBOT_RENDER is off")
        self.crawler = crawler
        self.wait_until = read(crawler.settings, "WEBROBOT_RENDER_WAIT_UNTIL") or "load"

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> Self:
        return cls(crawler)

    def _guard(self) -> SubrequestGuard | None:
        abort = self.crawler.settings.get("PLAYWRIGHT_ABORT_REQUEST")
        return getattr(abort, "__self__", None)

    def process_request(self, request: Request) -> None:
        # robots.txt, sitemaps and page requisites are files, never pages to render
        internal = (
            request.callback is NO_CALLBACK
            or bool(request.meta.get(SITEMAP_META))
            or request.meta.get(REQUISITE_META) is not None
        )
        if not wants_browser(self.mode, request.meta, internal):
            return
        request.meta["playwright"] = True
        request.meta.setdefault("playwright_page_goto_kwargs", {"wait_until": self.wait_until})
        assert self.crawler.stats is not None
        self.crawler.stats.inc_value("webrobot/render/pages")
        guard = self._guard()
        if guard is not None:
            guard.rendering.add(request.url)

    def process_response(self, request: Request, response: Response) -> Response:
        guard = self._guard()
        if request.meta.get("playwright") and guard is not None:
            loaded = guard.loaded.pop(request.url, None)
            if loaded:
                request.meta[LOADED_KEY] = loaded
        self._done(request)
        return response

    def process_exception(self, request: Request, exception: Exception) -> None:
        self._done(request)

    def _done(self, request: Request) -> None:
        if request.meta.get("playwright"):
            guard = self._guard()
            if guard is not None:
                guard.rendering.discard(request.url)
                guard.sent.pop(request.url, None)
                guard.loaded.pop(request.url, None)


__all__ = ["BROWSER", "RenderMiddleware", "SubrequestGuard", "configure_rendering"]
