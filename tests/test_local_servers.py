"""The local servers used by tests and benchmarks answer in one write.

A reply written as a head and then a body, without ``TCP_NODELAY``, makes the
body wait for the client's delayed ACK (about 40 ms on Linux). Here each reply
must arrive whole in the first ``recv`` on a kept-alive connection: over
loopback one write of a few kilobytes arrives as one segment, two writes
arrive as two.
"""

from __future__ import annotations

import json
import socket
import subprocess
import sys
from collections.abc import Iterator

import pytest

from tests.crawling import PROJECT_ROOT
from webrobot.demo.server import SiteServer

PAGE = "<html><body>" + "<a href='/p'>p</a>" * 100 + "</body></html>"


def _first_recvs(host: str, port: int, target: str, times: int) -> list[bytes]:
    """What the first ``recv`` of each of ``times`` sequential GETs returned."""
    firsts = []
    with socket.create_connection((host, port), timeout=10) as sock:
        request = f"GET {target} HTTP/1.1\r\nHost: {host}:{port}\r\n\r\n".encode()
        for _ in range(times):
            sock.sendall(request)
            first = sock.recv(1 << 20)
            firsts.append(first)
            head, _, body = first.partition(b"\r\n\r\n")
            length = int(
                next(
                    line.split(b":", 1)[1]
                    for line in head.split(b"\r\n")
                    if line.lower().startswith(b"content-length:")
                )
            )
            while len(body) < length:  # drain the rest before the next request
                more = sock.recv(1 << 20)
                assert more, "server closed the connection"
                body += more
    return firsts


def _complete(reply: bytes) -> bool:
    head, sep, body = reply.partition(b"\r\n\r\n")
    length = [
        int(line.split(b":", 1)[1])
        for line in head.split(b"\r\n")
        if line.lower().startswith(b"content-length:")
    ]
    return bool(sep) and len(length) == 1 and len(body) == length[0]


def test_site_server_sends_head_and_body_in_one_write() -> None:
    with SiteServer("one-write") as site:
        site.html("/", PAGE)
        firsts = _first_recvs(site.host, site.port, "/", 20)
    assert all(_complete(reply) for reply in firsts), [len(r) for r in firsts]
    assert site.count("/") == 20


def test_site_server_head_request_has_no_body() -> None:
    with SiteServer("head") as site:
        site.html("/", PAGE)
        with socket.create_connection((site.host, site.port), timeout=10) as sock:
            sock.sendall(f"HEAD / HTTP/1.1\r\nHost: {site.host}\r\n\r\n".encode())
            reply = sock.recv(1 << 20)
    head, _, body = reply.partition(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 200") and body == b""
    assert f"Content-Length: {len(PAGE)}".encode() in head


@pytest.fixture()
def bench_site() -> Iterator[tuple[str, int]]:
    server = subprocess.Popen(
        [sys.executable, "-m", "benchmarks.server", "--pages", "20", "--sites", "1"],
        cwd=PROJECT_ROOT, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
    )  # fmt: skip
    try:
        assert server.stdout is not None
        origin = json.loads(server.stdout.readline())["sites"][0]
        host, _, port = origin.removeprefix("http://").partition(":")
        yield host, int(port)
    finally:
        server.terminate()
        server.communicate(timeout=30)  # also closes the pipes


def test_benchmark_server_sends_head_and_body_in_one_write(bench_site: tuple[str, int]) -> None:
    host, port = bench_site
    firsts = _first_recvs(host, port, "/", 20)
    assert all(_complete(reply) for reply in firsts), [len(r) for r in firsts]
