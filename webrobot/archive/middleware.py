"""Archive every fetch in WARC files (``WEBROBOT_WARC_DIR``): thin glue around
:mod:`webrobot.archive.warc`.

A downloader middleware placed next to the downloader (priority 980), so it sees
each response as it came off the wire: before decompression, redirects and
retries are handled, and including the robots.txt fetches (which go through the
downloader too). Responses served from Scrapy's HTTP cache (flag ``cached``) were
archived when they were fetched and are not written again.

Pages whose robots directives say ``noarchive`` (``X-Robots-Tag`` or the head's
robots meta, read the way :mod:`webrobot.pages.metarobotsmiddleware` reads them) are
not archived, neither request nor response: counted ``webrobot/warc/noarchive``.

The records are written before the response goes on, so a fetch the crawl has
handed on (and its frontier acknowledged) is in the file even if the crawl is
killed right after. They are written in the reactor's thread: at zlib level 1
with the digests done by hashlib, a 15 KB page costs about 0.2 ms. A background
thread was measured and made the crawl slower, not faster (the work is mostly
Python holding the GIL, and every response then waits for the GIL to change
hands: 0.5x the pages/s of no archive, against 0.85x written in line; see
docs/archive.md).
Files a killed run left ``.open`` in the folder are repaired when the archive
opens (``webrobot/warc/repaired``, ``webrobot/warc/cut``).

A write that fails for want of space (:mod:`webrobot.job.diskstate`): the
open file is cut back to its last whole exchange, nothing more is archived in
this run, the response is not handed on (``IgnoreRequest``: its page stays
pending in the frontier) and the crawl closes with ``disk_full``.
"""

from __future__ import annotations

import gzip
import logging
import socket
import zlib
from pathlib import Path
from typing import TYPE_CHECKING, Any, Self

from scrapy import signals
from scrapy.exceptions import IgnoreRequest, NotConfigured
from scrapy.http import HtmlResponse

from webrobot.distributed.keys import safe_url
from webrobot.job.diskstate import disk_of
from webrobot.optional import MissingExtra, check
from webrobot.pages.metarobots import policy, product_token
from webrobot.pages.pagerules import OPT_OUT_KEY, response_directives
from webrobot.settingsmodel.parse import read
from webrobot.signals import REQUISITE_META
from webrobot.version import __version__

if TYPE_CHECKING:
    from scrapy import Request, Spider
    from scrapy.crawler import Crawler
    from scrapy.http import Response

    from webrobot.archive.warc import DigestLog, Exchange, SharedDigestLog, WarcArchive

logger = logging.getLogger(__name__)

#: The JOBDIR file that remembers archived payloads across a resumed job.
#: What warcio serves, as its missing-package message names it.
FEATURE = "A WARC archive (WEBROBOT_WARC_DIR)"

DIGEST_LOG = "webrobot-warc-digests.txt"
#: Scrapy settings that shape a crawl, named in each file's warcinfo record
#: (with every WEBROBOT_ setting).
_INFO_SETTINGS = (
    "USER_AGENT", "ROBOTSTXT_OBEY", "ROBOTSTXT_USER_AGENT", "ROBOTSTXT_PARSER",
    "DOWNLOAD_DELAY", "AUTOTHROTTLE_ENABLED", "CONCURRENT_REQUESTS",
    "CONCURRENT_REQUESTS_PER_DOMAIN", "DEPTH_LIMIT", "DOWNLOAD_MAXSIZE", "DOWNLOAD_TIMEOUT",
    "REDIRECT_MAX_TIMES", "RETRY_TIMES", "COOKIES_ENABLED",
)  # fmt: skip


def _text(value: Any) -> str:
    return " ".join(str(value).split())


class WarcArchiveMiddleware:
    """Archives every fetch in WARC files, as it came off the wire."""

    def __init__(self, crawler: Crawler) -> None:
        settings = crawler.settings
        folder = read(settings, "WEBROBOT_WARC_DIR")
        if not folder:
            raise NotConfigured("WEBROBOT_WARC_DIR is not set")
        try:
            check("warcio", "warc", FEATURE)
        except MissingExtra as exc:
            logger.error("No WARC archive: %s", exc)  # the one line that names the extra
            raise NotConfigured(f"{exc.module} is not installed") from exc
        self.crawler = crawler
        self.folder = Path(folder)
        self.max_size = read(settings, "WEBROBOT_WARC_MAX_SIZE")
        self.prefix_template = read(settings, "WEBROBOT_WARC_PREFIX") or "webrobot"
        self.obey_meta = read(settings, "WEBROBOT_META_ROBOTS_ENABLED")
        self.agent = product_token(settings.get("ROBOTSTXT_USER_AGENT"), settings.get("USER_AGENT"))
        jobdir = settings.get("JOBDIR") or ""
        self.digest_path = Path(jobdir) / DIGEST_LOG if jobdir else None
        self.archive: WarcArchive | None = None
        self._failed = False
        crawler.signals.connect(self.spider_closed, signal=signals.spider_closed)

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> Self:
        return cls(crawler)

    # -- set-up ------------------------------------------------------------------
    def info(self, spider_name: str) -> dict[str, str]:
        settings = self.crawler.settings
        info = {
            "software": f"webrobot/{__version__} (Scrapy)",
            "isPartOf": spider_name,
            "robots": "obey" if read(settings, "ROBOTSTXT_OBEY") else "ignore",
            "http-header-user-agent": _text(settings.get("USER_AGENT") or ""),
            "http-header-from": _text(read(settings, "WEBROBOT_FROM")),
        }
        names = list(_INFO_SETTINGS) + sorted(
            n for n, _ in settings.items() if n.startswith("WEBROBOT_")
        )
        for name in names:
            value = settings.get(name)
            if name == "WEBROBOT_REDIS_URL" and value:
                value = safe_url(str(value))
            info[name] = _text(value) if value not in (None, "") else "''"
        return info

    def _archive(self) -> WarcArchive:
        if self.archive is None:
            from webrobot.archive.warc import WarcArchive  # warcio: the warc extra

            spider = self.crawler.spider
            name = spider.name if spider is not None else "webrobot"
            prefix = (
                self.prefix_template % {"spider": name}
                if "%(" in self.prefix_template
                else self.prefix_template
            )
            self._repair()
            self.archive = WarcArchive(
                self.folder, prefix=prefix, max_size=self.max_size, info=self.info(name),
                digests=self._digests(name), on_file_closed=self._file_closed,
            )  # fmt: skip
        return self.archive

    def _digests(self, spider_name: str) -> DigestLog | SharedDigestLog:
        """Where the archived payloads are remembered: in Redis when the crawl is
        shared (a duplicate another worker archived is a revisit too), else in
        ``JOBDIR`` (across a resumed job) or memory."""
        from webrobot.archive.warc import DigestLog, SharedDigestLog

        settings = self.crawler.settings
        if not read(settings, "WEBROBOT_REDIS_URL").strip():
            return DigestLog(self.digest_path)
        from webrobot.distributed.keys import CrawlKeys, redis_from_settings

        keys = CrawlKeys.from_settings(settings, spider_name)
        return SharedDigestLog(redis_from_settings(settings), f"{keys.prefix}:warc")

    def _repair(self) -> None:
        from webrobot.archive.warcrepair import repair_open_files

        if not self.folder.is_dir():
            return
        stats = self.crawler.stats
        assert stats is not None
        for repair in repair_open_files(self.folder, socket.gethostname()):
            stats.inc_value("webrobot/warc/repaired")
            stats.inc_value("webrobot/warc/cut", repair.records_cut)
            logger.warning(
                "WARC file left open by a killed run closed: %s (%d incomplete records, "
                "%d bytes, cut off)",
                repair.path, repair.records_cut, repair.bytes_cut,
            )  # fmt: skip

    def _file_closed(self, path: Path) -> None:
        logger.info("WARC file written: %s", path)

    # -- every response ------------------------------------------------------------
    def process_response(self, request: Request, response: Response) -> Response:
        if "cached" in response.flags:
            return response
        stats = self.crawler.stats
        assert stats is not None
        if not self.archivable(request, response):
            stats.inc_value("webrobot/warc/noarchive")
            logger.debug("Not archiving %s: robots directives say noarchive", response.url)
            return response
        if self.archive is not None and self.archive.stopped:
            raise IgnoreRequest(
                f"Not archived (the WARC folder {self.folder} is full): {response.url}"
            )
        try:
            kind = self._archive().write(exchange_of(request, response))
        except Exception as exc:  # noqa: BLE001 - one clear line, never a traceback
            stats.inc_value("webrobot/warc/error")
            if disk_of(self.crawler).write_failed("WARC record", self.folder, exc):
                # Not handed on: the page stays pending in the frontier for the resumed job.
                if self.archive is not None:
                    self.archive.abandon()
                raise IgnoreRequest(
                    f"Not archived (no space in the WARC folder {self.folder}): {response.url}"
                ) from None
            if not self._failed:
                logger.error("Cannot write the WARC record of %s: %s", response.url, exc)
                self._failed = True
            return response
        stats.inc_value(f"webrobot/warc/records/{kind}")
        stats.inc_value("webrobot/warc/records/request")
        if self.archive is not None and self.archive.files:
            stats.set_value("webrobot/warc/files", len(self.archive.files))
        return response

    def archivable(self, request: Request, response: Response) -> bool:
        if not self.obey_meta or request.meta.get(OPT_OUT_KEY):
            return True
        try:
            directives = response_directives(_decoded(response), self.agent)
        except Exception:  # noqa: BLE001 - unreadable head: headers alone decide
            values = [v.decode("latin-1") for v in response.headers.getlist("X-Robots-Tag")]
            directives = [d for v in values for d in v.lower().replace(",", " ").split()]
        return policy(directives).archive if directives else True

    def spider_closed(self, spider: Spider) -> None:
        if self.archive is None:
            return
        try:
            self.archive.close()
        except OSError as exc:
            if not disk_of(self.crawler).write_failed("WARC record", self.folder, exc):
                raise
        stats = self.crawler.stats
        assert stats is not None
        stats.set_value("webrobot/warc/bytes", self.archive.bytes_written)
        shared = self.archive.digests
        if getattr(shared, "errors", 0):
            stats.set_value("webrobot/warc/redis_error", shared.errors)  # type: ignore[union-attr]
            logger.error(
                "The shared payload index in Redis failed %d times (those pages archived "
                "as full responses); the first: %s",
                shared.errors, shared.first_error,  # type: ignore[union-attr]
            )  # fmt: skip
        if self.archive.files:
            self.crawler.stats.set_value("webrobot/warc/files", len(self.archive.files))


def _decoded(response: Response) -> Response:
    """The response with its body decoded for the robots meta scan (the
    compression middleware decodes it later, for everyone else)."""
    if not isinstance(response, HtmlResponse):
        return response
    encoding = (response.headers.get("Content-Encoding") or b"").decode("latin-1").strip().lower()
    if encoding in ("", "identity"):
        return response
    body = response.body
    try:
        if encoding in ("gzip", "x-gzip"):
            body = gzip.decompress(body)
        elif encoding == "deflate":
            try:
                body = zlib.decompress(body)
            except zlib.error:
                body = zlib.decompress(body, -zlib.MAX_WBITS)
        elif encoding == "br":
            import brotli  # type: ignore[import-untyped,import-not-found,unused-ignore]  # optional, as for Scrapy

            body = brotli.decompress(body)
        else:
            return response
    except Exception:  # noqa: BLE001 - a broken body: the headers still count
        return response.replace(body=b"")
    return response.replace(body=body)


def exchange_of(request: Request, response: Response) -> Exchange:
    """The exchange as the downloader saw it: request headers as sent by the
    middlewares (the HTTP client adds ``Host``), response headers and body as
    received."""
    from webrobot.archive.warc import Exchange

    protocol = response.protocol or "HTTP/1.1"
    if not protocol.upper().startswith("HTTP/"):
        protocol = "HTTP/1.1"
    truncated = "length" if ({"download_stopped", "dataloss"} & set(response.flags)) else None
    ip = str(response.ip_address) if response.ip_address is not None else None
    return Exchange(
        url=response.url,
        method=request.method,
        request_headers=_pairs(request.headers),
        request_body=request.body,
        status=response.status,
        response_headers=_pairs(response.headers),
        payload=response.body,
        protocol=protocol.upper(),
        truncated=truncated,
        ip=ip,
        requisite=str(request.meta[REQUISITE_META]) if REQUISITE_META in request.meta else None,
    )


def _pairs(headers: Any) -> list[tuple[str, str]]:
    out = []
    for name, values in headers.items():
        key = name.decode("latin-1") if isinstance(name, bytes) else str(name)
        for value in values:
            out.append((key, value.decode("latin-1") if isinstance(value, bytes) else str(value)))
    return out
