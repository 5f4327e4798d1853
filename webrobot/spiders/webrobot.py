"""The generic breadth-first site spider, and the base of every per-site spider."""

from __future__ import annotations

import hashlib
import logging
from collections.abc import AsyncIterator, Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

import scrapy
from lxml import etree
from scrapy.http import HtmlResponse, Request
from scrapy.settings import SETTINGS_PRIORITIES
from w3lib.encoding import html_to_unicode

from webrobot.compat import check_generator_callbacks
from webrobot.items import PageItem
from webrobot.pages.contenttypes import (
    GENERIC,
    OTHER,
    badly_decoded,
    declared_kind,
    mime_type,
)
from webrobot.pages.page import (
    link_attribute_count,
    raw_link_count,
    summarise_html,
    summarise_html_text,
)
from webrobot.pages.pagerules import page_rules
from webrobot.pages.wholepage import whole_selector
from webrobot.politeness.downloader import slot_key_of
from webrobot.politeness.identitycheck import apply_identity
from webrobot.render.middleware import configure_rendering
from webrobot.seen.linkrequests import link_requests
from webrobot.settingsmodel.parse import error_lines, read
from webrobot.sitemaps.follow import sitemap_links, sitemap_request
from webrobot.sites.config import (
    ConfigError,
    SiteConfig,
    check_setting_types,
    load_site_config,
    parse_start_urls_argument,
)
from webrobot.urls.documents import documents_accepted, is_document
from webrobot.urls.scope import SiteScope

if TYPE_CHECKING:
    from typing import Self

    from scrapy.crawler import Crawler
    from scrapy.http import Response
    from scrapy.settings import BaseSettings

logger = logging.getLogger(__name__)


def _header(response: Response | Request, name: str) -> str | None:
    value = response.headers.get(name)
    return value.decode("latin-1") if value is not None else None


class WebrobotSpider(scrapy.Spider):
    """``scrapy crawl webrobot -a start_urls=URL[,URL...]`` or ``-a config=PATH``.

    From the Python API ``start_urls`` may also be a list or tuple of URLs.

    Per-site spiders are subclasses with :attr:`site_config` set.
    """

    #: Files that are not pages reach :meth:`parse`, which counts them (webrobot.pages.nontext).
    reads_non_html = True
    name = "webrobot"
    #: rel="nofollow" is applied to the page's links before they become requests
    honors_rel_nofollow = True
    site_config: ClassVar[SiteConfig | None] = None

    def __init__(
        self,
        *args: Any,
        start_urls: str | list[str] | tuple[str, ...] | None = None,
        config: str | Path | None = None,
        **kwargs: Any,
    ) -> None:
        super().__init__(*args, **kwargs)
        self.config_error: ConfigError | None = None
        self.checked_callbacks: list[Any] = []  # kept for the crawl (check_generator_callbacks)
        self.config: SiteConfig | None = type(self).site_config
        urls: tuple[str, ...] = ()
        try:
            if config is not None:
                self.config = load_site_config(config)
            if self.config is not None:
                urls = self.config.start_urls
            if start_urls is not None:
                urls = parse_start_urls_argument(start_urls)
            if not urls:
                raise ConfigError(
                    "spider arguments",
                    "start_urls",
                    "expected -a start_urls=URL[,URL...] or -a config=PATH of a site config",
                )
        except ConfigError as exc:
            self.config_error = exc
        self.start_urls = list(urls)
        cfg = self.config
        self.scope = SiteScope(
            start_urls=self.start_urls,
            allowed_domains=cfg.allowed_domains if cfg else (),
            allow=cfg.allow if cfg else (),
            deny=cfg.deny if cfg else (),
        )

    @classmethod
    def update_settings(cls, settings: BaseSettings) -> None:
        super().update_settings(settings)
        if cls.site_config is not None:
            _apply_config_settings(cls.site_config, settings)

    @classmethod
    def from_crawler(cls, crawler: Crawler, *args: Any, **kwargs: Any) -> Self:
        spider = super().from_crawler(crawler, *args, **kwargs)
        if spider.config_error is not None:
            return spider
        apply_identity(crawler.settings)
        # A config given as an argument applies like a per-site spider's own;
        # settings are still unfrozen here (Scrapy >= 2.11).
        if spider.config is not None and spider.config is not cls.site_config:
            try:
                check_setting_types(spider.config, crawler.settings.get)
            except ConfigError as exc:
                spider.config_error = exc
                return spider
            _apply_config_settings(spider.config, crawler.settings)
            apply_identity(crawler.settings)
        try:
            configure_rendering(crawler)
        except ConfigError as exc:
            spider.config_error = exc
        # Scrapy reads a callback's source file mid-crawl otherwise (compat says when).
        spider.checked_callbacks = check_generator_callbacks(spider)
        return spider

    async def start(self) -> AsyncIterator[Any]:
        if self.config_error is not None:
            # One clear line instead of a traceback: the crawl ends at once.
            for line in error_lines(self.config_error):
                logger.error("webrobot cannot start: %s", line)
            self.crawler.stats.set_value("webrobot/config_error", str(self.config_error))
            raise scrapy.exceptions.CloseSpider("config_error")
        for url in self.start_urls:
            yield Request(url, callback=self.parse)
        for url in self.config.sitemaps if self.config else ():
            yield sitemap_request(self.crawler, url, self.parse_sitemap, "config")

    def parse_sitemap(self, response: Response, **kwargs: Any) -> Iterator[Request]:
        """A sitemap or sitemap index: its URLs go through every rule links go through."""
        yield from sitemap_links(self.crawler, response, self.parse, self.parse_sitemap)

    def parse(self, response: Response, **kwargs: Any) -> Iterator[Any]:
        stats = self.crawler.stats
        declared = _header(response, "Content-Type")
        kind = declared_kind(declared)
        if "download_stopped" in response.flags:
            stats.inc_value("webrobot/page/non_html")  # stopped at its headers: not a page we read
            return
        if kind == OTHER or (kind == GENERIC and not isinstance(response, HtmlResponse)):
            mime = mime_type(declared)
            if documents_accepted(self.crawler) is not None and is_document(mime, response.body):
                stats.inc_value("webrobot/page/document")
                yield self._file_item(response, mime)  # the mining adds its text and metadata
                return
            stats.inc_value("webrobot/page/non_html")
            if read(self.crawler.settings, "WEBROBOT_NON_HTML_ITEMS"):
                yield self._file_item(response, mime_type(declared))
            return
        if not isinstance(response, HtmlResponse):  # declared HTML, taken for something else
            response = response.replace(cls=HtmlResponse)
        assert isinstance(response, HtmlResponse)
        response = _decoded_right(response, stats)
        try:
            root = whole_selector(response, stats).root  # the body too, after an early </html>
        except (etree.LxmlError, ValueError, LookupError) as exc:  # lxml refuses some inputs
            logger.warning("Unparsable HTML at %s: %s", response.url, exc)
            stats.inc_value("webrobot/page/unparsable")
            root = None
        page = summarise_html(root, response.url)
        if raw_link_count(root) < link_attribute_count(response.text):
            # The tree lost part of the page (nesting past lxml's depth limit, say): read it again.
            fallback = summarise_html_text(response.text, response.url)
            if len(fallback.links) > len(page.links):
                stats.inc_value("webrobot/page/markup_fallback")
                logger.info(
                    "%s: markup too deep for the tree; links read with a streaming parser",
                    response.url,
                )
                page = fallback
        if page.bad_links:
            stats.inc_value("webrobot/page/bad_link", page.bad_links)
        rules = page_rules(self.crawler, response)  # noindex, nofollow, noarchive, rel=nofollow
        content_type = (_header(response, "Content-Type") or "").split(";")[0].strip().lower()
        item = PageItem(
            url=response.url,
            status=response.status,
            depth=response.meta.get("depth", 0),
            referer=_header(response.request, "Referer") if response.request else None,
            fetched_at=datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ"),
            content_type=content_type,
            title=page.title,
            md5=hashlib.md5(response.body, usedforsecurity=False).hexdigest(),
            meta_robots=list(response.meta.get("robots", ())),
            body=response.text if rules.store_body else None,
        )
        yield item  # a noindex page's item is dropped by MetaRobotsSpiderMiddleware
        # A nofollow page's requests are dropped likewise; links already visited or
        # queued never become requests.
        yield from link_requests(
            self.crawler, (link.url for link in rules.links(page.links)), self.parse
        )

    def _file_item(self, response: Response, content_type: str) -> PageItem:
        """An item for a file that is not a page (a document the crawl takes in, or any file
        with ``WEBROBOT_NON_HTML_ITEMS``): no title of its own, no links."""
        return PageItem(
            url=response.url,
            status=response.status,
            depth=response.meta.get("depth", 0),
            referer=_header(response.request, "Referer") if response.request else None,
            fetched_at=datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ"),
            content_type=content_type,
            title=None,
            md5=hashlib.md5(response.body, usedforsecurity=False).hexdigest(),
            meta_robots=list(response.meta.get("robots", ())),
            body=None,
        )


def _decoded_right(response: HtmlResponse, stats: Any) -> HtmlResponse:
    """The response decoded with w3lib's detection (BOM, <meta charset>, then
    guessing) when the charset its headers declare makes no sense of the body."""
    if not badly_decoded(response.text, response.body):
        return response
    encoding, _ = html_to_unicode(None, response.body)
    if encoding == response.encoding:
        return response
    stats.inc_value("webrobot/page/encoding_fallback")
    logger.info(
        "%s: declared charset %s does not decode the page; read as %s",
        response.url, response.encoding, encoding,
    )  # fmt: skip
    return response.replace(encoding=encoding)


def _apply_config_settings(config: SiteConfig, settings: BaseSettings) -> None:
    settings.setdict(config.scrapy_settings(), priority="spider")

    # A slot entry outranks DOWNLOAD_DELAY and CONCURRENT_REQUESTS_PER_DOMAIN, so
    # leave it out where -s (or Scrapyd's setting=) gave that setting: it must win.
    def overridden(name: str) -> bool:
        return (settings.getpriority(name) or 0) > SETTINGS_PRIORITIES["spider"]

    slot: dict[str, Any] = {}
    if config.download_delay is not None and not overridden("DOWNLOAD_DELAY"):
        slot["delay"] = config.download_delay
    if config.concurrency is not None and not overridden("CONCURRENT_REQUESTS_PER_DOMAIN"):
        slot["concurrency"] = config.concurrency
    if slot:
        slots = dict(settings.getdict("DOWNLOAD_SLOTS"))
        for url in config.start_urls:
            slots.setdefault(slot_key_of(url, settings), dict(slot))
        settings.set("DOWNLOAD_SLOTS", slots, priority="spider")
