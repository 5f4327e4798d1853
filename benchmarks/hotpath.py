"""Where the crawl's CPU goes on the hot path: signal handlers and per-request derived values.

    python -m benchmarks.hotpath [--pages 4000] [--reps 3] [--crawlers bare,webrobot]
                                 [--out benchmarks-output/hotpath]

Crawls the benchmark web (one site, concurrency 32, no delay: the same web and
settings as ``python -m benchmarks.run``) once per crawler and repetition under
py-spy (sampling, so the handlers are not slowed down more than the rest, as
they are under a tracing profiler), then once per webrobot crawler under
cProfile to count calls. It prints, per crawler:

* **signal share**: the share of the crawl process's CPU samples spent inside
  Scrapy's signal dispatch (``scrapy.utils.signal.send_catch_log*``: the
  dispatcher and every handler it calls), median over repetitions;
* **site-key share**: the share spent computing site keys
  (``webrobot.urls.sitekey.site_key*``);
* **site keys computed per page**: calls of ``webrobot.urls.sitekey.site_key``
  plus the direct calls of ``site_key_from_parts`` (cProfile's call counts,
  per page the server served); a component that looks the key of a request up
  again (``request_site``) does not count;
* **URLs parsed per page** for a site key: calls of ``site_key_from_parts``
  (``site_key`` parses only an origin it has not seen).

A crawler is ``bare``, ``webrobot``, or ``webrobot@/path/to/checkout`` to
measure another version of the code in the same run (``git archive <commit> |
tar -x -C /tmp/before``). ``benchmarks/hotpath.md`` has the figures of a run
before and after the hot path was trimmed. Needs py-spy (``requirements-dev.txt``).
"""

from __future__ import annotations

import argparse
import json
import os
import pstats
import re
import shutil
import statistics
import sys
from pathlib import Path
from typing import Any

from benchmarks.crawls import measure_crawl, parse_crawler, shared_settings
from benchmarks.run import ServerProcess
from benchmarks.web import WebSpec

#: Frames (function name, file ending) counted as signal dispatch.
SIGNAL_FRAMES = re.compile(r"^send_catch_log(_async|_deferred)? \(.*scrapy/utils/signal\.py")
#: Frames counted as computing a site key.
SITE_KEY_FRAMES = re.compile(r"^(site_key|site_key_from_parts) \(.*webrobot/urls/sitekey\.py")
SITE_KEY_FILE = "webrobot/urls/sitekey.py"


def shares(raw: Path) -> dict[str, float]:
    """Inclusive sample shares from py-spy's raw (collapsed stack) output."""
    total = signal = sitekey = 0
    for line in raw.read_text("utf-8", errors="replace").splitlines():
        stack, _, number = line.rpartition(" ")
        if not stack or not number.isdigit():
            continue
        samples = int(number)
        frames = stack.split(";")
        total += samples
        if any(SIGNAL_FRAMES.match(f) for f in frames):
            signal += samples
        if any(SITE_KEY_FRAMES.match(f) for f in frames):
            sitekey += samples
    if not total:
        return {"samples": 0, "signal_share": 0.0, "site_key_share": 0.0}
    return {"samples": total, "signal_share": signal / total, "site_key_share": sitekey / total}


def site_key_calls(prof: Path) -> tuple[int, int]:
    """(site keys computed, URLs parsed for one) in a cProfile file."""
    stats = pstats.Stats(str(prof)).stats  # type: ignore[attr-defined]
    calls = {function: entry for (filename, _, function), entry in stats.items()
             if filename.endswith(SITE_KEY_FILE)}  # fmt: skip
    site_key = calls.get("site_key", (0, 0))[1]
    parts = calls.get("site_key_from_parts", (0, 0, 0, 0, {}))
    via_site_key = sum(
        counts[1] for (filename, _, function), counts in parts[4].items()
        if function == "site_key" and filename.endswith(SITE_KEY_FILE)
    )  # fmt: skip
    return site_key + parts[1] - via_site_key, parts[1]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks.hotpath", description=__doc__.split("\n")[0]
    )
    parser.add_argument("--pages", type=int, default=4000)
    parser.add_argument("--reps", type=int, default=3)
    parser.add_argument("--crawlers", default="bare,webrobot")
    parser.add_argument("--concurrency", type=int, default=32)
    parser.add_argument("--out", default="benchmarks-output/hotpath")
    parser.add_argument("--timeout", type=float, default=900)
    args = parser.parse_args(argv)
    crawlers = [c for c in args.crawlers.split(",") if c]
    for crawler in crawlers:
        parse_crawler(crawler)
    spy = shutil.which(
        "py-spy", path=f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}"
    )
    if spy is None:
        parser.error("py-spy is not installed (pip install -r requirements-dev.txt)")
    out = Path(args.out).resolve()
    out.mkdir(parents=True, exist_ok=True)
    spec = WebSpec(pages=args.pages, sites=1)
    settings = shared_settings("single", args.concurrency, 1)
    results: dict[str, dict[str, Any]] = {}
    with ServerProcess(spec, out / "server.log") as server:
        for rep in range(args.reps):
            for crawler in crawlers:
                slug = re.sub(r"[^A-Za-z0-9_.=-]+", "_", crawler)
                workdir = out / f"{slug}-{rep}"
                shutil.rmtree(workdir, ignore_errors=True)
                raw = workdir / "py-spy.txt"
                wrap = [spy, "record", "--rate", "250", "--format", "raw", "--output", str(raw),
                        "--", sys.executable]  # fmt: skip
                m = measure_crawl(crawler, "single", rep, server.start_urls, server.control, workdir,
                                  settings, timeout=args.timeout, wrap=wrap)  # fmt: skip
                row = results.setdefault(crawler, {"runs": []})
                # py-spy's own exit status is not the crawl's: judge by the pages served.
                run = {"pages": m.pages, **(shares(raw) if raw.exists() else {})}
                row["runs"].append(run)
                print(f"{crawler} rep {rep + 1}: {json.dumps(run)}", flush=True)
        for crawler in crawlers:
            if parse_crawler(crawler).name != "webrobot":
                continue
            workdir = out / f"{re.sub(r'[^A-Za-z0-9_.=-]+', '_', crawler)}-cprofile"
            shutil.rmtree(workdir, ignore_errors=True)
            prof = workdir / "crawl.prof"
            m = measure_crawl(crawler, "single", -1, server.start_urls, server.control, workdir, settings,
                              timeout=args.timeout, wrap=[sys.executable, "-m", "cProfile", "-o", str(prof)])  # fmt: skip
            if prof.exists() and m.pages:
                computed, parsed = site_key_calls(prof)
                results[crawler]["site_keys_per_page"] = computed / m.pages
                results[crawler]["urls_parsed_per_page"] = parsed / m.pages
    lines = [
        (
            f"{args.pages} pages, one site, concurrency {args.concurrency}, {args.reps} repetitions "
            "(medians); shares are of the crawl process's py-spy CPU samples."
        ),
        "",
        "| crawler | signal dispatch + handlers | site keys | site keys computed per page | URLs parsed per page |",
        "| --- | ---: | ---: | ---: | ---: |",
    ]
    for crawler, row in results.items():
        runs = [r for r in row["runs"] if r.get("samples")]
        if not runs:
            continue
        med = statistics.median
        per_page, parsed_per_page = row.get("site_keys_per_page"), row.get("urls_parsed_per_page")
        lines.append(
            f"| {crawler} | {100 * med(r['signal_share'] for r in runs):.1f} % "
            f"| {100 * med(r['site_key_share'] for r in runs):.1f} % "
            f"| {'-' if per_page is None else f'{per_page:.1f}'} "
            f"| {'-' if parsed_per_page is None else f'{parsed_per_page:.1f}'} |"
        )
    table = "\n".join(lines)
    print("\n" + table)
    (out / "results.md").write_text(table + "\n", "utf-8")
    (out / "results.json").write_text(json.dumps(results, indent=1), "utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
