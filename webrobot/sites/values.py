"""One check per kind of value a site config holds: a URL, a list of domains, a
table of settings, watch rules... Each takes the value, the source (the file, for
errors) and the key, and returns the value to keep or raises a
:class:`~webrobot.settingsmodel.parse.ConfigError` naming the file, the key and
what was expected. :data:`webrobot.sites.config.SCHEMA` says which key is checked
by which.

No Scrapy, no network; the ``[watch]`` table's rule files are read and hashed.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from w3lib.url import safe_url_string

from webrobot.frontier.priorities import PriorityRule
from webrobot.monitor.rules import parse_rule_tables
from webrobot.settingsmodel.parse import ConfigError
from webrobot.urls.templates import TemplateOverride

#: A value's check: ``(value, source, key) -> value to keep``.
Validator = Callable[[Any, str, str], Any]
SETTING_NAME_RE = re.compile(r"^[A-Z][A-Z0-9_]*$")


def describe(value: Any) -> str:
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
        raise ConfigError(source, key, f"expected a URL string, got {describe(value)}")
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


def url_list(value: Any, source: str, key: str) -> tuple[str, ...]:
    items = str_list(value, source, key)
    if not items:
        raise ConfigError(source, key, "expected at least one URL")
    return tuple(check_url(item, source, key) for item in items)


def str_list(value: Any, source: str, key: str) -> tuple[str, ...]:
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise ConfigError(source, key, f"expected a list of strings, got {describe(value)}")
    return tuple(value)


def domain_list(value: Any, source: str, key: str) -> tuple[str, ...]:
    domains = str_list(value, source, key)
    for domain in domains:
        if not domain or "/" in domain or " " in domain:
            raise ConfigError(
                source, key, f"expected bare domain names like 'example.com', got {domain!r}"
            )
    return tuple(d.lower() for d in domains)


def regex_list(value: Any, source: str, key: str) -> tuple[str, ...]:
    patterns = str_list(value, source, key)
    for pattern in patterns:
        try:
            re.compile(pattern)
        except re.error as exc:
            raise ConfigError(
                source, key, f"expected valid regular expressions, {pattern!r} fails: {exc}"
            ) from None
    return patterns


def index_page_list(value: Any, source: str, key: str) -> tuple[str, ...]:
    names = str_list(value, source, key)
    for name in names:
        if not name or "/" in name or "?" in name or "#" in name or name in (".", ".."):
            raise ConfigError(
                source,
                key,
                f"expected file names like 'index.html' (no '/', '?' or '#'), got {name!r}",
            )
    return names


def param_glob_list(value: Any, source: str, key: str) -> tuple[str, ...]:
    globs = str_list(value, source, key)
    for glob in globs:
        if not glob.strip("*") or any(c in glob for c in "&=;#? "):
            raise ConfigError(
                source, key,
                f"expected query parameter names, '*' matching any characters ('utm_*'), got {glob!r}",
            )  # fmt: skip
    return globs


def non_negative_int(value: Any, source: str, key: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise ConfigError(
            source, key, f"expected a whole number >= 0 (0 = no limit), got {describe(value)}"
        )
    return value


def boolean(value: Any, source: str, key: str) -> bool:
    if not isinstance(value, bool):
        raise ConfigError(source, key, f"expected true or false, got {describe(value)}")
    return value


def positive_int(value: Any, source: str, key: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise ConfigError(source, key, f"expected a whole number >= 1, got {describe(value)}")
    return value


def non_negative_float(value: Any, source: str, key: str) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float) or value < 0:
        raise ConfigError(source, key, f"expected a number of seconds >= 0, got {describe(value)}")
    return float(value)


def one_line_text(value: Any, source: str, key: str) -> str:
    if not isinstance(value, str) or not value.strip() or "\n" in value or "\r" in value:
        raise ConfigError(
            source, key, f"expected a one-line, non-empty string, got {describe(value)}"
        )
    return value.strip()


def settings_table(value: Any, source: str, key: str) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise ConfigError(
            source, key, f"expected a table of Scrapy settings, got {describe(value)}"
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
            source, key, f"expected a list of tables ([[{key}]]), got {describe(value)}"
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
        entry = {"match": regex_list([table["match"]], source, f"{where}.match")[0]}
        for name, validator in fields_.items():
            if name in table:
                entry[name] = validator(table[name], source, f"{where}.{name}")
        out.append(entry)
    return out


def template_overrides(value: Any, source: str, key: str) -> tuple[TemplateOverride, ...]:
    tables = _table_list(
        value, source, key, {"max_chain": non_negative_int, "max_pages": non_negative_int}
    )
    return tuple(
        TemplateOverride(t["match"], max_chain=t.get("max_chain"), max_pages=t.get("max_pages"))
        for t in tables
    )


def whole_number(value: Any, source: str, key: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or abs(value) > 1_000_000:
        raise ConfigError(
            source, key, f"expected a whole number (negative: later), got {describe(value)}"
        )
    return value


def priority_rules(value: Any, source: str, key: str) -> tuple[PriorityRule, ...]:
    tables = _table_list(value, source, key, {"rank": whole_number})
    for i, table in enumerate(tables):
        if "rank" not in table:
            raise ConfigError(source, f"{key}[{i}].rank", "missing; a whole number, higher first")
    return tuple(PriorityRule(t["match"], t["rank"]) for t in tables)


def scope_name(value: Any, source: str, key: str) -> str:
    if value not in ("host", "origin", "domain"):
        raise ConfigError(
            source, key, f'expected "host", "origin" or "domain", got {describe(value)}'
        )
    return str(value)


def render_mode(value: Any, source: str, key: str) -> str:
    if value not in ("browser", "on-request", ""):
        raise ConfigError(
            source, key, f'expected "browser", "on-request" or "" (off), got {describe(value)}'
        )
    return str(value)


def mining_parts(value: Any, source: str, key: str) -> tuple[str, ...]:
    parts = str_list(value, source, key)
    if not parts:
        return parts
    # The table of parts imports every extractor: only a config that mines pays for it.
    from webrobot.extract.parts import enabled_parts

    try:
        enabled_parts(parts)
    except ValueError as exc:
        raise ConfigError(source, key, str(exc)) from None
    return parts


def field_specs(value: Any, source: str, key: str) -> dict[str, Any]:
    """The ``[fields]`` table, every selector and processor checked now (at load)."""
    if not isinstance(value, dict):
        raise ConfigError(
            source, key, f"expected a table of fields ([{key}]), got {describe(value)}"
        )
    # The mining's field reader, imported by the configs that declare fields only.
    from webrobot.extract.fields import FieldSpecError, compile_fields

    try:
        compile_fields(value)
    except FieldSpecError as exc:
        raise ConfigError(source, f"{key}.{exc.field}", exc.expected) from None
    return dict(value)


def watch_table(value: Any, source: str, key: str) -> tuple[dict[str, Any], ...]:
    """The ``[watch]`` table: ``[[watch.rule]]`` tables checked now (the rules file's
    checks, files read and hashed), returned with their paths made absolute."""
    if not isinstance(value, dict):
        raise ConfigError(
            source, key, f"expected a table of [[{key}.rule]] tables, got {describe(value)}"
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


def css_list(value: Any, source: str, key: str) -> tuple[str, ...]:
    from parsel.csstranslator import HTMLTranslator

    selectors = str_list(value, source, key)
    for selector in selectors:
        try:
            HTMLTranslator().css_to_xpath(selector)
        except Exception as exc:  # noqa: BLE001 - cssselect's several parse errors
            raise ConfigError(
                source, key, f"expected CSS selectors, got {selector!r}: {exc}"
            ) from None
    return selectors
