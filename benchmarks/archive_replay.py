"""``python -m benchmarks.archive_replay``: archives that replay, webrobot beside GNU
wget ``--recursive --page-requisites --warc-file`` on the same static site, in one run.

The site is this project's own manual built with Sphinx (``sphinx_rtd_theme``:
stylesheets, web fonts named in CSS, scripts, images) into a temporary folder,
served by ``http.server`` on 127.0.0.1 with a robots.txt that forbids
``/_sources/``. Each tool crawls it from its front page into WARC files; each
archive is loaded into pywb (``.venv-replay``, ``make replay-venv``) and headless
Chromium opens every HTML page through it: a page *replays whole* when every
request it makes is answered from the archive. Printed (Markdown) and written
to ``benchmarks-output/archive_replay.json``: pages replayed whole, requests the
server saw, bytes it sent, seconds, WARC bytes, robots.txt-forbidden requests;
then webrobot's pages/s with archiving off, and with the archive and requisites on.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from functools import partial
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any, ClassVar

from tests.replay import Pywb, replay_venv

PROJECT_ROOT = Path(__file__).resolve().parent.parent
ROBOTS = b"User-agent: *\nDisallow: /_sources/\n"


class Handler(SimpleHTTPRequestHandler):
    hits: ClassVar[list[tuple[str, int]]] = []

    def do_GET(self) -> None:
        if self.path == "/robots.txt":
            self.send_response(200)
            self.send_header("Content-Type", "text/plain")
            self.send_header("Content-Length", str(len(ROBOTS)))
            self.end_headers()
            self.wfile.write(ROBOTS)
            self.hits.append((self.path, len(ROBOTS)))
            return
        super().do_GET()

    def send_head(self) -> Any:
        result = super().send_head()
        length = 0
        if result is not None and hasattr(result, "fileno"):
            length = os.fstat(result.fileno()).st_size
        self.hits.append((self.path, length))
        return result

    def log_message(self, format: str, *args: Any) -> None:
        pass


def build_docs(out: Path) -> list[str]:
    subprocess.run(
        [sys.executable, "-m", "sphinx", "-q", "-b", "html", str(PROJECT_ROOT / "docs"), str(out)],
        check=True, timeout=600,
    )  # fmt: skip
    return sorted(
        "/" + str(p.relative_to(out)).replace(os.sep, "/")
        for p in out.rglob("*.html")
        if not str(p.relative_to(out)).startswith(("_sources", "_static"))
    )


def build_synthetic(out: Path, pages: int) -> None:
    """``pages`` pages, each naming shared requisites (a stylesheet with a font and a
    background image, a script, a logo) and one image of its own; 10 links a page."""
    (out / "static").mkdir(parents=True)
    (out / "img").mkdir()
    (out / "static" / "site.css").write_text(
        "@font-face{font-family:F;src:url(font.woff2)}body{font-family:F;background:url(bg.png)}"
    )
    for name in ("font.woff2", "bg.png", "logo.png"):
        (out / "static" / name).write_bytes(b"\0" * 2048)
    (out / "static" / "app.js").write_text("window.app = 1;\n" * 50)
    words = " ".join(f"word{i}" for i in range(1500))
    for i in range(pages):
        links = "".join(f'<a href="/p{(i * 10 + k) % pages}.html">{k}</a> ' for k in range(1, 11))
        (out / "img" / f"{i}.png").write_bytes(b"\0" * 4096)
        html = (
            f"<!DOCTYPE html><html><head><title>Page {i}</title>"
            '<link rel="stylesheet" href="/static/site.css"><link rel="icon" href="/static/logo.png">'
            '<script src="/static/app.js"></script></head>'
            f'<body><img src="/static/logo.png"><img src="/img/{i}.png"><p>{words}</p>{links}</body></html>'
        )  # fmt: skip
        (out / f"p{i}.html").write_text(html)
    (out / "index.html").write_text((out / "p0.html").read_text())


def measure(name: str, command: list[str], cwd: Path) -> dict[str, Any]:
    Handler.hits.clear()
    start = time.monotonic()
    done = subprocess.run(
        command, cwd=cwd, capture_output=True, text=True, timeout=1800, check=False
    )
    seconds = time.monotonic() - start
    hits = list(Handler.hits)
    return {
        "tool": name,
        "exit": done.returncode,
        "seconds": round(seconds, 2),
        "requests": len(hits),
        "bytes": sum(b for _, b in hits),
        "forbidden_requests": sum(1 for path, _ in hits if path.startswith("/_sources/")),
        "stderr_tail": done.stderr[-500:] if done.returncode else "",
    }


def replayed_whole(venv: Path, folder: Path, warcs: list[Path], urls: list[str]) -> dict[str, Any]:
    """Pages whose replay misses nothing, and (``whole_but_favicon``) nothing but the
    ``/favicon.ico`` the browser asks for by itself."""
    player = Pywb(venv, folder, warcs)
    whole = but_favicon = 0
    broken = []
    try:
        for url in urls:
            visit = player.visit(url, budget_ms=3000)
            replayed = (url, 200) in visit.requests or url in player.archived
            misses = visit.misses
            whole += replayed and not misses
            but_favicon += replayed and all(m.endswith("/favicon.ico") for m in misses)
            if not replayed or misses:
                broken.append(f"{url}: {misses[:3]}")
    finally:
        player.close()
    return {"whole": whole, "whole_but_favicon": but_favicon, "broken": broken}


def webrobot_crawl(url: str, work: Path, archive: bool, requisites: bool = True) -> list[str]:
    settings = {
        "DOWNLOAD_DELAY": "0", "AUTOTHROTTLE_ENABLED": "False", "LOG_LEVEL": "INFO",
        "WEBROBOT_INDEX_ENABLED": "False", "WEBROBOT_REPORT_DIR": str(work / "report"),
        "WEBROBOT_STATS_FILE": str(work / "stats.json"), "CONCURRENT_REQUESTS_PER_DOMAIN": "8",
        "LOG_FILE": str(work / "crawl.log"),
    }  # fmt: skip
    if archive:
        settings["WEBROBOT_WARC_DIR"] = str(work / "warc")
        settings["WEBROBOT_REQUISITES_ENABLED"] = str(requisites)
    command = [sys.executable, "-m", "scrapy", "crawl", "webrobot", "-a", f"start_urls={url}",
               "-O", str(work / "items.jsonl")]  # fmt: skip
    for key, value in settings.items():
        command += ["-s", f"{key}={value}"]
    return command


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--speed-reps", type=int, default=3)
    parser.add_argument("--speed-pages", type=int, default=2000,
                        help="pages of the generated site the pages/s are measured on")  # fmt: skip
    parser.add_argument("--speed-only", action="store_true", help="only the pages/s runs")
    parser.add_argument("--out", type=Path, default=PROJECT_ROOT / "benchmarks-output")
    args = parser.parse_args(argv)
    venv = replay_venv()
    if venv is None or shutil.which("wget") is None or shutil.which("chromium") is None:
        print("needs .venv-replay (make replay-venv), wget and chromium", file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory(prefix="archive-replay-") as tmp:
        root = Path(tmp)
        site = root / "site"
        rows: list[dict[str, Any]] = []
        pages: list[str] = []
        if not args.speed_only:
            pages = build_docs(site)
            server = ThreadingHTTPServer(("127.0.0.1", 0), partial(Handler, directory=str(site)))
            threading.Thread(target=server.serve_forever, daemon=True).start()
            origin = f"http://127.0.0.1:{server.server_address[1]}"
            urls = [origin + p for p in pages]
            start = origin + "/index.html"
            # webrobot
            work = root / "webrobot"
            work.mkdir()
            row = measure("webrobot", webrobot_crawl(start, work, archive=True), PROJECT_ROOT)
            warcs = sorted((work / "warc").glob("*.warc.gz"))
            row["warc_bytes"] = sum(p.stat().st_size for p in warcs)
            row.update(replayed_whole(venv, root / "pywb-webrobot", warcs, urls))
            rows.append(row)
            # wget
            wget_dir = root / "wget"
            wget_dir.mkdir()
            row = measure("wget", [
                "wget", "--recursive", "--level=inf", "--page-requisites", "--no-verbose",
                "--warc-file=" + str(wget_dir / "wget"), "--directory-prefix", str(wget_dir / "files"),
                start,
            ], wget_dir)  # fmt: skip
            row["exit"] = 0 if row["exit"] in (0, 8) else row["exit"]  # 8: some answer was an error
            warcs = sorted(wget_dir.glob("*.warc.gz"))
            row["warc_bytes"] = sum(p.stat().st_size for p in warcs)
            row.update(replayed_whole(venv, root / "pywb-wget", warcs, urls))
            rows.append(row)
            server.shutdown()
        # speed: archiving off against archive + requisites on, interleaved, on a bigger site
        synthetic = root / "synthetic"
        build_synthetic(synthetic, args.speed_pages)
        server = ThreadingHTTPServer(("127.0.0.1", 0), partial(Handler, directory=str(synthetic)))
        threading.Thread(target=server.serve_forever, daemon=True).start()
        start = f"http://127.0.0.1:{server.server_address[1]}/index.html"
        # off: no archive; warc: the archive without requisites; on: archive and requisites
        speed: dict[str, list[float]] = {"off": [], "warc": [], "on": []}
        for rep in range(args.speed_reps):
            for variant in ("off", "warc", "on"):
                work = root / f"speed-{variant}-{rep}"
                work.mkdir()
                row_speed = measure(
                    variant,
                    webrobot_crawl(start, work, variant != "off", variant == "on"),
                    PROJECT_ROOT,
                )
                stats = json.loads((work / "stats.json").read_text())
                items = stats.get("item_scraped_count", 0)
                elapsed = float(stats.get("elapsed_time_seconds") or row_speed["seconds"])
                speed[variant].append(items / elapsed if elapsed else 0.0)
        server.shutdown()
    result = {"site": "this project's docs (Sphinx, sphinx_rtd_theme)", "pages": len(pages),
              "tools": rows, "pages_per_second": speed,
              "speed_site": f"generated, {args.speed_pages} pages, 7 requisites each (6 shared)"}  # fmt: skip
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "archive_replay.json").write_text(json.dumps(result, indent=1))
    print(f"Site: {result['site']}, {len(pages)} HTML pages\n")
    print("| tool | pages replayed whole | whole but /favicon.ico | requests | bytes served | "
          "seconds | WARC bytes | robots.txt-forbidden requests |")  # fmt: skip
    print("| --- | --- | --- | --- | --- | --- | --- | --- |")
    for r in rows:
        print(f"| {r['tool']} | {r['whole']} / {len(pages)} | {r['whole_but_favicon']} / {len(pages)} "
              f"| {r['requests']} | {r['bytes']:,} | {r['seconds']} | {r['warc_bytes']:,} "
              f"| {r['forbidden_requests']} |")  # fmt: skip
    for r in rows:
        for line in r["broken"][:5]:
            print(f"  {r['tool']} not whole: {line}")
    med = {k: sorted(v)[len(v) // 2] for k, v in speed.items() if v}
    print(f"\nSpeed on {result['speed_site']}")
    for variant, values in speed.items():
        print(f"pages/s, {variant}: {[round(v, 1) for v in values]} (median {med[variant]:.1f})")
    print("BENCH-RESULT " + json.dumps(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
