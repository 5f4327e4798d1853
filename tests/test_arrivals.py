"""The kernel's arrival times of a test site's requests (tests/arrivals.py)."""

from __future__ import annotations

import socket
import time
from collections.abc import Callable

from tests.arrivals import Arrivals
from webrobot.demo.server import Reply, SiteServer

REQUEST = "GET {} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"


def test_a_request_read_late_by_the_server_is_stamped_when_it_arrived(
    make_site: Callable[..., SiteServer],
) -> None:
    site = make_site("stamped")
    site.add("/slow", Reply.text("slow", delay=0.3))
    site.add("/next", Reply.text("next"))
    arrivals = Arrivals(site)
    assert arrivals.kernel
    with socket.create_connection(("127.0.0.1", site.port)) as client:
        client.sendall(REQUEST.format("/slow").encode())
        time.sleep(0.1)  # the handler is busy with /slow: the next request waits in the socket
        sent = time.monotonic()
        client.sendall(REQUEST.format("/next").encode())
        client.settimeout(5)
        answers = b""
        while answers.count(b"HTTP/1.1 200") < 2:
            answers += client.recv(65536)
    deadline = time.monotonic() + 5
    while not (hits := [h for h in list(site.hits) if h.target == "/next"]):
        assert time.monotonic() < deadline, "the server records a hit once it has answered"
        time.sleep(0.01)
    hit = hits[0]
    assert hit.started - sent > 0.1, "the handler read it when /slow was answered"
    assert -0.001 < arrivals.of(hit) - sent < 0.05, "the kernel stamped it when it came"
