"""``python -m benchmarks.static_site``: a blog-like static site with PDFs,
images and saved pages, crawled before and after (two webrobot trees).

The site is generated into a temporary folder and served by
``http.server`` on 127.0.0.1 with the types a static host sends
(``.mht`` as ``message/rfc822``; some downloads have no extension, as
``/download/<id>`` links on CMS sites do). Like a real blog: posts, tag and
archive pages, pagination, images in posts, PDFs attached, saved copies of
cited pages (``.mht``, whose HTML inside links to pages that do not exist).

Prints a Markdown table: requests, bytes received, pages (items) and how the
pages found compare with the site's own list of HTML files.

``--before DIR`` (default: none) is the webrobot tree to compare with.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import tempfile
import threading
from functools import partial
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any, ClassVar

PROJECT_ROOT = Path(__file__).resolve().parent.parent
#: Files served without an extension, and their type.
TYPED = {"download": "application/pdf", "media": "image/jpeg"}


def _page(title: str, body: str, nav: str) -> str:
    return (f"<!DOCTYPE html><html><head><meta charset='utf-8'><title>{title}</title></head>"
            f"<body><nav>{nav}</nav><main><h1>{title}</h1>{body}</main></body></html>")  # fmt: skip


def build(root: Path, posts: int = 120, seed: int = 7) -> list[str]:
    """Write the site; returns the paths of its HTML pages (its own list)."""
    rnd = random.Random(seed)
    tags = [f"tag{i}" for i in range(8)]
    html: list[str] = []
    nav = "<a href='/'>home</a> <a href='/archive/'>archive</a> " + " ".join(
        f"<a href='/tags/{t}/'>{t}</a>" for t in tags
    )

    def write(path: str, data: bytes | str) -> None:
        file = root / path.lstrip("/")
        if path.endswith("/"):
            file = file / "index.html"
        file.parent.mkdir(parents=True, exist_ok=True)
        file.write_bytes(data.encode("utf-8") if isinstance(data, str) else data)
        if path.endswith(("/", ".html")):
            html.append(path)

    by_tag: dict[str, list[int]] = {t: [] for t in tags}
    for i in range(posts):
        post_tags = rnd.sample(tags, 2)
        for t in post_tags:
            by_tag[t].append(i)
        body = [f"<p>Post {i} text.</p>"]
        for j in range(rnd.randint(1, 3)):  # images, half without extension
            size = rnd.randint(40, 400) * 1024
            if rnd.random() < 0.5:
                write(f"/images/p{i}-{j}.jpg", b"\xff\xd8\xff\xe0" + os.urandom(size))
                body.append(f"<a href='/images/p{i}-{j}.jpg'><img src='/images/p{i}-{j}.jpg'></a>")
            else:
                write(f"/media/p{i}-{j}", b"\xff\xd8\xff\xe0" + os.urandom(size))
                body.append(f"<a href='/media/p{i}-{j}'>full size</a>")
        if i % 3 == 0:  # an attached PDF, with or without extension
            size = rnd.randint(200, 1500) * 1024
            pdf = b"%PDF-1.4\n" + os.urandom(size)
            if i % 2:
                write(f"/files/paper-{i}.pdf", pdf)
                body.append(f"<a href='/files/paper-{i}.pdf'>paper</a>")
            else:
                write(f"/download/{i}", pdf)
                body.append(f"<a href='/download/{i}'>paper</a>")
        if (
            i % 4 == 0
        ):  # a saved copy of a cited page: HTML inside, links to pages that do not exist
            inner = "".join(f"<a href='/cited/{i}/{k}.html'>c</a>" for k in range(12))
            mht = (f"From: <Saved by Blink>\nSubject: cited {i}\nMIME-Version: 1.0\n"
                   f"Content-Type: text/html\n\n<html><body>{inner}</body></html>\n")  # fmt: skip
            write(f"/saved/cited-{i}.mht", mht)
            body.append(f"<a href='/saved/cited-{i}.mht'>saved copy</a>")
        body.append(" ".join(f"<a href='/tags/{t}/'>{t}</a>" for t in post_tags))
        write(f"/posts/{i}/", _page(f"Post {i}", "".join(body), nav))
    for t, ids in by_tag.items():
        write(
            f"/tags/{t}/",
            _page(t, "".join(f"<a href='/posts/{i}/'>post {i}</a>" for i in ids), nav),
        )
    per_page = 10
    pages = (posts + per_page - 1) // per_page
    for p in range(pages):
        ids = range(p * per_page, min(posts, (p + 1) * per_page))
        links = "".join(f"<a href='/posts/{i}/'>post {i}</a>" for i in ids)
        if p + 1 < pages:
            links += f"<a href='/page/{p + 2}/'>older</a>"
        write(
            "/" if p == 0 else f"/page/{p + 1}/",
            _page("Blog" if p == 0 else f"Page {p + 1}", links, nav),
        )
    write(
        "/archive/",
        _page("Archive", "".join(f"<a href='/posts/{i}/'>{i}</a>" for i in range(posts)), nav),
    )
    write("/robots.txt", "User-agent: *\nDisallow:\n")
    return html


class _Handler(SimpleHTTPRequestHandler):
    extensions_map: ClassVar[dict[str, str]] = {
        **SimpleHTTPRequestHandler.extensions_map,
        ".mht": "message/rfc822",
        ".mhtml": "message/rfc822",
    }
    hits: list[str]

    def guess_type(self, path: str | os.PathLike[str]) -> str:
        parts = Path(str(path)).parts
        for folder, kind in TYPED.items():
            if folder in parts:
                return kind
        return super().guess_type(path)

    def do_GET(self) -> None:
        self.hits.append(self.path)
        super().do_GET()

    def log_message(self, format: str, *args: Any) -> None:
        pass


class _QuietServer(ThreadingHTTPServer):
    def handle_error(self, request: Any, client_address: Any) -> None:
        pass  # a download stopped at its headers closes the connection mid-body: expected


def crawl(project: Path, url: str, workdir: Path) -> dict[str, Any]:
    stats_path = workdir / "stats.json"
    command = [sys.executable, "-m", "scrapy", "crawl", "webrobot", "-a", f"start_urls={url}",
               "-O", str(workdir / "items.jsonl"), "-s", "LOG_LEVEL=INFO", "-s", "DOWNLOAD_DELAY=0",
               "-s", "AUTOTHROTTLE_ENABLED=False", "-s", "WEBROBOT_REPORT_ENABLED=False",
               "-s", "WEBROBOT_PROGRESS_INTERVAL=0", "-s", f"WEBROBOT_STATS_FILE={stats_path}",
               "-s", f"LOG_FILE={workdir / 'crawl.log'}"]  # fmt: skip
    subprocess.run(command, cwd=project, env={**os.environ, "PYTHONPATH": str(project)}, check=False,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=1800)  # fmt: skip
    stats = json.loads(stats_path.read_text("utf-8")) if stats_path.exists() else {}
    items_path = workdir / "items.jsonl"
    items = (
        [json.loads(x) for x in items_path.read_text("utf-8").splitlines() if x]
        if items_path.exists()
        else []
    )
    return {"stats": stats, "items": items}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--before", type=Path, help="the webrobot tree to compare with")
    parser.add_argument("--posts", type=int, default=120)
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp, "site")
        html = build(root, args.posts)
        files = [p for p in root.rglob("*") if p.is_file()]
        total = sum(p.stat().st_size for p in files)
        print(f"site: {len(files)} files, {total / 1e6:.1f} MB; {len(html)} HTML pages, "
              f"{sum(1 for p in files if p.suffix == '.pdf' or 'download' in p.parts)} PDFs, "
              f"{sum(1 for p in files if p.suffix == '.jpg' or 'media' in p.parts)} images, "
              f"{sum(1 for p in files if p.suffix == '.mht')} saved pages")  # fmt: skip
        rows = []
        for label, project in (("before", args.before), ("after", PROJECT_ROOT)):
            if project is None:
                continue
            hits: list[str] = []
            handler = type("Handler", (_Handler,), {"hits": hits})
            server = _QuietServer(("127.0.0.1", 0), partial(handler, directory=str(root)))
            threading.Thread(target=server.serve_forever, daemon=True).start()
            origin = f"http://127.0.0.1:{server.server_address[1]}"
            out = Path(tmp, label)
            out.mkdir()
            result = crawl(project, origin + "/", out)
            server.shutdown()
            server.server_close()
            stats, items = result["stats"], result["items"]
            found = {i["url"][len(origin) :] for i in items}
            pages = set(html)
            rows.append((label, len(hits), stats.get("downloader/response_bytes", 0), len(items),
                         len(found & pages), len(pages - found), len(found - pages),
                         sum(1 for h in hits if h.split("?")[0] not in pages and h != "/robots.txt")))  # fmt: skip
        print(
            "| run | requests | bytes received | items | HTML pages found | HTML pages missed | items that are not pages | requests for non-pages |"
        )
        print("|---|---:|---:|---:|---:|---:|---:|---:|")
        for row in rows:
            label, requests, size, n_items, hit, missed, junk, nonpages = row
            print(f"| {label} | {requests} | {size / 1e6:.2f} MB | {n_items} | {hit} of {len(html)} | {missed} | "
                  f"{junk} | {nonpages} |")  # fmt: skip
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
