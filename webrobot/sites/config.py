"""Per-site configuration: one TOML file per site, validated when loaded.

Pure logic: no Scrapy, no network. A :class:`ConfigError` always names the file
(or other source), the key and what was expected, so a person can fix it from
one line of output. :data:`SCHEMA` says which check
(:mod:`webrobot.sites.values`) each key gets; this module reads the file and
makes the :class:`SiteConfig`.
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any

from webrobot.frontier.priorities import PriorityRule
from webrobot.settingsmodel.checks import closest_name, value_problem
from webrobot.settingsmodel.parse import ConfigError, raise_all
from webrobot.sites.values import (
    MAX_NESTING,
    Validator,
    boolean,
    check_url,
    css_list,
    describe,
    domain_list,
    field_specs,
    index_page_list,
    mining_parts,
    non_negative_float,
    non_negative_int,
    one_line_text,
    param_glob_list,
    positive_int,
    priority_rules,
    regex_list,
    render_mode,
    scope_name,
    settings_table,
    str_list,
    template_overrides,
    url_list,
    watch_table,
)
from webrobot.urls.templates import TemplateOverride

__all__ = [
    "REQUIRED",
    "SCHEMA",
    "ConfigError",
    "SiteConfig",
    "check_setting_types",
    "check_url",
    "load_site_config",
    "parse_site_config",
    "parse_start_urls_argument",
    "site_config_from_mapping",
    "unknown_key",
]

SPIDER_NAME_RE = re.compile(r"^[A-Za-z][A-Za-z0-9_]*$")


#: TOML key -> (SiteConfig attribute, validator). Adding a key is one line here
#: plus a field on SiteConfig.
SCHEMA: dict[str, tuple[str, Validator]] = {
    "start_urls": ("start_urls", url_list),
    "allowed_domains": ("allowed_domains", domain_list),
    "allow": ("allow", regex_list),
    "deny": ("deny", regex_list),
    "index_pages": ("index_pages", index_page_list),
    "strip_params": ("strip_params", param_glob_list),
    "depth_limit": ("depth_limit", non_negative_int),
    "max_pages": ("max_pages", non_negative_int),
    "download_delay": ("download_delay", non_negative_float),
    "concurrency": ("concurrency", positive_int),
    "user_agent": ("user_agent", one_line_text),
    "from": ("from_", one_line_text),
    "settings": ("settings", settings_table),
    "templates": ("templates", template_overrides),
    "sitemaps": ("sitemaps", url_list),
    "priorities": ("priorities", priority_rules),
    "contact_url": ("contact_url", check_url),
    "recrawl_interval": ("recrawl_interval", non_negative_float),
    "render": ("render", render_mode),
    "requisites": ("requisites", boolean),
    "scope": ("scope", scope_name),
    "extract": ("extract", mining_parts),
    "fields": ("fields", field_specs),
    "monitor_dir": ("monitor_dir", one_line_text),
    "monitor_ignore_selectors": ("monitor_ignore_selectors", css_list),
    "monitor_ignore_patterns": ("monitor_ignore_patterns", regex_list),
    "monitor_ignore_fields": ("monitor_ignore_fields", str_list),
    "watch": ("watch_rules", watch_table),
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
            raise ConfigError(source, "start_urls", f"expected URL strings, got {describe(value)}")
        urls = [v.strip() for v in value if v.strip()]
    elif isinstance(value, str):
        urls = [part.strip() for part in value.split(",") if part.strip()]
    else:
        raise ConfigError(
            source, "start_urls", f"expected URL[,URL...] or a list of URLs, got {describe(value)}"
        )
    if not urls:
        raise ConfigError(source, "start_urls", "expected one or more comma-separated URLs")
    return tuple(check_url(url, source, "start_urls") for url in urls)
