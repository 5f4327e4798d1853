"""When each request to a test site reached the machine, as the kernel stamped it
(``SO_TIMESTAMPNS``), not when the site's handler thread got round to it.

:attr:`webrobot.demo.server.Hit.started` is read by the handler thread once it
runs and has parsed the request line. On a loaded machine that thread may wait
tens of milliseconds for a core (a shared-crawl test runs six Redis nodes,
three workers and the sites on the same cores), so two requests sent 300 ms
apart can be stamped 230 ms apart: the server's lateness, not the client's. The
kernel stamps each segment when it arrives, before any thread runs, so the
difference of two stamps is the difference of two sends (on loopback a send
arrives at once). Where the platform has no ``SO_TIMESTAMPNS`` the handler's
own time stands in. For clients that send a request only once the last answer
came (Scrapy's do): a pipelined request already read into the handler's buffer
would leave the peek waiting.
"""

from __future__ import annotations

import socket
import struct
import threading
import time
from typing import Any

from webrobot.demo.server import Hit, Reply, SiteServer

#: Linux's values; ``socket`` exports them only on some versions.
SO_TIMESTAMPNS = getattr(socket, "SO_TIMESTAMPNS", 35)
SCM_TIMESTAMPNS = SO_TIMESTAMPNS


class Arrivals:
    """Kernel arrival times of ``site``'s requests, on ``time.monotonic()``'s clock
    like :class:`Hit`'s: install before the first request."""

    def __init__(self, site: SiteServer) -> None:
        self._times: dict[int, float] = {}  # id(hit) -> arrival (hits are kept: ids stay unique)
        self._local = threading.local()
        httpd: Any = site._httpd
        try:  # set on the listening socket: the accepted ones inherit it
            httpd.socket.setsockopt(socket.SOL_SOCKET, SO_TIMESTAMPNS, 1)
            self.kernel = True
        except OSError:
            self.kernel = False
        local = self._local
        base = httpd.RequestHandlerClass

        class Stamped(base):  # type: ignore[misc, valid-type]
            def handle_one_request(self) -> None:
                local.arrived = arrival(self.connection)
                super().handle_one_request()

        httpd.RequestHandlerClass = Stamped
        resolve = site.resolve

        def stamped(hit: Hit) -> Reply:
            arrived = getattr(local, "arrived", None)
            self._times[id(hit)] = hit.started if arrived is None else min(arrived, hit.started)
            return resolve(hit)

        site.resolve = stamped  # type: ignore[method-assign]

    def of(self, hit: Hit) -> float:
        """When ``hit`` reached the machine (``hit.started`` if it was not stamped)."""
        return self._times.get(id(hit), hit.started)


def arrival(connection: socket.socket) -> float | None:
    """The kernel's time for the next bytes on ``connection`` (waits for them, reads
    nothing), on the monotonic clock; None without a stamp (closed, or unsupported)."""
    try:
        _, ancillary, _, _ = connection.recvmsg(1, socket.CMSG_SPACE(16), socket.MSG_PEEK)
    except (OSError, AttributeError, NotImplementedError):  # closed; no recvmsg (TLS, Windows)
        return None
    for level, kind, data in ancillary:
        if level == socket.SOL_SOCKET and kind == SCM_TIMESTAMPNS and len(data) >= 16:
            seconds, nanos = struct.unpack("qq", data[:16])
            return seconds + nanos / 1e9 - (time.time() - time.monotonic())
    return None
