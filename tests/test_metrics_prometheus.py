"""End-to-end: a real Prometheus server scrapes the ``/metrics`` of two workers of
a shared crawl (real redis-server) four times a second; what PromQL returns through
its HTTP API is what the local sites' logs and the workers' own stats say."""

from __future__ import annotations

import json
import shutil
import subprocess
import threading
import urllib.parse
import urllib.request
from collections import Counter
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.crawling import PROJECT_ROOT
from tests.redisserver import RedisServer, free_port
from tests.test_distributed_crawl import build_web, shared_by, start_workers, stop_all, wait_for
from webrobot.demo.server import SiteServer

pytestmark = pytest.mark.slow

PROMETHEUS = shutil.which("prometheus")
pytest.importorskip("prometheus_client")
if PROMETHEUS is None:
    pytest.skip(
        "prometheus is not installed (Debian package prometheus; `make system-deps`)",
        allow_module_level=True,
    )

#: How often Prometheus scrapes and evaluates its rules: what the tests wait for (a
#: scrape while the crawl runs, an alert firing, then resolving) takes a few of these.
INTERVAL = "250ms"

#: status of each special page of build_web's sites; every other page answers 200
SPECIAL_STATUS = {"/old": 301, "/broken": 500, "/missing": 404}


class Prometheus:
    """A Prometheus server on a loopback port, scraping the targets written to its
    file-discovery file every :data:`INTERVAL`."""

    def __init__(self, workdir: Path, rules: Path | None = None) -> None:
        self.workdir = workdir
        self.targets = workdir / "targets.json"
        self.targets.write_text("[]", encoding="utf-8")
        config: dict[str, Any] = {  # JSON is YAML
            "global": {
                "scrape_interval": INTERVAL,
                "scrape_timeout": INTERVAL,
                "evaluation_interval": INTERVAL,
            },
            "scrape_configs": [
                {
                    "job_name": "webrobot",
                    "file_sd_configs": [
                        {"files": [str(self.targets)], "refresh_interval": INTERVAL}
                    ],
                }
            ],
        }
        if rules is not None:
            config["rule_files"] = [str(rules)]
        (workdir / "prometheus.yml").write_text(json.dumps(config), encoding="utf-8")
        self.log = (workdir / "prometheus.log").open("wb")
        for _ in range(3):  # another process (a test beside this one) may take the port first
            self.port = free_port()
            self.url = f"http://127.0.0.1:{self.port}"
            self.process = subprocess.Popen(
                [
                    str(PROMETHEUS), f"--config.file={workdir / 'prometheus.yml'}",
                    f"--storage.tsdb.path={workdir / 'data'}",
                    f"--web.listen-address=127.0.0.1:{self.port}",
                ],
                cwd=workdir, stdout=self.log, stderr=subprocess.STDOUT,
            )  # fmt: skip
            wait_for(lambda: self.ready(exited_ok=True), 60, "Prometheus to be ready")
            if self.process.poll() is None or "address already in use" not in self.log_text():
                break
        wait_for(self.ready, 60, "Prometheus to be ready")

    def ready(self, exited_ok: bool = False) -> bool:
        if self.process.poll() is not None:
            if exited_ok:
                return True
            raise AssertionError(f"prometheus exited: {self.log_text()[-2000:]}")
        try:
            with urllib.request.urlopen(self.url + "/-/ready", timeout=2) as response:
                return bool(response.status == 200)
        except OSError:
            return False

    def log_text(self) -> str:
        self.log.flush()
        return (self.workdir / "prometheus.log").read_text("utf-8", errors="replace")

    def scrape(self, targets: dict[str, str]) -> None:
        """``targets``: worker name -> host:port."""
        groups = [
            {"targets": [address], "labels": {"worker": name}} for name, address in targets.items()
        ]
        tmp = self.targets.with_suffix(".tmp")
        tmp.write_text(json.dumps(groups), encoding="utf-8")
        tmp.replace(self.targets)

    def api(self, path: str, **params: str) -> Any:
        query = urllib.parse.urlencode(params)
        with urllib.request.urlopen(f"{self.url}/api/v1/{path}?{query}", timeout=10) as response:
            body = json.load(response)
        assert body["status"] == "success", body
        return body["data"]

    def query(self, promql: str) -> dict[tuple[tuple[str, str], ...], float]:
        """An instant query: labels (without __name__, job, instance) -> value."""
        result = self.api("query", query=promql)["result"]
        skip = {"__name__", "job", "instance"}
        return {
            tuple(sorted((k, v) for k, v in r["metric"].items() if k not in skip)): float(
                r["value"][1]
            )
            for r in result
        }

    def stop(self) -> None:
        self.process.terminate()
        try:
            self.process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        self.log.close()


@pytest.fixture
def prometheus(tmp_path: Path) -> Iterator[Prometheus]:
    workdir = tmp_path / "prometheus"
    workdir.mkdir()
    server = Prometheus(workdir)
    try:
        yield server
    finally:
        server.stop()


def by_worker(result: dict[tuple[tuple[str, str], ...], float]) -> dict[str, float]:
    return {dict(labels)["worker"]: value for labels, value in result.items()}


def test_prometheus_scrapes_two_workers_of_a_shared_crawl(
    make_site: Callable[..., SiteServer],
    redis_server: RedisServer,
    prometheus: Prometheus,
    tmp_path: Path,
) -> None:
    web = build_web(make_site, delay=0.1)
    shared_by(web, redis_server)  # a worker started late would find every page taken
    workers = start_workers(
        tmp_path, web, redis_server, n=2,
        WEBROBOT_METRICS_PORT="0",
        # A last scrape after the crawl ends sees its final counts: twelve scrape
        # intervals, so that a few slow scrapes on a busy machine cannot miss them.
        WEBROBOT_METRICS_LINGER="3",
    )  # fmt: skip
    try:
        address_files = {w.name: w.workdir / "crawl.metrics.txt" for w in workers}
        wait_for(lambda: all(f.exists() for f in address_files.values()), 60, "metrics addresses")
        urls = {name: f.read_text("utf-8").strip() for name, f in address_files.items()}
        targets = {name: urllib.parse.urlsplit(url).netloc for name, url in urls.items()}
        assert len(set(targets.values())) == 2, "each worker has its own port"
        assert all(url.startswith("http://127.0.0.1:") for url in urls.values()), urls
        prometheus.scrape(targets)

        def both_scraped_while_running() -> bool:
            up = by_worker(prometheus.query("up"))
            return up == {name: 1.0 for name in targets}

        wait_for(both_scraped_while_running, 60, "Prometheus to scrape both workers")
        codes = [w.wait(timeout=180) for w in workers]
    finally:
        stop_all(workers)
    assert codes == [0, 0], [w.log()[-2000:] for w in workers]
    stats = {w.name: w.stats() for w in workers}
    for worker in workers:
        assert stats[worker.name]["webrobot/metrics/url"] == urls[worker.name]
        assert not address_files[worker.name].exists(), "the address file goes with the crawl"

    # What the sites saw, per worker (the User-Agent names the worker) and by status.
    pages_seen = {w.name: len(web.fetched_by(w.name)) for w in workers}
    statuses_seen: Counter[str] = Counter()
    for site in web.sites:
        for hit in site.hits:
            if hit.target != "/robots.txt":
                statuses_seen[str(SPECIAL_STATUS.get(hit.target, 200))] += 1
    assert sum(pages_seen.values()) == sum(statuses_seen.values()) > 30
    assert all(pages_seen.values()), f"both workers fetched pages: {pages_seen}"

    def final(metric: str) -> dict[tuple[tuple[str, str], ...], float]:
        # The workers are gone, their series stale: the last value each one had.
        return prometheus.query(f"last_over_time({metric}[10m])")

    assert by_worker(final("webrobot_pages_total")) == pages_seen, prometheus.log_text()[-2000:]
    assert by_worker(final("webrobot_requests_total")) == pages_seen
    statuses = prometheus.query("sum by (status) (last_over_time(webrobot_responses_total[10m]))")
    assert {dict(k)["status"]: v for k, v in statuses.items()} == dict(statuses_seen)
    failures = prometheus.query("sum(last_over_time(webrobot_request_failures_total[10m]))")
    assert list(failures.values()) == [statuses_seen["404"] + statuses_seen["500"]]

    # And what each worker's own stats say.
    for name, worker_stats in stats.items():
        items = by_worker(final("webrobot_items_total"))[name]
        assert items == worker_stats.get("item_scraped_count", 0)
        acked = prometheus.query(
            f'last_over_time(webrobot_redis_lease_outcomes_total{{worker="{name}", outcome="acked"}}[10m])'
        )
        assert list(acked.values()) == [worker_stats["webrobot/redis/lease/acked"]]
        robots = by_worker(final("webrobot_robots_txt_fetches_total")).get(name, 0.0)
        assert robots == worker_stats.get("webrobot/robots/fetched", 0)
    offsite = prometheus.query(
        'sum(last_over_time(webrobot_refusals_total{reason="offsite"}[10m]))'
    )
    assert list(offsite.values()) == [
        sum(s.get("webrobot/url/refused/offsite", 0) for s in stats.values())
    ]
    assert list(offsite.values()) == [1.0], "the offsite link, once across workers"

    # Redis stayed up; leases were held while the crawl ran and none at the end.
    assert by_worker(prometheus.query("min_over_time(webrobot_redis_up[10m])")) == {
        name: 1.0 for name in targets
    }
    assert (
        max(by_worker(prometheus.query("max_over_time(webrobot_redis_leases[10m])")).values()) >= 1
    )
    assert by_worker(final("webrobot_redis_leases")) == {name: 0.0 for name in targets}
    assert by_worker(final("webrobot_frontier_requests")) == {name: 0.0 for name in targets}
    exhausted = prometheus.query('sum(last_over_time(webrobot_sites{state="exhausted"}[10m]))')
    assert list(exhausted.values()) >= [3.0]

    # Every series was scraped several times (the leases above show scrapes while it ran).
    samples = prometheus.query("count_over_time(webrobot_pages_total[10m])")
    assert min(samples.values()) >= 3, samples
    names = set(prometheus.api("label/__name__/values"))
    assert {"webrobot_pages_total", "webrobot_sites", "webrobot_redis_up"} <= names


def test_a_redis_outage_shows_in_the_metrics_and_fires_the_shipped_alert(
    make_site: Callable[..., SiteServer], tmp_path: Path
) -> None:
    """Redis stopped for a while in a shared crawl: each worker's webrobot_redis_up
    drops to 0 and its outage is counted; Prometheus, given the shipped alert rules
    (their one-minute wait cut to none), fires WebrobotRedisUnreachable for each.
    One site's home page is held until the alert has resolved: the crawl is still
    under way during the whole outage however busy the machine, so its pages can be
    quick."""
    rules = tmp_path / "alerts.yml"
    shipped = (PROJECT_ROOT / "deploy" / "prometheus" / "webrobot-alerts.yml").read_text("utf-8")
    rule = shipped.index("alert: WebrobotRedisUnreachable")
    rules.write_text(shipped[:rule] + shipped[rule:].replace("for: 1m", "for: 0s", 1), "utf-8")
    (tmp_path / "prometheus").mkdir()
    prometheus = Prometheus(tmp_path / "prometheus", rules)
    web = build_web(make_site, delay=0.1)
    held, home = threading.Event(), web.sites[2].routes["/"]
    assert callable(home)
    web.sites[2].add("/", lambda hit: (held.wait(120), home(hit))[1])
    server = RedisServer(tmp_path / "redis", persistent=True).start()
    workers = start_workers(
        tmp_path, web, server, n=2,
        WEBROBOT_METRICS_PORT="0",
        DOWNLOAD_TIMEOUT="120",  # the held page answers once the alert has resolved
    )  # fmt: skip
    try:
        files = {w.name: w.workdir / "crawl.metrics.txt" for w in workers}
        wait_for(lambda: all(f.exists() for f in files.values()), 60, "metrics addresses")
        urls = {name: f.read_text("utf-8").strip() for name, f in files.items()}
        prometheus.scrape({n: urllib.parse.urlsplit(u).netloc for n, u in urls.items()})
        wait_for(lambda: sum(len(site.hits) for site in web.sites) >= 8, 60, "the crawl under way")
        wait_for(
            lambda: by_worker(prometheus.query("webrobot_redis_up")) == {n: 1.0 for n in urls},
            60, "Prometheus to see both workers reach Redis",
        )  # fmt: skip
        server.stop()

        def firing() -> set[str]:
            alerts = prometheus.api("alerts")["alerts"]
            return {
                a["labels"]["worker"]
                for a in alerts
                if a["labels"]["alertname"] == "WebrobotRedisUnreachable" and a["state"] == "firing"
            }

        wait_for(lambda: firing() == set(urls), 60, "the alert firing for both workers")
        during = {name: fetch_metrics(url) for name, url in urls.items()}
        server.start(port=server.port)
        wait_for(
            lambda: firing() == set()
            and by_worker(prometheus.query("webrobot_redis_up")) == {n: 1.0 for n in urls},
            60, "the alert to resolve, both workers seen reaching Redis again",
        )  # fmt: skip
        after = {name: fetch_metrics(url) for name, url in urls.items()}
        held.set()
        codes = [w.wait(timeout=180) for w in workers]
    finally:
        held.set()
        stop_all(workers)
        server.stop()
        prometheus.stop()
    assert codes == [0, 0], [w.log()[-2000:] for w in workers]
    for name in urls:
        assert "webrobot_redis_up 0.0" in during[name]
        assert "webrobot_redis_outages_total 1.0" in during[name]
        assert "webrobot_redis_up 1.0" in after[name]
    stats = [w.stats() for w in workers]
    assert [s.get("webrobot/redis/outages") for s in stats] == [1, 1]
    for origin, counts in web.counts().items():
        assert set(counts) == web.expected[origin], f"{origin}: a page is missing"


def fetch_metrics(url: str) -> str:
    with urllib.request.urlopen(url, timeout=10) as response:
        return response.read().decode("utf-8")
