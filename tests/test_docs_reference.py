"""The reference pages cannot drift from the code: every setting, meta key read,
signal, command and stats key named in the code is documented.

Stats keys seen at run time are checked for the whole session by the
``tests.statskeys`` plugin; this file checks the keys written in the code.
"""

from __future__ import annotations

import ast
import importlib
import pkgutil
from pathlib import Path

import pytest

import webrobot
import webrobot.commands
from tests.docs_reference import REFERENCE, KeyPatterns, checked_stats_keys, documented, pattern

PACKAGE = Path(webrobot.__file__).resolve().parent


def _modules() -> list[tuple[str, ast.Module]]:
    out = []
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
        name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        out.append((name, ast.parse(path.read_text("utf-8"), str(path))))
    return out


def test_every_setting_is_in_the_settings_reference() -> None:
    """The settings model's and the project's own (the page is generated from both;
    tests/test_settings_model.py also checks it is exactly what the model makes)."""
    import webrobot.settings
    from webrobot.settingsmodel.model import BY_NAME

    names = {name for name in vars(webrobot.settings) if name.isupper()} | set(BY_NAME)
    assert {"ROBOTSTXT_OBEY", "WEBROBOT_ROBOTS_TTL", "WEBROBOT_REDIS_URL", "ADDONS"} <= names
    assert sorted(names - documented("settings.md")) == []


def _meta_key(node: ast.expr, module: str) -> str | None:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.Name):  # a module constant, e.g. META_KEY = "robots"
        value = getattr(importlib.import_module(module), node.id, None)
        return value if isinstance(value, str) else None
    return None


def _is_meta(node: ast.expr) -> bool:
    return isinstance(node, ast.Attribute) and node.attr == "meta"


def meta_keys_read() -> dict[str, str]:
    """Keys of ``request.meta`` / ``response.meta`` that webrobot reads or writes, by module."""
    keys: dict[str, str] = {}
    for module, tree in _modules():
        for node in ast.walk(tree):
            key_node: ast.expr | None = None
            if isinstance(node, ast.Subscript) and _is_meta(node.value):
                key_node = node.slice
            elif (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                  and node.func.attr in ("get", "pop", "setdefault") and _is_meta(node.func.value)
                  and node.args):  # fmt: skip
                key_node = node.args[0]
            elif (isinstance(node, ast.Compare) and len(node.ops) == 1
                  and isinstance(node.ops[0], (ast.In, ast.NotIn)) and _is_meta(node.comparators[0])):  # fmt: skip
                key_node = node.left
            if key_node is not None:
                key = _meta_key(key_node, module)
                if key is not None:
                    keys.setdefault(key, module)
    return keys


def test_every_meta_key_webrobot_reads_is_in_the_meta_keys_reference() -> None:
    keys = meta_keys_read()
    # The scan finds keys spelled out and keys held in module constants.
    assert {"dont_obey_robotstxt", "dont_dedupe", "robots", "dont_obey_meta_robots"} <= set(keys)
    missing = {key: module for key, module in keys.items() if key not in documented("meta-keys.md")}
    assert missing == {}


def test_every_signal_is_in_the_signals_reference() -> None:
    from webrobot import signals

    names = {name for name, value in vars(signals).items() if type(value) is object}
    assert {"request_refused", "robots_resolved", "site_deferred"} <= names
    assert sorted(names - documented("signals.md")) == []


def test_every_command_is_in_the_commands_reference() -> None:
    commands = {m.name for m in pkgutil.iter_modules(webrobot.commands.__path__)}
    assert {"crawl", "webrobot-seed"} <= commands
    assert sorted(commands - documented("commands.md")) == []


def test_every_console_script_command_is_in_the_commands_reference() -> None:
    import tomllib

    from webrobot.__main__ import COMMANDS

    root = Path(__file__).resolve().parent.parent
    scripts = tomllib.loads((root / "pyproject.toml").read_text("utf-8"))["project"]["scripts"]
    assert scripts == {"webrobot": "webrobot.__main__:main"}
    assert sorted(f"webrobot {name}" for name in COMMANDS if f"webrobot {name}" not in
                  documented("commands.md")) == []  # fmt: skip


@pytest.mark.parametrize("name", ["webrobot-seed", "webrobot-export"])
def test_every_option_of_the_shared_crawl_commands_is_in_the_commands_reference(name: str) -> None:
    import argparse

    from scrapy.settings import Settings

    command = importlib.import_module(f"webrobot.commands.{name}").Command()
    command.settings = Settings()
    parser = argparse.ArgumentParser()
    command.add_options(parser)
    own = {o for a in parser._actions for o in a.option_strings if o.startswith("--")}
    text = (REFERENCE / "commands.md").read_text("utf-8")
    section = text.split(f"## `{name}`", 1)[1].split("\n## ", 1)[0]
    generic = {"--help", "--logfile", "--loglevel", "--nolog", "--profile", "--pidfile", "--set",
               "--pdb", "--output", "--format"}  # fmt: skip
    assert sorted(o for o in own - generic if o not in section) == []


def stats_keys_in_code() -> set[str]:
    """Stats keys written out in the code; an f-string's fields become ``<field>``."""
    keys: set[str] = set()
    for _module, tree in _modules():
        for node in ast.walk(tree):
            if isinstance(node, ast.Constant) and isinstance(node.value, str):
                text = node.value
            elif isinstance(node, ast.JoinedStr):
                text = "".join(
                    part.value if isinstance(part, ast.Constant) else "<field>"
                    for part in node.values
                )
            else:
                continue
            if " " not in text and text.count("/") >= 1 and text[-1:] not in ("/", ""):
                keys.add(text)
    return {key for key in checked_stats_keys(keys) if "{" not in key and "(" not in key}


def test_every_stats_key_written_in_the_code_is_in_the_stats_reference() -> None:
    keys = stats_keys_in_code()
    assert {"webrobot/robots/fetched", "webrobot/robots/status/<field>"} <= keys
    documented_keys = documented("stats.md")
    exact = KeyPatterns(documented_keys)
    # A key with a field is covered by a documented pattern, or by keys for each value.
    missing = []
    for key in keys:
        if "<field>" in key:
            prefix = key.split("<field>")[0]
            if not any(name.startswith(prefix) for name in documented_keys):
                missing.append(key)
        elif not exact.covers(key):
            missing.append(key)
    assert sorted(missing) == []


@pytest.mark.parametrize(
    ("documented_key", "key", "covered"),
    [
        ("webrobot/robots/status/<code>", "webrobot/robots/status/503", True),
        ("webrobot/robots/status/<code>", "webrobot/robots/status/503/x", False),
        ("webrobot/robots/status/<code>", "webrobot/robots/outcome/rules", False),
        ("webrobot/dupes/content", "webrobot/dupes/content", True),
        ("webrobot/dupes/content", "webrobot/dupes/contents", False),
    ],
)
def test_documented_patterns_match_one_segment(
    documented_key: str, key: str, covered: bool
) -> None:
    assert bool(pattern(documented_key).match(key)) is covered
    assert KeyPatterns({documented_key}).covers(key) is covered


def test_an_undocumented_stats_key_is_reported() -> None:
    patterns = KeyPatterns(documented("stats.md"))
    seen = {"webrobot/robots/fetched", "webrobot/robots/status/404", "webrobot/no/such/key",
            "downloader/request_count"}  # fmt: skip
    assert patterns.missing(checked_stats_keys(seen)) == ["webrobot/no/such/key"]


def test_the_metrics_page_lists_exactly_the_metrics_the_crawl_exposes() -> None:
    from webrobot.report.metricsmodel import METRICS, LiveState, values
    from webrobot.report.model import CrawlTally

    listed = {name for name in documented("metrics.md") if name.startswith("webrobot_")}
    declared = {m.name for m in METRICS}
    assert sorted(declared - listed) == [], "exposed but not on docs/reference/metrics.md"
    assert sorted(listed - declared) == [], "on docs/reference/metrics.md but never exposed"
    # Every declared metric is exposed by some crawl (a shared one with an index)...
    live = LiveState(started=0.0, frontier=0, redis=True, index=(0, 0))
    assert set(values({}, CrawlTally(), 0.0, live)) == declared
    # ...and each page row names the metric's labels.
    page = (REFERENCE / "metrics.md").read_text("utf-8")
    for metric in METRICS:
        row = next(line for line in page.splitlines() if line.startswith(f"| `{metric.name}` |"))
        assert row.split("|")[2].strip() == metric.kind, metric.name
        assert all(f"`{label}`" in row.split("|")[3] for label in metric.labels), metric.name


def test_every_item_field_is_in_the_items_reference() -> None:
    from dataclasses import fields

    from webrobot.items import MinedPageItem, PageItem

    names = {f.name for f in fields(PageItem)} | {f.name for f in fields(MinedPageItem)}
    assert {"url", "md5", "main_text", "fields"} <= names
    assert sorted(names - documented("items.md")) == []
