"""End-to-end: a real ``scrapy crawl`` given a value it cannot use stops before it opens
any output. Whatever kind of setting is wrong (a ``WEBROBOT_*`` choice or list of
parts, a number, a Scrapy setting, a file a component reads when it is built), the
user's existing feed is byte-identical afterwards, no report or index is created or
touched, nothing is requested, and the error is the last line on the terminal, once,
with exit status 2.
"""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.crawling import PROJECT_ROOT, scrapy_command, write_project
from webrobot.demo.server import SiteServer

pytestmark = pytest.mark.slow

#: An earlier crawl's feed: it must survive a crawl that could not start.
EARLIER_FEED = b'{"url": "https://example.com/", "title": "kept"}\n' * 7

#: (setting given with -s, what the last line names)
BAD_SETTINGS = [
    ("WEBROBOT_EXTRACT=txt", "setting WEBROBOT_EXTRACT=['txt']: expected all or any of text"),
    ("WEBROBOT_FINGERPRINT=md5", "setting WEBROBOT_FINGERPRINT='md5': expected one of body, text"),
    ("WEBROBOT_ROBOTS_TTL=-5", "setting WEBROBOT_ROBOTS_TTL='-5': expected a number >= 0"),
    ("DEPTH_LIMIT=abc", "setting DEPTH_LIMIT='abc': expected a whole number"),
    # Found only while a component is built (the blocklist file is read then).
    ("WEBROBOT_BLOCKLIST={missing}", "the WEBROBOT_BLOCKLIST file cannot be read"),
]


def lines(text: str) -> list[str]:
    return [line for line in text.splitlines() if line.strip()]


def crawl(folder: Path, site: SiteServer, setting: str, *extra: str) -> tuple[int, str]:
    setting = setting.format(missing=folder / "no-such-blocklist.txt")
    result = scrapy_command(
        "crawl", "webrobot", "-a", f"start_urls={site.url('/')}", "-s", setting,
        "-s", "WEBROBOT_RESOLVE_ONLY=True", *extra, cwd=folder, timeout=120,
    )  # fmt: skip
    return result.returncode, result.stderr


@pytest.mark.parametrize(("setting", "said"), BAD_SETTINGS)
def test_a_bad_setting_leaves_the_earlier_feed_byte_identical(
    make_site: Callable[..., SiteServer], tmp_path: Path, setting: str, said: str
) -> None:
    site = make_site()
    site.html("/", "<title>home</title>")
    feed = tmp_path / "items.jsonl"
    feed.write_bytes(EARLIER_FEED)
    before = sorted(p.name for p in tmp_path.iterdir())

    status, stderr = crawl(tmp_path, site, setting, "-O", str(feed))

    assert status == 2, stderr[-2000:]
    assert feed.read_bytes() == EARLIER_FEED
    assert sorted(p.name for p in tmp_path.iterdir()) == before, "no index, report or archive"
    last = lines(stderr)[-1]
    assert last.startswith("webrobot: ") and said in last, stderr[-2000:]
    assert stderr.count(said) == 1, "said once"
    assert "Traceback" not in stderr
    assert site.targets() == [], "nothing was requested"


@pytest.mark.parametrize(
    "setting", ["WEBROBOT_EXTRACT=txt", "WEBROBOT_BLOCKLIST={missing}"], ids=["value", "component"]
)
def test_without_a_feed_the_earlier_report_and_index_are_left_alone(
    make_site: Callable[..., SiteServer], tmp_path: Path, setting: str
) -> None:
    site = make_site()
    site.html("/", "<title>home</title>")
    for folder in ("report", "webrobot-index"):
        (tmp_path / folder).mkdir()
        (tmp_path / folder / "earlier.json").write_text('{"earlier": true}', "utf-8")
    before = sorted(str(p.relative_to(tmp_path)) for p in tmp_path.rglob("*"))

    status, stderr = crawl(tmp_path, site, setting)

    assert status == 2, stderr[-2000:]
    assert sorted(str(p.relative_to(tmp_path)) for p in tmp_path.rglob("*")) == before
    for folder in ("report", "webrobot-index"):
        assert (tmp_path / folder / "earlier.json").read_text("utf-8") == '{"earlier": true}'
    assert lines(stderr)[-1].startswith("webrobot: "), stderr[-2000:]


def test_a_fresh_folder_gets_no_report_or_index(
    make_site: Callable[..., SiteServer], tmp_path: Path
) -> None:
    site = make_site()
    status, stderr = crawl(tmp_path, site, "WEBROBOT_BLOCKLIST={missing}")
    assert status == 2
    assert list(tmp_path.iterdir()) == [], stderr[-2000:]


def test_in_another_project_scrapys_own_crawl_keeps_the_feed_and_says_the_error_last(
    tmp_path: Path,
) -> None:
    """A project with the add-on line, run by Scrapy's own ``crawl`` command: exit 1
    (Scrapy's status for a crawl that did not start), the one error last, no traceback."""
    project = write_project(tmp_path / "project", ["http://127.0.0.1:9/"])
    feed = project / "items.jsonl"
    feed.write_bytes(EARLIER_FEED)
    env = {k: v for k, v in os.environ.items() if k != "SCRAPY_SETTINGS_MODULE"}
    env["PYTHONPATH"] = os.pathsep.join((str(project), str(PROJECT_ROOT)))
    result = subprocess.run(
        [sys.executable, "-m", "scrapy", "crawl", "site", "-O", str(feed),
         "-s", f"WEBROBOT_BLOCKLIST={tmp_path / 'missing.txt'}"],
        cwd=project, env=env, capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip
    assert result.returncode == 1, result.stderr[-2000:]
    assert feed.read_bytes() == EARLIER_FEED
    assert "Traceback" not in result.stderr
    last = lines(result.stderr)[-1]
    assert last.endswith("the WEBROBOT_BLOCKLIST file cannot be read: No such file or directory"
                         " (a WEBROBOT_BLOCKLIST string is a file path; give entries inline as a"
                         """ list, e.g. '["example.com"]')"""), last  # fmt: skip
    assert result.stderr.count("ERROR: webrobot cannot start:") == 1, "logged once"
    assert sorted(p.name for p in project.iterdir()) == ["items.jsonl", "scrapy.cfg", "siteproject"]


def test_a_value_the_add_on_refuses_is_said_without_scrapys_start_up_lines(
    make_site: Callable[..., SiteServer], tmp_path: Path
) -> None:
    """The add-on finds a bad value before Scrapy lists what it builds: the terminal
    shows Scrapy's first lines (its version) and the error, not the ninety lines of
    add-ons, settings and components of a crawl that does not start; in a LOG_FILE
    too. An error found only while a component is built comes after them, as before."""
    site = make_site()
    status, stderr = crawl(tmp_path, site, "WEBROBOT_EXTRACT=txt")
    assert status == 2, stderr[-2000:]
    said = lines(stderr)
    assert said[-1].startswith("webrobot: cannot start: setting WEBROBOT_EXTRACT"), said[-3:]
    for startup in ("Enabled addons", "Overridden settings", "Enabled downloader middlewares",
                    "Enabled spider middlewares", "Enabled item pipelines", "Enabled extensions"):  # fmt: skip
        assert startup not in stderr, startup
    # No more than a setting the command itself refuses: Scrapy's version lines.
    _, early = crawl(tmp_path, site, "DEPTH_LIMIT=abc")
    assert len(said) <= len(lines(early)) + 1, said

    log_file = tmp_path / "crawl.log"
    status, stderr = crawl(tmp_path, site, "WEBROBOT_EXTRACT=txt", "-s", f"LOG_FILE={log_file}")
    log = log_file.read_text("utf-8")
    assert status == 2 and log.count("ERROR: webrobot cannot start: setting WEBROBOT_EXTRACT") == 1
    assert "Enabled downloader middlewares" not in log and "Overridden settings" not in log

    status, stderr = crawl(tmp_path, site, "WEBROBOT_BLOCKLIST={missing}")
    assert status == 2 and "Enabled downloader middlewares" in stderr
