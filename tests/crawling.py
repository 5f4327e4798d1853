"""Run a real ``scrapy crawl`` in a subprocess and collect what it produced.

End-to-end tests judge a crawl by what the local servers saw requested
(``SiteServer.hits``) plus the items, stats and log this returns.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tests import statskeys

PROJECT_ROOT = Path(__file__).resolve().parent.parent

#: Settings that make test crawls fast and deterministic; a test may override any.
FAST_SETTINGS = {
    "DOWNLOAD_DELAY": "0",
    "AUTOTHROTTLE_ENABLED": "False",
    "LOG_LEVEL": "DEBUG",
    "RETRY_TIMES": "0",
    "DOWNLOAD_TIMEOUT": "10",
    # A test never asks DNS: a name it has not mapped fails at once.
    "WEBROBOT_RESOLVE_ONLY": "True",
    # Each crawl starts without an earlier test's dead hosts (a test that judges the
    # memory names its own file).
    "WEBROBOT_DEAD_HOSTS_FILE": "",
    # The full-text index is on by default, with a process of its own beside each crawl
    # (about 0.2 s of CPU a short crawl); a test that judges it says so with INDEX_ON.
    "WEBROBOT_INDEX_ENABLED": "False",
}

#: The full-text index switched on again, as users have it: for the tests that judge the
#: index or its process (search, disk full, helper processes, metrics, a config error).
INDEX_ON = {"WEBROBOT_INDEX_ENABLED": "True"}


@dataclass
class CrawlResult:
    returncode: int
    items: list[dict[str, Any]]
    stats: dict[str, Any]
    log: str
    stderr: str = ""
    workdir: Path = field(default_factory=Path)

    def stat(self, key: str, default: Any = 0) -> Any:
        return self.stats.get(key, default)

    def item_urls(self) -> list[str]:
        return [item["url"] for item in self.items]


def run_crawl(
    workdir: Path,
    spider: str = "webrobot",
    args: dict[str, str] | None = None,
    settings: dict[str, Any] | None = None,
    timeout: float = 120,
    extra: list[str] | None = None,
    project: Path | None = None,
) -> CrawlResult:
    return start_crawl(workdir, spider, args, settings, extra, project=project).wait(timeout)


def scrapy_command(
    *args: str, timeout: float = 60, cwd: Path | None = None
) -> subprocess.CompletedProcess[str]:
    """``scrapy ARGS`` in the project, run from ``cwd`` (a crawl without a feed writes its
    report and index in the folder it runs in: give it the test's own)."""
    env = {
        **os.environ,
        "PYTHONPATH": str(PROJECT_ROOT),
        "SCRAPY_SETTINGS_MODULE": "webrobot.settings",
    }
    return subprocess.run(
        [sys.executable, "-m", "scrapy", *args],
        cwd=cwd or PROJECT_ROOT, env=env, capture_output=True, text=True, timeout=timeout, check=False,
    )  # fmt: skip


def command_in_process(name: str, *args: str) -> tuple[int, str]:
    """``scrapy NAME ARGS`` for one of webrobot's commands that starts no crawl, run in
    this process as Scrapy's command line runs it (the project's settings, the command's
    defaults, its options, ``process_options``, then ``run``) instead of starting Scrapy
    anew (about 1 s of CPU); its exit status and what it wrote to stderr.
    :func:`scrapy_command` runs the command as a process."""
    import argparse
    import contextlib
    import importlib
    import io

    from scrapy.settings import Settings

    command = importlib.import_module(f"webrobot.commands.{name}").Command()
    assert not command.requires_crawler_process, name
    settings = Settings()
    settings.setmodule("webrobot.settings", priority="project")
    settings.setdict(command.default_settings, priority="command")
    command.settings = settings
    parser = argparse.ArgumentParser()
    command.add_options(parser)
    opts, rest = parser.parse_known_args(list(args))
    err = io.StringIO()
    with contextlib.redirect_stderr(err):
        command.process_options(rest, opts)
        command.run(rest, opts)
    return command.exitcode, err.getvalue()


@dataclass
class RunningCrawl:
    """A ``scrapy crawl`` started by :func:`start_crawl`, not yet waited for."""

    process: subprocess.Popen[str]
    workdir: Path

    def interrupt(self) -> None:
        """Ctrl-C: Scrapy finishes the requests in progress, then closes cleanly."""
        self.process.send_signal(signal.SIGINT)

    def wait(self, timeout: float = 120) -> CrawlResult:
        try:
            _, stderr = self.process.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            self.process.kill()
            _, stderr = self.process.communicate()
            raise
        return _collect(self.workdir, self.process.returncode, stderr)


def start_crawl(
    workdir: Path,
    spider: str = "webrobot",
    args: dict[str, str] | None = None,
    settings: dict[str, Any] | None = None,
    extra: list[str] | None = None,
    new_session: bool = False,
    preexec_fn: Callable[[], None] | None = None,
    project: Path | None = None,
) -> RunningCrawl:
    """Start a crawl and return at once (:func:`run_crawl` waits; interrupt it, for example).

    ``project``: run it in that Scrapy project (see :func:`write_project`) instead of
    the webrobot project, with this checkout's ``webrobot`` importable."""
    workdir.mkdir(parents=True, exist_ok=True)
    merged = {**FAST_SETTINGS, **(settings or {})}
    merged["WEBROBOT_STATS_FILE"] = str(workdir / "stats.json")
    merged["LOG_FILE"] = str(workdir / "crawl.log")
    command = [sys.executable, "-m", "scrapy", "crawl", spider, "-O", str(workdir / "items.jsonl")]
    for name, value in (args or {}).items():
        command += ["-a", f"{name}={value}"]
    for name, value in merged.items():
        command += ["-s", f"{name}={value}"]
    command += extra or []
    env = {**os.environ, "PYTHONPATH": str(PROJECT_ROOT)}
    if project is not None:
        env["PYTHONPATH"] = os.pathsep.join((str(project), str(PROJECT_ROOT)))
        env.pop("SCRAPY_SETTINGS_MODULE", None)
    process = subprocess.Popen(
        command,
        cwd=project or PROJECT_ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=new_session,  # its own process group, for Ctrl-C as a terminal sends it
        # for example resource limits of the crawl alone: one setrlimit, safe in the child
        preexec_fn=preexec_fn,  # noqa: PLW1509
    )
    return RunningCrawl(process, workdir)


def _collect(workdir: Path, returncode: int, stderr: str) -> CrawlResult:
    items_path, stats_path, log_path = (
        workdir / "items.jsonl",
        workdir / "stats.json",
        workdir / "crawl.log",
    )
    items = []
    if items_path.exists():
        items = [json.loads(line) for line in items_path.read_text("utf-8").splitlines() if line]
    stats = json.loads(stats_path.read_text("utf-8")) if stats_path.exists() else {}
    statskeys.record(stats)
    log = log_path.read_text("utf-8", errors="replace") if log_path.exists() else ""
    return CrawlResult(returncode, items, stats, log, stderr, workdir)


#: A ``CrawlSpider`` as a new user writes one: every link followed, an item per page.
CRAWL_SPIDER = """\
from scrapy.linkextractors import LinkExtractor
from scrapy.spiders import CrawlSpider, Rule


class SiteSpider(CrawlSpider):
    name = "site"
    start_urls = {start_urls!r}
    rules = [Rule(LinkExtractor(), callback="parse_page", follow=True)]

    def parse_page(self, response):
        yield {{"url": response.url, "title": response.css("title::text").get()}}
"""


def write_project(
    folder: Path, start_urls: list[str], spider: str = CRAWL_SPIDER, settings: str = ""
) -> Path:
    """Someone else's Scrapy project, as ``scrapy startproject siteproject`` lays it
    out, with the add-on line and one spider (``site``, :data:`CRAWL_SPIDER` by
    default); ``settings``: more lines for its ``settings.py``. Returns the folder to
    crawl in (:func:`start_crawl`'s ``project``)."""
    package = folder / "siteproject"
    (package / "spiders").mkdir(parents=True, exist_ok=True)
    (folder / "scrapy.cfg").write_text("[settings]\ndefault = siteproject.settings\n", "utf-8")
    (package / "__init__.py").write_text("", "utf-8")
    (package / "spiders" / "__init__.py").write_text("", "utf-8")
    (package / "settings.py").write_text(
        'BOT_NAME = "siteproject"\n'
        'SPIDER_MODULES = ["siteproject.spiders"]\n'
        'NEWSPIDER_MODULE = "siteproject.spiders"\n'
        "ROBOTSTXT_OBEY = True\n"
        'ADDONS = {"webrobot.Addon": 0}\n' + settings,
        "utf-8",
    )
    (package / "spiders" / "site.py").write_text(spider.format(start_urls=start_urls), "utf-8")
    return folder


def wait_until(condition: Callable[[], bool], timeout: float, what: str) -> None:
    """Poll ``condition`` until it holds; fail the test after ``timeout`` seconds."""
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {timeout} s waiting for {what}")
        time.sleep(0.02)
