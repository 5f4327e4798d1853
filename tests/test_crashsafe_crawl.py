"""End-to-end: a JOBDIR crawl killed with SIGKILL and started again with the same command.

Judged by what the server saw requested and by the items feed (appended to by
every run): every reachable allowed page fetched and itemised once across the
runs, except pages that were in flight at a kill (fetched at most twice, and
no more of them than the resumed run says it re-queued; still one item); no
disallowed URL ever requested.
"""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.crawling import FAST_SETTINGS, PROJECT_ROOT, wait_until
from webrobot.demo.server import Hit, Reply, SiteServer

pytestmark = pytest.mark.slow

ROBOTS = "User-agent: *\nDisallow: /private/\n"
FANOUTS = (10, 7, 6)  # 1 + 10 + 70 + 420 = 501 pages


def tree_pages() -> list[str]:
    pages, level = ["/"], ["/"]
    for depth, fanout in enumerate(FANOUTS, start=1):
        level = [f"{parent}p{depth}x{i}/" for parent in level for i in range(fanout)]
        pages += level
    return pages


def serve_tree(site: SiteServer, delay: float = 0.004) -> list[str]:
    pages = tree_pages()
    known = set(pages)

    def page(hit: Hit) -> Reply:
        path = hit.path
        if path not in known:
            return Reply.html("<html><body>Not found</body></html>", 404)
        depth = path.count("/") - 1
        links = ""
        if depth < len(FANOUTS):
            links = "".join(
                f'<a href="{path}p{depth + 1}x{i}/">child {i}</a>' for i in range(FANOUTS[depth])
            )
        # Every page links home and to a disallowed page: the robots rules must hold across runs.
        body = f"<html><head><title>{path}</title></head><body>{links}<a href='/'>home</a>" \
               f"<a href='/private/{len(path)}'>private</a></body></html>"  # fmt: skip
        return Reply.html(body, delay=delay)

    site.add_prefix("/", page)
    site.add("/robots.txt", Reply.text(ROBOTS))
    return pages


class Job:
    """One JOBDIR crawl started again and again with the same command."""

    def __init__(self, workdir: Path, start_url: str, **settings: str) -> None:
        self.workdir = workdir
        workdir.mkdir(parents=True, exist_ok=True)
        merged = {**FAST_SETTINGS, "LOG_LEVEL": "INFO", "CONCURRENT_REQUESTS": "8",
                  "CONCURRENT_REQUESTS_PER_DOMAIN": "8", "JOBDIR": str(workdir / "job"),
                  "LOG_FILE": str(workdir / "crawl.log"), "WEBROBOT_STATS_FILE": str(workdir / "stats.json"),
                  "WEBROBOT_PROGRESS_INTERVAL": "0", **settings}  # fmt: skip
        self.command = [sys.executable, "-m", "scrapy", "crawl", "webrobot", "-o", str(workdir / "items.jsonl"),
                        "-a", f"start_urls={start_url}"]  # fmt: skip
        for name, value in merged.items():
            self.command += ["-s", f"{name}={value}"]
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        env = {**os.environ, "PYTHONPATH": str(PROJECT_ROOT)}
        with (self.workdir / "stderr.txt").open("ab") as stderr:
            self.process = subprocess.Popen(self.command, cwd=PROJECT_ROOT, env=env,
                                            stdout=subprocess.DEVNULL, stderr=stderr)  # fmt: skip

    def kill(self) -> None:
        assert self.process is not None
        self.process.send_signal(signal.SIGKILL)
        self.process.wait()

    def finish(self, timeout: float = 180) -> None:
        assert self.process is not None
        try:
            assert self.process.wait(timeout) == 0, self.log()[-3000:]
        except subprocess.TimeoutExpired:
            self.process.kill()
            raise

    def log(self) -> str:
        path = self.workdir / "crawl.log"
        return path.read_text("utf-8", errors="replace") if path.exists() else ""

    def items(self) -> list[dict[str, object]]:
        path = self.workdir / "items.jsonl"
        if not path.exists():
            return []
        # Every line must be a whole item: a crash must not leave a torn line behind.
        return [json.loads(line) for line in path.read_text("utf-8").splitlines()]

    def requeued(self) -> int:
        """Requests the resumed runs said were in flight at a kill and queued again."""
        return sum(int(n) for n in re.findall(r"\((\d+) of them were in flight", self.log()))


def judge(site: SiteServer, pages: list[str], job: Job) -> None:
    hits = Counter(site.targets())
    assert not [t for t in hits if t.startswith("/private/")], "a disallowed URL was requested"
    missing = [p for p in pages if hits[p] == 0]
    assert not missing, f"{len(missing)} pages never fetched, e.g. {missing[:5]}"
    assert max(hits[p] for p in pages) <= 2, "a page was fetched three times"
    twice = [p for p in pages if hits[p] == 2]
    assert not twice or "Resumed the frontier of this job" in job.log()
    assert len(twice) <= job.requeued(), (
        f"{len(twice)} pages fetched twice, but only {job.requeued()} were in flight at the kills"
    )
    urls = Counter(str(item["url"]) for item in job.items())
    assert sorted(urls) == sorted(site.url(p) for p in pages), "the items are not one per page"
    assert max(urls.values()) == 1, f"items repeated: {[u for u, n in urls.items() if n > 1][:5]}"


def test_sigkill_in_the_first_second_and_mid_crawl(
    make_site: Callable[..., SiteServer], tmp_path: Path
) -> None:
    site = make_site("tree")
    pages = serve_tree(site)
    job = Job(tmp_path, site.url("/"))

    job.start()  # killed in its first second
    time.sleep(0.6)  # the moment of the kill is the point: while the crawl starts
    job.kill()

    job.start()  # killed mid-crawl, with hundreds of pages queued
    before = len(site.targets())
    wait_until(lambda: len(site.targets()) >= before + 150, 120, "150 more pages fetched")
    job.kill()
    fetched = len(site.targets())
    assert fetched < len(pages), "the crawl finished before it could be killed"

    job.start()  # and to the end
    job.finish()
    judge(site, pages, job)
    queued = [
        int(n)
        for n in re.findall(r"frontier of this job from \S+: (\d+) requests queued", job.log())
    ]
    assert queued and max(queued) >= 100, (
        f"the kill was not mid-crawl with a large frontier: {queued}"
    )


def test_sigkill_during_a_robots_txt_deferral(
    make_site: Callable[..., SiteServer], tmp_path: Path
) -> None:
    site = make_site("deferred")
    pages = serve_tree(site)
    site.add("/robots.txt", Reply.text("busy", 503))
    # A long retry interval: the site stays deferred, its requests held, until the kill.
    job = Job(tmp_path, site.url("/"), WEBROBOT_ROBOTS_BACKOFF_BASE="60")

    job.start()
    wait_until(lambda: "holding its requests" in job.log(), 60, "the site to be deferred")
    job.kill()
    assert site.targets() == ["/robots.txt"], "a page was requested before robots.txt was known"

    site.add("/robots.txt", Reply.text(ROBOTS))
    job.start()
    job.finish()
    assert job.requeued() >= 1, "the request held for robots.txt was not kept in the frontier"
    judge(site, pages, job)


@pytest.mark.parametrize(
    ("content", "says"),
    [
        (b"not a database at all, " * 40, "not a usable frontier database"),
        (None, "frontier format 99"),  # a frontier written by another webrobot
    ],
)
def test_a_frontier_file_that_cannot_be_read_stops_the_job_with_one_line(
    make_site: Callable[..., SiteServer], tmp_path: Path, content: bytes | None, says: str
) -> None:
    """The job's frontier file is damaged or of another format: the crawl says so in
    one line, fetches nothing, exits with status 2 and leaves the file as it was."""
    import sqlite3

    from tests.crawling import run_crawl

    site = make_site("s")
    site.html("/", "<html><body><a href='/a'>a</a></body></html>")
    jobdir = tmp_path / "job"
    jobdir.mkdir()
    frontier = jobdir / "webrobot-frontier.sqlite"
    if content is None:
        with sqlite3.connect(frontier) as db:
            db.execute("CREATE TABLE meta (name TEXT PRIMARY KEY, value) WITHOUT ROWID")
            db.execute("INSERT INTO meta VALUES ('version', 99)")
    else:
        frontier.write_bytes(content)
    before = frontier.read_bytes()

    result = run_crawl(
        tmp_path / "run", args={"start_urls": site.url("/")}, settings={"JOBDIR": str(jobdir)}
    )

    assert result.returncode == 2, result.log[-3000:]
    assert result.stat("finish_reason") == "frontier_error"
    assert "Traceback" not in result.log and "Traceback" not in result.stderr, result.log[-3000:]
    errors = [line for line in result.log.splitlines() if "] ERROR: " in line]
    assert len(errors) == 1 and says in errors[0], errors
    assert [line for line in result.stderr.splitlines() if line.strip()] == [
        line for line in result.stderr.splitlines() if says in line
    ], result.stderr
    assert site.targets() == [], "a job that cannot read its frontier sent requests"
    assert frontier.read_bytes() == before
