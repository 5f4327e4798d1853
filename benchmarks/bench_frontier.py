"""The crash-safe frontier against the in-memory one, in one run.

    python -m benchmarks.bench_frontier [--pages 5000] [--reps 2] [--requests 50000]

1. **Crawl speed.** One benchmark web (``benchmarks.server``, one site), crawled
   by webrobot with concurrency 8, alternately with the in-memory frontier
   (no ``JOBDIR``) and with the crash-safe one (``JOBDIR``: SQLite in WAL mode,
   a lease committed before each request leaves and an acknowledgement
   committed when it is done). Pages/s and CPU per 1000 pages, median of the
   repetitions; the goal is the crash-safe frontier within 10 % of in-memory
   pages/s.
2. **Bytes per queued request.** ``--requests`` requests like the spider's
   (a URL of about 60 characters, its callback, ``depth`` in meta) queued in
   each mode: bytes on disk (database + write-ahead log) per request, against
   the bytes the in-memory frontier holds per request (``tracemalloc``).

Prints a Markdown summary and ``BENCH-RESULT {json}``. ``WEBROBOT_BENCH_QUICK``
makes the defaults 60 pages, one repetition and 2,000 requests;
``WEBROBOT_BENCH_SMOKE`` 20 pages, one repetition and 200 requests.
"""

from __future__ import annotations

import argparse
import gc
import json
import shutil
import statistics
import sys
import tempfile
import tracemalloc
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.crawls import PROJECT_ROOT, measure_crawl, shared_settings
from benchmarks.micro import RESULT_PREFIX, size
from benchmarks.run import ServerProcess, check_crawl
from benchmarks.web import WebSpec


def crawl_speed(pages: int, reps: int, out: Path) -> dict[str, Any]:
    spec = WebSpec(pages=pages, sites=1)
    settings = shared_settings("single", 8, 1)
    rows: dict[str, list[dict[str, float]]] = {"memory": [], "sqlite": []}
    with ServerProcess(spec, out / "server.log") as server:
        for rep in range(reps):
            for mode in ("memory", "sqlite"):
                workdir = out / f"{mode}-{rep}"
                if workdir.exists():
                    shutil.rmtree(workdir)
                crawler = "webrobot" if mode == "memory" else f"webrobot:JOBDIR={workdir / 'job'}"
                m = measure_crawl(
                    crawler, "single", rep, server.start_urls, server.control, workdir, settings
                )
                problems = check_crawl(m, server.pages, len(server.start_urls))
                if problems:
                    raise SystemExit(f"{mode} crawl {rep}: {'; '.join(problems)}")
                row = {"pages": m.pages, "pages_per_second": m.pages_per_second,
                       "cpu_per_1000_pages": m.cpu_per_1000_pages,
                       "disk_bytes": float(m.stats.get("webrobot/frontier/disk_bytes", 0))}  # fmt: skip
                rows[mode].append(row)
                print(f"{mode:<6} rep {rep + 1}/{reps}: {m.pages} pages, {m.pages_per_second:.0f} pages/s, "
                      f"{m.cpu_per_1000_pages:.2f} CPU s/1000 pages", flush=True)  # fmt: skip
    med = statistics.median
    result = {
        mode: {key: med(r[key] for r in runs) for key in runs[0]} for mode, runs in rows.items()
    }
    result["ratio_pages_per_second"] = (
        result["sqlite"]["pages_per_second"] / result["memory"]["pages_per_second"]
    )
    result["reps"] = reps
    return result


def queued_bytes(n: int) -> dict[str, float]:
    from scrapy import Request, Spider

    from webrobot.frontier.queues import MemoryFrontier
    from webrobot.frontier.scheduler import FrontierScheduler  # noqa: F401 - the codec below is the scheduler's
    from webrobot.frontier.sqlitefrontier import SqliteFrontier

    class _Spider(Spider):
        name = "bench"

        def parse(self, response: Any) -> Any:
            return None

    spider = _Spider()

    def requests() -> Any:
        for i in range(n):
            url = f"https://www.example-site.test/topic-{i % 97}/page-{i}.html?ref=nav"
            yield Request(url, callback=spider.parse, priority=-(i % 5), meta={"depth": i % 5})

    import pickle

    folder = Path(tempfile.mkdtemp(prefix="bench-frontier-"))
    try:
        disk = SqliteFrontier(folder / "frontier.sqlite")
        for i, request in enumerate(requests()):
            payload = pickle.dumps(request.to_dict(spider=spider), protocol=4)
            disk.push(request.priority, payload, i.to_bytes(16, "little"))
            if i % 1000 == 999:
                disk.commit()
        disk.checkpoint()
        on_disk = disk.disk_bytes() / n
        disk.close()
    finally:
        shutil.rmtree(folder, ignore_errors=True)

    gc.collect()
    tracemalloc.start()
    memory = MemoryFrontier()
    for request in requests():
        memory.push(request.priority, request)
    held, _ = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    return {"requests": n, "disk_bytes_per_request": on_disk, "memory_bytes_per_request": held / n}


def main(argv: list[str] | None = None) -> None:
    # benchmarks.run --quick / --smoke: the same code, briefly
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pages", type=int, default=size(5000, 60, 20))
    parser.add_argument("--reps", type=int, default=size(2, 1, 1))
    parser.add_argument("--requests", type=int, default=size(50_000, 2000, 200))
    parser.add_argument("--out", type=Path, default=PROJECT_ROOT / "benchmarks-output" / "frontier")
    args = parser.parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    speed = crawl_speed(args.pages, args.reps, args.out)
    sizes = queued_bytes(args.requests)
    ratio = speed["ratio_pages_per_second"]
    print(f"""
| frontier | pages/s | CPU s / 1000 pages |
|---|---|---|
| in memory | {speed["memory"]["pages_per_second"]:.0f} | {speed["memory"]["cpu_per_1000_pages"]:.2f} |
| crash-safe (SQLite, JOBDIR) | {speed["sqlite"]["pages_per_second"]:.0f} | {speed["sqlite"]["cpu_per_1000_pages"]:.2f} |

crash-safe / in-memory pages/s: {ratio:.3f} (goal >= 0.90: {"met" if ratio >= 0.9 else "NOT met"});
{args.pages} pages, concurrency 8, median of {args.reps} runs each, interleaved.
Queued request: {sizes["disk_bytes_per_request"]:.0f} bytes on disk, {sizes["memory_bytes_per_request"]:.0f} bytes
in memory (in-memory frontier), over {sizes["requests"]} requests.""")
    print(RESULT_PREFIX + json.dumps({"speed": speed, "sizes": sizes}), flush=True)
    (args.out / "results.json").write_text(
        json.dumps({"speed": speed, "sizes": sizes}, indent=1), "utf-8"
    )


if __name__ == "__main__":
    main()
