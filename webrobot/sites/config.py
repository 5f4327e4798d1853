"""Per-site configuration: one TOML file per site, validated when loaded.

Pure logic: no Scrapy, no network. A :class:`ConfigError` always names the file
(or other source), the key and what was expected, so a person can fix it from
one line of output.

Why one module of this size: the site-config schema and its one-line errors read as one table; split, a key's rule and its message would live apart.
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from w3lib.url import safe_url_string

from webrobot.extract.fields import FieldSpecError, compile_fields
from webrobot.frontier.priorities import PriorityRule
from webrobot.monitor.rules import parse_rule_tables
from webrobot.settingsmodel.checks import closest_name, value_problem
from webrobot.settingsmodel.parse import ConfigError, raise_all
from webrobot.urls.templates import TemplateOverride

SPIDER_NAME_RE = re.compile(r"^[A-Za-z][A-Za-z0-9_]*$")
SETTING_NAME_RE = re.compile(r"^[A-Z][A-Z0-9_]*$")


def _describe(value: Any) -> str:
    text = repr(value)
    if len(text) > 80:
        text = text[:77] + "..."
    return f"{text} ({type(value).__name__})"


#: Levels of nesting a value under ``[settings]`` may have (tables and arrays).
MAX_NESTING = 8
_WHITESPACE = re.compile(r"[\s\x00-\x1f\x7f]")


def check_url(value: Any, source: str, key: str) -> str:
    """An absolute http(s) URL, as a browser's address bar takes it: spaces and
    other characters not allowed in URLs are percent-encoded (``/a b`` ->
    ``/a%20b``); a host name with a space or a control character is refused."""
    if not isinstance(value, str):
        raise ConfigError(source, key, f"expected a URL string, got {_describe(value)}")
    url = value.strip()
    if _WHITESPACE.search(url):
        host = urlsplit(url).netloc
        if _WHITESPACE.search(host):
            raise ConfigError(source, key, f"expected a host name without spaces, got {url!r}")
        url = safe_url_string(url)
    try:
        parts = urlsplit(url)
        parts.port  # noqa: B018 - raises ValueError on a bad port
    except ValueError as exc:
        raise ConfigError(source, key, f"expected an http(s) URL, got {url!r}: {exc}") from None
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise ConfigError(
            source, key, f"expected an absolute http:// or https:// URL with a host, got {url!r}"
        )
    return url


def _url_list(value: Any, source: str, key: str) -> tuple[str, ...]:
    items = _str_list(value, source, key)
    if not items:
        raise ConfigError(source, key, "expected at least one URL")
    return tuple(check_url(item, source, key) for item in items)


def _str_list(value: Any, source: str, key: str) -> tuple[str, ...]:
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise ConfigError(source, key, f"expected a list of strings, got {_describe(value)}")
    return tuple(value)


def _domain_list(value: Any, source: str, key: str) -> tuple[str, ...]:
    domains = _str_list(value, source, key)
    for domain in domains:
        if not domain or "/" in domain or " " in domain:
            raise ConfigError(
                source, key, f"expected bare domain names like 'example.com', got {domain!r}"
            )
    return tuple(d.lower() for d in domains)


def _regex_list(value: Any, source: str, key: str) -> tuple[str, ...]:
    patterns = _str_list(value, source, key)
    for pattern in patterns:
        try:
            re.compile(pattern)
        except re.error as exc:
            raise ConfigError(
                source, key, f"expected valid regular expressions, {pattern!r} fails: {exc}"
            ) from None
    return patterns


def _index_page_list(value: Any, source: str, key: str) -> tuple[str, ...]:
    names = _str_list(value, source, key)
    for name in names:
        if not name or "/" in name or "?" in name or "#" in name or name in (".", ".."):
            raise ConfigError(
                source,
                key,
                f"expected file names like 'index.html' (no '/', '?' or '#'), got {name!r}",
            )
    return names


def _param_glob_list(value: Any, source: str, key: str) -> tuple[str, ...]:
    globs = _str_list(value, source, key)
    for glob in globs:
        if not glob.strip("*") or any(c in glob for c in "&=;#? "):
            raise ConfigError(
                source, key,
                f"expected query parameter names, '*' matching any characters ('utm_*'), got {glob!r}",
            )  # fmt: skip
    return globs


def _non_negative_int(value: Any, source: str, key: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise ConfigError(
            source, key, f"expected a whole number >= 0 (0 = no limit), got {_describe(value)}"
        )
    return value


def _bool(value: Any, source: str, key: str) -> bool:
    if not isinstance(value, bool):
        raise ConfigError(source, key, f"expected true or false, got {_describe(value)}")
    return value


def _positive_int(value: Any, source: str, key: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise ConfigError(source, key, f"expected a whole number >= 1, got {_describe(value)}")
    return value


def _non_negative_float(value: Any, source: str, key: str) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float) or value < 0:
        raise ConfigError(source, key, f"expected a number of seconds >= 0, got {_describe(value)}")
    return float(value)


def _text(value: Any, source: str, key: str) -> str:
    if not isinstance(value, str) or not value.strip() or "\n" in value or "\r" in value:
        raise ConfigError(
            source, key, f"expected a one-line, non-empty string, got {_describe(value)}"
        )
    return value.strip()


def _settings_table(value: Any, source: str, key: str) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise ConfigError(
            source, key, f"expected a table of Scrapy settings, got {_describe(value)}"
        )
    for name in value:
        if not SETTING_NAME_RE.match(name):
            raise ConfigError(
                source,
                f"{key}.{name}",
                "expected an upper-case Scrapy setting name like 'DOWNLOAD_DELAY'",
            )
        if _nesting(value[name]) > MAX_NESTING:
            raise ConfigError(
                source,
                f"{key}.{name}",
                f"expected a value nested at most {MAX_NESTING} levels deep",
            )
    return dict(value)


def _nesting(value: Any, level: int = 0) -> int:
    """Levels of tables and arrays in ``value`` (stops counting past MAX_NESTING)."""
    if level > MAX_NESTING or not isinstance(value, dict | list):
        return level
    children = value.values() if isinstance(value, dict) else value
    return max((_nesting(child, level + 1) for child in children), default=level + 1)


def _table_list(
    value: Any, source: str, key: str, fields_: Mapping[str, Validator]
) -> list[dict[str, Any]]:
    """A list of tables (``[[key]]`` in TOML), each with a ``match`` regex and the given fields."""
    if not isinstance(value, list) or not all(isinstance(v, dict) for v in value):
        raise ConfigError(
            source, key, f"expected a list of tables ([[{key}]]), got {_describe(value)}"
        )
    out: list[dict[str, Any]] = []
    for i, table in enumerate(value):
        where = f"{key}[{i}]"
        unknown = set(table) - {"match", *fields_}
        if unknown:
            raise ConfigError(
                source, f"{where}.{min(unknown)}",
                f"unknown key; expected 'match' and any of: {', '.join(sorted(fields_))}",
            )  # fmt: skip
        if "match" not in table:
            raise ConfigError(
                source, f"{where}.match", "missing; a regular expression on the URL path"
            )
        entry = {"match": _regex_list([table["match"]], source, f"{where}.match")[0]}
        for name, validator in fields_.items():
            if name in table:
                entry[name] = validator(table[name], source, f"{where}.{name}")
        out.append(entry)
    return out


def _templates(value: Any, source: str, key: str) -> tuple[TemplateOverride, ...]:
    tables = _table_list(
        value, source, key, {"max_chain": _non_negative_int, "max_pages": _non_negative_int}
    )
    return tuple(
        TemplateOverride(t["match"], max_chain=t.get("max_chain"), max_pages=t.get("max_pages"))
        for t in tables
    )


def _int(value: Any, source: str, key: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or abs(value) > 1_000_000:
        raise ConfigError(
            source, key, f"expected a whole number (negative: later), got {_describe(value)}"
        )
    return value


def _priorities(value: Any, source: str, key: str) -> tuple[PriorityRule, ...]:
    tables = _table_list(value, source, key, {"rank": _int})
    for i, table in enumerate(tables):
        if "rank" not in table:
            raise ConfigError(source, f"{key}[{i}].rank", "missing; a whole number, higher first")
    return tuple(PriorityRule(t["match"], t["rank"]) for t in tables)


def _scope(value: Any, source: str, key: str) -> str:
    if value not in ("host", "origin", "domain"):
        raise ConfigError(
            source, key, f'expected "host", "origin" or "domain", got {_describe(value)}'
        )
    return str(value)


def _render(value: Any, source: str, key: str) -> str:
    if value not in ("browser", "on-request", ""):
        raise ConfigError(
            source, key, f'expected "browser", "on-request" or "" (off), got {_describe(value)}'
        )
    return str(value)


def _extract(value: Any, source: str, key: str) -> tuple[str, ...]:
    parts = _str_list(value, source, key)
    if not parts:
        return parts
    # The table of parts imports every extractor: only a config that mines pays for it.
    from webrobot.extract.parts import enabled_parts

    try:
        enabled_parts(parts)
    except ValueError as exc:
        raise ConfigError(source, key, str(exc)) from None
    return parts


def _fields(value: Any, source: str, key: str) -> dict[str, Any]:
    """The ``[fields]`` table, every selector and processor checked now (at load)."""
    if not isinstance(value, dict):
        raise ConfigError(
            source, key, f"expected a table of fields ([{key}]), got {_describe(value)}"
        )
    try:
        compile_fields(value)
    except FieldSpecError as exc:
        raise ConfigError(source, f"{key}.{exc.field}", exc.expected) from None
    return dict(value)


def _watch(value: Any, source: str, key: str) -> tuple[dict[str, Any], ...]:
    """The ``[watch]`` table: ``[[watch.rule]]`` tables checked now (the rules file's
    checks, files read and hashed), returned with their paths made absolute."""
    if not isinstance(value, dict):
        raise ConfigError(
            source, key, f"expected a table of [[{key}.rule]] tables, got {_describe(value)}"
        )
    unknown = sorted(set(value) - {"rule"})
    if unknown:
        raise ConfigError(source, f"{key}.{unknown[0]}", f"unknown key; expected [[{key}.rule]]")
    folder = Path(source).parent.absolute()
    parse_rule_tables(value.get("rule"), source, folder, f"{key}.rule")
    return tuple(
        {
            k: [str(folder / v) for v in ([w] if isinstance(w, str) else w)]
            if k in ("texts", "images")
            else w
            for k, w in table.items()
        }
        for table in value["rule"]
    )


def _css_list(value: Any, source: str, key: str) -> tuple[str, ...]:
    from parsel.csstranslator import HTMLTranslator

    selectors = _str_list(value, source, key)
    for selector in selectors:
        try:
            HTMLTranslator().css_to_xpath(selector)
        except Exception as exc:  # noqa: BLE001 - cssselect's several parse errors
            raise ConfigError(
                source, key, f"expected CSS selectors, got {selector!r}: {exc}"
            ) from None
    return selectors


Validator = Callable[[Any, str, str], Any]

#: TOML key -> (SiteConfig attribute, validator). Adding a key is one line here
#: plus a field on SiteConfig.
SCHEMA: dict[str, tuple[str, Validator]] = {
    "start_urls": ("start_urls", _url_list),
    "allowed_domains": ("allowed_domains", _domain_list),
    "allow": ("allow", _regex_list),
    "deny": ("deny", _regex_list),
    "index_pages": ("index_pages", _index_page_list),
    "strip_params": ("strip_params", _param_glob_list),
    "depth_limit": ("depth_limit", _non_negative_int),
    "max_pages": ("max_pages", _non_negative_int),
    "download_delay": ("download_delay", _non_negative_float),
    "concurrency": ("concurrency", _positive_int),
    "user_agent": ("user_agent", _text),
    "from": ("from_", _text),
    "settings": ("settings", _settings_table),
    "templates": ("templates", _templates),
    "sitemaps": ("sitemaps", _url_list),
    "priorities": ("priorities", _priorities),
    "contact_url": ("contact_url", check_url),
    "recrawl_interval": ("recrawl_interval", _non_negative_float),
    "render": ("render", _render),
    "requisites": ("requisites", _bool),
    "scope": ("scope", _scope),
    "extract": ("extract", _extract),
    "fields": ("fields", _fields),
    "monitor_dir": ("monitor_dir", _text),
    "monitor_ignore_selectors": ("monitor_ignore_selectors", _css_list),
    "monitor_ignore_patterns": ("monitor_ignore_patterns", _regex_list),
    "monitor_ignore_fields": ("monitor_ignore_fields", _str_list),
    "watch": ("watch_rules", _watch),
}
REQUIRED = ("start_urls",)


@dataclass(frozen=True)
class SiteConfig:
    name: str
    source: str
    start_urls: tuple[str, ...]
    allowed_domains: tuple[str, ...] = ()
    allow: tuple[str, ...] = ()
    deny: tuple[str, ...] = ()
    index_pages: tuple[str, ...] = ()
    strip_params: tuple[str, ...] = ()
    depth_limit: int | None = None
    max_pages: int | None = None
    download_delay: float | None = None
    concurrency: int | None = None
    user_agent: str | None = None
    from_: str | None = None
    settings: Mapping[str, Any] = field(default_factory=dict)
    templates: tuple[TemplateOverride, ...] = ()
    sitemaps: tuple[str, ...] = ()
    priorities: tuple[PriorityRule, ...] = ()
    contact_url: str | None = None
    recrawl_interval: float | None = None
    render: str | None = None
    requisites: bool | None = None
    scope: str | None = None
    extract: tuple[str, ...] | None = None
    fields: Mapping[str, Any] = field(default_factory=dict)
    monitor_dir: str | None = None
    monitor_ignore_selectors: tuple[str, ...] | None = None
    monitor_ignore_patterns: tuple[str, ...] | None = None
    monitor_ignore_fields: tuple[str, ...] | None = None
    watch_rules: tuple[Mapping[str, Any], ...] = ()

    def scrapy_settings(self) -> dict[str, Any]:
        """The Scrapy settings this config implies (its explicit ``settings`` last)."""
        out: dict[str, Any] = {}
        if self.depth_limit is not None:
            out["DEPTH_LIMIT"] = self.depth_limit
        if self.max_pages is not None:
            out["WEBROBOT_MAX_PAGES_PER_SITE"] = self.max_pages
        if self.download_delay is not None:
            out["DOWNLOAD_DELAY"] = self.download_delay
        if self.concurrency is not None:
            out["CONCURRENT_REQUESTS_PER_DOMAIN"] = self.concurrency
        if self.user_agent is not None:
            out["USER_AGENT"] = self.user_agent
        if self.from_ is not None:
            out["WEBROBOT_FROM"] = self.from_
        if self.render is not None:
            out["WEBROBOT_RENDER"] = self.render
        if self.requisites is not None:
            out["WEBROBOT_REQUISITES_ENABLED"] = self.requisites
        if self.scope is not None:
            out["WEBROBOT_SCOPE"] = self.scope
        if self.recrawl_interval is not None:
            out["WEBROBOT_RECRAWL_INTERVAL"] = self.recrawl_interval
        if self.contact_url is not None:
            out["WEBROBOT_CONTACT_URL"] = self.contact_url
        if self.extract is not None:
            out["WEBROBOT_EXTRACT"] = list(self.extract)
        if self.fields:
            out["WEBROBOT_FIELDS"] = dict(self.fields)
        if self.monitor_dir is not None:
            out["WEBROBOT_MONITOR_DIR"] = self.monitor_dir
        if self.monitor_ignore_selectors is not None:
            out["WEBROBOT_MONITOR_IGNORE_SELECTORS"] = list(self.monitor_ignore_selectors)
        if self.monitor_ignore_patterns is not None:
            out["WEBROBOT_MONITOR_IGNORE_PATTERNS"] = list(self.monitor_ignore_patterns)
        if self.monitor_ignore_fields is not None:
            out["WEBROBOT_MONITOR_IGNORE_FIELDS"] = list(self.monitor_ignore_fields)
        if self.watch_rules:
            out["WEBROBOT_WATCH_RULES"] = [dict(rule) for rule in self.watch_rules]
        out.update(self.settings)
        return out


def check_setting_types(config: SiteConfig, default_of: Callable[[str], Any]) -> None:
    """Raise :class:`ConfigError` for a ``[settings]`` value that cannot be used: text
    that does not parse as the setting's type (as ``-s`` values are checked), or a
    TOML value of another kind (a table or an array where a number or a switch is
    expected, a number where a list is expected...). Declared settings are judged
    by the settings model, others by the type of their default (``default_of(name)``)."""
    errors = []
    for name, value in config.settings.items():
        problem = value_problem(name, value, default_of(name))
        if problem:
            errors.append(
                ConfigError(config.source, f"settings.{name}", f"expected {problem.expected}")
            )
    raise_all(errors)


def parse_site_config(text: str, source: str, name: str) -> SiteConfig:
    """Validate TOML text; ``source`` names it in errors (usually the file path)."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(source, None, f"not valid TOML: {exc}") from None
    except RecursionError:
        raise ConfigError(
            source, None, f"not usable TOML: values nested too deeply (at most {MAX_NESTING})"
        ) from None
    return site_config_from_mapping(data, source, name)


def unknown_key(key: str) -> str:
    """What is said of a top-level key no site config has: the key meant, when one is
    close (``max_page``: ``max_pages``), else every key."""
    meant = closest_name(key, SCHEMA)
    if meant is not None:
        return f"unknown key; did you mean {meant}?"
    return f"unknown key; expected one of: {', '.join(sorted(SCHEMA))}"


def site_config_from_mapping(data: Mapping[str, Any], source: str, name: str) -> SiteConfig:
    if not SPIDER_NAME_RE.match(name):
        raise ConfigError(
            source,
            None,
            f"the file name must make a spider name (letters, digits, '_'), got {name!r}",
        )
    # Every problem is reported, not only the first: one run to find them all.
    errors = [ConfigError(source, key, unknown_key(key)) for key in data if key not in SCHEMA]
    errors += [
        ConfigError(source, key, "missing; this key is required")
        for key in REQUIRED
        if key not in data
    ]
    values: dict[str, Any] = {}
    for key, raw in data.items():
        if key not in SCHEMA:
            continue
        attr, validator = SCHEMA[key]
        try:
            values[attr] = validator(raw, source, key)
        except ConfigError as exc:
            errors.append(exc)
    raise_all(errors)
    known = {f.name for f in fields(SiteConfig)}
    assert set(values) <= known
    return SiteConfig(name=name, source=source, **values)


def load_site_config(path: str | Path) -> SiteConfig:
    path = Path(path)
    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise ConfigError(str(path), None, f"cannot be read: {exc.strerror or exc}") from None
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ConfigError(str(path), None, f"expected UTF-8 text: {exc}") from None
    return parse_site_config(text, str(path), path.stem)


def parse_start_urls_argument(value: Any, source: str = "spider argument") -> tuple[str, ...]:
    """``-a start_urls=URL[,URL...]`` (or a list or tuple of URLs, from the
    Python API) -> validated URLs."""
    if isinstance(value, list | tuple):
        if not all(isinstance(v, str) for v in value):
            raise ConfigError(source, "start_urls", f"expected URL strings, got {_describe(value)}")
        urls = [v.strip() for v in value if v.strip()]
    elif isinstance(value, str):
        urls = [part.strip() for part in value.split(",") if part.strip()]
    else:
        raise ConfigError(
            source, "start_urls", f"expected URL[,URL...] or a list of URLs, got {_describe(value)}"
        )
    if not urls:
        raise ConfigError(source, "start_urls", "expected one or more comma-separated URLs")
    return tuple(check_url(url, source, "start_urls") for url in urls)
