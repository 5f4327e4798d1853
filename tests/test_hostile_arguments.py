"""Every invalid argument, setting or site config ends ``scrapy crawl`` with
one line naming the source, the key and what was expected, exit status 2 and
no traceback. Table-driven: one row per case. Every site config and spider
argument case is read by the spider as the crawl builds it, in this process
(its error, the line the command prints); one case of each route an error takes
(a file that cannot be read, a file that does not parse, a value the site config
gives, a config setting checked against the crawl's settings, a spider argument,
none at all) and every ``-s`` case run as a real ``scrapy crawl``, which must
print that same line, exit 2 and show no traceback."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from scrapy.crawler import CrawlerProcess
from scrapy.utils.project import get_project_settings

from tests.components import webrobot_crawler
from tests.crawling import PROJECT_ROOT
from webrobot.settingsmodel.parse import error_lines
from webrobot.sites.config import ConfigError, parse_start_urls_argument
from webrobot.sites.values import check_url
from webrobot.spiders.webrobot import WebrobotSpider

GOOD = 'start_urls = ["http://127.0.0.1:9/"]\n'
NESTED_9 = "X_NESTED = " + "[" * 9 + "1" + "]" * 9 + "\n"

#: name -> (site config text or None, extra command-line words, fragments the error line must hold)
CASES: dict[str, tuple[str | bytes | None, list[str], list[str]]] = {
    "missing file": (None, ["-a", "config=/nonexistent/site.toml"], ["/nonexistent/site.toml", "cannot be read"]),
    "not utf-8": (b"start_urls = ['\xff']\n", [], ["site.toml", "expected UTF-8"]),
    "not toml": ("start_urls = [\n", [], ["site.toml", "not valid TOML"]),
    "toml nested past recursion": (GOOD + "[settings]\nX = " + "[" * 2000 + "]" * 2000 + "\n", [],
                                   ["site.toml", "nested too deeply"]),
    "unknown key": (GOOD + "colour = 1\n", [], ["site.toml", "'colour'", "unknown key"]),
    "no start_urls": ("depth_limit = 1\n", [], ["site.toml", "'start_urls'", "required"]),
    "start_urls not a list": ('start_urls = "http://a.example/"\n', [], ["'start_urls'", "list of strings"]),
    "start_urls ftp": ('start_urls = ["ftp://a.example/"]\n', [], ["'start_urls'", "http"]),
    "start_urls space in host": ('start_urls = ["http://a b.example/"]\n', [], ["'start_urls'", "without spaces"]),
    "allowed_domains path": (GOOD + 'allowed_domains = ["a.example/x"]\n', [], ["'allowed_domains'", "bare domain"]),
    "deny bad regex": (GOOD + 'deny = ["("]\n', [], ["'deny'", "regular expressions"]),
    "depth_limit negative": (GOOD + "depth_limit = -1\n", [], ["'depth_limit'", "whole number >= 0"]),
    "download_delay text": (GOOD + 'download_delay = "slow"\n', [], ["'download_delay'", "seconds"]),
    "concurrency zero": (GOOD + "concurrency = 0\n", [], ["'concurrency'", ">= 1"]),
    "settings not a table": (GOOD + "settings = 3\n", [], ["'settings'", "table of Scrapy settings"]),
    "settings lower case": (GOOD + "[settings]\ndownload_delay = 1\n", [], ["'settings.download_delay'", "upper-case"]),
    "settings list for number": (GOOD + "[settings]\nDEPTH_LIMIT = [1, 2]\n", [],
                                 ["'settings.DEPTH_LIMIT'", "expected a whole number"]),
    "settings table for number": (GOOD + "[settings]\nDOWNLOAD_DELAY = {a = {b = {c = 1}}}\n", [],
                                  ["'settings.DOWNLOAD_DELAY'", "expected a number"]),
    "settings text for number": (GOOD + '[settings]\nCONCURRENT_REQUESTS = "many"\n', [],
                                 ["'settings.CONCURRENT_REQUESTS'", "expected a whole number"]),
    "settings number for list": (GOOD + "[settings]\nWEBROBOT_IGNORED_EXTENSIONS = 3\n", [],
                                 ["'settings.WEBROBOT_IGNORED_EXTENSIONS'", "expected a list"]),
    "settings table for switch": (GOOD + "[settings]\nROBOTSTXT_OBEY = {x = 1}\n", [],
                                  ["'settings.ROBOTSTXT_OBEY'", "expected true/false"]),
    "settings nested 9 levels": (GOOD + "[settings]\n" + NESTED_9, [], ["'settings.X_NESTED'", "nested at most"]),
    "empty start_urls argument": (None, ["-a", "start_urls= , "], ["start_urls", "URLs"]),
    "ftp start_urls argument": (None, ["-a", "start_urls=ftp://a.example/"], ["start_urls", "http"]),
    "space in host argument": (None, ["-a", "start_urls=http://exa mple.com/"], ["start_urls", "without spaces"]),
    "no argument": (None, [], ["start_urls", "config=PATH"]),
    "-s number": (None, ["-a", "start_urls=http://127.0.0.1:9/", "-s", "DEPTH_LIMIT=abc"],
                  ["DEPTH_LIMIT", "expected a whole number"]),
    "-s blocked networks": (None, ["-a", "start_urls=http://127.0.0.1:9/", "-s", 'WEBROBOT_BLOCKED_NETWORKS=["nowhere"]'],
                            ["WEBROBOT_BLOCKED_NETWORKS", "IP networks"]),
    "-s links cap": (None, ["-a", "start_urls=http://127.0.0.1:9/", "-s", "WEBROBOT_MAX_LINKS_PER_PAGE=-1"],
                     ["WEBROBOT_MAX_LINKS_PER_PAGE", ">= 0"]),
}  # fmt: skip


#: The cases the spider itself refuses (a site config, ``-a`` arguments): no ``-s``.
SPIDER_CASES = sorted(name for name, (_, extra, _) in CASES.items() if "-s" not in extra)
#: The cases run as a real ``scrapy crawl`` (about 1 s of CPU each): one per route a
#: spider's error takes, and every ``-s`` case (the command's own parse of the text,
#: the add-on's check of the value).
PROCESS_CASES = sorted({
    "missing file", "not toml", "unknown key", "settings list for number",
    "empty start_urls argument", "no argument",
    *(name for name in CASES if name not in SPIDER_CASES),
})  # fmt: skip


def case_arguments(case: str, folder: Path) -> list[str]:
    """The command-line words of ``case``, its site config written in ``folder``."""
    text, extra, _ = CASES[case]
    args = list(extra)
    if text is not None:
        config = folder / "site.toml"
        config.write_bytes(text if isinstance(text, bytes) else text.encode("utf-8"))
        args += ["-a", f"config={config}"]
    return args


def spider_error_line(case: str, folder: Path) -> str:
    """The first line of the error the ``webrobot`` spider finds in ``case``, built by
    the crawler as ``scrapy crawl`` builds it (webrobot's project settings, the add-on,
    the spider's ``from_crawler`` with the ``-a`` arguments)."""
    words = case_arguments(case, folder)
    arguments = dict(word.split("=", 1) for word in words[1::2])
    spider = WebrobotSpider.from_crawler(webrobot_crawler(), **arguments)
    assert spider.config_error is not None, case
    return error_lines(spider.config_error)[0]


@pytest.mark.parametrize("case", SPIDER_CASES)
def test_invalid_spider_input_is_one_error_naming_the_key(case: str, tmp_path: Path) -> None:
    line = spider_error_line(case, tmp_path)
    assert "\n" not in line
    for fragment in CASES[case][2]:
        assert fragment in line, f"{fragment!r} not in {line!r}"


@pytest.mark.slow
@pytest.mark.parametrize("case", PROCESS_CASES)
def test_invalid_input_is_one_line_and_exit_2(case: str, tmp_path: Path) -> None:
    _, _, fragments = CASES[case]
    args = case_arguments(case, tmp_path)
    env = {**os.environ, "PYTHONPATH": str(PROJECT_ROOT)}
    done = subprocess.run(
        [sys.executable, "-m", "scrapy", "crawl", "webrobot", *args, "-s", "LOG_LEVEL=ERROR",
         "-s", "WEBROBOT_REPORT_ENABLED=False", "-s", "WEBROBOT_PROGRESS_INTERVAL=0"],
        cwd=tmp_path, env={**env, "SCRAPY_SETTINGS_MODULE": "webrobot.settings"},  # whatever it writes stays there
        capture_output=True, text=True, timeout=60, check=False,
    )  # fmt: skip
    output = done.stdout + done.stderr
    assert done.returncode == 2, output
    assert "Traceback" not in output, output
    lines = [
        line
        for line in output.splitlines()
        if "cannot start" in line or line.startswith("webrobot:")
    ]
    assert lines, output
    line = lines[0]
    for fragment in fragments:
        assert fragment in line, f"{fragment!r} not in {line!r}"
    if case in SPIDER_CASES:  # the command says what the spider found, as it found it
        assert line == f"webrobot: cannot start: {spider_error_line(case, tmp_path)}", line


@pytest.mark.parametrize(
    ("given", "expected"),
    [
        ("http://a.example/a b", "http://a.example/a%20b"),
        ("  http://a.example/x y?q=1 2  ", "http://a.example/x%20y?q=1%202"),
        ("http://a.example/\tx\n", "http://a.example/x"),  # browsers drop tabs and newlines
        ("http://a.example/ok", "http://a.example/ok"),
    ],
)
def test_spaces_in_start_urls_are_percent_encoded_as_browsers_do(given: str, expected: str) -> None:
    assert check_url(given, "test", "start_urls") == expected


def test_start_urls_from_the_python_api() -> None:
    urls = ["http://a.example/", "http://b.example/x"]
    assert parse_start_urls_argument(urls) == tuple(urls)
    assert parse_start_urls_argument(tuple(urls)) == tuple(urls)
    assert parse_start_urls_argument(",".join(urls)) == tuple(urls)
    for bad in ([1, 2], 3, {"a": 1}):
        with pytest.raises(ConfigError, match="start_urls"):
            parse_start_urls_argument(bad)
    spider = WebrobotSpider(start_urls=urls)
    assert spider.config_error is None and spider.start_urls == urls


@pytest.mark.slow
def test_a_crawler_process_takes_a_list_of_start_urls(tmp_path: Path) -> None:
    """``CrawlerProcess.crawl(..., start_urls=[...])`` runs (here: the refused
    port answers nothing, so robots.txt is deferred; the crawl is stopped by
    CLOSESPIDER_TIMEOUT)."""
    code = f"""
import sys
sys.path.insert(0, {str(PROJECT_ROOT)!r})
from scrapy.crawler import CrawlerProcess
from scrapy.utils.project import get_project_settings
settings = get_project_settings()
settings.set("CLOSESPIDER_TIMEOUT", 3)
settings.set("WEBROBOT_REPORT_ENABLED", False)
process = CrawlerProcess(settings)
crawler = process.create_crawler("webrobot")
process.crawl(crawler, start_urls=["http://127.0.0.1:9/", "http://127.0.0.1:9/b"])
process.start()
print("start_urls:", crawler.spider.start_urls, "error:", crawler.spider.config_error)
"""
    done = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, capture_output=True, text=True, timeout=90, check=False,
                          env={**os.environ, "SCRAPY_SETTINGS_MODULE": "webrobot.settings"})  # fmt: skip
    assert done.returncode == 0, done.stderr[-3000:]
    assert "start_urls: ['http://127.0.0.1:9/', 'http://127.0.0.1:9/b'] error: None" in done.stdout
    assert "AttributeError" not in done.stderr


assert (
    CrawlerProcess and get_project_settings
)  # imported for the subprocess's sake: fail early if moved
