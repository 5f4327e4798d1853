"""A small threaded HTTP server for one site, which records every request it saw.

Used by the demo web and by the end-to-end tests, which judge the crawler by
what the server was asked for (path, headers, start and end time).
"""

from __future__ import annotations

import ssl
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Self


@dataclass
class Reply:
    status: int = 200
    body: bytes | str = b""
    headers: dict[str, str] = field(default_factory=dict)
    delay: float = 0.0  # seconds to wait before answering

    @classmethod
    def html(cls, body: str, status: int = 200, *, delay: float = 0.0, **headers: str) -> Reply:
        return cls(status, body, {"Content-Type": "text/html; charset=utf-8", **headers}, delay)

    @classmethod
    def text(cls, body: str, status: int = 200, *, delay: float = 0.0, **headers: str) -> Reply:
        return cls(status, body, {"Content-Type": "text/plain; charset=utf-8", **headers}, delay)

    def with_headers(self, headers: dict[str, str]) -> Reply:
        """This reply with more headers (names that are not Python identifiers too)."""
        return Reply(self.status, self.body, {**self.headers, **headers}, self.delay)


@dataclass
class Hit:
    """One request as the server saw it."""

    method: str
    target: str  # the raw request-target: path and query, as sent
    headers: dict[str, str]  # lower-case names
    started: float  # time.monotonic() when the request line arrived
    finished: float = 0.0  # when the reply was written

    @property
    def path(self) -> str:
        return self.target.split("?", 1)[0]


Handler = Callable[[Hit], Reply]
Route = Reply | Handler


#: Seconds between the serving loop's checks for :meth:`SiteServer.stop`.
STOP_POLL_INTERVAL = 0.05


class SiteServer:
    """One site: ``routes`` by exact request-target, then by path, then prefix
    handlers (longest prefix first), else 404."""

    def __init__(
        self,
        name: str = "site",
        host: str = "127.0.0.1",
        port: int = 0,
        tls: ssl.SSLContext | None = None,
    ) -> None:
        self.name = name
        #: Serve https with this server context (its certificate and key loaded).
        self.tls = tls
        self.host = host
        self.requested_port = port
        self.routes: dict[str, Route] = {}
        self.prefixes: list[tuple[str, Handler]] = []
        self.hits: list[Hit] = []
        self._lock = threading.Lock()
        self._httpd: ThreadingHTTPServer | None = None
        self._thread: threading.Thread | None = None

    # -- content ---------------------------------------------------------
    def add(self, target: str, route: Route) -> None:
        self.routes[target] = route

    def html(self, target: str, body: str, status: int = 200, **headers: str) -> None:
        self.add(target, Reply.html(body, status).with_headers(headers))

    def add_prefix(self, prefix: str, handler: Handler) -> None:
        self.prefixes.append((prefix, handler))
        self.prefixes.sort(key=lambda p: len(p[0]), reverse=True)

    def resolve(self, hit: Hit) -> Reply:
        route = self.routes.get(hit.target) or self.routes.get(hit.path)
        if route is None:
            for prefix, handler in self.prefixes:
                if hit.target.startswith(prefix):
                    route = handler
                    break
        if route is None:
            return Reply.html(
                "<html><head><title>Not found</title></head><body>Not found</body></html>", 404
            )
        return route(hit) if callable(route) else route

    # -- what was requested ------------------------------------------------
    def targets(self) -> list[str]:
        with self._lock:
            return [h.target for h in self.hits]

    def count(self, target: str) -> int:
        return self.targets().count(target)

    def record(self, hit: Hit) -> None:
        with self._lock:
            self.hits.append(hit)

    # -- life cycle --------------------------------------------------------
    @property
    def port(self) -> int:
        assert self._httpd is not None, "server not started"
        return self._httpd.server_address[1]

    @property
    def scheme(self) -> str:
        return "https" if self.tls is not None else "http"

    @property
    def origin(self) -> str:
        return f"{self.scheme}://{self.host}:{self.port}"

    def url(self, target: str = "/") -> str:
        return self.origin + target

    def start(self) -> Self:
        site = self

        class _Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"
            server_version = "webrobot-demo"
            # Small replies must not wait for the client's delayed ACK (Nagle):
            # TCP_NODELAY on every connection, and one write per reply: the head
            # and body gather in a write buffer, sent by the flush below.
            disable_nagle_algorithm = True
            wbufsize = 256 * 1024

            def do_GET(self) -> None:
                self._answer(head=False)

            def do_HEAD(self) -> None:
                self._answer(head=True)

            def _answer(self, head: bool) -> None:
                hit = Hit(
                    method=self.command,
                    target=self.path,
                    headers={k.lower(): v for k, v in self.headers.items()},
                    started=time.monotonic(),
                )
                try:
                    reply = site.resolve(hit)
                except Exception as exc:  # noqa: BLE001 (a broken handler is a 500, not a dead server)
                    reply = Reply.text(f"handler error: {exc}", 500)
                if reply.delay:
                    time.sleep(reply.delay)
                body = reply.body.encode("utf-8") if isinstance(reply.body, str) else reply.body
                try:
                    self.send_response(reply.status)
                    for name, value in reply.headers.items():
                        self.send_header(name, value)
                    self.send_header("Content-Length", str(len(body)))
                    self.end_headers()
                    if not head:
                        self.wfile.write(body)
                    self.wfile.flush()
                except (BrokenPipeError, ConnectionResetError):
                    pass
                finally:
                    hit.finished = time.monotonic()
                    site.record(hit)

            def log_message(self, format: str, *args: Any) -> None:
                pass

        tls = self.tls

        class _Server(ThreadingHTTPServer):
            daemon_threads = True

            def get_request(self) -> tuple[Any, Any]:
                sock, address = super().get_request()
                if tls is not None:
                    # The handshake happens in the connection's own thread, on its first read:
                    # a client that stalls it does not hold up the others.
                    sock = tls.wrap_socket(sock, server_side=True, do_handshake_on_connect=False)
                return sock, address

            def handle_error(self, request: Any, client_address: Any) -> None:
                pass  # a client that gave up on the handshake is not the server's problem

        self._httpd = _Server((self.host, self.requested_port), _Handler)
        self._thread = threading.Thread(
            target=self._httpd.serve_forever,
            # stop() waits for the loop to look again: at most this long, not half a second
            kwargs={"poll_interval": STOP_POLL_INTERVAL},
            name=f"site-{self.name}",
            daemon=True,
        )
        self._thread.start()
        return self

    def stop(self) -> None:
        if self._httpd is not None:
            self._httpd.shutdown()
            self._httpd.server_close()
            self._httpd = None

    def __enter__(self) -> Self:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()
