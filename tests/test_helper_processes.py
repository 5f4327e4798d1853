"""End-to-end: the crawl's helper processes (the index writer, multiprocessing's
resource tracker) never outlive it. The crawl process alone is SIGKILLed at
several moments of its first seconds, start-up included; nothing of its session
may be left running, and the resumed job indexes every page either run itemised."""

from __future__ import annotations

import json
import os
import shutil
import signal
import time
from pathlib import Path
from typing import Any

import pytest

from tests.crawling import INDEX_ON, run_crawl, start_crawl, wait_until
from tests.test_crawl_search import page, results
from webrobot.demo.server import Reply, SiteServer

pytestmark = pytest.mark.slow

PAGES = 30


def session_members(sid: int) -> list[tuple[int, str]]:
    """The live processes of session ``sid`` (pid, command line)."""
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            fields = Path(f"/proc/{entry}/stat").read_text().rsplit(")", 1)[1].split()
            command = Path(f"/proc/{entry}/cmdline").read_bytes().replace(b"\0", b" ")
        except OSError:
            continue
        if int(fields[3]) == sid and fields[0] not in ("Z", "X"):
            found.append((int(entry), command.decode(errors="replace")[:120]))
    return found


def itemised(workdir: Path) -> set[str]:
    feed = workdir / "items.jsonl"
    if not feed.exists():
        return set()
    urls = set()
    for line in feed.read_text("utf-8").splitlines():
        try:
            urls.add(json.loads(line)["url"])
        except ValueError:  # the last line, cut by the kill
            continue
    return urls


def kill_site(site: SiteServer) -> None:
    site.add("/robots.txt", Reply.text("User-agent: *\nDisallow:\n"))
    links = "".join(f'<a href="/p{i}">p</a> ' for i in range(PAGES))
    site.html("/", page("Home", "start here", links=links))
    for i in range(PAGES):
        site.add(f"/p{i}", Reply.html(page(f"Page {i}", f"lifeword{i} text"), delay=0.02))


#: When the crawl is killed: so long after it started, or after its first helper
#: process appeared (the moments when a helper is starting, whatever the machine's speed).
MOMENTS = [("start", 0.3), ("start", 0.6), ("start", 1.0), ("start", 2.0),
           ("helper", 0.0), ("helper", 0.15), ("helper", 0.4)]  # fmt: skip


@pytest.mark.parametrize(("anchor", "after"), MOMENTS)
def test_a_crawl_killed_early_leaves_no_process_and_the_resumed_job_indexes_everything(
    tmp_path: Path, make_site: Any, anchor: str, after: float
) -> None:
    site = make_site("lifeline")
    kill_site(site)
    index, jobdir = tmp_path / "index", tmp_path / "job"
    settings = {
        **INDEX_ON,
        "WEBROBOT_INDEX": str(index),
        "JOBDIR": str(jobdir),
        "CONCURRENT_REQUESTS": "2",
    }
    first = start_crawl(tmp_path / "run1", args={"start_urls": site.url("/")}, settings=settings,
                        new_session=True)  # fmt: skip
    sid = first.process.pid
    if anchor == "helper":
        wait_until(lambda: len(session_members(sid)) > 1, 60, "the crawl to start a helper")
    time.sleep(after)  # the moment of the kill is the point (what it asserts holds at any)
    os.kill(sid, signal.SIGKILL)
    first.process.wait()
    assert first.process.stderr is not None
    first.process.stderr.close()
    try:
        wait_until(lambda: not session_members(sid), 30, "every process of the crawl to exit")
    finally:
        left = session_members(sid)
        for pid, _ in left:  # never leave one behind, even when this test fails
            os.kill(pid, signal.SIGKILL)
        assert not left, f"left running after the crawl's SIGKILL: {left}"

    second = run_crawl(tmp_path / "run2", args={"start_urls": site.url("/")}, settings=settings)
    assert second.returncode == 0, second.stderr[-2000:]
    assert "being written by another process" not in second.log
    assert not second.stat("webrobot/index/error")
    pages = {u for u in itemised(tmp_path / "run1") | itemised(tmp_path / "run2")}
    expected = {site.url(f"/p{i}") for i in range(PAGES)}
    assert expected <= pages, "the resumed job itemises what the killed one did not"
    indexed = {h["url"] for h in results(index, "text", "--limit", "1000")}
    assert indexed == expected


def descendants(root: int) -> dict[int, str]:
    """The live processes descending from ``root`` (whatever their session: a browser
    may start its own), with their command lines."""
    parents: dict[int, int] = {}
    commands: dict[int, str] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            fields = Path(f"/proc/{entry}/stat").read_text().rsplit(")", 1)[1].split()
            command = Path(f"/proc/{entry}/cmdline").read_bytes().replace(b"\0", b" ")
        except OSError:
            continue
        if fields[0] not in ("Z", "X"):
            parents[int(entry)] = int(fields[1])
            commands[int(entry)] = command.decode(errors="replace")[:120]
    found: dict[int, str] = {}
    for pid in parents:
        up, seen = pid, 0
        while up in parents and seen < 64:
            up, seen = parents[up], seen + 1
            if up == root:
                found[pid] = commands[pid]
                break
    return found


@pytest.mark.skipif(shutil.which("chromium") is None, reason="chromium is not installed")
def test_a_rendering_crawl_killed_leaves_no_browser_behind(tmp_path: Path, make_site: Any) -> None:
    """Rendering starts Playwright's driver and a browser: they too end with the crawl."""
    pytest.importorskip("scrapy_playwright", reason="the optional browser extra is not installed")
    site = make_site("render")
    kill_site(site)
    config = tmp_path / "site.toml"
    config.write_text(f'start_urls = ["{site.url("/")}"]\nrender = "browser"\n', "utf-8")
    crawl = start_crawl(tmp_path / "run", args={"config": str(config)},
                        settings={"WEBROBOT_INDEX_ENABLED": "False"}, new_session=True)  # fmt: skip
    root = crawl.process.pid
    started: dict[int, str] = {}

    def browser_running() -> bool:
        started.update(descendants(root))
        return any("chrom" in command for command in started.values())

    try:
        wait_until(browser_running, 120, "the browser to start")
        started.update(descendants(root))
    finally:
        os.kill(root, signal.SIGKILL)
        crawl.process.wait()
        assert crawl.process.stderr is not None
        crawl.process.stderr.close()

    def alive() -> list[tuple[int, str]]:
        left = []
        for pid, command in started.items():
            try:
                state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
            except OSError:
                continue
            if state not in ("Z", "X"):
                left.append((pid, command))
        return left

    try:
        wait_until(lambda: not alive(), 30, "the driver and the browser to exit")
    finally:
        left = alive()
        for pid, _ in left:
            os.kill(pid, signal.SIGKILL)
        assert not left, f"left running after the crawl's SIGKILL: {left}"
