"""``python -m benchmarks.archive_index``: crawl speed with the WARC archive and the
full-text index on, against both off, on the benchmark web.

The same web (``benchmarks.server``, one site, concurrency 16), interleaved
repetitions (off, on, off, on, ...) so load on the shared machine hits both
alike. Reports the medians of pages/s and CPU s / 1000 pages, the ratio
(goal: on >= 0.85 x off), index bytes per page and WARC bytes per page.
Prints ``BENCH-RESULT`` JSON lines and writes ``benchmarks-output/archive_index.json``.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
from pathlib import Path

from benchmarks.crawls import PROJECT_ROOT, measure_crawl, shared_settings
from benchmarks.run import ServerProcess
from benchmarks.web import WebSpec


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pages", type=int, default=5000)
    parser.add_argument("--reps", type=int, default=3)
    parser.add_argument("--concurrency", type=int, default=16)
    parser.add_argument(
        "--latency", type=float, default=0.0,
        help="seconds the server waits before each answer (a network's round trip)",
    )  # fmt: skip
    parser.add_argument(
        "--variants", default="off,on",
        help="off,on and, to see where the cost goes, warc (archive only) and index (index only)",
    )  # fmt: skip
    parser.add_argument(
        "--out", type=Path, default=PROJECT_ROOT / "benchmarks-output" / "archive_index"
    )
    args = parser.parse_args(argv)
    out: Path = args.out
    out.mkdir(parents=True, exist_ok=True)
    spec = WebSpec(pages=args.pages, sites=1)
    variants = args.variants.split(",")
    runs: dict[str, list[dict[str, float]]] = {variant: [] for variant in variants}
    with ServerProcess(spec, out / "server.log", latency=args.latency) as server:
        for rep in range(args.reps):
            for variant in variants:
                workdir = out / f"{variant}-{rep}"
                shutil.rmtree(workdir, ignore_errors=True)
                settings = shared_settings("single", args.concurrency, 1)
                settings["WEBROBOT_REPORT_ENABLED"] = "False"
                if variant in ("on", "warc"):
                    settings["WEBROBOT_WARC_DIR"] = str(workdir / "warc")
                if variant in ("on", "index"):
                    settings["WEBROBOT_INDEX"] = str(workdir / "index")
                else:
                    settings["WEBROBOT_INDEX_ENABLED"] = "False"
                measure = measure_crawl("webrobot", "single", rep, server.start_urls, server.control,
                                        workdir, settings)  # fmt: skip
                if measure.returncode != 0:
                    raise SystemExit(f"crawl failed: see {workdir}")
                row = {
                    "pages": measure.pages,
                    "pages_per_second": measure.pages_per_second,
                    "cpu_per_1000_pages": measure.cpu_per_1000_pages,
                    "maxrss_mb": measure.maxrss_kb / 1024,
                }
                if variant in ("on", "index"):
                    index_cpu = float(measure.stats.get("webrobot/index/cpu_seconds", 0.0))
                    row["index_process_cpu_per_1000_pages"] = (
                        1000 * index_cpu / max(1, measure.pages)
                    )
                    row["crawl_process_cpu_per_1000_pages"] = (
                        row["cpu_per_1000_pages"] - row["index_process_cpu_per_1000_pages"]
                    )
                    indexed = int(measure.stats.get("webrobot/index/pages", 0))
                    row["indexed_pages"] = indexed
                    row["index_bytes_per_page"] = measure.stats.get(
                        "webrobot/index/bytes", 0
                    ) / max(1, indexed)
                if variant in ("on", "warc"):
                    warc_bytes = sum(p.stat().st_size for p in (workdir / "warc").iterdir())
                    row["warc_bytes_per_fetch"] = warc_bytes / max(1, measure.pages)
                runs[variant].append(row)
                print(f"{variant} rep {rep}: " + json.dumps(row), flush=True)
    med = statistics.median
    result: dict[str, object] = {"pages": args.pages, "reps": args.reps, "latency": args.latency}
    for variant, rows in runs.items():
        for key in sorted({key for row in rows for key in row}):
            if key not in ("pages", "indexed_pages", "maxrss_mb"):
                result[f"{variant}_{key}"] = round(med(row.get(key, 0.0) for row in rows), 2)
    result["load_average"] = [round(x, 2) for x in os.getloadavg()]
    result["cpus"] = os.cpu_count() or 0
    if "on" in runs and "off" in runs:
        ratio = float(result["on_pages_per_second"]) / float(result["off_pages_per_second"])  # type: ignore[arg-type]
        result["on_vs_off"] = round(ratio, 3)
        result["goal_within_15_percent"] = ratio >= 0.85
    print("BENCH-RESULT " + json.dumps(result), flush=True)
    (out.parent / "archive_index.json").write_text(
        json.dumps({"result": result, "runs": runs}, indent=1)
    )


if __name__ == "__main__":
    main()
