"""The checks of setting values and names: every problem among the declared settings
(:func:`check`), a value given as text or as TOML for any Scrapy setting
(:func:`text_problem`, :func:`value_problem`), and ``WEBROBOT_*`` names nothing declares
(:func:`unknown_settings`).

Pure logic: no Scrapy, no I/O. The declarations are :mod:`webrobot.settingsmodel.model`.
"""

from __future__ import annotations

import difflib
from collections.abc import Callable, Iterable
from typing import Any

from webrobot.settingsmodel.model import BY_NAME, REMOVED, SETTINGS, Setting
from webrobot.settingsmodel.parse import SettingValueError, parse, to_plain


def check(get: Callable[[str], Any], names: Iterable[str] | None = None) -> list[SettingValueError]:
    """Every problem among the declared settings (or ``names``) and the removed ones."""
    problems: list[SettingValueError] = []
    for name, instead in REMOVED.items():
        value = get(name)
        if value is not None:
            problems.append(SettingValueError(name, value, instead))
    for setting in SETTINGS if names is None else [BY_NAME[n] for n in names if n in BY_NAME]:
        try:
            parse(setting, to_plain(get(setting.name)))
        except SettingValueError as exc:
            problems.append(exc)
    return problems


#: The prefix of webrobot's own settings: a name with it that is not declared is a mistake.
PREFIX = "WEBROBOT_"


def unknown_settings(names: Iterable[str]) -> list[tuple[str, str | None]]:
    """Each name with webrobot's prefix that is neither declared nor removed, with the
    declared name closest to it (:mod:`difflib`; None when none is close), sorted.
    Such a setting is read by nothing: a misspelt one is otherwise ignored silently."""
    # Compared without the prefix, which every candidate shares and would make any two close.
    known = {name[len(PREFIX) :]: name for name in BY_NAME if name.startswith(PREFIX)}
    unknown = sorted(
        {n for n in names if n.startswith(PREFIX) and n not in BY_NAME and n not in REMOVED}
    )
    found = []
    for name in unknown:
        close = difflib.get_close_matches(name[len(PREFIX) :], list(known), n=1, cutoff=0.6)
        found.append((name, known[close[0]] if close else None))
    return found


def closest_name(name: str, names: Iterable[str], cutoff: float = 0.6) -> str | None:
    """The one of ``names`` closest to ``name`` (:mod:`difflib`), or None when none is
    at least ``cutoff`` alike."""
    close = difflib.get_close_matches(name, list(names), n=1, cutoff=cutoff)
    return close[0] if close else None


#: How alike a setting nothing declares must be to a known one to be named as a
#: misspelling of it: ``DOWNLOAD_DELY`` is (0.96), a project's own ``MONGO_URI`` or
#: ``API_KEY`` is like no Scrapy setting (below 0.6) and is left alone.
MISSPELT_CUTOFF = 0.8


def misspelt_settings(names: Iterable[str], known: Iterable[str]) -> list[tuple[str, str]]:
    """Each of ``names`` (upper-case, outside webrobot's prefix: :func:`unknown_settings`
    has those) that is neither in ``known`` (Scrapy's settings) nor declared here, but
    is close to one that is, with that one, sorted. Such a setting is read by nothing,
    while the one meant keeps its default."""
    everything = {*known, *BY_NAME, *REMOVED}
    found = []
    for name in sorted(set(names)):
        if name.startswith(PREFIX) or name in everything or not name.isupper():
            continue
        close = closest_name(name, everything, MISSPELT_CUTOFF)
        if close is not None:
            found.append((name, close))
    return found


def misspelt_setting_message(name: str, closest: str) -> str:
    """One line about a setting that looks like a misspelt one, for logs and the terminal."""
    return f"{name} is not a setting; did you mean {closest}?"


def unknown_setting_message(name: str, closest: str | None) -> str:
    """One line about an unknown ``WEBROBOT_*`` setting, for logs and the terminal."""
    hint = f"did you mean {closest}?" if closest else "see the settings reference"
    return f"unknown setting {name} is ignored ({hint})"


#: Scrapy settings not declared here with a whole-number default that Scrapy reads with ``getfloat``.
READ_AS_FLOAT = frozenset({"DNS_TIMEOUT"})


def text_problem(name: str, value: Any, default: Any) -> SettingValueError | None:
    """What is wrong with ``value`` given as text (``-s``, Scrapyd) for setting ``name``.

    A declared setting is parsed by its declaration; any other Scrapy setting by
    the type of its current ``default`` (dicts and lists are left to Scrapy,
    which refuses a dict that is not JSON with its own usage error)."""
    if not isinstance(value, str):
        return None  # already typed (a settings module, a site config)
    if name in REMOVED:
        return SettingValueError(name, value, REMOVED[name])
    setting = BY_NAME.get(name)
    if setting is None:
        if isinstance(default, bool):
            kind = "bool"
        elif isinstance(default, float) or (isinstance(default, int) and name in READ_AS_FLOAT):
            kind = "float"
        elif isinstance(default, int):
            kind = "int"
        else:
            return None
        setting = Setting(name, kind, default, "")
    if setting.kind in ("dict", "list", "str", "class", "list_or_file"):
        return None
    try:
        parse(setting, value)
    except SettingValueError as exc:
        return exc
    return None


def value_problem(name: str, value: Any, default: Any) -> SettingValueError | None:
    """What is wrong with ``value`` for setting ``name``, given as text (:func:`text_problem`)
    or already typed (a site config's TOML): a declared setting is parsed by its
    declaration; any other by the kind of its ``default`` (a switch, a number, a
    list, a table), as Scrapy's typed getters would read it."""
    if isinstance(value, str):
        return text_problem(name, value, default)
    if name in REMOVED:
        return SettingValueError(name, value, REMOVED[name])
    setting = BY_NAME.get(name)
    if setting is None:
        default = to_plain(default)
        if isinstance(default, bool):
            kind = "bool"
        elif isinstance(default, int | float):
            kind = "float"
        elif isinstance(default, list | tuple):
            kind = "list"
        elif isinstance(default, dict):
            kind = "dict"
        else:
            return None  # no default to judge by, or text: what the getters make of it
        setting = Setting(name, kind, default, "")
    try:
        parse(setting, to_plain(value))
    except SettingValueError as exc:
        return exc
    return None
