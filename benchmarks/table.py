"""``python -m benchmarks.table``: the whole comparison table in one interleaved run.

For 1, 16, 256 and 4,096 sites (one request in flight per site where there are
several), the benchmark web is crawled by bare Scrapy, webrobot and the upper
bound (:mod:`benchmarks.upper`: a minimal asyncio loop, no politeness),
interleaved within each repetition; then a frontier of 1,000,000 queued
requests (:mod:`benchmarks.bench_queued`) and a link-heavy page
(:mod:`benchmarks.bench_link_page`). Writes ``results.md`` and
``results.json`` under ``--out`` and the Markdown table, with the machine it
ran on, to ``--docs`` (``docs/benchmarks-table.md``, which
``docs/benchmarks.md`` includes).

``--quick`` runs the same code small: fewer pages, one repetition, 100,000
queued requests, pages of 100 and 20,000 links.
"""

from __future__ import annotations

import argparse
import json
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.crawls import (
    PROJECT_ROOT,
    CrawlMeasure,
    measure_crawl,
    parse_crawler,
    shared_settings,
)
from benchmarks.micro import RESULT_PREFIX
from benchmarks.run import ServerProcess, check_crawl, machine, paired_ratios, summarise
from benchmarks.web import WebSpec

CRAWLERS = "bare,webrobot,asyncio"


def crawl_rows(args: argparse.Namespace, out: Path, emit: Any) -> list[CrawlMeasure]:
    measures: list[CrawlMeasure] = []
    for sites in args.sites:
        pages = max(args.pages, 2 * sites)  # every site has pages
        mode = f"{sites} site{'s' if sites > 1 else ''}"
        spec = WebSpec(pages=pages, sites=sites)
        emit(f"\n## {mode}: {pages} pages; starting the server")
        with ServerProcess(spec, out / f"server-{sites}.log") as server:
            settings = shared_settings("single" if sites == 1 else "multi", args.concurrency, sites)
            for rep in range(args.reps):
                for crawler in args.crawlers:
                    slug = re.sub(r"[^A-Za-z0-9_.=-]+", "_", crawler)
                    workdir = out / "crawls" / f"{sites}-{slug}-{rep}"
                    if workdir.exists():
                        shutil.rmtree(workdir)
                    m = measure_crawl(crawler, mode, rep, server.start_urls, server.control, workdir,
                                      settings, timeout=args.timeout)  # fmt: skip
                    emit(f"{mode:<11} {crawler:<9} rep {rep + 1}/{args.reps}: {m.pages} pages "
                         f"(+{m.refetches} fetched again), "
                         f"{m.pages_per_second:.0f} pages/s, {m.cpu_per_1000_pages:.2f} CPU s/1000 pages, "
                         f"peak RSS {m.maxrss_kb / 1024:.0f} MB")  # fmt: skip
                    if crawler != "asyncio":  # the upper bound ignores robots.txt on purpose
                        for problem in check_crawl(m, server.pages, len(server.start_urls)):
                            emit(f"  WARNING: {crawler} {problem}")
                    (workdir / "items.jsonl").unlink(missing_ok=True)
                    measures.append(m)
    return measures


def module_result(module: str, argv: list[str], emit: Any, timeout: float) -> Any:
    emit(f"\n## {module} {' '.join(argv)}")
    done = subprocess.run([sys.executable, "-m", module, *argv], cwd=PROJECT_ROOT, capture_output=True,
                          text=True, timeout=timeout, check=False)  # fmt: skip
    lines = [line for line in done.stdout.splitlines() if line.startswith(RESULT_PREFIX)]
    emit("\n".join(line for line in done.stdout.splitlines() if not line.startswith(RESULT_PREFIX)))
    if done.returncode != 0 or not lines:
        emit(f"  FAILED ({done.returncode}): {done.stderr[-2000:]}")
        return None
    return json.loads(lines[-1][len(RESULT_PREFIX) :])


def markdown(info: dict[str, str], args: argparse.Namespace, measures: list[CrawlMeasure],
             queued: Any, links: Any) -> str:  # fmt: skip
    lines = [
        (
            f"Measured {info['date']} on {info['nproc']} CPUs ({info['cpu']}), {info['ram']} RAM, "
            f"Python {info['python']}, Scrapy {info['scrapy']}, load average at start "
            f"{info['load_average_at_start']}. Command: `python -m benchmarks.table {' '.join(args.argv)}`."
        ),
        "",
        "| sites | crawler | pages | pages/s | CPU s / 1000 pages | peak RSS MB | pages fetched again |",
        "| ---: | --- | ---: | ---: | ---: | ---: | ---: |",
    ]
    for row in summarise(measures):
        lines.append(f"| {row.mode} | {row.crawler} | {row.pages:.0f} | {row.pages_per_second:.0f} | "
                     f"{row.cpu_per_1000_pages:.2f} | {row.maxrss_mb:.0f} | {row.refetches:.0f} |")  # fmt: skip
    lines += ["", ("| sites | webrobot / bare: pages/s (goal >= 2.0x) | CPU per page (goal <= 0.5x) "
                   "| webrobot / asyncio upper bound: pages/s | CPU per page |"),
              "| ---: | ---: | ---: | ---: | ---: |"]  # fmt: skip
    ours = [c for c in args.crawlers if c not in ("bare", "asyncio")]
    for crawler in ours:
        for mode in dict.fromkeys(m.mode for m in measures):
            bare = paired_ratios(measures, mode, crawler, "bare")
            upper = paired_ratios(measures, mode, crawler, "asyncio")
            if bare and upper:
                label = mode if crawler == "webrobot" else f"{mode}, {crawler}"
                lines.append(f"| {label} | {bare['pages_per_second']:.2f}x | {bare['cpu_per_page']:.2f}x | "
                             f"{upper['pages_per_second']:.2f}x | {upper['cpu_per_page']:.2f}x |")  # fmt: skip
    if queued:
        lines += ["", "| queued requests | scheduler | bytes per queued request (goal <= 600) | peak RSS (goal < 1 GB) |",
                  "| ---: | --- | ---: | ---: |"]  # fmt: skip
        names = {
            "compact": "webrobot",
            "objects": "webrobot keeping Request objects",
            "bare": "bare Scrapy",
        }
        for r in queued:
            lines.append(f"| {r['requests']:,} | {names[r['mode']]} | {r['bytes_per_request']:.0f} | "
                         f"{r['peak_rss_bytes'] / 2**20:.0f} MiB |")  # fmt: skip
    if links:
        lines += [
            "",
            "| links on one page | webrobot CPU us per link | bare Scrapy CPU us per link |",
            "| ---: | ---: | ---: |",
        ]
        for n in links["us_per_link"]["webrobot"]:
            lines.append(f"| {int(n):,} | {links['us_per_link']['webrobot'][n]:.1f} | "
                         f"{links['us_per_link']['bare'][n]:.1f} |")  # fmt: skip
        lines.append(f"\nPer-link cost, largest page / smallest: {links['measured']}.")
    return "\n".join(lines) + "\n"


def parse_args(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks.table", description=__doc__.split("\n\n")[0]
    )
    parser.add_argument("--quick", action="store_true", help="the same code, small (see above)")
    parser.add_argument("--sites", default="1,16,256,4096", help="comma-separated site counts")
    parser.add_argument("--pages", type=int, help="pages in each web (default 20000; quick 2000)")
    parser.add_argument("--reps", type=int, help="repetitions (default 3; quick 1)")
    parser.add_argument("--concurrency", type=int, default=32)
    parser.add_argument(
        "--crawlers",
        default=CRAWLERS,
        help=f"comma-separated, in run order (default {CRAWLERS}); bare and asyncio are the "
        "baselines of the ratios, NAME:SETTING=VALUE adds a variant "
        "(e.g. webrobot:WEBROBOT_INDEX_ENABLED=False)",
    )
    parser.add_argument(
        "--requests", type=int, help="queued requests (default 1000000; quick 100000)"
    )
    parser.add_argument("--link-sizes", help="links per page (default 100,100000; quick 100,20000)")
    parser.add_argument("--out", type=Path, default=PROJECT_ROOT / "benchmarks-output" / "table")
    parser.add_argument("--docs", type=Path, default=PROJECT_ROOT / "docs" / "benchmarks-table.md")
    parser.add_argument("--timeout", type=float, default=3600)
    args = parser.parse_args(argv)
    args.argv = argv
    args.sites = [int(s) for s in args.sites.split(",") if s]
    args.crawlers = [c for c in args.crawlers.split(",") if c]
    for crawler in args.crawlers:
        try:
            parse_crawler(crawler)
        except ValueError as exc:
            parser.error(str(exc))
    args.pages = args.pages or (2000 if args.quick else 20_000)
    args.reps = args.reps if args.reps is not None else (1 if args.quick else 3)
    args.requests = args.requests or (100_000 if args.quick else 1_000_000)
    args.link_sizes = args.link_sizes or ("100,20000" if args.quick else "100,100000")
    return args


def main(argv: list[str] | None = None) -> int:
    args = parse_args(sys.argv[1:] if argv is None else argv)
    args.out.mkdir(parents=True, exist_ok=True)
    log = open(args.out / "output.txt", "w", encoding="utf-8")  # noqa: SIM115 - closed below

    def emit(line: str = "") -> None:
        print(line, flush=True)
        log.write(line + "\n")

    info = machine()
    emit("webrobot benchmark table: " + ", ".join(f"{k} {v}" for k, v in info.items()))
    measures = crawl_rows(args, args.out, emit)
    queued_result = module_result(
        "benchmarks.bench_queued", ["--requests", str(args.requests)], emit, args.timeout
    )
    queued = queued_result["results"] if queued_result else None
    links = module_result(
        "benchmarks.bench_link_page", ["--sizes", args.link_sizes], emit, args.timeout
    )
    table = markdown(info, args, measures, queued, links)
    emit("\n## Results\n\n" + table)
    (args.out / "results.md").write_text(table, "utf-8")
    (args.out / "results.json").write_text(json.dumps({
        "machine": info, "argv": args.argv, "crawls": [m.as_dict() for m in measures],
        "queued": queued, "links": links,
    }, indent=1), "utf-8")  # fmt: skip
    if args.docs:
        args.docs.write_text(re.sub(r"[ \t]+\n", "\n", table), "utf-8")
    log.close()
    return 0 if all(m.returncode == 0 for m in measures) else 1


if __name__ == "__main__":
    sys.exit(main())
