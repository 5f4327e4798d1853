"""End-to-end: what a person sees on the terminal of a real ``scrapy crawl``, judged by
its stderr, its log, the files it left and what the local server saw.

A start-up error is the last line on the terminal (also when ``LOG_FILE`` takes the
log), every error of a config is said, and nothing is written that could pass for a
result; a misspelt ``WEBROBOT_*`` setting is warned about once, naming the setting
meant; Ctrl-C says at once that the crawl is stopping and what it waits for.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.crawling import INDEX_ON, run_crawl, scrapy_command, start_crawl, wait_until
from webrobot.demo.server import Hit, Reply, SiteServer

pytestmark = pytest.mark.slow

MakeSite = Callable[..., SiteServer]


def lines(text: str) -> list[str]:
    return [line for line in text.splitlines() if line.strip()]


def three_pages(site: SiteServer) -> None:
    site.add("/robots.txt", Reply.text(""))
    links = "".join(f"<a href='/p{i}'>p{i}</a>" for i in (1, 2))
    site.html("/", f"<html><title>home</title><body>{links} of {site.origin}</body></html>")
    for i in (1, 2):
        site.html(
            f"/p{i}", f"<html><title>p{i}</title><body>page {i} of {site.origin}</body></html>"
        )


def outputs(folder: Path) -> list[str]:
    """What a crawl left for a person to take as its result."""
    return sorted(
        p.name for p in folder.iterdir() if p.name.startswith("items") or p.name == "report"
    )


def test_a_misspelt_setting_is_warned_about_once_naming_the_one_meant(
    make_site: MakeSite, tmp_path: Path
) -> None:
    site = make_site()
    three_pages(site)
    result = run_crawl(
        tmp_path,
        args={"start_urls": site.url("/")},
        settings={"WEBROBOT_MAX_PAGE_PER_SITE": "1", "DOWNLOAD_DELY": "0"},
    )
    assert result.returncode == 0, result.stderr[-2000:]
    # The setting did nothing: every page was fetched.
    assert sorted(site.targets()) == ["/", "/p1", "/p2", "/robots.txt"]
    said = (
        "unknown setting WEBROBOT_MAX_PAGE_PER_SITE is ignored "
        "(did you mean WEBROBOT_MAX_PAGES_PER_SITE?)"
    )
    assert result.log.count(said) == 1, result.log[-3000:]
    assert result.stderr.count(said) == 1, result.stderr
    # A Scrapy setting too: one line naming the one meant.
    said = "DOWNLOAD_DELY is not a setting; did you mean DOWNLOAD_DELAY?"
    assert result.log.count(said) == 1, result.log[-3000:]
    assert result.stderr.count(said) == 1, result.stderr


def test_a_config_with_two_errors_says_both_last_and_writes_nothing(
    make_site: MakeSite, tmp_path: Path
) -> None:
    site = make_site()
    three_pages(site)
    config = tmp_path / "bad.toml"
    config.write_text(
        f'start_urls = ["{site.url("/")}"]\nmax_depth = 2\ndownload_delay = "soon"\n', "utf-8"
    )
    out = tmp_path / "out"
    result = run_crawl(out, args={"config": str(config)}, settings=INDEX_ON)  # its index too

    assert result.returncode == 2
    assert site.targets() == [], "nothing was requested"
    expected = [
        f"webrobot: cannot start: {config}: key 'max_depth': unknown key; expected one of:",
        f"webrobot: cannot start: {config}: key 'download_delay': expected a number of seconds",
    ]
    last = lines(result.stderr)[-2:]
    assert [line[: len(e)] for line, e in zip(last, expected, strict=True)] == expected, (
        result.stderr
    )
    errors = [line for line in lines(result.log) if " ERROR: " in line]
    assert len(errors) == 2, "each said once in the log"
    assert all(e.removeprefix("webrobot: ") in "\n".join(errors) for e in expected)
    assert outputs(out) == [], "no feed, index or report"
    assert result.stats["finish_reason"] == "config_error"


@pytest.mark.parametrize("log_file", [True, False])
def test_a_start_url_that_is_not_http_is_the_last_line(tmp_path: Path, log_file: bool) -> None:
    args = ["crawl", "webrobot", "-a", "start_urls=ftp://example.com/files/", "-O",
            str(tmp_path / "items.jsonl")]  # fmt: skip
    if log_file:
        args += ["-s", f"LOG_FILE={tmp_path / 'crawl.log'}"]
    result = scrapy_command(*args, cwd=tmp_path, timeout=120)

    assert result.returncode == 2, result.stderr[-2000:]
    last = lines(result.stderr)[-1]
    assert last.startswith("webrobot: cannot start: spider argument: key 'start_urls':"), last
    assert "ftp://example.com/files/" in last
    assert outputs(tmp_path) == []
    if log_file:
        log = (tmp_path / "crawl.log").read_text("utf-8")
        assert next(line for line in lines(log) if " ERROR: " in line).endswith(
            last.removeprefix("webrobot: cannot start: ")
        )
        assert len(lines(result.stderr)) == 1, "the terminal gets the error alone"


def test_ctrl_c_says_at_once_that_the_crawl_stops_and_what_it_lets_go(
    make_site: MakeSite, tmp_path: Path
) -> None:
    site = make_site()
    site.add("/robots.txt", Reply.text(""))
    asked = threading.Event()

    def slow(hit: Hit) -> Reply:
        asked.set()  # a hit is recorded once answered: this says it arrived
        return Reply.html("<title>slow</title>", delay=6.0)

    site.add("/", slow)
    crawl = start_crawl(tmp_path, args={"start_urls": site.url("/")})
    try:
        wait_until(asked.is_set, timeout=60, what="the slow page requested")
    finally:
        crawl.interrupt()
    result = crawl.wait(timeout=60)

    assert result.returncode == 130, result.stderr[-2000:]
    assert result.stats["finish_reason"] == "shutdown"
    said = [line for line in lines(result.stderr) if "stopping (Ctrl-C)" in line]
    assert len(said) == 1, result.stderr
    assert (
        f"waiting for 1 download in flight ({site.origin}; at most WEBROBOT_SHUTDOWN_GRACE = 2 s, "
        "then let go)" in said[0]
    )
    assert "press Ctrl-C again to stop at once" in said[0]
