"""``python -m benchmarks.dead_embeds``: a site whose pages embed images on dead hosts.

A local :class:`~webrobot.demo.server.SiteServer` serves ``--pages`` pages (a tree
of fan-out 2 that reaches them all, plus a link back to the start), each
embedding ``--dead`` images on host names that do not resolve (``.invalid``,
RFC 6761: the crawl's resolver fails them at once, no DNS query leaves the
machine; a few names are shared by every page, the rest are the page's own) and
one live image on the site itself. The bundled spider crawls it with
``WEBROBOT_EXTRACT=images`` (every image described, so each item waits on its
images), twice with the same ``JOBDIR``-free state folder: the first crawl finds
the dead hosts, the re-crawl remembers them.

Each crawl of this checkout is checked (exit status 1 and a ``FAILED`` line if
not): every page fetched and itemised, every live image described, every dead
image listed as ``unfetched``, and no dead host's robots.txt asked by the re-crawl. Printed per crawl: wall
seconds (start of the process to its end), Scrapy's ``elapsed_time_seconds``,
pages, items, images described and unfetched, the dead hosts' robots.txt asked
(``webrobot/robots/deferred_dns``), the hosts found dead
(``webrobot/deadhosts/found/<reason>``) and the images skipped because an earlier
crawl remembered their host (``webrobot/deadhosts/skipped_remembered``).

``--before DIR`` also crawls once with the webrobot checked out in ``DIR``
(``git archive <commit> | tar -x -C DIR``), cut at ``--before-timeout`` seconds.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from webrobot.demo.server import Reply, SiteServer

PROJECT_ROOT = Path(__file__).resolve().parent.parent
#: Dead names every page shares (a tracker, a CDN gone); the rest are the page's own.
SHARED_DEAD = 2


def dead_hosts(page: int, dead: int) -> list[str]:
    shared = min(SHARED_DEAD, dead)
    own = [f"img{page}-{k}.gone.invalid" for k in range(dead - shared)]
    return [f"cdn{k}.gone.invalid" for k in range(shared)] + own


def page_html(page: int, pages: int, dead: int) -> str:
    links = [f"/p/{j}" for j in (2 * page + 1, 2 * page + 2) if j < pages] + ["/p/0"]
    anchors = "\n".join(f'<a href="{href}">link {i}</a>' for i, href in enumerate(links))
    images = "\n".join(
        f'<img src="http://{host}/pic{page}.png" alt="dead {k}">'
        for k, host in enumerate(dead_hosts(page, dead))
    )
    return (
        f"<html><head><title>Page {page}</title></head><body><h1>Page {page}</h1>"
        f'<p>Some text of page {page}.</p>{images}\n<img src="/live{page}.png" alt="live">'
        f"\n{anchors}</body></html>"
    )


def build_site(pages: int, dead: int) -> SiteServer:
    from tests.imagefiles import picture  # Pillow: the images extra

    site = SiteServer("dead-embeds")
    site.add("/robots.txt", Reply.text(""))
    for page in range(pages):
        site.html(f"/p/{page}", page_html(page, pages, dead))
        png = picture(32 + page % 7, 24, seed=page)
        site.add(f"/live{page}.png", Reply(200, png, {"Content-Type": "image/png"}))
    return site


def crawl(
    site: SiteServer, workdir: Path, state: Path, checkout: Path, timeout: float, **extra: str
) -> dict[str, Any]:
    workdir.mkdir(parents=True, exist_ok=True)
    settings = {
        "DOWNLOAD_DELAY": "0",
        "AUTOTHROTTLE_ENABLED": "False",
        "LOG_LEVEL": "INFO",
        "RETRY_TIMES": "0",
        "WEBROBOT_RESOLVE_ONLY": "True",
        "WEBROBOT_EXTRACT": "images",
        "WEBROBOT_STATS_FILE": str(workdir / "stats.json"),
        "LOG_FILE": str(workdir / "crawl.log"),
        "WEBROBOT_DEAD_HOSTS_FILE": str(state / "dead-hosts.json"),
        **extra,
    }
    command = [
        sys.executable,
        "-m",
        "scrapy",
        "crawl",
        "webrobot",
        "-O",
        str(workdir / "items.jsonl"),
    ]
    command += ["-a", f"start_urls={site.url('/p/0')}"]
    for name, value in settings.items():
        command += ["-s", f"{name}={value}"]
    env = {**os.environ, "PYTHONPATH": str(checkout), "SCRAPY_SETTINGS_MODULE": "webrobot.settings"}
    before = len([t for t in site.targets() if t.startswith("/p/")])
    started = time.monotonic()
    try:
        subprocess.run(
            command, cwd=workdir, env=env, capture_output=True, timeout=timeout, check=False
        )
        cut = False
    except subprocess.TimeoutExpired:
        cut = True
    wall = time.monotonic() - started
    stats_path, items_path = workdir / "stats.json", workdir / "items.jsonl"
    stats = json.loads(stats_path.read_text("utf-8")) if stats_path.exists() else {}
    items = (
        [json.loads(line) for line in items_path.read_text("utf-8").splitlines() if line]
        if items_path.exists()
        else []
    )
    served = len([t for t in site.targets() if t.startswith("/p/")]) - before
    return {"wall": wall, "cut": cut, "stats": stats, "items": items, "served": served}


def summary(name: str, run: dict[str, Any], pages: int, dead: int) -> str:
    stats, items = run["stats"], run["items"]
    unfetched = sum(
        1
        for item in items
        for image in item.get("images") or []
        if image.get("status") == "unfetched"
    )
    described = sum(1 for item in items for image in item.get("images") or [] if "phash" in image)
    elapsed = stats.get("elapsed_time_seconds")
    found = sum(v for k, v in stats.items() if k.startswith("webrobot/deadhosts/found/"))
    return (
        f"| {name} | {run['wall']:.1f}{' (cut)' if run['cut'] else ''} | "
        f"{elapsed if elapsed is None else round(elapsed, 1)} | "
        f"{run['served']} | {len(items)}/{pages} | {described} | "
        f"{unfetched}/{pages * dead} | {stats.get('webrobot/robots/deferred_dns', 0)} | "
        f"{found} | {stats.get('webrobot/deadhosts/skipped_remembered', 0)} |"
    )


def problems(run: dict[str, Any], pages: int, dead: int, *, again: bool) -> list[str]:
    """What a crawl of this checkout got wrong (an empty list: nothing)."""
    stats, items = run["stats"], run["items"]
    images = [image for item in items for image in item.get("images") or []]
    found = []
    if run["cut"]:
        found.append("cut at the timeout")
    if run["served"] != pages or len(items) != pages:
        found.append(f"{run['served']} pages served, {len(items)} items, of {pages}")
    if sum(1 for image in images if image.get("status") == "described") != pages:
        found.append("a live image not described")
    if sum(1 for image in images if image.get("status") == "unfetched") != pages * dead:
        found.append("a dead image not listed unfetched")
    if again and stats.get("webrobot/robots/deferred_dns", 0):
        found.append("the re-crawl asked a dead host's robots.txt")
    return found


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pages", type=int, default=30)
    parser.add_argument("--dead", type=int, default=6, help="dead images per page")
    parser.add_argument("--timeout", type=float, default=300.0)
    parser.add_argument("--before", type=Path, help="another checkout to crawl once, first")
    parser.add_argument("--before-timeout", type=float, default=900.0)
    parser.add_argument("--workdir", type=Path, help="keep each crawl's log, stats and items here")
    parser.add_argument(
        "--before-only", action="store_true", help="crawl the --before checkout only"
    )
    args = parser.parse_args(argv)
    rows = [
        (
            "| crawl | wall s | elapsed s | pages served | items | live images described "
            "| dead images unfetched | dead robots.txt asked | hosts found dead | skipped, remembered |"
        ),
        "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
    ]
    wrong: list[str] = []
    with (
        tempfile.TemporaryDirectory(prefix="dead-embeds-") as tmp,
        build_site(args.pages, args.dead) as site,
    ):
        root = args.workdir or Path(tmp)
        if args.before is not None:
            run = crawl(
                site, root / "before", root / "state-before", args.before, args.before_timeout
            )
            rows.append(summary("before", run, args.pages, args.dead))
            print(rows[-1], flush=True)
        for name in () if args.before_only else ("first crawl", "re-crawl"):
            run = crawl(
                site, root / name.replace(" ", "-"), root / "state", PROJECT_ROOT, args.timeout
            )
            rows.append(summary(name, run, args.pages, args.dead))
            print(rows[-1], flush=True)
            again = name == "re-crawl"
            wrong += [f"{name}: {p}" for p in problems(run, args.pages, args.dead, again=again)]
    print("\n".join(rows))
    for line in wrong:
        print(f"FAILED {line}")
    return 1 if wrong else 0


if __name__ == "__main__":
    raise SystemExit(main())
