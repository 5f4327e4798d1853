"""The watch rules file (``WEBROBOT_WATCH``): ``[[rule]]`` tables of terms, texts and pictures.

No Scrapy, no network: reads the TOML file and the files it names (paths relative
to the rules file's folder). A rule that cannot be used raises
:class:`~webrobot.settingsmodel.parse.ConfigError` naming the file and the rule, in one
line. Pictures are hashed as a page's images are
(:mod:`webrobot.extract.imagehashing`: Pillow and imagehash, the ``monitor`` extra),
imported only when a rule names one.
"""

from __future__ import annotations

import logging
import tomllib
import warnings
from pathlib import Path
from typing import Any

from webrobot.monitor.images import BITS
from webrobot.monitor.nearcopy import ProtectedText
from webrobot.monitor.terms import term_pattern
from webrobot.monitor.watch import ProtectedImage, WatchRule
from webrobot.settingsmodel.parse import ConfigError

logger = logging.getLogger(__name__)

KEYS = ("name", "terms", "texts", "images")
#: Largest protected text or picture file read.
MAX_FILE_BYTES = 20 * 1024 * 1024


def _strings(value: Any, source: str, key: str) -> list[str]:
    if isinstance(value, str):
        value = [value]
    if not isinstance(value, list) or not all(isinstance(v, str) and v.strip() for v in value):
        raise ConfigError(source, key, "expected a list of non-empty strings")
    return value


def _read(path: Path, source: str, key: str) -> bytes:
    try:
        size = path.stat().st_size
        if size > MAX_FILE_BYTES:
            raise ConfigError(source, key, f"{path} has {size} bytes, more than {MAX_FILE_BYTES}")
        return path.read_bytes()
    except OSError as exc:
        raise ConfigError(source, key, f"{path} cannot be read: {exc.strerror or exc}") from None


def image_hash(data: bytes, source: str, key: str, path: Path) -> int:
    """The 64-bit pHash of a picture file's bytes: the crawl's one picture hash
    (:func:`webrobot.extract.imagehashing.describe_image`), as a page's images get it."""
    # The picture hashing, imported by the rules that watch a picture only.
    from webrobot.extract.imagehashing import MISSING_LIBRARY, ImageRefused, describe_image

    try:
        # Read before the crawl starts, in the main thread: Pillow's warnings about the
        # picture (a palette with transparency...) are logged at DEBUG, not printed.
        with warnings.catch_warnings(record=True) as said:
            warnings.simplefilter("always")
            described = describe_image(data, 0, extra="monitor", feature="Watching for pictures")
    except ImageRefused as exc:
        if exc.reason == MISSING_LIBRARY:
            raise ConfigError(source, key, str(exc)) from None
        raise ConfigError(source, key, f"{path} is not a picture Pillow can read: {exc}") from None
    for warning in said:
        logger.debug("Reading %s: %s: %s", path, warning.category.__name__, warning.message)
    value = int(described["phash"], 16)
    assert value < 1 << BITS
    return value


def parse_rules(text: str, source: str, folder: Path) -> tuple[WatchRule, ...]:
    """Watch rules from TOML ``text``; files are found under ``folder``."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(source, None, f"not valid TOML: {exc}") from None
    unknown = sorted(set(data) - {"rule"})
    if unknown:
        raise ConfigError(source, unknown[0], "unknown key; expected [[rule]] tables")
    return parse_rule_tables(data.get("rule"), source, folder)


def parse_rule_tables(
    tables: Any, source: str, folder: Path, key: str = "rule"
) -> tuple[WatchRule, ...]:
    """Watch rules from already-parsed ``[[rule]]`` tables (a site config's
    ``[[watch.rule]]``, or the ``WEBROBOT_WATCH_RULES`` setting); errors name
    ``source`` and ``key``, files are found under ``folder`` (an absolute path
    in a table is kept as it is)."""
    if not isinstance(tables, list) or not tables:
        raise ConfigError(source, key, f"expected one or more [[{key}]] tables")
    rules: list[WatchRule] = []
    names: set[str] = set()
    for i, table in enumerate(tables):
        where = f"{key}[{i}]"
        if not isinstance(table, dict):
            raise ConfigError(source, where, "expected a table")
        name = table.get("name")
        if not isinstance(name, str) or not name.strip():
            raise ConfigError(source, f"{where}.name", "missing; a rule needs a name")
        where = f"{key} {name!r}"
        if name in names:
            raise ConfigError(source, where, "a second rule of that name; names must differ")
        names.add(name)
        for entry_key in table:
            if entry_key not in KEYS:
                raise ConfigError(
                    source, f"{where}.{entry_key}", f"unknown key; expected {', '.join(KEYS)}"
                )
        if not any(table.get(k) for k in ("terms", "texts", "images")):
            raise ConfigError(source, where, "expected one or more of terms, texts, images")
        terms = _strings(table.get("terms", []), source, f"{where}.terms")
        for term in terms:
            if term_pattern(term) is None:
                raise ConfigError(source, f"{where}.terms", f"{term!r} has no word")
        texts = []
        for entry in _strings(table.get("texts", []), source, f"{where}.texts"):
            path = folder / entry
            raw = _read(path, source, f"{where}.texts")
            try:
                protected = ProtectedText.of(entry, raw.decode("utf-8"))
            except UnicodeDecodeError as exc:
                raise ConfigError(
                    source, f"{where}.texts", f"{path} is not UTF-8 text: {exc}"
                ) from None
            if not protected.shingles:
                raise ConfigError(source, f"{where}.texts", f"{path} has no words")
            texts.append(protected)
        images = []
        for entry in _strings(table.get("images", []), source, f"{where}.images"):
            path = folder / entry
            raw = _read(path, source, f"{where}.images")
            images.append(ProtectedImage(entry, image_hash(raw, source, f"{where}.images", path)))
        rules.append(WatchRule.of(name, terms, texts, images))
    return tuple(rules)


def load_rules(path: str | Path) -> tuple[WatchRule, ...]:
    path = Path(path)
    raw = _read(path, str(path), "") if path.exists() else None
    if raw is None:
        raise ConfigError(str(path), None, "cannot be read: no such file")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ConfigError(str(path), None, f"expected UTF-8 text: {exc}") from None
    return parse_rules(text, str(path), path.parent)
