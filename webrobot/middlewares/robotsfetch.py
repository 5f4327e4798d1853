"""Fetching one robots.txt: the request, its redirects and its body limit.

The robots.txt request is ``engine.download_async`` with
``dont_obey_robotstxt``, ``allow_offsite``, ``dont_redirect`` (redirects are
followed here, at most ``WEBROBOT_ROBOTS_MAX_REDIRECTS`` hops) and
``dont_retry`` (the only retries are the middleware's backoff). Its body is cut
after ``WEBROBOT_ROBOTS_PARSE_LIMIT`` bytes (``StopDownload`` from
``bytes_received``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING
from urllib.parse import urljoin, urlsplit

from scrapy.exceptions import IgnoreRequest, StopDownload
from scrapy.http import Request
from scrapy.http.request import NO_CALLBACK
from w3lib.url import safe_url_string

if TYPE_CHECKING:
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
    redirect_problem: str | None = None  # "limit", "loop", "no_location", "bad_location"
    hops: int = 0


class RobotsFetcher:
    """Downloads a robots.txt through the engine, following its redirects."""

    def __init__(self, crawler: Crawler, *, max_redirects: int, parse_limit: int) -> None:
        self.crawler = crawler
        assert crawler.stats is not None
        self.stats = crawler.stats
        self.max_redirects = max_redirects
        self.parse_limit = parse_limit

    async def download(self, url: str) -> RobotsFetch:
        seen = {url}
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
                    "_robots_fetch": True,
                },
            )
            self.stats.inc_value("robotstxt/request_count")
            try:
                response: Response = await self.crawler.engine.download_async(request)
            except IgnoreRequest as exc:
                return RobotsFetch(url, error="IgnoreRequest", detail=str(exc), hops=hops)
            except Exception as exc:  # noqa: BLE001 - every network error defers the site
                return RobotsFetch(url, error=type(exc).__name__, detail=str(exc) or repr(exc), hops=hops)
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
            hops += 1
            url = target

    def bytes_received(self, data: bytes, request: Request) -> None:
        if not request.meta.get("_robots_fetch") or self.parse_limit <= 0:
            return
        received = request.meta.get("_robots_bytes", 0) + len(data)
        request.meta["_robots_bytes"] = received
        if received > self.parse_limit:
            raise StopDownload(fail=False)  # the rest would not be parsed (RFC 9309 2.5)
