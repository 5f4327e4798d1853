"""``python -m webrobot.demo serve`` | ``python -m webrobot.demo crawl``."""

from __future__ import annotations

import argparse
import errno
import json
import os
import signal
import subprocess
import sys
import threading
from pathlib import Path

from webrobot.demo.web import DEFAULT_PORT_BASE, SITE_NAMES, DemoWeb
from webrobot.report.summary import summary_lines


def serve(args: argparse.Namespace) -> int:
    web = DemoWeb(args.host, args.port_base).start()
    print("webrobot demo web is up (Ctrl-C stops it):")
    for name, site in web.sites.items():
        print(f"  {name:<10} {site.origin}/")
    print(f"  the front door: {web.frontdoor_url('/')} (crawl with -s 'WEBROBOT_RESOLVE="
          f"{json.dumps(web.resolve_table())}')")  # fmt: skip
    stop = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: stop.set())
    try:
        stop.wait()
    except KeyboardInterrupt:
        pass
    finally:
        web.stop()
    return 0


def crawl(args: argparse.Namespace) -> int:
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    items_path, stats_path, log_path = out / "items.jsonl", out / "stats.json", out / "crawl.log"
    with DemoWeb(args.host, args.port_base) as web:
        command = [
            sys.executable, "-m", "scrapy", "crawl", "demo",
            "-O", str(items_path),
            "-s", f"WEBROBOT_STATS_FILE={stats_path}",
            "-s", f"LOG_FILE={log_path}",
            "-s", "LOG_LEVEL=INFO",
        ]  # fmt: skip
        if args.port_base != DEFAULT_PORT_BASE:
            command += ["-a", "start_urls=" + ",".join(web.start_urls())]
        # The front door's names, mapped to the demo's address (no DNS).
        command += ["-s", "WEBROBOT_RESOLVE=" + json.dumps(web.resolve_table())]
        print("demo web:", ", ".join(f"{n}={s.origin}" for n, s in web.sites.items()))
        print("running:", " ".join(command))
        result = subprocess.run(command, check=False, env=os.environ.copy())
        requested = {name: len(site.hits) for name, site in web.sites.items()}
    if result.returncode != 0 or not stats_path.exists():
        print(f"the crawl failed (exit code {result.returncode}); see {log_path}", file=sys.stderr)
        return result.returncode or 1
    stats = json.loads(stats_path.read_text(encoding="utf-8"))
    items = sum(1 for line in items_path.read_text(encoding="utf-8").splitlines() if line.strip())
    print()
    report_path = out / "items.report.json"
    report = json.loads(report_path.read_text(encoding="utf-8")) if report_path.exists() else None
    print("webrobot demo crawl summary")
    for line in summary_lines(stats, items, report):
        print("  " + line)
    print("  requests each demo site saw: " + ", ".join(f"{n} {c}" for n, c in requested.items()))
    print(f"  items: {items_path}  stats: {stats_path}  log: {log_path}")
    print(f"  crawl report: {out / 'items.report.html'}")
    return 0


def main(argv: list[str] | None = None) -> int:
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument("--host", default="127.0.0.1")
    common.add_argument(
        "--port-base", type=int, default=DEFAULT_PORT_BASE,
        help=f"first port (sites use consecutive ports; 0: ephemeral), default {DEFAULT_PORT_BASE}",
    )  # fmt: skip
    parser = argparse.ArgumentParser(prog="python -m webrobot.demo", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)
    sub.add_parser("serve", parents=[common], help="serve the demo web until Ctrl-C")
    crawl_parser = sub.add_parser(
        "crawl", parents=[common], help="serve the demo web, crawl it, print a summary"
    )
    crawl_parser.add_argument(
        "--out", default="demo-output", help="folder for items, stats and log"
    )
    args = parser.parse_args(argv)
    try:
        return serve(args) if args.command == "serve" else crawl(args)
    except OSError as exc:
        if exc.errno != errno.EADDRINUSE:
            raise
        last = args.port_base + len(SITE_NAMES) - 1
        print(f"webrobot demo: cannot listen on {args.host}:{args.port_base}-{last}: {exc.strerror} "
              "(another demo web running?); stop it, or pick other ports with --port-base N "
              "(0: any free ones)", file=sys.stderr)  # fmt: skip
        return 2


if __name__ == "__main__":
    sys.exit(main())
