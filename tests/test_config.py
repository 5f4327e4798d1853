from __future__ import annotations

from pathlib import Path

import pytest

from webrobot.sites.config import (
    ConfigError,
    load_site_config,
    parse_site_config,
    parse_start_urls_argument,
)

GOOD = """
start_urls = ["https://example.com/", "http://example.com:8080/a"]
allowed_domains = ["Example.com"]
allow = ["^https?://example\\\\.com/"]
deny = ["/login"]
depth_limit = 3
max_pages = 10
download_delay = 1.5
concurrency = 2
user_agent = "mybot/1.0"
from = "ops@example.com"
[settings]
RETRY_TIMES = 5
"""


def test_good_config_round_trip() -> None:
    config = parse_site_config(GOOD, "sites/x.toml", "x")
    assert config.start_urls == ("https://example.com/", "http://example.com:8080/a")
    assert config.allowed_domains == ("example.com",)
    assert config.depth_limit == 3 and config.max_pages == 10
    assert config.download_delay == 1.5 and config.concurrency == 2
    assert config.from_ == "ops@example.com"
    settings = config.scrapy_settings()
    assert settings == {
        "DEPTH_LIMIT": 3,
        "WEBROBOT_MAX_PAGES_PER_SITE": 10,
        "DOWNLOAD_DELAY": 1.5,
        "CONCURRENT_REQUESTS_PER_DOMAIN": 2,
        "USER_AGENT": "mybot/1.0",
        "WEBROBOT_FROM": "ops@example.com",
        "RETRY_TIMES": 5,
    }


def test_integer_delay_is_accepted_as_float() -> None:
    config = parse_site_config('start_urls = ["http://a/"]\ndownload_delay = 2', "f.toml", "f")
    assert config.download_delay == 2.0


@pytest.mark.parametrize(
    ("text", "key", "fragment"),
    [
        ('start_urls = ["http://a/"]\nstart_url = 1', "start_url", "unknown key"),
        ("depth_limit = 1", "start_urls", "required"),
        ('start_urls = "http://a/"', "start_urls", "list of strings"),
        ("start_urls = []", "start_urls", "at least one URL"),
        ('start_urls = ["ftp://a/"]', "start_urls", "http:// or https://"),
        ('start_urls = ["/relative"]', "start_urls", "http:// or https://"),
        ('start_urls = ["http://a:99999/"]', "start_urls", "http(s) URL"),
        (
            'start_urls = ["http://a/"]\nallowed_domains = ["http://a/"]',
            "allowed_domains",
            "bare domain",
        ),
        ('start_urls = ["http://a/"]\ndeny = ["("]', "deny", "regular expression"),
        ('start_urls = ["http://a/"]\nallow = [1]', "allow", "list of strings"),
        (
            'start_urls = ["http://a/"]\nindex_pages = "index.html"',
            "index_pages",
            "list of strings",
        ),
        ('start_urls = ["http://a/"]\nindex_pages = ["a/index.html"]', "index_pages", "file names"),
        ('start_urls = ["http://a/"]\nindex_pages = [""]', "index_pages", "file names"),
        ('start_urls = ["http://a/"]\nstrip_params = [3]', "strip_params", "list of strings"),
        ('start_urls = ["http://a/"]\nstrip_params = ["a=b"]', "strip_params", "parameter names"),
        ('start_urls = ["http://a/"]\nstrip_params = ["*"]', "strip_params", "parameter names"),
        ('start_urls = ["http://a/"]\ndepth_limit = -1', "depth_limit", ">= 0"),
        ('start_urls = ["http://a/"]\ndepth_limit = "3"', "depth_limit", ">= 0"),
        ('start_urls = ["http://a/"]\nmax_pages = true', "max_pages", ">= 0"),
        ('start_urls = ["http://a/"]\ndownload_delay = -0.5', "download_delay", ">= 0"),
        ('start_urls = ["http://a/"]\nconcurrency = 0', "concurrency", ">= 1"),
        ('start_urls = ["http://a/"]\nuser_agent = ""', "user_agent", "non-empty"),
        ('start_urls = ["http://a/"]\nfrom = "a\\nb"', "from", "one-line"),
        ('start_urls = ["http://a/"]\nsettings = 3', "settings", "table"),
        (
            'start_urls = ["http://a/"]\n[settings]\ndownload_delay = 3',
            "settings.download_delay",
            "upper-case",
        ),
        ('start_urls = ["http://a/"]\ntemplates = 3', "templates", "list of tables"),
        (
            'start_urls = ["http://a/"]\n[[priorities]]\nmatch = "x"',
            "priorities[0].rank",
            "missing",
        ),
        (
            'start_urls = ["http://a/"]\n[[priorities]]\nmatch = "x"\nrank = 1.5',
            "priorities[0].rank",
            "whole number",
        ),
        ('start_urls = ["http://a/"]\nsitemaps = ["/s.xml"]', "sitemaps", "http:// or https://"),
        (
            'start_urls = ["http://a/"]\n[[templates]]\nmax_chain = 3',
            "templates[0].match",
            "missing",
        ),
        (
            'start_urls = ["http://a/"]\n[[templates]]\nmatch = "("',
            "templates[0].match",
            "regular expression",
        ),
        (
            'start_urls = ["http://a/"]\n[[templates]]\nmatch = "x"\nmax_chain = -1',
            "templates[0].max_chain",
            ">= 0",
        ),
        (
            'start_urls = ["http://a/"]\n[[templates]]\nmatch = "x"\nchain = 1',
            "templates[0].chain",
            "unknown key",
        ),
        ('start_urls = ["http://a/"]\nextract = ["txt"]', "extract", "unknown part 'txt'"),
        ('start_urls = ["http://a/"]\nextract = "text"', "extract", "list of strings"),
        ('start_urls = ["http://a/"]\nfields = 3', "fields", "table of fields"),
        (
            'start_urls = ["http://a/"]\n[fields]\nprice = { css = "p[" }',
            "fields.price",
            "CSS selector",
        ),
        (
            'start_urls = ["http://a/"]\n[fields]\nd = { xpath = "//", processors = ["date"] }',
            "fields.d",
            "not a usable selector",
        ),
        (
            'start_urls = ["http://a/"]\n[fields]\np = { jsonld = "P.x", processors = ["up"] }',
            "fields.p",
            "unknown processor 'up'",
        ),
    ],
)
def test_every_error_names_file_key_and_expectation(text: str, key: str, fragment: str) -> None:
    with pytest.raises(ConfigError) as info:
        parse_site_config(text, "sites/bad.toml", "bad")
    error = info.value
    assert error.source == "sites/bad.toml"
    assert error.key == key
    assert fragment in str(error)
    assert str(error).startswith(f"sites/bad.toml: key '{key}': ")


def test_invalid_toml_names_the_file() -> None:
    with pytest.raises(ConfigError, match=r"^sites/bad.toml: not valid TOML"):
        parse_site_config("start_urls = [", "sites/bad.toml", "bad")


def test_file_name_must_make_a_spider_name() -> None:
    with pytest.raises(ConfigError, match="spider name"):
        parse_site_config('start_urls = ["http://a/"]', "sites/my-site.toml", "my-site")


def test_load_from_disk_errors(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="cannot be read"):
        load_site_config(tmp_path / "missing.toml")
    binary = tmp_path / "binary.toml"
    binary.write_bytes(b"\xff\xfe\x00start_urls")
    with pytest.raises(ConfigError, match="UTF-8"):
        load_site_config(binary)
    good = tmp_path / "good_site.toml"
    good.write_text('start_urls = ["http://127.0.0.1:1/"]', "utf-8")
    assert load_site_config(good).name == "good_site"


def test_start_urls_argument() -> None:
    assert parse_start_urls_argument(" http://a/ ,https://b/x") == ("http://a/", "https://b/x")
    with pytest.raises(ConfigError, match="start_urls"):
        parse_start_urls_argument(" , ")
    with pytest.raises(ConfigError, match="'mailto:x@y'"):
        parse_start_urls_argument("http://a/,mailto:x@y")


def test_alias_rule_keys() -> None:
    config = parse_site_config(
        'start_urls = ["http://a/"]\nindex_pages = ["index.html", "default.aspx"]\n'
        'strip_params = ["sessionid", "utm_*"]',
        "sites/a.toml", "a",
    )  # fmt: skip
    assert config.index_pages == ("index.html", "default.aspx")
    assert config.strip_params == ("sessionid", "utm_*")
    assert config.scrapy_settings() == {}, "alias rules are read from the config, not settings"
    bare = parse_site_config('start_urls = ["http://a/"]', "sites/a.toml", "a")
    assert bare.index_pages == () and bare.strip_params == ()


def test_template_overrides() -> None:
    config = parse_site_config(
        'start_urls = ["http://a/"]\n[[templates]]\nmatch = "^/cal/"\nmax_chain = 5\n'
        '[[templates]]\nmatch = "page="\nmax_pages = 0\n', "x.toml", "x",
    )  # fmt: skip
    assert [(t.pattern, t.max_chain, t.max_pages) for t in config.templates] == [
        ("^/cal/", 5, None),
        ("page=", None, 0),
    ]


def test_extract_and_fields_become_the_mining_settings() -> None:
    config = parse_site_config(
        'start_urls = ["http://a/"]\nextract = ["text", "fields"]\n'
        '[fields]\ntitle = { css = "h1::text", processors = ["strip", "first"] }\nsku = "span.sku::text"\n',
        "f.toml", "f",
    )  # fmt: skip
    settings = config.scrapy_settings()
    assert settings["WEBROBOT_EXTRACT"] == ["text", "fields"]
    assert settings["WEBROBOT_FIELDS"] == {
        "title": {"css": "h1::text", "processors": ["strip", "first"]},
        "sku": "span.sku::text",
    }
    plain = parse_site_config('start_urls = ["http://a/"]', "f.toml", "f").scrapy_settings()
    assert "WEBROBOT_EXTRACT" not in plain and "WEBROBOT_FIELDS" not in plain


def test_every_error_of_a_config_is_reported_one_line_each() -> None:
    from webrobot.settingsmodel.parse import ConfigErrors, error_lines

    text = 'start_urls = ["ftp://x/"]\nmax_depth = 2\ndownload_delay = "soon"\n'
    with pytest.raises(ConfigErrors) as caught:
        parse_site_config(text, "site.toml", "site")
    lines = error_lines(caught.value)
    assert [line.split(": ", 2)[1] for line in lines] == [
        "key 'max_depth'",
        "key 'start_urls'",
        "key 'download_delay'",
    ]
    assert all(line.startswith("site.toml: key '") and "\n" not in line for line in lines)
    assert isinstance(caught.value, ConfigError) and caught.value.key == "max_depth"


def test_one_error_is_a_plain_config_error() -> None:
    with pytest.raises(ConfigError) as caught:
        parse_site_config('start_urls = ["http://a.test/"]\nmax_depth = 2\n', "s.toml", "s")
    assert type(caught.value) is ConfigError


def test_watch_rules_and_monitor_ignores_become_the_monitor_settings(tmp_path: Path) -> None:
    (tmp_path / "protected").mkdir()
    (tmp_path / "protected" / "keeper.txt").write_text("The keeper lit the lamp at dusk.")
    path = tmp_path / "shop.toml"
    path.write_text(
        'start_urls = ["http://a/"]\nmonitor_dir = "w"\n'
        'monitor_ignore_selectors = [".clock", "aside.ad"]\nmonitor_ignore_patterns = ["^Updated"]\n'
        'monitor_ignore_fields = ["price"]\n'
        '[[watch.rule]]\nname = "brand"\nterms = ["Acme Widget"]\n'
        '[[watch.rule]]\nname = "articles"\ntexts = ["protected/keeper.txt"]\n'
    )  # fmt: skip
    settings = load_site_config(path).scrapy_settings()
    assert settings["WEBROBOT_MONITOR_IGNORE_SELECTORS"] == [".clock", "aside.ad"]
    assert settings["WEBROBOT_MONITOR_IGNORE_PATTERNS"] == ["^Updated"]
    assert settings["WEBROBOT_MONITOR_IGNORE_FIELDS"] == ["price"]
    keeper = str((tmp_path / "protected" / "keeper.txt").absolute())
    assert settings["WEBROBOT_WATCH_RULES"] == [
        {"name": "brand", "terms": ["Acme Widget"]},
        {"name": "articles", "texts": [keeper]},
    ]
    plain = parse_site_config('start_urls = ["http://a/"]', "f.toml", "f").scrapy_settings()
    assert not {k for k in plain if k.startswith(("WEBROBOT_WATCH", "WEBROBOT_MONITOR_IGNORE"))}


def test_the_monitor_reads_a_site_configs_rules_beside_the_rules_file(tmp_path: Path) -> None:
    from webrobot.monitor.rules import parse_rule_tables

    (tmp_path / "keeper.txt").write_text("The keeper lit the lamp at dusk.")
    (tmp_path / "site.toml").write_text(
        'start_urls = ["http://a/"]\n[[watch.rule]]\nname = "a"\ntexts = ["keeper.txt"]\n'
    )
    tables = load_site_config(tmp_path / "site.toml").scrapy_settings()["WEBROBOT_WATCH_RULES"]
    # The setting's paths are absolute: the monitor finds the file from anywhere.
    (rule,) = parse_rule_tables(tables, "WEBROBOT_WATCH_RULES", Path("/"))
    assert rule.name == "a" and rule.texts[0].shingles


@pytest.mark.parametrize(
    ("body", "key", "expected"),
    [
        ('[[watch.rule]]\nname = "brand"\ncolour = "red"\n', "watch.rule 'brand'.colour",
         "unknown key; expected name, terms, texts, images"),
        ('[[watch.rule]]\nname = "brand"\n', "watch.rule 'brand'",
         "expected one or more of terms, texts, images"),
        ('[[watch.rule]]\nname = "brand"\ntexts = ["missing.txt"]\n', "watch.rule 'brand'.texts",
         "missing.txt cannot be read"),
        ('[[watch.rule]]\nname = "a"\nterms = ["x"]\n[[watch.rule]]\nname = "a"\nterms = ["y"]\n',
         "watch.rule 'a'", "a second rule of that name"),
        ('[watch]\nrules = []\n', "watch.rules", "unknown key; expected [[watch.rule]]"),
        ('watch = "yes"\n', "watch", "expected a table of [[watch.rule]] tables"),
        ('monitor_ignore_selectors = ["div["]\n', "monitor_ignore_selectors",
         "expected CSS selectors, got 'div['"),
        ('monitor_ignore_patterns = ["(unclosed"]\n', "monitor_ignore_patterns",
         "expected valid regular expressions"),
    ],
)  # fmt: skip
def test_a_bad_watch_rule_or_ignore_is_one_line_naming_the_file_and_the_rule(
    tmp_path: Path, body: str, key: str, expected: str
) -> None:
    path = tmp_path / "site.toml"
    start = 'start_urls = ["http://a/"]\n'
    # Top-level keys go before any table.
    text = start + body if body.startswith("[") else body + start
    path.write_text(text)
    with pytest.raises(ConfigError) as caught:
        load_site_config(path)
    line = str(caught.value)
    assert "\n" not in line
    assert line.startswith(f"{path}: key '{key}': ")
    assert expected in line


@pytest.mark.parametrize(
    ("key", "said"),
    [
        ("max_page", "unknown key; did you mean max_pages?"),
        ("download_dely", "unknown key; did you mean download_delay?"),
        ("colour", "unknown key; expected one of: allow, allowed_domains,"),  # like none
    ],
)
def test_an_unknown_key_names_the_key_meant_in_one_short_line(key: str, said: str) -> None:
    with pytest.raises(ConfigError) as caught:
        parse_site_config(f'start_urls = ["http://a/"]\n{key} = 1', "f.toml", "f")
    assert str(caught.value).startswith(f"f.toml: key '{key}': {said}")
    if "did you mean" in said:
        assert str(caught.value) == f"f.toml: key '{key}': {said}", "one short line"
