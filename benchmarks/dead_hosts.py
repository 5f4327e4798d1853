"""Benchmark: how long a ``scrapy crawl`` of a dead start URL takes, and how it ends.

    python -m benchmarks.dead_hosts [--runs 3]

Two start URLs that can never be fetched, each crawled alone as a user would:
``scrapy crawl webrobot -a start_urls=URL`` in a subprocess, in a folder of its own,
with the project's settings and nothing else (``LOG_FILE`` aside):

* ``http://no-such-host.invalid/``: a name that does not exist (RFC 6761: it fails
  in webrobot's resolver at once, as an NXDOMAIN answer would; no DNS query);
* ``http://127.0.0.1:PORT/``: a port that was bound and closed, so the connection
  is refused.

Prints, per case, the wall time of the whole command (start-up included; the
median of ``--runs``), the time from "Spider opened" to "Spider closed" in its
log, its exit status, its finish reason and its first line on stderr. Run it on
an earlier checkout for the comparison.
"""

from __future__ import annotations

import argparse
import os
import re
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import datetime
from pathlib import Path

PROJECT_ROOT = Path(__file__).resolve().parent.parent


def closed_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def open_seconds(log: str) -> float | None:
    stamps = {}
    for event in ("opened", "closed"):
        pattern = rf"^(\S+ \S+) \[scrapy\.core\.engine\] INFO: Spider {event}"
        match = re.search(pattern, log, re.MULTILINE)
        if match is None:
            return None
        stamps[event] = datetime.strptime(match.group(1), "%Y-%m-%d %H:%M:%S")
    return (stamps["closed"] - stamps["opened"]).total_seconds()


def crawl_once(workdir: Path, url: str) -> dict[str, object]:
    workdir.mkdir(parents=True)
    env = {
        **os.environ,
        "PYTHONPATH": str(PROJECT_ROOT),
        "SCRAPY_SETTINGS_MODULE": "webrobot.settings",
    }
    command = [sys.executable, "-m", "scrapy", "crawl", "webrobot", "-a", f"start_urls={url}",
               "-s", "LOG_FILE=crawl.log"]  # fmt: skip
    started = time.monotonic()
    done = subprocess.run(
        command, cwd=workdir, env=env, capture_output=True, text=True, timeout=900, check=False
    )
    took = time.monotonic() - started
    log = (workdir / "crawl.log").read_text("utf-8", errors="replace")
    reason = re.search(r"'finish_reason': '([^']*)'", log)
    said = [line for line in done.stderr.splitlines() if line.startswith("webrobot: ")]
    return {
        "seconds": round(took, 1),
        "open_seconds": open_seconds(log),
        "exit": done.returncode,
        "finish_reason": reason.group(1) if reason else "",
        "said": said[0] if said else "",
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    options = parser.parse_args()
    cases = {"dead name": "http://no-such-host.invalid/", "closed port": ""}
    with tempfile.TemporaryDirectory(prefix="dead-hosts-") as tmp:
        for name, url in cases.items():
            runs = []
            for run in range(options.runs):
                target = url or f"http://127.0.0.1:{closed_port()}/"
                runs.append(crawl_once(Path(tmp, f"{name}-{run}".replace(" ", "-")), target))
            wall = statistics.median(float(str(r["seconds"])) for r in runs)
            last = runs[-1]
            print(
                f"{name:12} wall {wall:6.1f} s (median of {len(runs)}) | open "
                f"{last['open_seconds']} s | exit {last['exit']} | finish {last['finish_reason']} "
                f"| {last['said']}",
                flush=True,
            )


if __name__ == "__main__":
    main()
