"""End-to-end: a crawl whose folders fill up, on a real tmpfs of a few MB.

Each test mounts its own tmpfs (``mount -t tmpfs -o size=4m``; root only,
skipped elsewhere) and puts some of the crawl's folders on it: ``JOBDIR``, the
WARC folder, the full-text index, the items feed, all of them or one at a
time. The tmpfs fills mid-crawl (by the crawl itself, or by a ballast file
written when the server has answered some pages), and the crawl must close
with ``disk_full`` within seconds, exit status 1, one ERROR line and no
traceback. Then the tmpfs is made bigger, the same command runs again, and
the server's log and the feed must show every page fetched and itemised,
exactly once in the feed.

The guard tests leave room on the disk but less than the threshold: the crawl
pauses (no request reaches the server) and goes on when the ballast is
deleted; or, paused past its timeout, closes with ``disk_full``.
"""

from __future__ import annotations

import json
import os
import random
import re
import shutil
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from tests.crawling import FAST_SETTINGS, INDEX_ON, PROJECT_ROOT, scrapy_command, wait_until
from tests.redisserver import RedisServer
from webrobot.demo.server import Hit, Reply, SiteServer

pytestmark = pytest.mark.slow

#: 1 + 6 + 36 + 216 = 259 pages. With everything on the 4 MB tmpfs the crawl fills it
#: itself after about 75 pages (the other cases fill it with ballast after 40), so more
#: than two thirds of the tree are still to fetch when the disk fills; every page more
#: is one the resumed job fetches again in each case.
FANOUTS = (6, 6, 6)
#: The guard's tests: what they judge is the window while the disk is low (or the
#: timeout in it), and the rest of the tree after it (1 + 5 + 25 + 125 = 156 pages) is
#: enough to go on.
GUARD_FANOUTS = (5, 5, 5)
PAGE_BYTES = 20_000
WORDS = [
    "".join(random.Random(n).choice("abcdefghijklmnopqrstuvwxyz") for _ in range(3 + n % 7))
    for n in range(2000)
]  # fmt: skip


def tree_pages(fanouts: tuple[int, ...] = FANOUTS) -> list[str]:
    pages, level = ["/"], ["/"]
    for depth, fanout in enumerate(fanouts, start=1):
        level = [f"{parent}p{depth}x{i}/" for parent in level for i in range(fanout)]
        pages += level
    return pages


def serve_tree(
    site: SiteServer, delay: float = 0.002, fanouts: tuple[int, ...] = FANOUTS
) -> list[str]:
    """Pages of about 20 KB of text (words that compress about as prose does)."""
    pages = tree_pages(fanouts)
    known = set(pages)

    def page(hit: Hit) -> Reply:
        path = hit.path
        if path not in known:
            return Reply.html("<html><body>Not found</body></html>", 404)
        depth = path.count("/") - 1
        links = ""
        if depth < len(fanouts):
            links = "".join(
                f'<a href="{path}p{depth + 1}x{i}/">child {i}</a>' for i in range(fanouts[depth])
            )
        rng = random.Random(path)
        text = []
        size = 0
        while size < PAGE_BYTES:
            word = rng.choice(WORDS)
            text.append(word)
            size += len(word) + 1
        body = (
            f"<html><head><title>{path}</title></head><body><h1>{path}</h1>{links}"
            f"<p>{' '.join(text)}</p><a href='/'>home</a></body></html>"
        )
        return Reply.html(body, delay=delay)

    site.add_prefix("/", page)
    site.add("/robots.txt", Reply.text("User-agent: *\nAllow: /\n"))
    return pages


class Tmpfs:
    """A tmpfs of a few MB, mounted for one test."""

    def __init__(self, path: Path, size: str) -> None:
        self.path = path
        path.mkdir(parents=True, exist_ok=True)
        run = subprocess.run(
            ["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(path)],
            capture_output=True, text=True, check=False,
        )  # fmt: skip
        if run.returncode:
            pytest.skip(f"cannot mount a tmpfs: {run.stderr.strip()}")
        self.ballast = path / "ballast"

    def free(self) -> int:
        st = os.statvfs(self.path)
        return st.f_bavail * st.f_frsize

    def fill(self, leave: int) -> None:
        """Write a ballast file that leaves about ``leave`` bytes free."""
        size = max(self.free() - leave, 4096)
        with self.ballast.open("ab") as f:
            try:
                os.posix_fallocate(f.fileno(), f.tell(), size)
            except OSError:
                pass  # filled to the brim: as good

    def empty(self) -> None:
        self.ballast.unlink(missing_ok=True)

    def grow(self, size: str) -> None:
        subprocess.run(
            ["mount", "-o", f"remount,size={size}", str(self.path)], check=True, capture_output=True
        )

    def unmount(self) -> None:
        subprocess.run(["umount", "-l", str(self.path)], check=False, capture_output=True)


@pytest.fixture
def tmpfs(tmp_path: Path) -> Iterator[Callable[[str], Tmpfs]]:
    if os.geteuid() != 0:
        pytest.skip("mounting a tmpfs needs root")
    if shutil.which("mount") is None:
        pytest.skip("no mount command")
    mounted: list[Tmpfs] = []

    def factory(size: str = "4m") -> Tmpfs:
        fs = Tmpfs(tmp_path / f"tmpfs{len(mounted)}", size)
        mounted.append(fs)
        return fs

    yield factory
    for fs in mounted:
        fs.unmount()


#: Every Job started by the running test: a test that fails while its crawl runs must
#: not leave the process behind (its Popen would warn in a later, unrelated test).
_STARTED: list[Job] = []


@pytest.fixture(autouse=True)
def _no_crawl_left_running() -> Iterator[None]:
    yield
    for job in _STARTED:
        if job.process is not None and job.process.poll() is None:
            job.process.kill()
            job.process.wait()
    _STARTED.clear()


class Job:
    """One JOBDIR crawl with its folders where a test puts them, run again and again."""

    def __init__(self, workdir: Path, start_url: str, places: dict[str, Path], **settings: str):
        self.workdir = workdir
        self.feed = places["feed"] / "items.jsonl"
        merged = {
            **FAST_SETTINGS, "LOG_LEVEL": "INFO", "CONCURRENT_REQUESTS": "8",
            "CONCURRENT_REQUESTS_PER_DOMAIN": "8",
            "WEBROBOT_WARC_DIR": str(places["warc"] / "warc"),
            **INDEX_ON, "WEBROBOT_INDEX": str(places["index"] / "items.index"),
            "WEBROBOT_REPORT_DIR": str(workdir / "report"),
            "LOG_FILE": str(workdir / "crawl.log"), "WEBROBOT_PROGRESS_INTERVAL": "0",
            "WEBROBOT_DISK_GUARD_ENABLED": "False",
            # A connection the test's server drops is retried, as with Scrapy's defaults:
            # what these tests count is what the full disk loses, not the network.
            "RETRY_TIMES": "2", **settings,
        }  # fmt: skip
        if "jobdir" in places:
            merged["JOBDIR"] = str(places["jobdir"] / "job")
        self.command = [sys.executable, "-m", "scrapy", "crawl", "webrobot", "-o", str(self.feed),
                        "-a", f"start_urls={start_url}"]  # fmt: skip
        for name, value in merged.items():
            self.command += ["-s", f"{name}={value}"]
        self.process: subprocess.Popen[bytes] | None = None
        self.runs = 0

    def start(self) -> None:
        _STARTED.append(self)
        self.runs += 1
        self.command_run = [
            *self.command, "-s", f"WEBROBOT_STATS_FILE={self.workdir / f'stats{self.runs}.json'}"
        ]  # fmt: skip
        env = {**os.environ, "PYTHONPATH": str(PROJECT_ROOT)}
        with (self.workdir / "stderr.txt").open("ab") as stderr:
            self.process = subprocess.Popen(self.command_run, cwd=PROJECT_ROOT, env=env,
                                            stdout=subprocess.DEVNULL, stderr=stderr)  # fmt: skip

    def wait(self, timeout: float) -> int:
        assert self.process is not None
        try:
            return self.process.wait(timeout)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
            raise AssertionError(f"the crawl did not end within {timeout} s:\n{self.log()[-3000:]}")

    def stats(self) -> dict[str, object]:
        return json.loads((self.workdir / f"stats{self.runs}.json").read_text("utf-8"))

    def log(self) -> str:
        path = self.workdir / "crawl.log"
        return path.read_text("utf-8", errors="replace") if path.exists() else ""

    def stderr(self) -> str:
        return (self.workdir / "stderr.txt").read_text("utf-8", errors="replace")

    def items(self) -> list[dict[str, object]]:
        if not self.feed.exists():
            return []
        return [json.loads(line) for line in self.feed.read_text("utf-8").splitlines()]


def judge(site: SiteServer, pages: list[str], job: Job) -> None:
    """Every page fetched, at most twice, and twice only if it was in flight when the disk
    filled (the resumed run says how many); one item per page in the feed."""
    hits = Counter(site.targets())
    missing = [p for p in pages if hits[p] == 0]
    assert not missing, f"{len(missing)} pages never fetched, e.g. {missing[:5]}"
    assert max(hits[p] for p in pages) <= 2, "a page was fetched three times"
    twice = len([p for p in pages if hits[p] == 2])
    requeued = sum(int(n) for n in re.findall(r"\((\d+) of them were in flight", job.log()))
    if "JOBDIR" in " ".join(job.command):
        assert twice <= requeued, f"{twice} pages fetched twice, {requeued} were in flight"
    urls = Counter(str(item["url"]) for item in job.items())
    lost = sorted({site.url(p) for p in pages} - set(urls))
    assert not lost, f"{len(lost)} pages never itemised, e.g. {lost[:5]}"
    repeated = [u for u, n in urls.items() if n > 1]
    assert not repeated, f"{len(repeated)} pages itemised twice, e.g. {repeated[:5]}"
    assert len(urls) == len(pages)


def archived(folder: Path) -> Counter[str]:
    """URLs with a response (or revisit) record in the WARC files of ``folder``."""
    from warcio.archiveiterator import ArchiveIterator

    urls: Counter[str] = Counter()
    for path in sorted(folder.glob("*.warc.gz")):
        with path.open("rb") as stream:
            for record in ArchiveIterator(stream, check_digests="raise"):
                if record.rec_type in ("response", "revisit"):
                    urls[str(record.rec_headers.get_header("WARC-Target-URI"))] += 1
    return urls


def assert_closed_cleanly(job: Job, code: int) -> None:
    log = job.log()
    assert code == 1, f"exit status {code}:\n{log[-3000:]}"
    assert job.stats()["finish_reason"] == "disk_full", log[-3000:]
    assert "Traceback" not in log, log[log.index("Traceback") - 500 :][:4000]
    assert "Traceback" not in job.stderr(), job.stderr()[-3000:]
    errors = [line for line in log.splitlines() if "] ERROR: " in line]
    assert len(errors) == 1 and "Cannot write the" in errors[0], errors
    assert "the crawl stopped for want of disk space" in job.stderr()


def rerun_on_the_full_disk(job: Job, site: SiteServer, fs: Tmpfs) -> None:
    """The same command again before any space is freed: the job's frontier cannot be
    opened, or (when SQLite finds room for that) its first commit fails, or another
    writer on the same disk fails first. Whichever, one ERROR line, exit status 1, and
    nothing lost (judged after the resumed run)."""
    fs.fill(0)
    asked, logged = len(site.targets()), len(job.log())
    job.start()
    code = job.wait(60)
    log = job.log()[logged:]
    assert code == 1, f"exit status {code}:\n{log[-3000:]}"
    assert job.stats()["finish_reason"] == "disk_full", log[-3000:]
    assert "Traceback" not in log, log[log.index("Traceback") - 500 :][:4000]
    errors = [line for line in log.splitlines() if "] ERROR: " in line]
    assert len(errors) == 1 and "] ERROR: Cannot write the " in errors[0], errors
    assert len(site.targets()) <= asked + 16, "the run on a full disk went on crawling"


#: What goes on the tmpfs in each case; "all": everything, as a user with one small disk.
CASES = {
    "all": ("jobdir", "warc", "index", "feed"),
    "jobdir": ("jobdir",),
    "warc": ("warc",),
    "index": ("index",),
    "feed": ("feed",),
}
#: Bytes left free by the ballast in the single-folder cases.
LEAVE = {"jobdir": 48_000, "warc": 40_000, "index": 40_000, "feed": 6_000}


@pytest.mark.parametrize("case", list(CASES))
def test_a_full_folder_closes_the_crawl_and_the_resumed_job_loses_nothing(
    case: str,
    make_site: Callable[..., SiteServer],
    tmpfs: Callable[[str], Tmpfs],
    tmp_path: Path,
) -> None:
    site = make_site("tree")
    pages = serve_tree(site)
    fs = tmpfs("4m")
    places = {
        name: (fs.path if name in CASES[case] else tmp_path / "disk") for name in CASES["all"]
    }
    job = Job(tmp_path, site.url("/"), places)

    job.start()
    if case != "all":  # the crawl fills 4 MB itself only with everything on it
        wait_until(lambda: len(site.targets()) >= 40, 120, "40 pages fetched")
        fs.fill(LEAVE[case])
    full_at = time.monotonic()
    code = job.wait(120)
    closed_after = time.monotonic() - full_at
    fetched = len(site.targets())
    assert fetched < len(pages), (
        f"the crawl fetched every page ({fetched} fetches): it did not stop when the disk filled"
    )
    assert_closed_cleanly(job, code)
    assert closed_after < 60, f"closed {closed_after:.0f} s after the disk filled"
    if "jobdir" in CASES[case]:
        rerun_on_the_full_disk(job, site, fs)

    fs.empty()
    fs.grow("200m")
    job.start()
    code = job.wait(240)
    assert code == 0, job.log()[-3000:]
    assert "Traceback" not in job.log()
    judge(site, pages, job)
    # Every page itemised is indexed (what the spool held was indexed by the resumed run).
    assert job.stats()["webrobot/index/pages"] == len(pages)
    # Every page itemised is archived (a WARC file cut by the full disk was closed whole).
    warc = places["warc"] / "warc"
    assert not list(warc.glob("*.open"))
    missing = {site.url(p) for p in pages} - set(archived(warc))
    assert not missing, (
        f"{len(missing)} pages itemised but not archived, e.g. {sorted(missing)[:5]}"
    )


def test_a_shared_crawl_worker_whose_warc_folder_fills_loses_nothing(
    make_site: Callable[..., SiteServer],
    tmpfs: Callable[[str], Tmpfs],
    redis_server: RedisServer,
    tmp_path: Path,
) -> None:
    """With Redis: no lease of a page whose record may not be written is acknowledged;
    the leases go back to the shared frontier and the next worker fetches them."""
    pytest.importorskip("redis")
    site = make_site("tree")
    pages = serve_tree(site)
    fs = tmpfs("4m")
    disk = tmp_path / "disk"
    places = {"warc": fs.path, "index": disk, "feed": disk}
    job = Job(
        tmp_path, site.url("/"), places, WEBROBOT_REDIS_URL=redis_server.url,
        # The resumed worker is alone: it closes 2 s after the shared crawl is done,
        # not the 10 s a worker waits by default for another to queue more.
        WEBROBOT_REDIS_IDLE_CLOSE="2", WEBROBOT_REDIS_POLL_INTERVAL="0.2",
    )  # fmt: skip
    job.start()
    wait_until(lambda: len(site.targets()) >= 40, 120, "40 pages fetched")
    fs.fill(40_000)
    assert_closed_cleanly(job, job.wait(120))
    assert "unfinished requests back into the shared frontier" in job.log()
    assert len(site.targets()) < len(pages)

    fs.empty()
    fs.grow("200m")
    job.start()
    assert job.wait(240) == 0, job.log()[-3000:]
    result = scrapy_command("webrobot-export", "webrobot", "-o", str(tmp_path / "export.jsonl"),
                            "-s", f"WEBROBOT_REDIS_URL={redis_server.url}")  # fmt: skip
    assert result.returncode == 0, result.stderr
    lines = (tmp_path / "export.jsonl").read_text("utf-8").splitlines()
    exported = Counter(json.loads(line)["url"] for line in lines)
    assert set(exported) == {site.url(p) for p in pages}
    assert max(exported.values()) == 1
    hits = Counter(site.targets())
    assert max(hits[p] for p in pages) <= 2
    missing = set(exported) - set(archived(fs.path / "warc"))
    assert not missing, (
        f"{len(missing)} pages exported but not archived, e.g. {sorted(missing)[:5]}"
    )


def test_without_jobdir_a_full_disk_still_closes_the_crawl_with_one_line(
    make_site: Callable[..., SiteServer], tmpfs: Callable[[str], Tmpfs], tmp_path: Path
) -> None:
    site = make_site("tree")
    pages = serve_tree(site)
    fs = tmpfs("4m")
    places = {"warc": fs.path, "index": fs.path, "feed": fs.path}
    job = Job(tmp_path, site.url("/"), places)
    job.start()
    assert_closed_cleanly(job, job.wait(120))
    assert len(site.targets()) < len(pages)
    lines = job.feed.read_bytes().split(b"\n")
    for line in lines[:-1]:
        json.loads(line)  # the items before the failed write are whole


@pytest.mark.serial("nothing may start in a window while the disk is full; the pause within 10 s")
def test_the_guard_pauses_below_the_threshold_and_goes_on_when_space_returns(
    make_site: Callable[..., SiteServer],
    tmpfs: Callable[[str], Tmpfs],
    tmp_path: Path,
) -> None:
    site = make_site("tree")
    pages = serve_tree(site, delay=0.01, fanouts=GUARD_FANOUTS)
    fs = tmpfs("16m")
    disk = tmp_path / "disk"
    places = {"jobdir": fs.path, "warc": disk, "index": disk, "feed": disk}
    job = Job(
        tmp_path, site.url("/"), places, WEBROBOT_DISK_GUARD_ENABLED="True",
        WEBROBOT_DISK_MIN_FREE_MB="4", WEBROBOT_DISK_CHECK_INTERVAL="0.2",
        WEBROBOT_PROGRESS_INTERVAL="0.5", CONCURRENT_REQUESTS="2", CONCURRENT_REQUESTS_PER_DOMAIN="2",
    )  # fmt: skip
    job.start()
    wait_until(lambda: len(site.targets()) >= 30, 120, "30 pages fetched")
    fs.fill(2 * 1024 * 1024)  # 2 MB free: below the 4 MB threshold, room for what is in flight
    filled = time.monotonic()
    wait_until(lambda: "Low disk space in" in job.log(), 30, "the guard to pause the crawl")
    paused_at = time.monotonic()
    assert paused_at - filled < 10
    # What was in flight when it paused finishes (the requests the downloader already
    # held too, which may start just after the pause); then nothing starts.
    settled = {"count": -1, "since": 0.0}

    def quiet() -> bool:
        hits = list(site.hits)
        if len(hits) != settled["count"] or not all(h.finished for h in hits):
            settled.update(count=len(hits), since=time.monotonic())
            return False
        return time.monotonic() - settled["since"] >= 1.0

    wait_until(quiet, 30, "in-flight pages to finish")
    before = len(site.hits)
    wait_until(lambda: "PAUSED: low disk space" in job.log(), 30, "the progress line to say so")
    time.sleep(2.0)  # an observation window: a running crawl fetches dozens of pages in it
    during = [h for h in site.hits[before:]]
    assert not during, f"{len(during)} requests reached the server while paused"
    assert job.process is not None and job.process.poll() is None, "the paused crawl ended"
    line = next(line for line in job.log().splitlines() if "Low disk space in" in line)
    assert str(fs.path) in line and "MB free" in line and "threshold of 4.0 MB" in line

    fs.empty()
    freed = time.monotonic()
    wait_until(lambda: len(site.hits) > before, 30, "the crawl to go on")
    resumed = next(h.started for h in site.hits[before:])
    assert resumed - freed < 10
    code = job.wait(240)
    assert code == 0, job.log()[-3000:]
    assert "the crawl goes on after" in job.log()
    stats = job.stats()
    assert stats["webrobot/disk/pauses"] == 1
    assert float(stats["webrobot/disk/paused_seconds"]) >= 2.0  # type: ignore[arg-type]
    assert stats["webrobot/disk/paused"] == 0
    report = json.loads((tmp_path / "report" / "report.json").read_text("utf-8"))
    assert report["disk"]["pauses"] == 1
    judge(site, pages, job)


def test_the_guard_closes_with_disk_full_after_its_timeout(
    make_site: Callable[..., SiteServer],
    tmpfs: Callable[[str], Tmpfs],
    tmp_path: Path,
) -> None:
    site = make_site("tree")
    pages = serve_tree(site, delay=0.01, fanouts=GUARD_FANOUTS)
    fs = tmpfs("16m")
    disk = tmp_path / "disk"
    places = {"jobdir": disk, "warc": fs.path, "index": disk, "feed": disk}
    job = Job(
        tmp_path, site.url("/"), places, WEBROBOT_DISK_GUARD_ENABLED="True",
        WEBROBOT_DISK_MIN_FREE_MB="4", WEBROBOT_DISK_CHECK_INTERVAL="0.2",
        WEBROBOT_DISK_FULL_TIMEOUT="2", CONCURRENT_REQUESTS="2", CONCURRENT_REQUESTS_PER_DOMAIN="2",
    )  # fmt: skip
    job.start()
    wait_until(lambda: len(site.targets()) >= 30, 120, "30 pages fetched")
    fs.fill(2 * 1024 * 1024)
    code = job.wait(60)
    log = job.log()
    assert code == 1, log[-3000:]
    assert job.stats()["finish_reason"] == "disk_full"
    assert "still low after" in log and "Traceback" not in log
    assert f"(low free space in {fs.path}" in job.stderr()

    fs.empty()
    job.start()
    code = job.wait(240)
    assert code == 0, job.log()[-3000:]
    judge(site, pages, job)
