"""Thousands of small sites on loopback from one process: one asyncio server in a
thread listening on one ephemeral port of 127.0.0.1 per site (a site is scheme +
host + port), HTTP/1.1 with keep-alive. Each site has a robots.txt allowing
everything, a home page linking to ``pages - 1`` more pages, and every request
is logged as ``(port, path)``.

The server holds one descriptor per site and one per open connection: the
process that runs it raises its own open-file limit (:func:`raise_own_limit`).
"""

from __future__ import annotations

import asyncio
import resource
import threading
from collections import Counter
from typing import Self

ROBOTS = b"User-agent: *\nDisallow:\n"


def raise_own_limit(wanted: int) -> None:
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < wanted:
        resource.setrlimit(resource.RLIMIT_NOFILE, (min(wanted, hard), hard))


def _page(port: int, path: str, links: list[str]) -> bytes:
    anchors = "".join(f'<a href="{link}">{link}</a> ' for link in links)
    return (f"<!DOCTYPE html><html><head><title>site {port} {path}</title></head>"
            f"<body><p>Page {path} of site {port}.</p>{anchors}</body></html>").encode()  # fmt: skip


class ManySites:
    def __init__(self, sites: int, pages: int = 3, delay: float = 0.0) -> None:
        self.count = sites
        self.pages = pages
        self.delay = delay  # seconds before each answer
        self.ports: list[int] = []
        self.log: list[tuple[int, str]] = []
        self._loop = asyncio.new_event_loop()
        self._servers: list[asyncio.Server] = []
        self._thread = threading.Thread(target=self._loop.run_forever, daemon=True)
        self.connections = 0  # connections accepted in all

    def paths(self) -> list[str]:
        return ["/"] + [f"/p{i}" for i in range(1, self.pages)]

    def urls(self) -> list[str]:
        return [f"http://127.0.0.1:{port}/" for port in self.ports]

    def start(self) -> Self:
        raise_own_limit(self.count * 3 + 1000)
        self._thread.start()
        asyncio.run_coroutine_threadsafe(self._listen(), self._loop).result(120)
        return self

    async def _listen(self) -> None:
        for _ in range(self.count):
            server = await asyncio.start_server(self._serve, "127.0.0.1", 0, backlog=64)
            self._servers.append(server)
            self.ports.append(server.sockets[0].getsockname()[1])

    def _answer(self, port: int, path: str) -> tuple[int, bytes, bytes]:
        if path == "/robots.txt":
            return 200, b"text/plain", ROBOTS
        if path == "/":
            return 200, b"text/html", _page(port, path, self.paths()[1:])
        if path in self.paths():
            return 200, b"text/html", _page(port, path, ["/"])
        return 404, b"text/plain", b"not found"

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        port = writer.get_extra_info("sockname")[1]
        self.connections += 1
        try:
            while True:
                head = await reader.readuntil(b"\r\n\r\n")
                line = head.split(b"\r\n", 1)[0].decode("latin-1").split()
                path = line[1] if len(line) > 1 else "/"
                self.log.append((port, path))
                if self.delay:
                    await asyncio.sleep(self.delay)  # a slow server: the point
                status, kind, body = self._answer(port, path)
                reason = b"OK" if status == 200 else b"Not Found"
                writer.write(b"HTTP/1.1 %d %s\r\nContent-Type: %s\r\nContent-Length: %d\r\n"
                             b"Connection: keep-alive\r\n\r\n%s"
                             % (status, reason, kind, len(body), body))  # fmt: skip
                await writer.drain()
        except (asyncio.IncompleteReadError, ConnectionError, asyncio.LimitOverrunError):
            pass
        finally:
            writer.close()

    def hits(self) -> Counter[tuple[int, str]]:
        return Counter(list(self.log))

    def stop(self) -> None:
        async def close() -> None:
            for server in self._servers:
                server.close()

        if self._thread.is_alive():
            asyncio.run_coroutine_threadsafe(close(), self._loop).result(60)
            self._loop.call_soon_threadsafe(self._loop.stop)
            self._thread.join(10)
        if not self._thread.is_alive() and not self._loop.is_closed():
            self._loop.close()

    def __enter__(self) -> Self:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()
