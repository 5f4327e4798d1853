"""``python -m benchmarks.run``: webrobot against bare Scrapy on a fast local web,
plus the micro-benchmarks, with the issue's targets marked met or not.

The default is the full run (20,000 pages, 3 repetitions of bare/webrobot
interleaved, single-site and 16-site modes, every micro-benchmark: about
15-25 minutes on 2 cores). ``--quick`` is a 1-2 minute check of the same code.
``--smoke`` (what the test suite runs, with a tiny web) is ``--quick`` with the
micro-benchmarks cut to the fewest inputs that still run every code path; their
targets are then not judged.
Results go to ``benchmarks-output/`` (``results.json``, ``results.md``, one
folder per crawl with its log and stats).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import re
import shutil
import statistics
import subprocess
import sys
import threading
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import IO, Any, Self

from benchmarks.crawls import (
    PROJECT_ROOT,
    CrawlMeasure,
    measure_crawl,
    parse_crawler,
    shared_settings,
)
from benchmarks.micro import QUICK_ENV, RESULT_PREFIX, SMOKE_ENV
from benchmarks.web import WebSpec

MODES = ("single", "multi")
#: The issue's targets that micro-benchmarks judge (with BENCH-RESULT lines).
MICRO_TARGETS = {
    "benchmarks.bench_robots": "robots decision per URL no slower than protego can_fetch",
    "benchmarks.bench_seen_store": "visited-URL store <= 24 bytes per URL at 1,000,000 URLs (exact), "
    "<= 2 bytes per URL in Bloom mode at 1 % error",
}


# -- the server process ------------------------------------------------------
class ServerProcess:
    """``python -m benchmarks.server`` in its own process, for one web."""

    def __init__(
        self, spec: WebSpec, log_path: Path, timeout: float = 300, latency: float = 0.0
    ) -> None:
        command = [
            sys.executable, "-m", "benchmarks.server",
            "--pages", str(spec.pages), "--sites", str(spec.sites),
            "--links", str(spec.links), "--seed", str(spec.seed), "--latency", str(latency),
        ]  # fmt: skip
        self.log = open(log_path, "wb")  # noqa: SIM115 (closed in stop())
        self.proc = subprocess.Popen(
            command, cwd=PROJECT_ROOT, env={**os.environ, "PYTHONPATH": str(PROJECT_ROOT)},
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=self.log,
        )  # fmt: skip
        assert self.proc.stdout is not None
        line = _readline(self.proc.stdout, timeout)
        if not line:
            self.stop()
            raise RuntimeError(f"benchmark server did not start; see {log_path}")
        ready = json.loads(line)
        self.sites: list[str] = ready["sites"]
        self.control: str = ready["control"]
        self.pages: int = ready["pages"]

    @property
    def start_urls(self) -> list[str]:
        return [origin + "/" for origin in self.sites]

    def stop(self) -> None:
        if self.proc.stdin:
            self.proc.stdin.close()  # the server stops when its stdin closes
        try:
            self.proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        if self.proc.stdout:
            self.proc.stdout.close()
        self.log.close()

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()


def _readline(stream: IO[bytes], timeout: float) -> bytes:
    result: list[bytes] = []
    reader = threading.Thread(target=lambda: result.append(stream.readline()), daemon=True)
    reader.start()
    reader.join(timeout)
    return result[0] if result else b""


# -- crawl comparisons -------------------------------------------------------
@dataclass
class Summary:
    mode: str
    crawler: str
    runs: int
    pages: float
    pages_per_second: float
    cpu_per_1000_pages: float
    maxrss_mb: float
    refetches: float
    server_busy: float
    crawl_cpu_share: float  # CPU seconds / wall seconds of the crawl process


def summarise(measures: Sequence[CrawlMeasure]) -> list[Summary]:
    rows = []
    for mode in dict.fromkeys(m.mode for m in measures):
        for crawler in dict.fromkeys(m.crawler for m in measures):
            runs = [m for m in measures if m.mode == mode and m.crawler == crawler]
            if not runs:
                continue
            med = statistics.median
            rows.append(
                Summary(
                    mode=mode,
                    crawler=crawler,
                    runs=len(runs),
                    pages=med(m.pages for m in runs),
                    pages_per_second=med(m.pages_per_second for m in runs),
                    cpu_per_1000_pages=med(m.cpu_per_1000_pages for m in runs),
                    maxrss_mb=med(m.maxrss_kb for m in runs) / 1024,
                    refetches=med(m.refetches for m in runs),
                    server_busy=med(m.server_busy for m in runs),
                    crawl_cpu_share=med(m.cpu_seconds / m.wall_seconds for m in runs),
                )
            )
    return rows


def paired_ratios(
    measures: Sequence[CrawlMeasure], mode: str, crawler: str = "webrobot", base: str = "bare"
) -> dict[str, float]:
    """Median over repetitions of (crawler / base) within the same repetition."""
    by_rep: dict[int, dict[str, CrawlMeasure]] = {}
    for m in measures:
        if m.mode == mode:
            by_rep.setdefault(m.rep, {})[m.crawler] = m
    pairs = [(r[crawler], r[base]) for r in by_rep.values() if crawler in r and base in r]
    if not pairs:
        return {}
    med = statistics.median
    return {
        "pages_per_second": med(a.pages_per_second / b.pages_per_second for a, b in pairs),
        "cpu_per_page": med(a.cpu_per_1000_pages / b.cpu_per_1000_pages for a, b in pairs),
        "maxrss": med(a.maxrss_kb / b.maxrss_kb for a, b in pairs),
        "pairs": len(pairs),
    }


def check_crawl(m: CrawlMeasure, expected_pages: int, start_urls: int) -> list[str]:
    """What went wrong with one crawl, in words (empty when nothing did).

    ``m.pages`` counts distinct pages. Bare Scrapy fetches each start URL twice
    (start requests skip the duplicate filter), so up to ``start_urls`` refetches
    are normal."""
    problems = []
    if m.returncode != 0:
        problems.append(f"exit status {m.returncode} (see {m.workdir}/stderr.txt)")
    if m.disallowed_fetches:
        problems.append(f"fetched {m.disallowed_fetches} URLs robots.txt disallows")
    if m.pages < expected_pages * 0.99:
        problems.append(f"fetched only {m.pages} of {expected_pages} pages")
    if m.refetches > start_urls:
        problems.append(f"fetched {m.refetches} pages a second time (refetches)")
    if m.items < m.pages * 0.99:
        problems.append(f"{m.items} items for {m.pages} pages")
    return problems


def run_crawls(args: argparse.Namespace, out: Path, emit: Any) -> list[CrawlMeasure]:
    measures: list[CrawlMeasure] = []
    for mode in args.modes:
        spec = WebSpec(pages=args.pages, sites=1 if mode == "single" else args.sites)
        emit(
            f"\n## {mode}-site web: {spec.pages} pages on {spec.sites} site(s); starting the server"
        )
        started = time.monotonic()
        with ServerProcess(spec, out / f"server-{mode}.log") as server:
            emit(
                f"server ready in {time.monotonic() - started:.1f}s: {', '.join(server.sites[:3])}{' ...' if len(server.sites) > 3 else ''}"
            )
            settings = shared_settings(mode, args.concurrency, spec.sites)
            for rep in range(args.reps):
                for crawler in args.crawlers:
                    slug = re.sub(r"[^A-Za-z0-9_.=-]+", "_", crawler)
                    workdir = out / "crawls" / f"{mode}-{slug}-{rep}"
                    if workdir.exists():
                        shutil.rmtree(workdir)
                    m = measure_crawl(crawler, mode, rep, server.start_urls, server.control,
                                      workdir, settings, timeout=args.timeout, probe=args.probe,
                                      scrape_every=args.scrape_metrics)  # fmt: skip
                    emit(
                        f"{mode:<6} {crawler:<9} rep {rep + 1}/{args.reps}: {m.pages} pages in "
                        f"{m.crawl_seconds:.1f}s = {m.pages_per_second:.0f} pages/s, "
                        f"{m.cpu_per_1000_pages:.2f} CPU s/1000 pages, peak RSS {m.maxrss_kb / 1024:.0f} MB, "
                        f"server busy {100 * m.server_busy:.0f}%"
                    )
                    if m.stats.get("webrobot/metrics/cpu_seconds") is not None:
                        spent = float(m.stats["webrobot/metrics/cpu_seconds"])
                        emit(
                            f"  metrics: {m.stats.get('webrobot/metrics/scrapes', 0)} scrapes and "
                            f"{m.stats.get('webrobot/metrics/page_views', 0)} status page views took "
                            f"{spent:.3f} CPU s = {100 * spent / m.cpu_seconds:.2f} % of the crawl's CPU"
                        )
                    if m.probe_peaks:
                        emit(
                            "  probe peaks: "
                            + ", ".join(f"{k} {v:.0f}" for k, v in m.probe_peaks.items())
                        )
                    for problem in check_crawl(m, server.pages, len(server.start_urls)):
                        emit(f"  WARNING: {crawler} {problem}")
                    if not args.keep:
                        (workdir / "items.jsonl").unlink(missing_ok=True)
                    measures.append(m)
            if args.profile:
                for crawler in args.profile_crawlers:
                    profile_crawl(crawler, mode, server, settings, out, args, emit)
    return measures


# -- profiling -----------------------------------------------------------------
def profile_crawl(crawler: str, mode: str, server: ServerProcess, settings: dict[str, str],
                  out: Path, args: argparse.Namespace, emit: Any) -> None:  # fmt: skip
    workdir = out / "profile" / f"{mode}-{re.sub(r'[^A-Za-z0-9_.=-]+', '_', crawler)}"
    if workdir.exists():
        shutil.rmtree(workdir)
    workdir.mkdir(parents=True)
    spy = shutil.which(
        "py-spy", path=f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}"
    )
    if args.profile == "py-spy" and spy is None:
        emit("NOTE: py-spy is not installed (.venv/bin/pip install py-spy==0.4.1); using cProfile")
        args.profile = "cprofile"
    if args.profile == "py-spy":
        assert spy is not None
        raw = workdir / "py-spy.txt"
        wrap = [
            spy,
            "record",
            "--rate",
            "200",
            "--format",
            "raw",
            "--output",
            str(raw),
            "--",
            sys.executable,
        ]
    else:
        raw = workdir / "crawl.prof"
        wrap = [sys.executable, "-m", "cProfile", "-o", str(raw)]
    m = measure_crawl(crawler, mode, -1, server.start_urls, server.control, workdir, settings,
                      timeout=args.timeout, wrap=wrap)  # fmt: skip
    emit(
        f"\n### profile of {crawler} ({mode}, {args.profile}): {m.pages} pages, {m.cpu_seconds:.1f} CPU s; {raw}"
    )
    if not raw.exists():
        emit(f"  no profile written (exit {m.returncode}); see {workdir}/stderr.txt")
        return
    lines = (
        top_pyspy(raw, args.profile_top)
        if args.profile == "py-spy"
        else top_cprofile(raw, args.profile_top)
    )
    (workdir / "top.txt").write_text("\n".join(lines) + "\n", "utf-8")
    for line in lines:
        emit(line)


def top_cprofile(path: Path, count: int) -> list[str]:
    import io
    import pstats

    lines = []
    for key in ("tottime", "cumulative"):
        buffer = io.StringIO()
        stats = pstats.Stats(str(path), stream=buffer)
        stats.strip_dirs().sort_stats(key).print_stats(count)
        text = buffer.getvalue()
        table = text[text.find("   ncalls") :] if "   ncalls" in text else text
        lines.append(f"top {count} by {key}:")
        lines.extend(line for line in table.splitlines() if line.strip())
    return lines


def top_pyspy(path: Path, count: int) -> list[str]:
    """Self and inclusive sample shares per function from py-spy's raw (collapsed) output."""
    own: dict[str, int] = {}
    inclusive: dict[str, int] = {}
    total = 0
    for line in path.read_text("utf-8", errors="replace").splitlines():
        stack, _, number = line.rpartition(" ")
        if not stack or not number.isdigit():
            continue
        samples = int(number)
        total += samples
        frames = [re.sub(r":\d+\)$", ")", f) for f in stack.split(";")]
        own[frames[-1]] = own.get(frames[-1], 0) + samples
        for frame in set(frames):
            inclusive[frame] = inclusive.get(frame, 0) + samples
    lines = [f"{total} samples; top {count} by own time (self %, function (file)):"]
    for frame, samples in sorted(own.items(), key=lambda kv: -kv[1])[:count]:
        lines.append(f"  {100 * samples / total:5.1f}%  {frame}")
    lines.append(f"top {count} by inclusive time:")
    for frame, samples in sorted(inclusive.items(), key=lambda kv: -kv[1])[:count]:
        lines.append(f"  {100 * samples / total:5.1f}%  {frame}")
    return lines


# -- micro-benchmarks ------------------------------------------------------------
#: Benchmark scripts named before the ``bench_`` convention, run with them.
EXTRA_MICRO = ("benchmarks.url_hygiene", "benchmarks.metarobots_head_scan")
#: Arguments for a short run (``--quick``) of modules that do not read WEBROBOT_BENCH_QUICK.
QUICK_ARGS = {"benchmarks.bench_seen_store": ["--urls", "20000"]}
#: The same for ``--smoke``.
SMOKE_ARGS = {"benchmarks.bench_seen_store": ["--urls", "2000"]}
#: Modules that write files: their folder under the run's ``--out``.
OUT_FOLDERS = {"benchmarks.bench_frontier": "frontier"}


def micro_modules() -> list[str]:
    """Every ``benchmarks/bench_*.py`` (and :data:`EXTRA_MICRO`): each runs as
    ``python -m benchmarks.<name>``."""
    folder = Path(__file__).resolve().parent
    found = sorted(f"benchmarks.{p.stem}" for p in folder.glob("bench_*.py"))
    return found + list(EXTRA_MICRO)


def run_micro(
    modules: Iterable[str],
    quick: bool,
    emit: Any,
    timeout: float,
    out: Path | None = None,
    smoke: bool = False,
) -> list[dict[str, Any]]:
    results: list[dict[str, Any]] = []
    env = {**os.environ, "PYTHONPATH": str(PROJECT_ROOT)}
    env.pop(SMOKE_ENV, None)
    if quick or smoke:
        env[QUICK_ENV] = "1"
    if smoke:
        env[SMOKE_ENV] = "1"
    short_args = SMOKE_ARGS if smoke else QUICK_ARGS if quick else {}
    for module in modules:
        emit(f"\n## {module}")
        command = [sys.executable, "-m", module, *short_args.get(module, [])]
        if out is not None and module in OUT_FOLDERS:
            command += ["--out", str(out / OUT_FOLDERS[module])]
        try:
            done = subprocess.run(command, cwd=PROJECT_ROOT, env=env,
                                  capture_output=True, text=True, timeout=timeout, check=False)  # fmt: skip
        except subprocess.TimeoutExpired:
            emit(f"  WARNING: {module} took more than {timeout:.0f}s; stopped")
            continue
        for line in done.stdout.splitlines():
            if line.startswith(RESULT_PREFIX):
                results.append({"module": module, **json.loads(line[len(RESULT_PREFIX) :])})
            else:
                emit(line)
        if module == "benchmarks.bench_seen_store" and done.returncode == 0:
            results.extend(judge_seen_store(done.stdout, quick or smoke))
        if done.returncode != 0:
            emit(f"  WARNING: {module} failed (exit {done.returncode}):")
            emit("  " + "\n  ".join(done.stderr.strip().splitlines()[-15:]))
    return results


def judge_seen_store(output: str, quick: bool) -> list[dict[str, Any]]:
    """The visited-URL store's targets, read from the table ``bench_seen_store``
    prints (``| webrobot exact (default) | 12.3 | ...``, bytes per URL first)."""
    found: dict[str, float] = {}
    urls = re.search(r"at ([0-9,]+) URLs", output)
    for line in output.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) >= 2 and re.fullmatch(r"[0-9.]+", cells[1]):
            if cells[0].startswith("webrobot exact"):
                found["exact"] = float(cells[1])
            elif cells[0].startswith("webrobot bloom, 1 %"):
                found["bloom"] = float(cells[1])
    if "exact" not in found or "bloom" not in found:
        return []
    met = found["exact"] <= 24 and found["bloom"] <= 2
    return [{
        "module": "benchmarks.bench_seen_store",
        "target": MICRO_TARGETS["benchmarks.bench_seen_store"],
        "measured": f"exact {found['exact']:.1f} B/URL, Bloom 1 % {found['bloom']:.1f} B/URL",
        "met": None if quick else met,
        **({"note": f"short run: {urls[1] if urls else 'fewer'} URLs, not judged"} if quick else {}),
    }]  # fmt: skip


# -- the targets -----------------------------------------------------------------
def crawl_targets(measures: Sequence[CrawlMeasure], pages: int) -> list[dict[str, Any]]:
    """The issue's crawl targets, each with what was measured and met / not met."""
    targets = []
    single = paired_ratios(measures, "single")
    multi = paired_ratios(measures, "multi")
    if single:
        targets.append(_target("single site, concurrency 32: webrobot pages/s >= 1.25x bare",
                               single["pages_per_second"], ">=", 1.25, "x"))  # fmt: skip
        targets.append(_target("single site: webrobot CPU per page <= 0.8x bare",
                               single["cpu_per_page"], "<=", 0.8, "x"))  # fmt: skip
        rss = _target("peak RSS of a 20,000-page crawl <= bare", single["maxrss"], "<=", 1.0, "x")
        if pages < 20_000:
            rss["met"] = None
            rss["note"] = f"not judged: this run had {pages} pages"
        targets.append(rss)
    if multi:
        targets.append(_target("16 sites, one request in flight per site: webrobot pages/s >= 1.0x bare",
                               multi["pages_per_second"], ">=", 1.0, "x"))  # fmt: skip
    for target in targets:
        if pages < 20_000 and "note" not in target:
            target["note"] = f"on {pages} pages: start-up weighs more than in the full run"
    return targets


def _target(name: str, value: float, op: str, limit: float, unit: str) -> dict[str, Any]:
    met = value >= limit if op == ">=" else value <= limit
    return {"target": name, "measured": f"{value:.2f}{unit}", "met": met}


def machine() -> dict[str, str]:
    cpu = ""
    ram = ""
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
        for line in Path("/proc/meminfo").read_text().splitlines():
            if line.startswith("MemTotal"):
                ram = f"{int(line.split()[1]) / 1024 / 1024:.1f} GiB"
                break
    except OSError:
        pass
    import scrapy

    load = os.getloadavg() if hasattr(os, "getloadavg") else (0.0, 0.0, 0.0)
    return {
        "date": datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC"),
        "nproc": str(os.cpu_count()),
        "cpu": cpu or platform.processor() or "unknown",
        "ram": ram or "unknown",
        "python": platform.python_version(),
        "scrapy": scrapy.__version__,
        "load_average_at_start": " ".join(f"{x:.2f}" for x in load),
    }


def markdown(info: dict[str, str], args: argparse.Namespace, rows: list[Summary],
             measures: Sequence[CrawlMeasure], targets: list[dict[str, Any]]) -> str:  # fmt: skip
    lines = [
        f"Measured {info['date']} on {info['nproc']} CPUs ({info['cpu']}), {info['ram']} RAM, "
        f"Python {info['python']}, Scrapy {info['scrapy']}, load average at start {info['load_average_at_start']}. "
        "Command: `" + " ".join(["python -m benchmarks.run", *args.argv]) + "`.",
        "",
    ]
    if rows:
        lines += [
            "| web | crawler | runs | pages | pages/s | CPU s / 1000 pages | peak RSS MB | crawler CPU busy | server CPU busy |",
            "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
        ]
        for r in rows:
            lines.append(
                f"| {r.mode} | {r.crawler} | {r.runs} | {r.pages:.0f} | {r.pages_per_second:.0f} | "
                f"{r.cpu_per_1000_pages:.2f} | {r.maxrss_mb:.0f} | {100 * r.crawl_cpu_share:.0f}% | {100 * r.server_busy:.0f}% |"
            )
        lines.append("")
        ratio_lines = []
        for mode in dict.fromkeys(m.mode for m in measures):
            for crawler in dict.fromkeys(m.crawler for m in measures if m.crawler != "bare"):
                ratios = paired_ratios(measures, mode, crawler)
                if ratios:
                    ratio_lines.append(
                        f"| {mode} | {crawler} | {ratios['pages_per_second']:.2f}x | {ratios['cpu_per_page']:.2f}x | "
                        f"{ratios['maxrss']:.2f}x | {ratios['pairs']} |"
                    )
        if ratio_lines:
            lines += ["| web | crawler | / bare: pages/s | CPU per page | peak RSS | pairs |",
                      "| --- | --- | ---: | ---: | ---: | ---: |", *ratio_lines, ""]  # fmt: skip
    if targets:
        lines += ["| target | measured | met |", "| --- | --- | --- |"]
        for t in targets:
            met = {True: "met", False: "**not met**", None: "not judged"}[t.get("met")]
            note = f" ({t['note']})" if t.get("note") else ""
            lines.append(f"| {t['target']} | {t['measured']}{note} | {met} |")
        lines.append("")
    return "\n".join(lines)


def parse_args(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks.run",
        description="webrobot against bare Scrapy on a fast local web, plus micro-benchmarks.",
    )
    parser.add_argument("--quick", action="store_true",
                        help="a 1-2 minute run: 2,000 pages, 1 repetition, short micro-benchmarks "
                             "(explicit options still win)")  # fmt: skip
    parser.add_argument("--smoke", action="store_true",
                        help="--quick with the micro-benchmarks on the fewest inputs that run "
                             "every code path, their targets not judged (the test suite's run, "
                             "with e.g. --pages 40)")  # fmt: skip
    parser.add_argument(
        "--pages", type=int, help="HTML pages in the web (default 20000; quick 2000)"
    )
    parser.add_argument(
        "--reps", type=int, help="repetitions of each crawler per mode (default 3; quick 1)"
    )
    parser.add_argument(
        "--modes", default="single,multi", help="comma-separated: single, multi (default both)"
    )
    parser.add_argument(
        "--sites", type=int, default=16, help="sites in the multi-site web (default 16)"
    )
    parser.add_argument("--concurrency", type=int, default=32,
                        help="CONCURRENT_REQUESTS (and per site, single-site web) (default 32)")  # fmt: skip
    parser.add_argument("--crawlers", default="bare,webrobot",
                        help="comma-separated, in run order; NAME:SETTING=VALUE[:...] adds a variant "
                             "with settings of its own, e.g. webrobot:CONCURRENT_ITEMS=100")  # fmt: skip
    parser.add_argument("--micro", default="all",
                        help="micro-benchmark modules to run: all, none, or comma-separated names "
                             "such as bench_robots")  # fmt: skip
    parser.add_argument("--profile", choices=("cprofile", "py-spy"),
                        help="after the timed crawls, one more crawl per mode under this profiler")  # fmt: skip
    parser.add_argument(
        "--profile-crawlers", default="webrobot", help="comma-separated (default webrobot)"
    )
    parser.add_argument(
        "--profile-top", type=int, default=30, help="functions listed per profile table"
    )
    parser.add_argument("--probe", action="store_true",
                        help="sample RSS and the engine's queues every second in each crawl "
                             "(benchmarks.probe; adds a little CPU)")  # fmt: skip
    parser.add_argument(
        "--out", default="benchmarks-output", help="folder for results (default benchmarks-output)"
    )
    parser.add_argument(
        "--timeout", type=float, default=1800, help="seconds before a crawl is killed"
    )
    parser.add_argument("--keep", action="store_true", help="keep each crawl's items.jsonl")
    parser.add_argument("--scrape-metrics", type=float, default=0.0, metavar="SECONDS",
                        help="read /metrics of each crawl that serves them (a variant such as "
                             "webrobot:WEBROBOT_METRICS_PORT=0) every SECONDS while it runs, as Prometheus "
                             "would, and its live status page every 10 s (default 0: never)")  # fmt: skip
    args = parser.parse_args(argv)
    args.argv = argv
    args.quick = args.quick or args.smoke
    if args.pages is None:
        args.pages = 2000 if args.quick else 20_000
    if args.reps is None:
        args.reps = 1 if args.quick else 3
    args.modes = [m for m in args.modes.split(",") if m]
    args.crawlers = [c for c in args.crawlers.split(",") if c]
    args.profile_crawlers = [c for c in args.profile_crawlers.split(",") if c]
    for mode in args.modes:
        if mode not in MODES:
            parser.error(f"--modes: unknown mode {mode!r} (known: {', '.join(MODES)})")
    for crawler in args.crawlers + args.profile_crawlers:
        try:
            parse_crawler(crawler)
        except ValueError as exc:
            parser.error(str(exc))
    if args.pages < 1 or args.reps < 0 or args.sites < 1 or args.concurrency < 1:
        parser.error("--pages, --sites and --concurrency must be >= 1, --reps >= 0")
    known = micro_modules()
    if args.micro == "all":
        args.micro = known
    elif args.micro == "none":
        args.micro = []
    else:
        wanted = [
            m if m.startswith("benchmarks.") else f"benchmarks.{m}"
            for m in args.micro.split(",")
            if m
        ]
        unknown = [m for m in wanted if m not in known]
        if unknown:
            parser.error(f"--micro: unknown {', '.join(unknown)} (known: {', '.join(known)})")
        args.micro = wanted
    return args


def main(argv: list[str] | None = None) -> int:
    args = parse_args(sys.argv[1:] if argv is None else argv)
    out = Path(args.out).resolve()
    out.mkdir(parents=True, exist_ok=True)
    report = open(out / "output.txt", "w", encoding="utf-8")  # noqa: SIM115 (closed at the end)

    def emit(line: str = "") -> None:
        print(line, flush=True)
        report.write(line + "\n")

    info = machine()
    emit("webrobot benchmarks: " + ", ".join(f"{k} {v}" for k, v in info.items()))
    measures = run_crawls(args, out, emit) if args.reps or args.profile else []
    micro = (
        run_micro(args.micro, args.quick, emit, args.timeout, out, args.smoke) if args.micro else []
    )
    measures = [m for m in measures if m.rep >= 0]
    rows = summarise(measures)
    targets = crawl_targets(measures, args.pages) + [
        {k: v for k, v in r.items() if k in ("target", "measured", "met", "note")}
        for r in micro
        if "target" in r
    ]
    reported = {r["module"] for r in micro if "target" in r}
    for module, target in MICRO_TARGETS.items():
        if module in args.micro and module not in reported:
            targets.append(
                {"target": target, "measured": f"{module} reported no result", "met": None}
            )
    table = markdown(info, args, rows, measures, targets)
    emit("\n## Results\n")
    emit(table)
    (out / "results.md").write_text(table + "\n", "utf-8")
    (out / "results.json").write_text(json.dumps({
        "machine": info,
        "argv": args.argv,
        "crawls": [m.as_dict() for m in measures],
        "summary": [r.__dict__ for r in rows],
        "ratios": {mode: {c: paired_ratios(measures, mode, c) for c in args.crawlers if c != "bare"}
                   for mode in args.modes},
        "micro": micro,
        "targets": targets,
    }, indent=1), "utf-8")  # fmt: skip
    report.close()
    failed = [m for m in measures if m.returncode != 0]
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
