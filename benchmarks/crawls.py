"""Run one benchmark crawl in its own ``scrapy crawl`` process and measure it.

CPU seconds and peak RSS come from ``os.wait4`` on that one process (exact, per
crawl); pages come from the server's counters (what was really fetched, whatever
the crawler's components do): the distinct HTML pages served, so a page fetched
twice (bare Scrapy's start URLs) counts once and robots.txt, sitemaps and 404s
not at all, for every crawler alike; crawl time is Scrapy's ``elapsed_time_seconds``
stat (engine start to close, without interpreter start-up).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
import time
import urllib.request
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

PROJECT_ROOT = Path(__file__).resolve().parent.parent

#: crawler name -> (SCRAPY_SETTINGS_MODULE, spider name, settings of its own)
CRAWLERS: dict[str, tuple[str, str, dict[str, str]]] = {
    # (a) bare Scrapy: CrawlSpider + LinkExtractor, ROBOTSTXT_OBEY, items to JSONL.
    "bare": ("benchmarks.bare.settings", "bare", {}),
    # (b) webrobot with every feature on: the project's settings as they are.
    "webrobot": ("webrobot.settings", "webrobot", {}),
    # (c) the upper bound: benchmarks.upper, a minimal asyncio loop (no Scrapy, no politeness).
    "asyncio": ("", "", {}),
}


@dataclass(frozen=True)
class CrawlerSpec:
    """A crawler as given on the command line: ``NAME[@ROOT][:SETTING=VALUE...]``.

    ``webrobot:CONCURRENT_ITEMS=8`` adds settings of its own on top of the
    crawler's; ``webrobot@/tmp/before`` runs the project in another checkout
    (e.g. ``git archive <commit> | tar -x -C /tmp/before``), to compare code
    versions in one run.
    """

    name: str
    settings: dict[str, str]
    root: Path


def parse_crawler(spec: str) -> CrawlerSpec:
    head, *pairs = spec.split(":")
    name, _, root = head.partition("@")
    if name not in CRAWLERS:
        raise ValueError(f"unknown crawler {name!r} (known: {', '.join(CRAWLERS)})")
    if root and not (Path(root) / "webrobot" / "settings.py").is_file():
        raise ValueError(f"{spec!r}: {root} is not a webrobot checkout (no webrobot/settings.py)")
    extra = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key:
            raise ValueError(f"{spec!r}: expected NAME=VALUE after ':', got {pair!r}")
        extra[key] = value
    return CrawlerSpec(name, extra, Path(root).resolve() if root else PROJECT_ROOT)


def shared_settings(mode: str, concurrency: int, sites: int) -> dict[str, str]:
    """What both crawlers get: the same concurrency, no delay, INFO logging."""
    if mode == "multi":
        # One request in flight per site; the global limit does not bind.
        per_site, total = 1, max(concurrency, sites)
    else:
        per_site = total = concurrency
    return {
        "CONCURRENT_REQUESTS": str(total),
        "CONCURRENT_REQUESTS_PER_DOMAIN": str(per_site),
        "DOWNLOAD_DELAY": "0",
        "AUTOTHROTTLE_ENABLED": "False",
        "LOG_LEVEL": "INFO",
        "LOGSTATS_INTERVAL": "0",
        "CLOSESPIDER_TIMEOUT": "0",
    }


@dataclass
class CrawlMeasure:
    crawler: str
    mode: str
    rep: int
    returncode: int
    wall_seconds: float  # whole process, start-up included
    crawl_seconds: float  # Scrapy's elapsed_time_seconds
    cpu_seconds: float  # user + system of the crawl process
    maxrss_kb: int
    pages: int  # distinct HTML pages the server served during the crawl (robots.txt is no page)
    refetches: int  # HTML pages served again in the same crawl (not in ``pages``)
    items: int
    robots_fetches: int
    disallowed_fetches: int  # pages robots.txt forbids: must be 0
    not_found: int
    server_cpu_seconds: float
    probe_peaks: dict[str, float] = field(default_factory=dict)  # with --probe
    workdir: str = ""
    stats: dict[str, Any] = field(default_factory=dict, repr=False)

    @property
    def pages_per_second(self) -> float:
        return self.pages / self.crawl_seconds if self.crawl_seconds > 0 else 0.0

    @property
    def cpu_per_1000_pages(self) -> float:
        return 1000 * self.cpu_seconds / self.pages if self.pages else float("inf")

    @property
    def server_busy(self) -> float:
        """Share of the crawl's wall time the server spent on the CPU."""
        return self.server_cpu_seconds / self.wall_seconds if self.wall_seconds > 0 else 0.0

    def as_dict(self) -> dict[str, Any]:
        data = asdict(self)
        data.pop("stats")
        data.update(
            pages_per_second=self.pages_per_second,
            cpu_per_1000_pages=self.cpu_per_1000_pages,
            server_busy=self.server_busy,
        )
        return data


def server_stats(control_url: str, reset: bool = False) -> dict[str, Any]:
    """The server's counters; ``reset``: start a new count of distinct pages first."""
    with urllib.request.urlopen(
        control_url + ("/reset" if reset else "/stats"), timeout=10
    ) as reply:
        return json.loads(reply.read())


def probe_settings(workdir: Path) -> dict[str, str]:
    """Settings that add :class:`benchmarks.probe.EngineProbe` and
    :class:`benchmarks.gcprobe.GcProbe` (time in the garbage collector) to a crawl, leaving
    the project's ``EXTENSIONS`` alone (it goes into ``EXTENSIONS_BASE``)."""
    from scrapy.settings import default_settings

    base = {
        **default_settings.EXTENSIONS_BASE,
        "benchmarks.probe.EngineProbe": 1000,
        "benchmarks.gcprobe.GcProbe": 1000,
    }
    return {
        "EXTENSIONS_BASE": json.dumps(base),
        "BENCH_PROBE_FILE": str(workdir / "probe.jsonl"),
        "BENCH_GC_FILE": str(workdir / "gc.json"),
    }


def crawl_command(
    crawler: str,
    start_urls: list[str],
    workdir: Path,
    settings: dict[str, str],
    probe: bool = False,
) -> tuple[list[str], dict[str, str], Path]:
    """The ``scrapy crawl`` command line, environment and folder of one crawl."""
    spec = parse_crawler(crawler)
    module, spider, own = CRAWLERS[spec.name]
    if spec.name == "asyncio":
        command = [sys.executable, "-m", "benchmarks.upper", "--out", str(workdir / "items.jsonl"),
                   "--stats", str(workdir / "stats.json"),
                   "--concurrency", settings.get("CONCURRENT_REQUESTS", "32"), *start_urls]  # fmt: skip
        return command, {**os.environ, "PYTHONPATH": str(PROJECT_ROOT)}, PROJECT_ROOT
    merged = {
        **own,
        **settings,
        **spec.settings,
        "LOG_FILE": str(workdir / "crawl.log"),
        "WEBROBOT_STATS_FILE": str(workdir / "stats.json"),
        **(probe_settings(workdir) if probe else {}),
    }
    command = [sys.executable, "-m", "scrapy", "crawl", spider, "-O", str(workdir / "items.jsonl")]
    command += ["-a", "start_urls=" + ",".join(start_urls)]
    for name, value in merged.items():
        command += ["-s", f"{name}={value}"]
    # The benchmarks package always comes from here (the bare project, the probe).
    path = str(spec.root) if spec.root == PROJECT_ROOT else f"{spec.root}{os.pathsep}{PROJECT_ROOT}"
    env = {**os.environ, "PYTHONPATH": path, "SCRAPY_SETTINGS_MODULE": module}
    env.pop("SCRAPY_PROJECT", None)
    return command, env, spec.root


class MetricsScraper:
    """Reads a crawl's ``/metrics`` every ``every`` seconds, as Prometheus would, and
    its live status page every ``page_every`` seconds (the page's own reload
    interval by default), as a person watching it would, once the crawl has
    written its address next to its log (``crawl.metrics.txt``)."""

    def __init__(self, workdir: Path, every: float, page_every: float = 10.0) -> None:
        self.address_file = workdir / "crawl.metrics.txt"
        self.every = every
        self.page_every = max(every, page_every)
        self.pages = 0
        self.scrapes = 0
        self.failures = 0
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def _run(self) -> None:
        url = ""
        next_page = 0.0
        while not self.stop.wait(self.every if url else 0.05):
            if not url:
                if self.address_file.exists():
                    url = self.address_file.read_text("utf-8").strip()
                    next_page = time.monotonic() + self.page_every
                continue
            self._read(url)
            if time.monotonic() >= next_page:
                next_page += self.page_every
                if self._read(url.removesuffix("metrics")):
                    self.pages += 1

    def _read(self, url: str) -> bool:
        try:
            with urllib.request.urlopen(url, timeout=10) as reply:
                reply.read()
        except OSError:
            self.failures += 1
            return False
        self.scrapes += 1
        return True

    def close(self) -> int:
        """How many reads answered (metrics and status page)."""
        self.stop.set()
        self.thread.join(timeout=15)
        return self.scrapes


def run_measured(
    command: list[str], env: dict[str, str], workdir: Path, timeout: float, cwd: Path = PROJECT_ROOT
) -> tuple[int, float, Any]:
    """Run ``command``; its exit code, wall seconds and resource usage (wait4)."""
    with open(workdir / "stdout.txt", "wb") as out, open(workdir / "stderr.txt", "wb") as err:
        started = time.monotonic()
        proc = subprocess.Popen(command, cwd=cwd, env=env, stdout=out, stderr=err)
        timer = threading.Timer(timeout, proc.kill)
        timer.start()
        try:
            _, status, usage = os.wait4(proc.pid, 0)
        finally:
            timer.cancel()
        wall = time.monotonic() - started
    proc.returncode = os.waitstatus_to_exitcode(status)  # Popen must not wait again
    return proc.returncode, wall, usage


def measure_crawl(
    crawler: str,
    mode: str,
    rep: int,
    start_urls: list[str],
    control_url: str,
    workdir: Path,
    settings: dict[str, str],
    timeout: float = 1800,
    wrap: list[str] | None = None,
    probe: bool = False,
    scrape_every: float = 0.0,
) -> CrawlMeasure:
    """One crawl of the benchmark web.

    ``wrap`` replaces the Python interpreter at the head of the command, to run
    the crawl under a profiler: ``[python, "-m", "cProfile", "-o", path]`` or
    ``["py-spy", "record", ..., "--", python]``. ``scrape_every`` > 0: a crawl that
    serves metrics (``WEBROBOT_METRICS_PORT``) has them and its live status page read
    that often while it runs (:class:`MetricsScraper`; the crawl counts the answers
    and their CPU time in its stats, ``webrobot/metrics/...``).
    """
    workdir.mkdir(parents=True, exist_ok=True)
    command, env, cwd = crawl_command(crawler, start_urls, workdir, settings, probe)
    if wrap:
        command = wrap + command[1:]
    before = server_stats(control_url, reset=True)
    scraper = MetricsScraper(workdir, scrape_every) if scrape_every > 0 else None
    try:
        code, wall, usage = run_measured(command, env, workdir, timeout, cwd)
    finally:
        if scraper is not None:
            scraper.close()
    after = server_stats(control_url)

    def delta(key: str) -> int:
        return int(after["total"][key] - before["total"][key])

    stats_path = workdir / "stats.json"
    stats = json.loads(stats_path.read_text("utf-8")) if stats_path.exists() else {}
    items_path = workdir / "items.jsonl"
    items = 0
    if items_path.exists():
        with open(items_path, "rb") as handle:
            items = sum(1 for line in handle if line.strip())
    peaks: dict[str, float] = {}
    probe_path = workdir / "probe.jsonl"
    if probe_path.exists():
        for line in probe_path.read_text("utf-8").splitlines():
            for key, value in json.loads(line).items():
                if isinstance(value, int | float) and key != "t":
                    peaks[key] = max(peaks.get(key, value), value)
    return CrawlMeasure(
        crawler=crawler,
        mode=mode,
        rep=rep,
        returncode=code,
        wall_seconds=wall,
        crawl_seconds=float(stats.get("elapsed_time_seconds") or wall),
        cpu_seconds=usage.ru_utime + usage.ru_stime,
        maxrss_kb=int(usage.ru_maxrss),
        pages=int(after["total"]["distinct_pages"]),
        refetches=delta("pages") - int(after["total"]["distinct_pages"]),
        items=items,
        robots_fetches=delta("robots"),
        disallowed_fetches=delta("disallowed"),
        not_found=delta("not_found"),
        server_cpu_seconds=after["cpu_seconds"] - before["cpu_seconds"],
        probe_peaks=peaks,
        workdir=str(workdir),
        stats=stats,
    )
