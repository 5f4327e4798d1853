"""``scrapy search --serve``: a small search page on 127.0.0.1 (no Scrapy here).

One page, rendered with Jinja2 (autoescaping on: every title, URL and snippet
from the crawled web is escaped), with its style inline and a
``Content-Security-Policy`` that forbids loading anything else, so the page
makes no request beyond itself. Standard library HTTP server, bound to the
loopback address only.
"""

from __future__ import annotations

import logging
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

from jinja2 import Environment, PackageLoader, select_autoescape

from webrobot.search.index import IndexUnavailable, SearchIndex
from webrobot.search.query import QueryError

logger = logging.getLogger(__name__)

HOST = "127.0.0.1"
CSP = "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; base-uri 'none'"
MAX_LIMIT = 100


def environment() -> Environment:
    return Environment(
        loader=PackageLoader("webrobot.search", "templates"),
        autoescape=select_autoescape(default=True, default_for_string=True),
    )


class SearchServer:
    """Serves the search page for the index at ``path`` on 127.0.0.1:``port`` (0: any free port)."""

    def __init__(self, path: Path, port: int = 0, limit: int = 10) -> None:
        self.path = path
        self.limit = limit
        self.template = environment().get_template("search.html")
        self._local = threading.local()
        SearchIndex(path)  # fail now, with a clear message, if it is not an index
        server = self

        class Handler(BaseHTTPRequestHandler):
            server_version = "webrobot-search"

            def do_GET(self) -> None:
                parts = urlsplit(self.path)
                if parts.path != "/":
                    self._send(404, "text/plain; charset=utf-8", b"not found\n")
                    return
                body = server.render(parse_qs(parts.query)).encode("utf-8")
                self._send(200, "text/html; charset=utf-8", body)

            def _send(self, status: int, content_type: str, body: bytes) -> None:
                self.send_response(status)
                self.send_header("Content-Type", content_type)
                self.send_header("Content-Length", str(len(body)))
                self.send_header("Content-Security-Policy", CSP)
                self.send_header("X-Content-Type-Options", "nosniff")
                self.send_header("Referrer-Policy", "no-referrer")
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, format: str, *args: Any) -> None:
                logger.debug("search page: " + format, *args)

        self.httpd = ThreadingHTTPServer((HOST, port), Handler)
        self.httpd.daemon_threads = True

    @property
    def url(self) -> str:
        return f"http://{HOST}:{self.httpd.server_address[1]}/"

    def _index(self) -> SearchIndex:
        index = getattr(self._local, "index", None)
        if index is None:
            index = self._local.index = SearchIndex(self.path)
        return index

    def render(self, params: dict[str, list[str]]) -> str:
        query = (params.get("q") or [""])[0].strip()
        site = (params.get("site") or [""])[0].strip()
        try:
            limit = max(1, min(MAX_LIMIT, int((params.get("limit") or [str(self.limit)])[0])))
        except ValueError:
            limit = self.limit
        hits: list[Any] = []
        error = ""
        pages = 0
        try:
            index = self._index()
            pages = len(index)
            if query:
                hits = index.search(query, site=site or None, limit=limit)
        except (QueryError, IndexUnavailable) as exc:
            error = str(exc)
        if query and not error and pages == 0:
            error = f"The index {self.path.name} holds no pages yet: crawl first."
        return self.template.render(
            query=query,
            site=site,
            hits=hits,
            error=error,
            limit=limit,
            pages=pages,
            index_name=self.path.name,
        )

    def serve_forever(self) -> None:
        self.httpd.serve_forever()

    def close(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()
