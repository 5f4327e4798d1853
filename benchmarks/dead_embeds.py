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
(``webrobot/hosts/dead/<kind>``) and the images skipped because an earlier
crawl remembered their host (``webrobot/hosts/dead/skipped_remembered``).

``--refused`` adds to each page one image on a port of 127.0.0.1 nothing listens on
(one refused host for the whole site). ``--monitor`` crawls as a watch does instead
of mining: ``WEBROBOT_MONITOR_DIR`` and a ``WEBROBOT_WATCH`` rule with a picture, so
that each page's snapshot waits on its images.

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


def closed_port() -> int:
    """A port of 127.0.0.1 nothing listens on (taken and let go)."""
    import socket

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def dead_hosts(page: int, dead: int) -> list[str]:
    shared = min(SHARED_DEAD, dead)
    own = [f"img{page}-{k}.gone.invalid" for k in range(dead - shared)]
    return [f"cdn{k}.gone.invalid" for k in range(shared)] + own


def page_html(page: int, pages: int, dead: int, refused: int | None = None) -> str:
    links = [f"/p/{j}" for j in (2 * page + 1, 2 * page + 2) if j < pages] + ["/p/0"]
    anchors = "\n".join(f'<a href="{href}">link {i}</a>' for i, href in enumerate(links))
    hosts = dead_hosts(page, dead) + ([f"127.0.0.1:{refused}"] if refused else [])
    images = "\n".join(
        f'<img src="http://{host}/pic{page}.png" alt="dead {k}">' for k, host in enumerate(hosts)
    )
    return (
        f"<html><head><title>Page {page}</title></head><body><h1>Page {page}</h1>"
        f'<p>Some text of page {page}.</p>{images}\n<img src="/live{page}.png" alt="live">'
        f"\n{anchors}</body></html>"
    )


def build_site(pages: int, dead: int, refused: int | None = None) -> SiteServer:
    from tests.imagefiles import picture  # Pillow: the images extra

    site = SiteServer("dead-embeds")
    site.add("/robots.txt", Reply.text(""))
    for page in range(pages):
        site.html(f"/p/{page}", page_html(page, pages, dead, refused))
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
    found = sum(stats.get(f"webrobot/hosts/dead/{kind}", 0) for kind in ("no_such_name", "refused"))
    return (
        f"| {name} | {run['wall']:.1f}{' (cut)' if run['cut'] else ''} | "
        f"{elapsed if elapsed is None else round(elapsed, 1)} | "
        f"{run['served']} | {len(items)}/{pages} | {described} | "
        f"{unfetched}/{pages * dead} | {stats.get('webrobot/robots/deferred_dns', 0)} | "
        f"{found} | {stats.get('webrobot/hosts/dead/skipped_remembered', 0)} |"
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
    parser.add_argument(
        "--refused", action="store_true", help="one more image per page on a refused port"
    )
    parser.add_argument(
        "--monitor", action="store_true", help="a watch with a picture rule instead of mining"
    )
    args = parser.parse_args(argv)
    per_page = args.dead + (1 if args.refused else 0)
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
        build_site(args.pages, args.dead, closed_port() if args.refused else None) as site,
    ):
        root = args.workdir or Path(tmp)
        extra = watch_settings(root / "state") if args.monitor else {}
        if args.before is not None:
            run = crawl(
                site, root / "before", root / "state-before", args.before, args.before_timeout,
                **extra,
            )  # fmt: skip
            rows.append(summary("before", run, args.pages, per_page))
            print(rows[-1], flush=True)
        for name in () if args.before_only else ("first crawl", "re-crawl"):
            run = crawl(
                site, root / name.replace(" ", "-"), root / "state", PROJECT_ROOT, args.timeout,
                **extra,
            )  # fmt: skip
            rows.append(summary(name, run, args.pages, per_page))
            print(rows[-1], flush=True)
            again = name == "re-crawl"
            wrong += [f"{name}: {p}" for p in problems(run, args.pages, per_page, again=again)]
    print("\n".join(rows))
    for line in wrong:
        print(f"FAILED {line}")
    return 1 if wrong else 0


def watch_settings(state: Path) -> dict[str, str]:
    """A watch of the site, as ``WEBROBOT_MONITOR_DIR`` and a rule with one picture (not
    on the site): each page's snapshot waits on its images, no mining asked."""
    from tests.imagefiles import picture

    state.mkdir(parents=True, exist_ok=True)
    (state / "protected.png").write_bytes(picture(40, 40, seed=991))
    (state / "watch.toml").write_text(
        '[[rule]]\nname = "our-picture"\nimages = ["protected.png"]\n', "utf-8"
    )
    return {
        "WEBROBOT_MONITOR_DIR": str(state / "monitor"),
        "WEBROBOT_WATCH": str(state / "watch.toml"),
        "WEBROBOT_EXTRACT": "",
    }


if __name__ == "__main__":
    raise SystemExit(main())
