"""Settings given as text (``-s``, Scrapyd's ``setting=``): checked against the
type of their defaults and reported in one line."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from scrapy.settings import Settings

from tests.crawling import scrapy_command
from webrobot.settingtypes import setting_value_problem


@pytest.mark.parametrize(
    ("value", "default"),
    [
        ("0.5", 1.0), ("0", 1.0), ("2", 0), ("7.5", 30), (" 3 ", 0), ("1e3", 0),
        ("true", True), ("False", True), ("0", True), ("1", False),
        ("anything", "text"), ("a,b", []), ("x", None),
        (0.5, 1), (["already", "typed"], True),
    ],
)  # fmt: skip
def test_values_the_getters_accept(value: Any, default: Any) -> None:
    assert setting_value_problem(value, default) is None


@pytest.mark.parametrize(
    ("value", "default", "expected"),
    [
        ("abc", 0, "expected a number (default 0)"),
        ("0,5", 1.0, "expected a number (default 1.0)"),
        ("", 30, "expected a number"),
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
    getter = settings.getbool if isinstance(default, bool) else settings.getfloat
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
        "-s", f"LOG_FILE={log}",
    )  # fmt: skip
    assert done.returncode == 2
    assert done.stderr.splitlines() == [
        "webrobot: setting DEPTH_LIMIT='abc': expected a number (default 0)",
        "webrobot: setting LOG_ENABLED='maybe': expected true/false or 1/0 (default True)",
    ]
    text = log.read_text("utf-8")  # the job log under Scrapyd
    errors = [line for line in text.splitlines() if " ERROR: " in line]
    assert len(errors) == 2 and "webrobot cannot start: setting DEPTH_LIMIT='abc'" in errors[0]
    assert "Traceback" not in text and "Spider opened" not in text
