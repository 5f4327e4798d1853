"""Round-trip latency of the local test and benchmark servers.

``python -m benchmarks.server_latency`` sends sequential keep-alive GETs over one
connection (the way a crawler with one request in flight per site does) to the
demo/test server (``webrobot.demo.server.SiteServer``) and to the benchmark
server, and prints the median, 99th percentile and maximum per server. A server
that writes its headers and body separately, without ``TCP_NODELAY``, shows
about 40 ms stalls here (Nagle's algorithm waiting on the client's delayed ACK).
"""

from __future__ import annotations

import argparse
import json
import socket
import statistics
import subprocess
import sys
import time

from webrobot.demo.server import SiteServer


def _read_response(sock: socket.socket, buffer: bytes) -> bytes:
    """Read one HTTP/1.1 response with Content-Length; return what follows it."""
    while b"\r\n\r\n" not in buffer:
        chunk = sock.recv(65536)
        if not chunk:
            raise ConnectionError("server closed the connection")
        buffer += chunk
    head, _, rest = buffer.partition(b"\r\n\r\n")
    length = 0
    for line in head.split(b"\r\n")[1:]:
        name, _, value = line.partition(b":")
        if name.strip().lower() == b"content-length":
            length = int(value)
    while len(rest) < length:
        chunk = sock.recv(65536)
        if not chunk:
            raise ConnectionError("server closed the connection mid-body")
        rest += chunk
    return rest[length:]


def measure(host: str, port: int, target: str, requests: int) -> list[float]:
    """Seconds per request for ``requests`` sequential GETs on one connection."""
    sock = socket.create_connection((host, port))
    request = f"GET {target} HTTP/1.1\r\nHost: {host}:{port}\r\n\r\n".encode()
    times: list[float] = []
    buffer = b""
    try:
        for _ in range(requests):
            started = time.perf_counter()
            sock.sendall(request)
            buffer = _read_response(sock, buffer)
            times.append(time.perf_counter() - started)
    finally:
        sock.close()
    return times


def summary(times: list[float]) -> dict[str, float]:
    ordered = sorted(times)
    return {
        "requests": len(times),
        "median_ms": round(statistics.median(ordered) * 1000, 3),
        "p99_ms": round(ordered[int(len(ordered) * 0.99) - 1] * 1000, 3),
        "max_ms": round(ordered[-1] * 1000, 3),
        "over_20ms": sum(1 for t in times if t > 0.02),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.server_latency")
    parser.add_argument("--requests", type=int, default=300)
    args = parser.parse_args(argv)
    results: dict[str, dict[str, float]] = {}
    page = "<html><body>" + "<a href='/p'>p</a>" * 100 + "</body></html>"
    with SiteServer("latency") as site:
        site.html("/", page)
        results["demo SiteServer"] = summary(measure(site.host, site.port, "/", args.requests))
    bench = subprocess.Popen(
        [sys.executable, "-m", "benchmarks.server", "--pages", "50", "--sites", "1"],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
    )  # fmt: skip
    try:
        assert bench.stdout is not None
        ready = json.loads(bench.stdout.readline())
        host, _, port = ready["sites"][0].removeprefix("http://").partition(":")
        results["benchmark server"] = summary(measure(host, int(port), "/", args.requests))
    finally:
        bench.terminate()
        bench.wait(timeout=10)
    for name, result in results.items():
        print(f"{name:18} " + "  ".join(f"{k} {v}" for k, v in result.items()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
