"""Setting values as components use them: each declared setting's text or value parsed
as Scrapy's typed getters parse it (:func:`read`, :func:`parse`), the declared defaults,
and the one-line errors of a value or a config that cannot be used.

Pure logic: no Scrapy, no I/O. The declarations are :mod:`webrobot.settingsmodel.model`.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from typing import Any

from webrobot.settingsmodel.model import BY_NAME, SETTINGS, Setting

BOOL_WORDS = frozenset({"True", "true", "False", "false"})


class ConfigError(ValueError):
    """A site config, blocklist or spider argument that cannot be used: names the
    source (a file or argument), the key and what was expected, in one line."""

    def __init__(self, source: str, key: str | None, expected: str) -> None:
        self.source = source
        self.key = key
        self.expected = expected
        where = f"{source}: key '{key}'" if key else source
        super().__init__(f"{where}: {expected}")


class ConfigErrors(ConfigError):
    """Several problems of one source, each a :class:`ConfigError` of one line: all are
    reported, so a person fixes them in one go (the first gives ``source``, ``key``...)."""

    def __init__(self, errors: Iterable[ConfigError]) -> None:
        self.errors = list(errors)
        first = self.errors[0]
        super().__init__(first.source, first.key, first.expected)
        self.args = ("\n".join(str(error) for error in self.errors),)

    def __str__(self) -> str:
        return str(self.args[0])


def raise_all(errors: list[ConfigError]) -> None:
    """Raise the one error, or every one of several as :class:`ConfigErrors`."""
    if len(errors) == 1:
        raise errors[0]
    if errors:
        raise ConfigErrors(errors)


def error_lines(error: BaseException) -> list[str]:
    """The one-line messages of an error (several for :class:`ConfigErrors`)."""
    return [str(e) for e in getattr(error, "errors", None) or [error]]


class SettingValueError(ValueError):
    """A setting value that cannot be used: names the setting, the value and what was expected."""

    def __init__(self, name: str, value: Any, expected: str) -> None:
        self.name = name
        self.value = value
        self.expected = expected
        text = repr(value)
        if len(text) > 80:
            text = text[:77] + "..."
        super().__init__(f"setting {name}={text}: expected {expected}")


def defaults() -> dict[str, Any]:
    """Every declared setting's default (a fresh copy of lists and dicts)."""
    return {s.name: _copy(s.default) for s in SETTINGS}


def _copy(value: Any) -> Any:
    if isinstance(value, list):
        return list(value)
    if isinstance(value, dict):
        return dict(value)
    return value


def _whole(text: str) -> int | None:
    try:
        return int(text.strip())
    except ValueError:
        return None


def parse(setting: Setting, value: Any) -> Any:
    """``value`` as the typed value a component uses; :class:`SettingValueError` if it cannot be.

    ``None`` is the declared default, except for Scrapy's own settings, where
    it keeps Scrapy's meaning (``ROBOTSTXT_USER_AGENT = None``: use ``USER_AGENT``)."""
    if value is None:
        return None if setting.scrapy else _copy(setting.default)
    kind, name = setting.kind, setting.name
    bad = SettingValueError(name, value, f"{setting.expected()} (default {setting.default!r})")
    result: Any
    if kind == "bool":
        if isinstance(value, bool):
            return value
        if isinstance(value, int):
            return bool(value)
        if isinstance(value, str) and value.strip() in BOOL_WORDS:
            return value.strip().lower() == "true"
        if isinstance(value, str) and _whole(value) is not None:
            return bool(_whole(value))
        raise bad
    if kind in ("int", "float"):
        if isinstance(value, bool):
            raise bad
        if isinstance(value, str):
            try:
                number = float(value)
            except ValueError:
                raise bad from None
            if kind == "int":
                whole = _whole(value)
                if whole is None:
                    raise bad
                number = whole
        elif isinstance(value, int | float):
            number = value
        else:
            raise bad
        if kind == "int":
            if number != int(number):
                raise bad
            result = int(number)
        else:
            result = float(number)
        if setting.maximum is not None and result > setting.maximum:
            raise bad
        if setting.minimum is not None and result < setting.minimum:
            raise bad
        return result
    if kind == "choice":
        if not isinstance(value, str):
            raise bad
        word = value.strip().lower()
        if not word:
            return setting.default
        if word not in setting.choices:
            raise bad
        return word
    if kind == "list":
        if isinstance(value, str) and value.strip().startswith("["):
            try:  # a JSON array, as -s gives a list: -s 'NAME=["a", "b"]'
                value = json.loads(value)
            except ValueError:
                raise bad from None
            if not isinstance(value, list):
                raise bad
        if isinstance(value, str):
            return [part for part in value.split(",") if part] if value else []
        if isinstance(value, list | tuple):
            return list(value)
        raise bad
    if kind == "list_or_file":
        if isinstance(value, str | list | tuple):
            return list(value) if not isinstance(value, str) else value
        raise bad
    if kind == "dict":
        if isinstance(value, str):
            try:
                value = json.loads(value)
            except ValueError:
                raise bad from None
        if isinstance(value, Mapping):
            return dict(value)
        raise bad
    if kind == "address":
        if isinstance(value, int) and not isinstance(value, bool):
            value = str(value)
        if not isinstance(value, str):
            raise bad
        try:
            split_address(value)
        except ValueError:
            raise bad from None
        return value.strip()
    if kind == "class":
        if isinstance(value, str) and value.strip():
            return value.strip()
        if isinstance(value, type):
            return value
        raise bad
    if not isinstance(value, str):
        raise bad
    if setting.prefixes and value.strip() and not value.strip().startswith(setting.prefixes):
        raise bad
    return value


def split_address(text: str, default_host: str = "127.0.0.1") -> tuple[str, int] | None:
    """``"9410"`` -> ``("127.0.0.1", 9410)``; ``"0.0.0.0:9410"``, ``"[::1]:0"``: host and port;
    ``""``: None. ``ValueError`` for anything else (a port outside 0-65535, no port)."""
    text = text.strip()
    if not text:
        return None
    host, sep, port = text.rpartition(":")
    if not sep:
        host = default_host
    elif host.startswith("[") and host.endswith("]"):
        host = host[1:-1]
    if not host or not port.isdigit() or not 0 <= int(port) <= 65535 or " " in host:
        raise ValueError(f"not a port or host:port: {text!r}")
    return host, int(port)


def to_plain(value: Any) -> Any:
    """A Scrapy ``BaseSettings`` (dict settings) as a plain dict; anything else as is."""
    copy_to_dict = getattr(value, "copy_to_dict", None)
    return copy_to_dict() if callable(copy_to_dict) else value


def read(settings: Any, name: str) -> Any:
    """The typed value of declared setting ``name`` in ``settings`` (anything with
    ``.get(name)``: Scrapy's settings, a dict), its default when unset."""
    return parse(BY_NAME[name], to_plain(settings.get(name)))
