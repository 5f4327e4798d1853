"""Fetching one robots.txt: the request, its redirects and its body limit.

The robots.txt request is ``engine.download_async`` with
``dont_obey_robotstxt``, ``allow_offsite``, ``dont_redirect`` (redirects are
followed here, at most ``WEBROBOT_ROBOTS_MAX_REDIRECTS`` hops) and
``dont_retry`` (the only retries are the middleware's backoff). Redirects may
lead to other hosts (RFC 9309 2.3.1.2), but every hop is a request through the
downloader middlewares, so the network guard, the blocklist and the scheme
check refuse a hop exactly as they refuse a page.

Its body is cut after ``WEBROBOT_ROBOTS_PARSE_LIMIT`` bytes (``StopDownload``
from ``bytes_received``), and it has no ``DOWNLOAD_MAXSIZE``: a robots.txt that
announces 11 MiB is read up to the limit and parsed, not refused (RFC 9309
2.5). A compressed body is decoded here (:class:`RobotsBodyMiddleware`, before
Scrapy's decompression) up to the same limit, so one that inflates without end
is cut at the limit instead of being dropped as too large.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING
from urllib.parse import urljoin, urlsplit

from scrapy.exceptions import IgnoreRequest, NotConfigured, StopDownload
from scrapy.http import Request
from scrapy.http.request import NO_CALLBACK
from w3lib.url import safe_url_string

from webrobot.compat import name_not_resolved
from webrobot.pages.inflate import ENCODINGS, inflate_prefix
from webrobot.settingsmodel.parse import read
from webrobot.signals import ROBOTS_FETCH_META
from webrobot.urls.deadhosts import failure_kind
from webrobot.urls.deadpolicy import url_host
from webrobot.urls.sitekey import site_key

if TYPE_CHECKING:
    from typing import Self

    from scrapy.crawler import Crawler
    from scrapy.http import Response

_HEADERS = ("cache-control", "expires", "date", "retry-after", "content-type", "location")


@dataclass
class RobotsFetch:
    """What one robots.txt attempt got, after redirects."""

    url: str
    status: int | None = None
    headers: dict[str, str] = field(default_factory=dict)
    body: bytes = b""
    stopped: bool = False
    error: str | None = None
    detail: str = ""
    #: No answer because the host name does not resolve (whichever exception said so).
    unresolved: bool = False
    #: The host is dead: its name does not exist, or its port refused
    #: (:mod:`webrobot.urls.deadpolicy`'s kinds); None for any other outcome.
    dead: str | None = None
    redirect_problem: str | None = None  # "limit", "loop", "no_location", "bad_location"
    hops: int = 0
    #: The URLs asked, in order (the first is the robots.txt asked for, the last ``url``).
    chain: tuple[str, ...] = ()


class RobotsFetcher:
    """Downloads a robots.txt through the engine, following its redirects."""

    def __init__(self, crawler: Crawler, *, max_redirects: int, parse_limit: int) -> None:
        self.crawler = crawler
        assert crawler.stats is not None
        self.stats = crawler.stats
        self.max_redirects = max_redirects
        self.parse_limit = parse_limit

    async def download(self, url: str) -> RobotsFetch:
        site = site_key(url)  # the site whose robots.txt this is, whatever the redirects
        seen = {url}
        chain = [url]
        hops = 0
        while True:
            request = Request(
                url,
                callback=NO_CALLBACK,
                meta={
                    "dont_obey_robotstxt": True,
                    "allow_offsite": True,
                    "dont_redirect": True,
                    "dont_retry": True,
                    "download_maxsize": 0,  # cut at the parse limit instead
                    "download_warnsize": 0,
                    ROBOTS_FETCH_META: site,  # whose robots.txt, for the crawl report
                },
            )
            self.stats.inc_value("robotstxt/request_count")
            try:
                response: Response = await self.crawler.engine.download_async(request)
            except IgnoreRequest as exc:
                return RobotsFetch(url, error="IgnoreRequest", detail=str(exc), hops=hops)
            except Exception as exc:  # noqa: BLE001 - every network error defers the site
                return RobotsFetch(
                    url, error=type(exc).__name__, detail=str(exc) or repr(exc), hops=hops,
                    unresolved=name_not_resolved(exc), dead=failure_kind(exc, url_host(url)[0]),
                )  # fmt: skip
            self.stats.inc_value("robotstxt/response_count")
            self.stats.inc_value(f"robotstxt/response_status_count/{response.status}")
            headers = {}
            for name in _HEADERS:
                values = response.headers.getlist(name)
                if values:
                    headers[name] = b", ".join(values).decode("latin-1")
            result = RobotsFetch(
                url, response.status, headers, response.body,
                stopped="download_stopped" in response.flags, hops=hops,
            )  # fmt: skip
            if not 300 <= response.status < 400:
                result.chain = tuple(chain)
                return result
            location = headers.get("location", "").strip()
            if not location:
                result.redirect_problem = "no_location"
                return result
            target = urljoin(url, safe_url_string(location))
            if urlsplit(target).scheme not in ("http", "https"):
                result.redirect_problem = "bad_location"
            elif target in seen:
                result.redirect_problem = "loop"
            elif hops >= self.max_redirects:
                result.redirect_problem = "limit"
            if result.redirect_problem:
                result.detail = target
                return result
            seen.add(target)
            chain.append(target)
            hops += 1
            url = target

    def bytes_received(self, data: bytes, request: Request) -> None:
        if not request.meta.get(ROBOTS_FETCH_META) or self.parse_limit <= 0:
            return
        received = request.meta.get("_robots_bytes", 0) + len(data)
        request.meta["_robots_bytes"] = received
        if received > self.parse_limit:
            raise StopDownload(fail=False)  # the rest would not be parsed (RFC 9309 2.5)


class RobotsBodyMiddleware:
    """Decode a compressed robots.txt up to the parse limit (a downloader
    middleware placed before Scrapy's ``HttpCompressionMiddleware``, which
    would refuse the whole body once it inflates past ``DOWNLOAD_MAXSIZE``)."""

    def __init__(self, crawler: Crawler) -> None:
        if not read(crawler.settings, "ROBOTSTXT_OBEY"):
            raise NotConfigured("ROBOTSTXT_OBEY is off")
        assert crawler.stats is not None
        self.stats = crawler.stats
        self.limit = read(crawler.settings, "WEBROBOT_ROBOTS_PARSE_LIMIT")

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> Self:
        return cls(crawler)

    def process_response(self, request: Request, response: Response) -> Response:
        if not request.meta.get(ROBOTS_FETCH_META):
            return response
        encodings = [
            e.strip().lower()
            for value in response.headers.getlist(b"Content-Encoding")
            for e in value.decode("latin-1").split(",")
            if e.strip() and e.strip().lower() != "identity"
        ]
        if not encodings or not set(encodings) <= ENCODINGS:
            return response  # nothing to do, or an encoding left to Scrapy
        body, cut = response.body, False
        for encoding in reversed(encodings):
            body, cut_here = inflate_prefix(body, encoding, self.limit)
            cut = cut or cut_here
        headers = response.headers.copy()
        del headers[b"Content-Encoding"]
        flags = list(response.flags)
        if cut:
            self.stats.inc_value("webrobot/robots/body/inflate_cut")
            flags.append("download_stopped")  # parsed as far as the limit, like a cut download
        return response.replace(body=body, headers=headers, flags=flags)
