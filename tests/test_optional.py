"""Optional dependencies: not imported while their feature is off; a missing one is
one message naming the extra to install."""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from pathlib import Path

import pytest
from scrapy.settings import Settings

from tests.crawling import PROJECT_ROOT
from tests.extras import EXTRA_MODULES, OPTIONAL_MODULES
from tests.test_report_html import sample_report
from webrobot.distributed.addon import apply_redis_components
from webrobot.optional import MissingExtra, require, require_redis
from webrobot.report.html import render_html


def test_a_crawl_without_its_features_imports_none_of_them() -> None:
    code = (
        "import sys, webrobot, webrobot.addon, webrobot.settings, webrobot.report.extension, "
        "webrobot.report.html, webrobot.distributed.addon, webrobot.robots.middleware, "
        "webrobot.spiders.webrobot, webrobot.report.metrics, webrobot.report.metricsmodel\n"
        "import importlib; importlib.import_module('webrobot.commands.webrobot-seed')\n"
        "importlib.import_module('webrobot.commands.webrobot-export')\n"
        "print(sorted(m for m in ('redis', 'scrapy_redis', 'pygal', 'prometheus_client') "
        "if m in sys.modules))"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=PROJECT_ROOT
    )
    assert done.stdout.strip() == "[]"


@pytest.mark.parametrize(
    ("module", "extra"), [("redis", "redis"), ("scrapy_redis", "redis"), ("pygal", "charts")]
)
def test_a_missing_package_names_its_extra(
    monkeypatch: pytest.MonkeyPatch, module: str, extra: str
) -> None:
    monkeypatch.setitem(sys.modules, module, None)  # as if not installed
    with pytest.raises(MissingExtra) as caught:
        require(module, extra, "This feature")
    assert str(caught.value) == (
        f"This feature needs the {module!r} package, which is not installed: pip install 'webrobot[{extra}]'"
    )


def test_a_shared_crawl_without_redis_says_which_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "scrapy_redis", None)
    with pytest.raises(MissingExtra, match=r"WEBROBOT_REDIS_URL.*pip install 'webrobot\[redis\]'"):
        require_redis()
    settings = Settings({"WEBROBOT_REDIS_URL": "redis://127.0.0.1:9/0"})
    with pytest.raises(MissingExtra):
        apply_redis_components(settings)


def test_the_report_without_pygal_keeps_its_tables(monkeypatch: pytest.MonkeyPatch) -> None:
    with_charts = render_html(sample_report())
    monkeypatch.setitem(sys.modules, "pygal", None)
    without = render_html(sample_report())
    assert "<svg" in with_charts and "<svg" not in without
    assert "No charts: The charts of report.html needs the &#x27;pygal&#x27; package" in without
    assert "pip install &#x27;webrobot[charts]&#x27;" in without
    assert without.count("<table") == with_charts.count("<table") > 0


#: The modules of an extra's feature: they may import its packages at their top, since
#: nothing loads them unless that feature is on. Every other module must import with
#: no optional package installed.
FEATURE_MODULES: dict[str, set[str]] = {
    "redis": {
        f"webrobot.distributed.{name}"
        for name in (
            "budget",
            "contentdupes",
            "dupefilter",
            "frontier",
            "leaseupkeep",
            "lineage",
            "monitorstore",
            "politeness",
            "robotscache",
            "scheduler",
            "scope",
            "scripts",
        )
    },
    "warc": {"webrobot.archive.warc", "webrobot.archive.warcrepair"},
    "search": {"webrobot.search.web"},
}

#: Imports every webrobot module not in FEATURE_MODULES, then builds a crawler with the
#: add-on, while a finder first on sys.meta_path refuses every optional package (as if
#: not installed) and notes who asked, even when the asker catches the ImportError.
NO_EXTRAS = """
import importlib, importlib.abc, json, pkgutil, sys, traceback
optional, features = set(sys.argv[1].split(",")), set(sys.argv[2].split(","))
asked = {}

class NotInstalled(importlib.abc.MetaPathFinder):
    # First: notes an import of an optional package (a look-up with
    # importlib.util.find_spec is no import), then finds nothing.
    def find_spec(self, name, path=None, target=None):
        if name.partition(".")[0] in optional:
            stack = traceback.extract_stack()
            if not any(f.name == "find_spec" and f.filename.endswith(("importlib.util>", "importlib/util.py"))
                       for f in stack):
                chain = [f"{f.filename.rpartition('/webrobot/')[2]}:{f.lineno}"
                         for f in stack if "/webrobot/" in f.filename]
                asked.setdefault(name, " -> ".join(chain))
        return None

class Hiding(importlib.abc.MetaPathFinder):
    # Every other finder, blind to the optional packages (as if not installed).
    def __init__(self, finder):
        self.finder = finder
    def find_spec(self, name, path=None, target=None):
        if name.partition(".")[0] in optional:
            return None
        return self.finder.find_spec(name, path, target)
    def invalidate_caches(self):
        getattr(self.finder, "invalidate_caches", lambda: None)()

sys.meta_path[:] = [NotInstalled(), *(Hiding(f) for f in sys.meta_path)]
import webrobot
modules = sorted(m.name for m in pkgutil.walk_packages(webrobot.__path__, "webrobot.")
                 if m.name not in features and not m.name.endswith(".__main__"))
failed = {}
for name in modules:
    try:
        importlib.import_module(name)
    except Exception as exc:
        failed[name] = f"{type(exc).__name__}: {exc}"
from scrapy.utils.reactor import install_reactor
install_reactor("twisted.internet.asyncioreactor.AsyncioSelectorReactor")
from scrapy.utils.test import get_crawler
try:
    crawler = get_crawler(settings_dict={"ADDONS": {"webrobot.Addon": 0}})
    loaded = crawler.settings.getdict("DOWNLOADER_MIDDLEWARES")
except Exception as exc:
    failed["webrobot.Addon"], loaded = f"{type(exc).__name__}: {exc}", {}
print(json.dumps({"modules": modules, "failed": failed, "asked": asked, "loaded": sorted(loaded),
                  "imported": sorted(m for m in sys.modules if m.partition(".")[0] in optional)}))
"""


def no_extras_import() -> dict[str, object]:
    features = set().union(*FEATURE_MODULES.values())
    done = subprocess.run(
        [sys.executable, "-c", NO_EXTRAS, ",".join(OPTIONAL_MODULES), ",".join(sorted(features))],
        capture_output=True, text=True, cwd=PROJECT_ROOT, timeout=120, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr[-3000:]
    result: dict[str, object] = json.loads(done.stdout.splitlines()[-1])
    return result


def test_without_any_extra_every_module_outside_the_features_imports_and_the_add_on_loads() -> None:
    """A plain ``pip install webrobot`` (no extras): every module but those of an extra's
    feature imports, none even tries an optional package, and the add-on loads."""
    result = no_extras_import()
    assert result["failed"] == {}
    assert result["asked"] == {}, "optional packages imported at import time (module -> chain)"
    assert result["imported"] == []
    modules = set(result["modules"])  # type: ignore[call-overload]
    assert {"webrobot.addon", "webrobot.archive.middleware", "webrobot.distributed.keys",
            "webrobot.commands.search", "webrobot.search.index"} <= modules  # fmt: skip
    assert "webrobot.archive.middleware.WarcArchiveMiddleware" in result["loaded"]  # type: ignore[operator]


def test_the_feature_modules_exist_and_belong_to_declared_extras() -> None:
    """The exemption list cannot rot: each module is a file of the package, and each
    extra named is one pyproject.toml declares."""
    assert set(FEATURE_MODULES) <= set(EXTRA_MODULES)
    package = PROJECT_ROOT / "webrobot"
    for module in set().union(*FEATURE_MODULES.values()):
        assert (package.parent / Path(*module.split("."))).with_suffix(".py").is_file(), module


def _optional(module: str | None) -> bool:
    return bool(module) and str(module).partition(".")[0] in OPTIONAL_MODULES


def _optional_imports(node: ast.AST) -> list[str]:
    if isinstance(node, ast.Import):
        return [a.name for a in node.names if _optional(a.name)]
    if isinstance(node, ast.ImportFrom) and not node.level and _optional(node.module):
        return [str(node.module)]
    return []


def _type_checking(node: ast.AST) -> bool:
    return isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test)


def optional_import_faults(source: str, *, feature_module: bool) -> list[str]:
    """How ``source`` reaches an optional package other than through
    :mod:`webrobot.optional`: a ``find_spec`` look-up, an import inside ``try:``, or an
    import at module level (allowed in a feature module); ``if TYPE_CHECKING:`` is not
    looked into. A function-level import is allowed in a module that asks
    :mod:`webrobot.optional` first."""
    tree = ast.parse(source)
    faults: list[str] = []
    gated = "webrobot.optional" in source or feature_module

    def visit(node: ast.AST, top: bool, in_try: bool) -> None:
        for child in ast.iter_child_nodes(node):
            if _type_checking(child):
                for other in child.orelse:
                    visit(other, top, in_try)
                continue
            names = _optional_imports(child)
            line = getattr(child, "lineno", 0)
            if names and in_try:
                faults.append(f"{line}: try-import of {names[0]}")
            elif names and top and not feature_module:
                faults.append(f"{line}: module-level import of {names[0]}")
            elif names and not top and not gated:
                faults.append(f"{line}: import of {names[0]} without webrobot.optional")
            if isinstance(child, ast.Attribute | ast.Name) and "find_spec" in ast.unparse(child):
                faults.append(f"{line}: find_spec")
            nested_top = top and not isinstance(
                child, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda | ast.ClassDef
            )
            if isinstance(child, ast.Try):
                for part in child.body:
                    visit_one(part, nested_top, True)
                for rest in (*child.handlers, *child.orelse, *child.finalbody):
                    visit_one(rest, nested_top, in_try)
                continue
            visit(child, nested_top, in_try)

    def visit_one(node: ast.AST, top: bool, in_try: bool) -> None:
        holder = ast.Module(body=[node], type_ignores=[])  # type: ignore[list-item]
        visit(holder, top, in_try)

    visit(tree, True, False)
    return faults


def test_optional_packages_are_reached_only_through_webrobot_optional() -> None:
    """One way to an optional package, so a missing one is always the same one line:
    :func:`~webrobot.optional.require` (imports), :func:`~webrobot.optional.check` and
    :func:`~webrobot.optional.installed` (look without importing)."""
    package = PROJECT_ROOT / "webrobot"
    features = set().union(*FEATURE_MODULES.values())
    faults = {}
    for path in sorted(package.rglob("*.py")):
        if path == package / "optional.py":
            continue
        name = ".".join(path.relative_to(package.parent).with_suffix("").parts)
        found = optional_import_faults(path.read_text("utf-8"), feature_module=name in features)
        if found:
            faults[name] = found
    assert faults == {}


@pytest.mark.parametrize(
    "source",
    [
        "import importlib.util\nok = importlib.util.find_spec('warcio') is not None\n",
        "def f():\n    try:\n        import tantivy\n    except ImportError:\n        return None\n",
        "import warcio\n",
        "from pypdfium2 import PdfDocument\n",
        "def f():\n    from price_parser import Price\n",
    ],
)
def test_the_optional_import_rule_can_fail(source: str) -> None:
    assert optional_import_faults(source, feature_module=False)


def test_the_optional_import_rule_lets_the_gates_and_type_hints_through() -> None:
    source = (
        "from typing import TYPE_CHECKING\nfrom webrobot.optional import require\n"
        "if TYPE_CHECKING:\n    import redis\n"
        "def f():\n    require('prometheus_client', 'metrics', 'M')\n"
        "    from prometheus_client import CollectorRegistry\n"
    )
    assert optional_import_faults(source, feature_module=False) == []
    assert optional_import_faults("import redis\n", feature_module=True) == []
