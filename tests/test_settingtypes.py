"""Settings given as text (``-s``, Scrapyd's ``setting=``): checked against the
type of their defaults, reported in one line, and applied over site configs."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from scrapy.settings import Settings

from tests.crawling import scrapy_command
from webrobot import settings as project_settings
from webrobot.config import parse_site_config
from webrobot.settingtypes import setting_value_problem
from webrobot.spiderloader import SiteSpiderLoader


@pytest.mark.parametrize(
    ("value", "default"),
    [
        ("0.5", 1.0), ("0", 1.0), ("2", 0), (" 3 ", 0), ("1e3", 1.0),
        ("true", True), ("False", True), ("0", True), ("1", False),
        ("anything", "text"), ("a,b", []), ("x", None),
        (0.5, 1), (["already", "typed"], True),
    ],
)  # fmt: skip
def test_values_the_getters_accept(value: Any, default: Any) -> None:
    assert setting_value_problem(value, default) is None


@pytest.mark.parametrize(
    ("name", "good", "bad", "expected"),
    [
        ("WEBROBOT_SEEN_STORE", " Bloom ", "blom", "expected one of exact, bloom (default 'exact')"),
        ("WEBROBOT_CONTENT_STORE", "exact", "set", "expected one of exact, bloom"),
        ("WEBROBOT_FINGERPRINT", "text", "dom", "expected one of body, text"),
    ],
)
def test_settings_with_a_few_possible_words(name: str, good: str, bad: str, expected: str) -> None:
    default = getattr(project_settings, name)
    assert setting_value_problem(good, default, name) is None
    problem = setting_value_problem(bad, default, name)
    assert problem is not None and expected in problem


@pytest.mark.parametrize("name", ["DOWNLOAD_TIMEOUT", "DNS_TIMEOUT"])
def test_whole_number_defaults_that_scrapy_reads_as_floats(name: str) -> None:
    assert setting_value_problem("7.5", 30, name) is None
    assert setting_value_problem("7.5", 30, "DEPTH_LIMIT") == "expected a whole number (default 30)"


@pytest.mark.parametrize(
    ("value", "default", "expected"),
    [
        ("abc", 0, "expected a number (default 0)"),
        ("0,5", 1.0, "expected a number (default 1.0)"),
        ("", 30, "expected a number"),
        ("1.5", 0, "expected a whole number (default 0)"),
        ("1e3", 0, "expected a whole number"),
        ("yes", True, "expected true/false or 1/0 (default True)"),
        ("TRUE", False, "expected true/false or 1/0"),
        ("0.5", True, "expected true/false or 1/0"),
    ],
)
def test_values_the_getters_refuse(value: str, default: Any, expected: str) -> None:
    problem = setting_value_problem(value, default)
    assert problem is not None and expected in problem


@pytest.mark.parametrize("value", ["0.5", "abc", "yes", "true", "False", "1", "", "1e3", "0,5", "TRUE"])
@pytest.mark.parametrize("default", [True, 3, 2.5])
def test_agrees_with_scrapys_getters(value: str, default: Any) -> None:
    """What we refuse is exactly what the getter a component uses would raise on."""
    settings = Settings({"NAME": value})
    getter = {bool: settings.getbool, int: settings.getint, float: settings.getfloat}[type(default)]
    try:
        getter("NAME")
        parses = True
    except ValueError:
        parses = False
    assert (setting_value_problem(value, default) is None) == parses


def test_crawl_refuses_badly_typed_settings_in_one_line_each(tmp_path: Path) -> None:
    log = tmp_path / "job.log"
    done = scrapy_command(
        "crawl", "webrobot", "-a", "start_urls=http://127.0.0.1:9/",
        "-s", "DEPTH_LIMIT=abc", "-s", "LOG_ENABLED=maybe", "-s", "DOWNLOAD_TIMEOUT=7.5",
        "-s", "CONCURRENT_REQUESTS=2.5", "-s", "WEBROBOT_SEEN_STORE=blom",
        "-s", f"LOG_FILE={log}",
    )  # fmt: skip
    assert done.returncode == 2
    assert done.stderr.splitlines() == [
        "webrobot: setting DEPTH_LIMIT='abc': expected a number (default 0)",
        "webrobot: setting LOG_ENABLED='maybe': expected true/false or 1/0 (default True)",
        "webrobot: setting CONCURRENT_REQUESTS='2.5': expected a whole number (default 32)",
        "webrobot: setting WEBROBOT_SEEN_STORE='blom': expected one of exact, bloom (default 'exact')",
    ]
    text = log.read_text("utf-8")  # the job log under Scrapyd
    errors = [line for line in text.splitlines() if " ERROR: " in line]
    assert len(errors) == 4 and "webrobot cannot start: setting DEPTH_LIMIT='abc'" in errors[0]
    assert "Traceback" not in text and "Spider opened" not in text


def _settings_for(toml: str, **cmdline: str) -> Settings:
    config = parse_site_config(toml, "site.toml", "site")
    settings = Settings()
    settings.setmodule(project_settings, priority="project")
    settings.setdict(cmdline, priority="cmdline")
    SiteSpiderLoader.spider_for(config).update_settings(settings)
    return settings


CONFIG = 'start_urls = ["http://127.0.0.1:9/"]\ndownload_delay = 0\nconcurrency = 2\n'


def test_config_sets_the_slot_of_its_site() -> None:
    settings = _settings_for(CONFIG)
    assert settings.getfloat("DOWNLOAD_DELAY") == 0
    assert settings.getdict("DOWNLOAD_SLOTS")["http://127.0.0.1:9"] == {"delay": 0.0, "concurrency": 2}


def test_command_line_delay_beats_the_configs_slot() -> None:
    """A slot entry outranks DOWNLOAD_DELAY, so -s DOWNLOAD_DELAY=0.5 (Scrapyd's
    setting=) must keep the config's delay out of the slot to take effect."""
    settings = _settings_for(CONFIG, DOWNLOAD_DELAY="0.5")
    assert settings.getfloat("DOWNLOAD_DELAY") == 0.5
    assert settings.getdict("DOWNLOAD_SLOTS")["http://127.0.0.1:9"] == {"concurrency": 2}
    settings = _settings_for(CONFIG, DOWNLOAD_DELAY="0.5", CONCURRENT_REQUESTS_PER_DOMAIN="1")
    assert "http://127.0.0.1:9" not in settings.getdict("DOWNLOAD_SLOTS")
    assert settings.getint("CONCURRENT_REQUESTS_PER_DOMAIN") == 1


BAD_SETTINGS_CONFIG = 'start_urls = ["http://127.0.0.1:9/"]\n[settings]\nCONCURRENT_REQUESTS = "many"\n'
BAD_SETTINGS_ERROR = "key 'settings.CONCURRENT_REQUESTS': expected a number (default 32)"


def test_a_config_argument_with_a_badly_typed_setting_is_one_line(tmp_path: Path) -> None:
    """-a config=... (Scrapyd's config=): the job log says what is wrong, no traceback."""
    config, log = tmp_path / "site.toml", tmp_path / "job.log"
    config.write_text(BAD_SETTINGS_CONFIG, "utf-8")
    done = scrapy_command("crawl", "webrobot", "-a", f"config={config}", "-s", f"LOG_FILE={log}")
    assert done.returncode == 2
    text = log.read_text("utf-8")
    errors = [line for line in text.splitlines() if " ERROR: " in line]
    assert len(errors) == 1 and f"webrobot cannot start: {config}: {BAD_SETTINGS_ERROR}" in errors[0]
    assert "Traceback" not in text + done.stderr


def test_a_site_with_a_badly_typed_setting_is_a_broken_config(tmp_path: Path) -> None:
    (tmp_path / "typo_site.toml").write_text(BAD_SETTINGS_CONFIG, "utf-8")
    done = scrapy_command("crawl", "typo_site", "-s", f"WEBROBOT_SITES_DIRS={tmp_path}")
    assert done.returncode == 2
    assert f"typo_site.toml: {BAD_SETTINGS_ERROR}" in done.stderr
    assert "Traceback" not in done.stderr
