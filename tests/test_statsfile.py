"""The stats file is written after every component has counted its last stat."""

from __future__ import annotations

import socket
from pathlib import Path

import pytest

from tests.crawling import run_crawl

pytestmark = pytest.mark.slow


def closed_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def test_stats_counted_at_close_reach_the_stats_file(tmp_path: Path) -> None:
    """Requests still held for an unreachable robots.txt when the crawl stops are
    counted while the spider closes; the stats file must include that count."""
    port = closed_port()
    result = run_crawl(
        tmp_path,
        args={"start_urls": f"http://127.0.0.1:{port}/,http://127.0.0.1:{port}/other"},
        settings={
            "CLOSESPIDER_TIMEOUT": "2",
            "WEBROBOT_ROBOTS_DEFER_MAX": "600",
            "WEBROBOT_DEAD_REFUSED_MAX": "600",  # held, not given up as refused
        },
    )
    assert result.returncode == 0
    assert result.stats["finish_reason"] == "closespider_timeout"
    assert result.stat("webrobot/robots/held_at_close") == 2
