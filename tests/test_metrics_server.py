"""The metrics port of a crawl: where it listens, what it answers, where it says
it is, and what a bad value or a taken port does (end to end, real crawls)."""

from __future__ import annotations

import logging
import socket
import sys
import threading
import urllib.error
import urllib.request
from collections.abc import Callable
from pathlib import Path

import pytest
from scrapy.exceptions import NotConfigured
from scrapy.utils.test import get_crawler

from tests.crawling import INDEX_ON, run_crawl
from tests.test_distributed_crawl import Worker, stop_all, wait_for
from webrobot.demo.server import Hit, Reply, SiteServer

pytestmark = pytest.mark.slow
pytest.importorskip("prometheus_client")


def small_site(
    make_site: Callable[..., SiteServer], hold: threading.Event | None = None
) -> SiteServer:
    site = make_site("small")
    site.add("/robots.txt", Reply.text("User-agent: *\nDisallow:\n"))
    site.html("/", "<title>home</title><a href='/a'>a</a><a href='/held'>held</a>")
    site.html("/a", "<title>a</title>")

    def held(hit: Hit) -> Reply:
        if hold is not None:
            hold.wait(60)
        return Reply.html("<title>held</title>")

    site.add("/held", held)
    return site


def request(url: str, method: str = "GET", accept: str = "") -> tuple[int, str, bytes]:
    headers = {"Accept": accept} if accept else {}
    try:
        with urllib.request.urlopen(
            urllib.request.Request(url, method=method, headers=headers), timeout=10
        ) as reply:
            return reply.status, reply.headers.get("Content-Type", ""), reply.read()
    except urllib.error.HTTPError as error:
        return error.code, error.headers.get("Content-Type", ""), error.read()


def test_the_port_is_loopback_read_only_and_found_next_to_log_and_jobdir(
    make_site: Callable[..., SiteServer], tmp_path: Path
) -> None:
    hold = threading.Event()
    site = small_site(make_site, hold)
    jobdir = tmp_path / "job"
    worker = Worker(
        tmp_path / "crawl", "metrics-port", {"start_urls": site.url("/")},
        {"WEBROBOT_METRICS_PORT": "0", "JOBDIR": str(jobdir), **INDEX_ON},
    )  # fmt: skip
    beside_log = worker.workdir / "crawl.metrics.txt"
    in_jobdir = jobdir / "metrics.txt"
    try:
        wait_for(
            lambda: beside_log.exists() and in_jobdir.exists(), 60, "the metrics address files"
        )
        url = beside_log.read_text("utf-8").strip()
        assert in_jobdir.read_text("utf-8").strip() == url
        assert url.startswith("http://127.0.0.1:") and url.endswith("/metrics")
        port = int(url.split(":")[2].split("/")[0])
        root = url.removesuffix("metrics")
        wait_for(lambda: any(h.target == "/a" for h in site.hits), 60, "a page crawled")

        status, kind, body = request(url)
        assert status == 200 and kind.startswith("text/plain"), kind
        assert b"webrobot_pages_total " in body
        assert b"webrobot_index_handed_total " in body, "the full-text index's progress"
        status, kind, body = request(url, accept="application/openmetrics-text; version=1.0.0")
        assert status == 200 and kind.startswith("application/openmetrics-text"), kind
        assert body.rstrip().endswith(b"# EOF")
        status, kind, body = request(root)
        assert status == 200 and kind.startswith("text/html") and b"Crawl status" in body
        assert request(root, method="HEAD")[0] == 200
        for method in ("POST", "PUT", "DELETE", "PATCH"):
            assert request(root, method=method)[0] == 405, method
            assert request(url, method=method)[0] == 405, method
        assert request(root + "nothing-here")[0] == 404
        # Bound to 127.0.0.1 only: another loopback address finds no one there.
        with pytest.raises(OSError):
            socket.create_connection(("127.0.0.2", port), timeout=5).close()
    finally:
        hold.set()
        code = worker.wait(timeout=120)
        stop_all([worker])
    assert code == 0, worker.log()[-2000:]
    stats = worker.stats()
    assert stats["webrobot/metrics/url"] == url
    # A GET and a HEAD of /, two GETs of /metrics answered (counted with their CPU time).
    assert (stats["webrobot/metrics/page_views"], stats["webrobot/metrics/scrapes"]) == (2, 2)
    assert 0 < stats["webrobot/metrics/cpu_seconds"] < 30
    assert not beside_log.exists() and not in_jobdir.exists(), "removed when the crawl ended"
    assert worker.log().count("INFO: Metrics: http://127.0.0.1:") == 1


def test_a_taken_port_is_one_error_and_the_crawl_goes_on(
    make_site: Callable[..., SiteServer], tmp_path: Path
) -> None:
    site = small_site(make_site)
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        result = run_crawl(
            tmp_path, args={"start_urls": site.url("/")},
            settings={"WEBROBOT_METRICS_PORT": f"127.0.0.1:{port}"},
        )  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert sorted(t for t in site.targets() if t != "/robots.txt") == ["/", "/a", "/held"]
    errors = [line for line in result.log.splitlines() if " ERROR: " in line]
    assert len(errors) == 1, errors
    assert f"Metrics off: cannot listen on 127.0.0.1:{port} (WEBROBOT_METRICS_PORT)" in errors[0]
    assert result.stat("webrobot/metrics/error")
    assert result.stat("webrobot/metrics/url", None) is None
    assert result.stat("finish_reason") == "finished"


def test_a_bad_value_stops_the_crawl_before_any_request(
    make_site: Callable[..., SiteServer], tmp_path: Path
) -> None:
    site = small_site(make_site)
    result = run_crawl(
        tmp_path,
        args={"start_urls": site.url("/")},
        settings={"WEBROBOT_METRICS_PORT": "local:port"},
    )
    assert site.hits == []
    assert result.returncode == 2, "a usage error, before the crawl starts"
    assert (
        "setting WEBROBOT_METRICS_PORT='local:port': expected empty, a port (0: any free one) "
        "or host:port" in result.log + result.stderr
    )


def test_without_prometheus_client_one_line_names_the_extra(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    from webrobot.report.metrics import MetricsServer

    monkeypatch.setitem(sys.modules, "prometheus_client", None)  # as if not installed
    crawler = get_crawler(settings_dict={"WEBROBOT_METRICS_PORT": "0"})
    with caplog.at_level(logging.ERROR), pytest.raises(NotConfigured):
        MetricsServer.from_crawler(crawler)
    expected = (
        "Metrics (WEBROBOT_METRICS_PORT) needs the 'prometheus_client' package, which is not "
        "installed: pip install 'webrobot[metrics]'"
    )
    assert [r.getMessage() for r in caplog.records] == [expected]


def test_off_by_default() -> None:
    from webrobot.report.metrics import MetricsServer

    with pytest.raises(NotConfigured, match="WEBROBOT_METRICS_PORT is not set"):
        MetricsServer.from_crawler(get_crawler())


def test_linger_keeps_the_final_counts_answering(
    make_site: Callable[..., SiteServer], tmp_path: Path
) -> None:
    """A scrape after the crawl ended, while it lingers, has the final counts."""
    site = small_site(make_site)
    worker = Worker(
        tmp_path / "crawl", "metrics-linger", {"start_urls": site.url("/")},
        {"WEBROBOT_METRICS_PORT": "0", "WEBROBOT_METRICS_LINGER": "30"},
    )  # fmt: skip
    try:
        address = worker.workdir / "crawl.metrics.txt"
        wait_for(address.exists, 60, "the metrics address")
        url = address.read_text("utf-8").strip()
        wait_for(lambda: "Metrics: serving the final counts" in worker.log(), 60, "the crawl's end")
        body = request(url)[2].decode()
        assert worker.process.poll() is None, "still lingering"
    finally:
        stop_all([worker])  # no need to wait the 30 s out
    pages = len([t for t in site.targets() if t != "/robots.txt"])
    assert f"webrobot_pages_total {float(pages)}" in body
    assert pages == 3
