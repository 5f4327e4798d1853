"""A fast HTTP/1.1 server for the benchmark web: one process, asyncio, every
page pre-built in memory, keep-alive, one listening socket per site.

``python -m benchmarks.server --pages 20000 --sites 16`` prints one JSON line
when it is ready: ``{"sites": [origin, ...], "control": url, "pid": ...}``, then
serves until SIGTERM, SIGINT or end of its standard input. ``GET /stats`` on the
control URL answers with the requests seen per site and the server's own CPU
seconds, so a harness can check that the server was not the bottleneck;
``GET /reset`` answers the same after starting a new count of distinct pages
(``distinct_pages``: HTML pages served, each counted once since the reset).

Several sites get distinct loopback addresses (127.0.1.1, 127.0.1.2, ...,
127.0.2.1, ...), so
bare Scrapy (whose download slots are host names) and webrobot (sites are
scheme + host + port) both see one site per address; where extra loopback
addresses cannot be bound, sites fall back to distinct ports on 127.0.0.1.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import resource
import signal
import socket
import stat
import sys
from typing import Any

from benchmarks.web import WebSpec, build_site, is_disallowed, robots_txt

MAX_HEAD = 64 * 1024  # a request head longer than this closes the connection

_REASONS = {200: b"OK", 400: b"Bad Request", 404: b"Not Found", 405: b"Method Not Allowed"}


def _head(status: int, length: int, content_type: bytes) -> bytes:
    return (
        b"HTTP/1.1 %d %s\r\nServer: webrobot-bench\r\nContent-Type: %s\r\n"
        b"Content-Length: %d\r\nConnection: keep-alive\r\n\r\n"
        % (status, _REASONS[status], content_type, length)
    )


HTML = b"text/html; charset=utf-8"
TEXT = b"text/plain; charset=utf-8"


class Site:
    """One site's responses and counters."""

    def __init__(self, origin: str, pages: dict[str, Any], robots: str) -> None:
        self.origin = origin
        self.responses: dict[bytes, tuple[bytes, ...]] = {}
        for path, page in pages.items():
            self.responses[path.encode()] = (_head(200, page.size, HTML), *page.chunks)
        body = robots.encode()
        self.responses[b"/robots.txt"] = (_head(200, len(body), TEXT), body)
        forbidden = b"<html><head><title>Forbidden fruit</title></head><body>robots.txt disallows this page</body></html>"
        self.disallowed_reply = (_head(200, len(forbidden), HTML), forbidden)
        missing = b"<html><head><title>Not found</title></head><body>Not found</body></html>"
        self.missing_reply = (_head(404, len(missing), HTML), missing)
        # pages: HTML pages served; distinct_pages: of them, those not served before
        # since the last reset (a crawl's own pages, each counted once).
        self.counts = {"pages": 0, "distinct_pages": 0, "robots": 0, "disallowed": 0,
                       "not_found": 0, "bytes": 0}  # fmt: skip
        self.served: set[bytes] = set()

    def reset_distinct(self) -> None:
        self.served.clear()
        self.counts["distinct_pages"] = 0

    def reply(self, method: bytes, target: bytes) -> tuple[bytes, ...]:
        counts = self.counts
        reply = self.responses.get(target)
        if reply is not None:
            if target == b"/robots.txt":
                counts["robots"] += 1
            else:
                counts["pages"] += 1
                if target not in self.served:
                    self.served.add(target)
                    counts["distinct_pages"] += 1
        elif is_disallowed(target.decode("latin-1")):
            counts["disallowed"] += 1  # a robot that fetches this broke the rules
            reply = self.disallowed_reply
        else:
            counts["not_found"] += 1
            reply = self.missing_reply
        if method == b"HEAD":
            return reply[:1]
        counts["bytes"] += sum(map(len, reply))
        return reply


class HttpProtocol(asyncio.Protocol):
    """Just enough HTTP/1.1 for crawlers: GET and HEAD, keep-alive, pipelining."""

    def __init__(self, site: Site, latency: float = 0.0) -> None:
        self.site = site
        self.latency = latency  # seconds before each answer (a network's round trip)
        self.buffer = b""
        self.transport: asyncio.Transport | None = None

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        assert isinstance(transport, asyncio.Transport)
        self.transport = transport
        _nodelay(transport)

    def data_received(self, data: bytes) -> None:
        transport = self.transport
        assert transport is not None
        buffer = self.buffer + data if self.buffer else data
        while True:
            end = buffer.find(b"\r\n\r\n")
            if end < 0:
                break
            head, buffer = buffer[:end], buffer[end + 4 :]
            line, _, headers = head.partition(b"\r\n")
            parts = line.split(b" ")
            if len(parts) != 3:
                transport.write(_head(400, 0, TEXT))
                transport.close()
                return
            method, target = parts[0], parts[1]
            if method not in (b"GET", b"HEAD"):
                transport.write(_head(405, 0, TEXT))
                transport.close()
                return
            reply = self.site.reply(method, target)
            close = b"connection: close" in headers.lower()
            if self.latency > 0:
                asyncio.get_running_loop().call_later(self.latency, self._send, reply, close)
            else:
                self._send(reply, close)
            if close:
                return
        if len(buffer) > MAX_HEAD:
            transport.close()
            return
        self.buffer = buffer

    def _send(self, reply: tuple[bytes, ...], close: bool) -> None:
        transport = self.transport
        if transport is None or transport.is_closing():
            return
        # One write per reply: head and body in one segment, never a small
        # head waiting on the client's delayed ACK.
        transport.write(b"".join(reply))
        if close:
            transport.close()


class ControlProtocol(asyncio.Protocol):
    """``GET /stats``: counters per site and the server's CPU seconds, as JSON;
    ``GET /reset``: the same, after a new count of distinct pages has started."""

    def __init__(self, server: BenchServer) -> None:
        self.server = server

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        assert isinstance(transport, asyncio.Transport)
        self.transport = transport

    def data_received(self, data: bytes) -> None:
        if b"\r\n\r\n" not in data:
            return
        if data.startswith(b"GET /reset "):  # a new crawl: every page counts as distinct again
            for site in self.server.sites:
                site.reset_distinct()
        body = json.dumps(self.server.stats()).encode()
        self.transport.write(
            b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n"
            b"Content-Length: %d\r\nConnection: close\r\n\r\n%s" % (len(body), body)
        )
        self.transport.close()


def _nodelay(transport: asyncio.Transport) -> None:
    """``TCP_NODELAY`` on a connection (asyncio sets it too; this states it)."""
    sock = transport.get_extra_info("socket")
    if sock is not None and sock.family in (socket.AF_INET, socket.AF_INET6):
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)


def _bind(host: str) -> socket.socket:
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind((host, 0))
    sock.listen(1024)
    sock.setblocking(False)
    return sock


def site_hosts(count: int) -> list[str]:
    """One loopback address per site when there are several (see module doc)."""
    if count == 1:
        return ["127.0.0.1"]
    # 254 addresses per /24 (127.0.1.1-254, 127.0.2.1-254, ...): 4,096 sites fit easily.
    hosts = [f"127.0.{1 + n // 254}.{1 + n % 254}" for n in range(count)]
    try:
        _bind(hosts[-1]).close()
    except OSError:
        return ["127.0.0.1"] * count
    return hosts


class BenchServer:
    def __init__(self, spec: WebSpec, latency: float = 0.0) -> None:
        self.spec = spec
        self.latency = latency
        self.sockets = [_bind(host) for host in site_hosts(spec.sites)]
        origins = ["http://{}:{}".format(*sock.getsockname()[:2]) for sock in self.sockets]
        robots = robots_txt()
        self.sites = [
            Site(origin, build_site(spec, number, origins), robots)
            for number, origin in enumerate(origins)
        ]
        self.control_socket = _bind("127.0.0.1")

    @property
    def control_url(self) -> str:
        return f"http://127.0.0.1:{self.control_socket.getsockname()[1]}"

    def stats(self) -> dict[str, Any]:
        times = os.times()
        totals: dict[str, int] = {}
        for site in self.sites:
            for key, value in site.counts.items():
                totals[key] = totals.get(key, 0) + value
        return {
            "sites": {site.origin: dict(site.counts) for site in self.sites},
            "total": totals,
            "cpu_seconds": times.user + times.system,
            "maxrss_kb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss,
        }

    async def serve(self, stop: asyncio.Event) -> None:
        loop = asyncio.get_running_loop()
        servers = []
        for site, sock in zip(self.sites, self.sockets):
            servers.append(
                await loop.create_server(
                    lambda site=site: HttpProtocol(site, self.latency), sock=sock
                )
            )
        servers.append(
            await loop.create_server(lambda: ControlProtocol(self), sock=self.control_socket)
        )
        ready = {
            "sites": [site.origin for site in self.sites],
            "control": self.control_url,
            "pid": os.getpid(),
            "pages": sum(len(site.responses) - 1 for site in self.sites),
        }
        print(json.dumps(ready), flush=True)
        await stop.wait()
        for server in servers:
            server.close()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks.server", description=__doc__.split("\n\n")[0]
    )
    parser.add_argument("--pages", type=int, default=WebSpec.pages)
    parser.add_argument("--sites", type=int, default=1)
    parser.add_argument("--links", type=int, default=WebSpec.links)
    parser.add_argument("--seed", type=int, default=WebSpec.seed)
    parser.add_argument("--latency", type=float, default=0.0, help="seconds before each answer")
    args = parser.parse_args(argv)
    spec = WebSpec(pages=args.pages, sites=args.sites, links=args.links, seed=args.seed)
    server = BenchServer(spec, args.latency)

    async def run() -> None:
        loop = asyncio.get_running_loop()
        stop = asyncio.Event()
        for signum in (signal.SIGTERM, signal.SIGINT):
            loop.add_signal_handler(signum, stop.set)
        stdin = sys.stdin.fileno()
        if stat.S_ISFIFO(os.fstat(stdin).st_mode):
            # The harness closing the pipe (or dying) also stops the server.
            loop.add_reader(stdin, lambda: None if os.read(stdin, 1024) else stop.set())
        await server.serve(stop)

    asyncio.run(run())
    return 0


if __name__ == "__main__":
    sys.exit(main())
