"""The settings model: every setting declared once, values checked in one place
(text from ``-s`` and Scrapyd's ``setting=`` as Scrapy's getters parse it), one
error naming the setting, the value and what was expected, and the reference
page generated from it."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from scrapy.settings import Settings

from scripts.settings_reference import markdown, scrapy_changes
from tests.crawling import scrapy_command
from webrobot import settings as project_settings
from webrobot.settingsmodel.checks import check, text_problem, value_problem
from webrobot.settingsmodel.model import (
    BY_NAME,
    COMPONENTS,
    REPLACED,
    SCRAPY_IGNORED_EXTENSIONS,
    SETTINGS,
)
from webrobot.settingsmodel.parse import SettingValueError, defaults, read
from webrobot.sites.config import parse_site_config
from webrobot.spiders.loader import SiteSpiderLoader

ROOT = Path(__file__).resolve().parent.parent
REFERENCE = ROOT / "docs" / "reference" / "settings.md"


def problem_text(value: Any, default: Any, name: str = "SOME_SCRAPY_SETTING") -> str | None:
    problem = text_problem(name, value, default)
    return None if problem is None else str(problem)


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
    assert problem_text(value, default) is None


@pytest.mark.parametrize(
    ("name", "good", "bad", "expected"),
    [
        (
            "WEBROBOT_SEEN_STORE",
            " Bloom ",
            "blom",
            "expected one of exact, bloom (default 'exact')",
        ),
        ("WEBROBOT_CONTENT_STORE", "exact", "set", "expected one of exact, bloom"),
        ("WEBROBOT_FINGERPRINT", "text", "dom", "expected one of body, text"),
    ],
)
def test_settings_with_a_few_possible_words(name: str, good: str, bad: str, expected: str) -> None:
    assert problem_text(good, None, name) is None
    problem = problem_text(bad, None, name)
    assert problem is not None and expected in problem


@pytest.mark.parametrize("name", ["DOWNLOAD_TIMEOUT", "DNS_TIMEOUT"])
def test_whole_number_defaults_that_scrapy_reads_as_floats(name: str) -> None:
    assert problem_text("7.5", 30, name) is None
    assert (
        problem_text("7.5", 30, "DEPTH_LIMIT")
        == "setting DEPTH_LIMIT='7.5': expected a whole number >= 0 (default 0)"
    )


@pytest.mark.parametrize(
    ("value", "default", "expected"),
    [
        ("abc", 0, "expected a whole number (default 0)"),
        ("0,5", 1.0, "expected a number (default 1.0)"),
        ("", 30, "expected a whole number"),
        ("1.5", 0, "expected a whole number (default 0)"),
        ("1e3", 0, "expected a whole number"),
        ("yes", True, "expected true/false or 1/0 (default True)"),
        ("TRUE", False, "expected true/false or 1/0"),
        ("0.5", True, "expected true/false or 1/0"),
    ],
)
def test_values_the_getters_refuse(value: str, default: Any, expected: str) -> None:
    problem = problem_text(value, default)
    assert problem is not None and expected in problem


@pytest.mark.parametrize(
    "value", ["0.5", "abc", "yes", "true", "False", "1", "", "1e3", "0,5", "TRUE"]
)
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
    assert (problem_text(value, default) is None) == parses


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
        "webrobot: setting DEPTH_LIMIT='abc': expected a whole number >= 0 (default 0)",
        "webrobot: setting LOG_ENABLED='maybe': expected true/false or 1/0 (default True)",
        "webrobot: setting CONCURRENT_REQUESTS='2.5': expected a whole number >= 1 (default 32)",
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
    assert settings.getdict("DOWNLOAD_SLOTS")["127.0.0.1:9"] == {
        "delay": 0.0,
        "concurrency": 2,
    }


def test_command_line_delay_beats_the_configs_slot() -> None:
    """A slot entry outranks DOWNLOAD_DELAY, so -s DOWNLOAD_DELAY=0.5 (Scrapyd's
    setting=) must keep the config's delay out of the slot to take effect."""
    settings = _settings_for(CONFIG, DOWNLOAD_DELAY="0.5")
    assert settings.getfloat("DOWNLOAD_DELAY") == 0.5
    assert settings.getdict("DOWNLOAD_SLOTS")["127.0.0.1:9"] == {"concurrency": 2}
    settings = _settings_for(CONFIG, DOWNLOAD_DELAY="0.5", CONCURRENT_REQUESTS_PER_DOMAIN="1")
    assert "127.0.0.1:9" not in settings.getdict("DOWNLOAD_SLOTS")
    assert settings.getint("CONCURRENT_REQUESTS_PER_DOMAIN") == 1


BAD_SETTINGS_CONFIG = (
    'start_urls = ["http://127.0.0.1:9/"]\n[settings]\nCONCURRENT_REQUESTS = "many"\n'
)
BAD_SETTINGS_ERROR = "key 'settings.CONCURRENT_REQUESTS': expected a whole number >= 1 (default 32)"


def test_a_config_argument_with_a_badly_typed_setting_is_one_line(tmp_path: Path) -> None:
    """-a config=... (Scrapyd's config=): the job log says what is wrong, no traceback."""
    config, log = tmp_path / "site.toml", tmp_path / "job.log"
    config.write_text(BAD_SETTINGS_CONFIG, "utf-8")
    done = scrapy_command(
        "crawl", "webrobot", "-a", f"config={config}", "-s", f"LOG_FILE={log}", cwd=tmp_path
    )
    assert done.returncode == 2
    text = log.read_text("utf-8")
    errors = [line for line in text.splitlines() if " ERROR: " in line]
    assert (
        len(errors) == 1 and f"webrobot cannot start: {config}: {BAD_SETTINGS_ERROR}" in errors[0]
    )
    assert "Traceback" not in text + done.stderr


def test_a_site_with_a_badly_typed_setting_is_a_broken_config(tmp_path: Path) -> None:
    (tmp_path / "typo_site.toml").write_text(BAD_SETTINGS_CONFIG, "utf-8")
    done = scrapy_command(
        "crawl", "typo_site", "-s", f"WEBROBOT_SITES_DIRS={tmp_path}", cwd=tmp_path
    )
    assert done.returncode == 2
    assert f"typo_site.toml: {BAD_SETTINGS_ERROR}" in done.stderr
    assert "Traceback" not in done.stderr


# -- the model itself ------------------------------------------------------------


def test_every_setting_is_declared_once_with_a_type_and_a_doc() -> None:
    names = [s.name for s in SETTINGS]
    assert len(names) == len(set(names))
    for setting in SETTINGS:
        assert setting.doc and setting.section, setting.name
        assert read({}, setting.name) == setting.default or setting.scrapy, setting.name
        assert (
            check(lambda name, s=setting: s.default if name == s.name else None, [setting.name])
            == []
        )


def test_the_project_settings_module_declares_no_webrobot_setting() -> None:
    """webrobot's settings live in the model; settings.py is the project's own plus the add-on."""
    declared = {name for name in vars(project_settings) if name.isupper()} & set(BY_NAME)
    assert declared == set()
    assert project_settings.ADDONS["webrobot.Addon"] == 0


@pytest.mark.parametrize(
    ("name", "value", "typed"),
    [
        ("WEBROBOT_ROBOTS_TTL", "7.5", 7.5),
        ("WEBROBOT_MAX_PAGES_PER_SITE", "3", 3),
        ("WEBROBOT_MAX_PAGES_PER_SITE", 4.0, 4),
        ("WEBROBOT_DUPES_ENABLED", "false", False),
        ("WEBROBOT_DUPES_ENABLED", "1", True),
        ("WEBROBOT_FINGERPRINT", " Text ", "text"),
        ("WEBROBOT_FINGERPRINT", "", "body"),
        ("WEBROBOT_SITES_DIRS", "a,b", ["a", "b"]),
        ("WEBROBOT_BLOCKLIST", "/etc/blocklist.txt", "/etc/blocklist.txt"),
        ("DEFAULT_REQUEST_HEADERS", '{"A": "b"}', {"A": "b"}),
        ("WEBROBOT_ROBOTS_TTL", None, 86400.0),
        ("ROBOTSTXT_USER_AGENT", None, None),  # Scrapy's meaning: use USER_AGENT
    ],
)
def test_read_gives_typed_values(name: str, value: Any, typed: Any) -> None:
    assert read({name: value}, name) == typed


@pytest.mark.parametrize(
    ("name", "value", "message"),
    [
        (
            "WEBROBOT_ROBOTS_TTL",
            "soon",
            "setting WEBROBOT_ROBOTS_TTL='soon': expected a number >= 0 (default 86400.0)",
        ),
        (
            "WEBROBOT_ROBOTS_TTL",
            -1,
            "setting WEBROBOT_ROBOTS_TTL=-1: expected a number >= 0 (default 86400.0)",
        ),
        ("WEBROBOT_MAX_PAGES_PER_SITE", 1.5, "expected a whole number >= 0 (default 0)"),
        ("WEBROBOT_DUPES_ENABLED", "yes", "expected true/false or 1/0 (default True)"),
        ("WEBROBOT_SEEN_STORE", "blom", "expected one of exact, bloom (default 'exact')"),
        ("DEFAULT_REQUEST_HEADERS", "{not json", "expected a dict (or a JSON object)"),
        ("WEBROBOT_POLITENESS_CLASS", "", "expected an import path of a class"),
        (
            "WEBROBOT_REDIS_URL",
            "localhost:6379",
            "expected empty, or text starting with redis:// or rediss:// or unix://",
        ),
    ],
)
def test_one_error_names_setting_value_and_expectation(name: str, value: Any, message: str) -> None:
    with pytest.raises(SettingValueError) as caught:
        read({name: value}, name)
    assert message in str(caught.value)
    assert (caught.value.name, caught.value.value) == (name, value)
    assert [str(p) for p in check({name: value}.get)] == [str(caught.value)]


def test_the_old_matching_knob_is_refused_with_what_to_set_instead() -> None:
    [problem] = check({"WEBROBOT_ROBOTS_MATCHING": "first-match"}.get)
    assert "ROBOTSTXT_PARSER" in str(problem) and "FirstMatchRobotParser" in str(problem)


def test_defaults_are_fresh_copies() -> None:
    first = defaults()
    first["RETRY_HTTP_CODES"].append(999)
    assert 999 not in defaults()["RETRY_HTTP_CODES"]


def test_reference_page_matches_the_model() -> None:
    """Regenerate with: make settings-reference (scripts/settings_reference.py)."""
    assert REFERENCE.read_text("utf-8") == markdown()
    for setting in SETTINGS:
        assert f"| `{setting.name}`" in markdown()


def _scrapy_defaults() -> dict[str, Any]:
    from scrapy.settings import default_settings

    return {
        name: getattr(default_settings, name) for name in dir(default_settings) if name.isupper()
    }


def test_every_scrapy_default_the_addon_changes_is_marked_and_says_why() -> None:
    import scrapy as installed

    scrapy = _scrapy_defaults()
    # An older supported Scrapy (the floor) lacks the settings newer releases added.
    pinned = f"scrapy=={installed.__version__}\n" in (ROOT / "requirements.txt").read_text("utf-8")
    for setting in SETTINGS:
        if setting.name in scrapy:
            assert setting.scrapy, f"{setting.name} is Scrapy's: declare it with scrapy=True"
            if scrapy[setting.name] != setting.default:
                assert setting.why, f"{setting.name}: say why webrobot changes Scrapy's default"
        elif pinned:
            assert not setting.scrapy, f"{setting.name} is no Scrapy setting"
    disabled = {
        path for group in COMPONENTS.values() for path, c in group.items() if c.order is None
    }
    assert disabled == set(REPLACED), "say why each Scrapy component is switched off"


def test_the_addon_page_lists_every_scrapy_default_it_changes() -> None:
    """Regenerate with: make settings-reference (scripts/settings_reference.py)."""
    import scrapy

    pinned = (ROOT / "requirements.txt").read_text("utf-8")
    if f"scrapy=={scrapy.__version__}\n" not in pinned:
        pytest.skip(f"the page is written from the pinned Scrapy, not {scrapy.__version__}")
    page = (ROOT / "docs" / "addon.md").read_text("utf-8")
    table = scrapy_changes(_scrapy_defaults())
    assert table in page
    for name in ("COOKIES_ENABLED", "DOWNLOAD_TIMEOUT", "DOWNLOAD_MAXSIZE", "REDIRECT_MAX_TIMES",
                 "USER_AGENT", "AUTOTHROTTLE_ENABLED", "CONCURRENT_REQUESTS_PER_DOMAIN",
                 "SCHEDULER_MEMORY_QUEUE"):  # fmt: skip
        assert f"| `{name}` | " in table
    assert "| `DEPTH_LIMIT` | " not in table  # Scrapy's default too


def test_reference_page_is_what_the_command_prints() -> None:
    done = subprocess.run(
        [sys.executable, "scripts/settings_reference.py", "-"],
        capture_output=True,
        text=True,
        check=True,
        cwd=ROOT,
    )
    assert done.stdout == markdown()


def test_the_model_imports_no_scrapy() -> None:
    code = "import sys, webrobot.settingsmodel.model; print('scrapy' in sys.modules or 'twisted' in sys.modules)"
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT
    )
    assert done.stdout.strip() == "False"


def test_the_ignored_extensions_are_scrapys_plus_saved_pages() -> None:
    """The model keeps a copy of Scrapy's list (it imports no Scrapy): it must not drift."""
    from scrapy.linkextractors import IGNORED_EXTENSIONS

    assert list(SCRAPY_IGNORED_EXTENSIONS) == IGNORED_EXTENSIONS
    assert read({}, "WEBROBOT_IGNORED_EXTENSIONS") == [*IGNORED_EXTENSIONS, "mht", "mhtml"]


@pytest.mark.parametrize(
    ("name", "value", "default", "expected"),
    [
        ("DEPTH_LIMIT", [1, 2], 0, "expected a whole number"),
        ("DOWNLOAD_DELAY", {"a": 1}, 1.0, "expected a number"),
        ("ROBOTSTXT_OBEY", {"x": 1}, True, "expected true/false"),
        ("WEBROBOT_IGNORED_EXTENSIONS", 3, [], "expected a list"),
        ("CLOSESPIDER_TIMEOUT", [1], 0, "expected a number"),  # not declared: judged by its default
        ("LOG_ENABLED", "maybe", True, "expected true/false"),
        ("FEEDS", 3, {}, "expected a dict"),
    ],
)
def test_typed_values_of_another_kind_are_refused(
    name: str, value: Any, default: Any, expected: str
) -> None:
    problem = value_problem(name, value, default)
    assert problem is not None and expected in str(problem)


@pytest.mark.parametrize(
    ("name", "value", "default"),
    [("DEPTH_LIMIT", 3, 0), ("DOWNLOAD_DELAY", 2, 1.0), ("WEBROBOT_IGNORED_EXTENSIONS", ["pdf"], []),
     ("CLOSESPIDER_TIMEOUT", 2.5, 0), ("LOG_ENABLED", False, True), ("FEEDS", {"a.jl": {}}, {}),
     ("SOMETHING_NEW", [1, {"a": 2}], None)],
)  # fmt: skip
def test_typed_values_of_the_right_kind_pass(name: str, value: Any, default: Any) -> None:
    assert value_problem(name, value, default) is None


def test_a_list_setting_takes_a_json_array_as_text() -> None:
    assert read(
        {"WEBROBOT_BLOCKED_NETWORKS": '["10.0.0.0/8", "127.0.0.2"]'}, "WEBROBOT_BLOCKED_NETWORKS"
    ) == [
        "10.0.0.0/8",
        "127.0.0.2",
    ]
    assert read(
        {"WEBROBOT_BLOCKED_NETWORKS": "10.0.0.0/8,127.0.0.2"}, "WEBROBOT_BLOCKED_NETWORKS"
    ) == [
        "10.0.0.0/8",
        "127.0.0.2",
    ]
    with pytest.raises(SettingValueError, match="JSON array"):
        read({"WEBROBOT_BLOCKED_NETWORKS": '["10.0.0.0/8"'}, "WEBROBOT_BLOCKED_NETWORKS")


@pytest.mark.parametrize(
    "url", ["", "redis://127.0.0.1:6379/0", "rediss://h:1/0", "unix:///tmp/r.sock"]
)
def test_redis_urls_with_a_scheme_are_taken(url: str) -> None:
    assert read({"WEBROBOT_REDIS_URL": url}, "WEBROBOT_REDIS_URL") == url


@pytest.mark.parametrize(
    ("names", "expected"),
    [
        (
            ["WEBROBOT_MAX_PAGE_PER_SITE"],
            [("WEBROBOT_MAX_PAGE_PER_SITE", "WEBROBOT_MAX_PAGES_PER_SITE")],
        ),
        (["WEBROBOT_ROBOTS_DEFERMAX"], [("WEBROBOT_ROBOTS_DEFERMAX", "WEBROBOT_ROBOTS_DEFER_MAX")]),
        (
            ["WEBROBOT_PROGRES_INTERVAL"],
            [("WEBROBOT_PROGRES_INTERVAL", "WEBROBOT_PROGRESS_INTERVAL")],
        ),
        (["WEBROBOT_FOO"], [("WEBROBOT_FOO", None)]),  # the shared prefix alone is not close
        (["WEBROBOT_MAX_PAGES_PER_SITE", "DEPTH_LIMIT", "MY_SETTING"], []),
        (["WEBROBOT_ROBOTS_MATCHING"], []),  # removed: refused with its own message
    ],
)
def test_unknown_webrobot_settings_name_the_closest_declared_one(
    names: list[str], expected: list[tuple[str, str | None]]
) -> None:
    from webrobot.settingsmodel.checks import unknown_settings

    assert unknown_settings(names) == expected


def test_the_addon_warns_once_per_unknown_setting(caplog: pytest.LogCaptureFixture) -> None:
    from webrobot import addon

    # Names no other test uses: the add-on warns once per process.
    settings = Settings({"WEBROBOT_STORE_BODYY": 3, "WEBROBOT_ZZZ_TEST_ONLY": 1})
    with caplog.at_level("WARNING", logger="webrobot.addon"):
        first = addon.warn_unknown(settings)
        again = addon.warn_unknown(settings)
    assert sorted(first) == [
        "unknown setting WEBROBOT_STORE_BODYY is ignored (did you mean WEBROBOT_STORE_BODY?)",
        "unknown setting WEBROBOT_ZZZ_TEST_ONLY is ignored (see the settings reference)",
    ]
    assert again == []
    messages = [r.getMessage() for r in caplog.records]
    assert sorted(messages) == sorted(first)


@pytest.mark.parametrize(
    ("names", "expected"),
    [
        (["DOWNLOAD_DELY"], [("DOWNLOAD_DELY", "DOWNLOAD_DELAY")]),
        (
            ["DEPTH_LIMT", "ITEM_PIPELINE"],
            [("DEPTH_LIMT", "DEPTH_LIMIT"), ("ITEM_PIPELINE", "ITEM_PIPELINES")],
        ),
        # A project's own settings are like no known one: never named.
        (["MONGO_URI", "API_KEY", "DATABASE_URL", "MY_SETTING"], []),
        (["DOWNLOAD_DELAY", "JOBDIR", "WEBROBOT_EXTRACT"], []),  # known
        (["WEBROBOT_EXTRCT"], []),  # webrobot's own prefix: unknown_settings says it
        (["download_dely"], []),  # not a setting's shape
    ],
)
def test_a_misspelt_scrapy_setting_names_the_one_meant(
    names: list[str], expected: list[tuple[str, str]]
) -> None:
    from webrobot.settingsmodel.checks import misspelt_settings
    from webrobot.settingsmodel.startup import scrapy_setting_names

    assert misspelt_settings(names, scrapy_setting_names()) == expected


def test_the_addon_warns_about_a_misspelt_scrapy_setting(caplog: pytest.LogCaptureFixture) -> None:
    from webrobot import addon

    settings = Settings({"CONCURRENT_REQUEST": 3, "MONGO_URI": "mongodb://x"})
    with caplog.at_level("WARNING", logger="webrobot.addon"):
        said = addon.warn_unknown(settings)
    assert said == ["CONCURRENT_REQUEST is not a setting; did you mean CONCURRENT_REQUESTS?"]
