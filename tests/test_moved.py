"""The old paths of the classes a settings file names (before the package was laid out by
the parts of the crawl) still load, as aliases of their new modules, with one
DeprecationWarning that names the new path and the release that removes the old one; no
other old path loads, and ``import webrobot`` pays nothing for them (no import hook, no
alias loaded)."""

from __future__ import annotations

import importlib
import re
import subprocess
import sys
import warnings
from pathlib import Path

import pytest
from scrapy.utils.misc import load_object

from tests.components import webrobot_crawler
from webrobot import deprecated as moved
from webrobot.deprecated import MOVED, OLD_PACKAGES, REMOVED_IN

ROOT = Path(__file__).resolve().parent.parent
ALIASES = ROOT / "webrobot" / "deprecated" / "paths"


def _forget(name: str) -> None:
    """Unload an old path and let it warn again (it warns once per process)."""
    for key in [k for k in sys.modules if k == name or k.startswith(name + ".")]:
        del sys.modules[key]
    moved._warned.discard(name)
    for key in [k for k in moved._warned if k.startswith(name + ".")]:
        moved._warned.discard(key)


#: Old module paths that are packages now keep their names through the package
#: (``webrobot.politeness.SitePoliteness``): tested with the class paths below.
ALIASED = sorted(old for old, new in MOVED.items() if not new.startswith(old + "."))


@pytest.mark.parametrize("old", ALIASED)
def test_every_old_module_path_imports_as_its_new_module(old: str) -> None:
    new = importlib.import_module(MOVED[old])
    _forget(old)
    with pytest.warns(DeprecationWarning, match=re.escape(MOVED[old])):
        alias = importlib.import_module(old)
    public = [name for name in vars(new) if not name.startswith("_")]
    assert public and all(getattr(alias, name) is getattr(new, name) for name in public)


@pytest.mark.parametrize(
    ("path", "new"),
    [
        ("webrobot.robotsparsers.Rfc9309RobotParser", "webrobot.robots.parsers"),
        ("webrobot.robotsparsers.FirstMatchRobotParser", "webrobot.robots.parsers"),
        ("webrobot.middlewares.robots.RobotsMiddleware", "webrobot.robots.middleware"),
        ("webrobot.scheduler.FrontierScheduler", "webrobot.frontier.scheduler"),
        ("webrobot.dupefilter.SeenUrlFilter", "webrobot.seen.dupefilter"),
        (
            "webrobot.requestfingerprinter.CanonicalRequestFingerprinter",
            "webrobot.seen.requestfingerprinter",
        ),
        ("webrobot.pipelines.DuplicateContentPipeline", "webrobot.seen.pipelines"),
        ("webrobot.spidermiddlewares.links.LinkGateMiddleware", "webrobot.urls.linkgate"),
        ("webrobot.extensions.report.CrawlReport", "webrobot.report.extension"),
        ("webrobot.politeness.SitePoliteness", "webrobot.politeness.clock"),
        ("webrobot.robotscache.LruRobotsCache", "webrobot.robots.cache"),
        ("webrobot.budget.PageBudget", "webrobot.urls.budget"),
        ("webrobot.spiderloader.SiteSpiderLoader", "webrobot.spiders.loader"),
        ("webrobot.extensions.gctuning.GarbageCollectorTuning", "webrobot.resources.gctuning"),
        ("webrobot.gctuning.GarbageCollectorTuning", "webrobot.resources.gctuning"),
    ],
)
def test_class_paths_a_project_may_list_still_load(path: str, new: str) -> None:
    module, _, name = path.rpartition(".")
    _forget(module if not MOVED[module].startswith(module + ".") else path)
    with pytest.warns(DeprecationWarning, match=re.escape(f"removed in webrobot {REMOVED_IN}")):
        loaded = load_object(path)
    assert loaded is getattr(importlib.import_module(new), name)


@pytest.mark.parametrize(
    "path",
    ["webrobot.middlewares.traps.UrlTrapMiddleware", "webrobot.politeness.SitePoliteness"],
)
def test_an_old_path_warns_once_however_often_it_is_loaded(path: str) -> None:
    module = path.rpartition(".")[0]
    old = module if not MOVED[module].startswith(module + ".") else path
    _forget(old)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")  # Python's own filter would hide a repeat
        first, second, third = (load_object(path) for _ in range(3))
    assert first is second is third
    deprecations = [str(w.message) for w in caught if issubclass(w.category, DeprecationWarning)]
    assert len(deprecations) == 1 and deprecations[0].startswith(f"{old} moved to "), deprecations


_CLASS_PATH = re.compile(r"webrobot(\.\w+)+\.[A-Z]\w*")


def _named_classes(value: object) -> set[str]:
    """The webrobot class paths in a setting's value (a path, or a table of components)."""
    if isinstance(value, str):
        return {value} if _CLASS_PATH.fullmatch(value) else set()
    if isinstance(value, dict):
        return {p for k, v in value.items() for p in _named_classes(k) | _named_classes(v)}
    return set()


def test_the_old_paths_kept_are_those_of_classes_a_settings_file_names() -> None:
    """Each kept old path holds a class that webrobot's settings (the add-on applied) name:
    a component, the scheduler, the dupefilter, a robots.txt parser, a *_CLASS setting."""
    settings = webrobot_crawler().settings.copy_to_dict()
    named = {p for value in settings.values() for p in _named_classes(value)}
    modules = {path.rpartition(".")[0] for path in named}
    assert "webrobot.robots.middleware.RobotsMiddleware" in named  # the walk finds components
    assert "webrobot.robots.parsers.Rfc9309RobotParser" in named  # and class settings
    assert not {old: new for old, new in MOVED.items() if new not in modules}


@pytest.mark.parametrize(
    "old", ["webrobot.traps", "webrobot.canonical", "webrobot.middlewares.robotsheld",
            "webrobot.config", "webrobot.refusals"],
)  # fmt: skip
def test_an_old_path_of_no_such_class_is_gone(old: str) -> None:
    _forget(old)
    with pytest.raises(ModuleNotFoundError):
        importlib.import_module(old)


def test_an_old_package_imports_and_a_missing_name_is_an_attribute_error() -> None:
    for package in OLD_PACKAGES:
        old = importlib.import_module(package)
        assert Path(old.__file__ or "").parent == ALIASES / package.rpartition(".")[2]
    with pytest.raises(AttributeError):
        importlib.import_module("webrobot.politeness").NoSuchThing  # noqa: B018
    for package, name in (("webrobot.frontier", "Frontier"), ("webrobot.sitemaps", "SitemapEntry")):
        with pytest.raises(AttributeError):  # those old modules held no class a setting names
            getattr(importlib.import_module(package), name)
    with pytest.raises(ModuleNotFoundError):
        importlib.import_module("webrobot.middlewares.no_such_module")


def test_each_old_module_path_is_one_alias_file_and_each_alias_file_an_old_path() -> None:
    files = {
        "webrobot." + ".".join(p.relative_to(ALIASES).with_suffix("").parts)
        for p in ALIASES.rglob("*.py")
        if p.name != "__init__.py"
    }
    assert files == set(ALIASED)
    packages = {"webrobot." + p.parent.name for p in ALIASES.glob("*/__init__.py")}
    assert packages == set(OLD_PACKAGES)


def test_importing_webrobot_installs_no_import_hook_and_loads_no_alias() -> None:
    """The old paths cost nothing at start: Python looks in their folder only when a
    webrobot module is not found in the package itself."""
    code = (
        "import sys; before = list(sys.meta_path); import webrobot, webrobot.robots.middleware; "
        "print(sys.meta_path == before, sorted(m for m in sys.modules if 'deprecated' in m"
        " or m.split('.')[:2] == ['webrobot', 'middlewares']))"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT
    )
    assert done.stdout.strip() == "True []"


def test_every_new_path_exists_and_no_old_path_is_still_a_file() -> None:
    for old, new in MOVED.items():
        assert (ROOT / (new.replace(".", "/") + ".py")).is_file(), new
        if not new.startswith(old + "."):
            assert not (ROOT / (old.replace(".", "/") + ".py")).exists(), old


def test_the_docs_and_settings_name_only_new_paths() -> None:
    old_paths = re.compile(
        r"(?<![\w.])(" + "|".join(re.escape(o) for o in sorted(MOVED, key=len, reverse=True))
        + r")\.[A-Z]\w+"
    )  # fmt: skip
    texts = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md")), *sorted(
        (ROOT / "webrobot").rglob("*.py"))]  # fmt: skip
    found = {
        f"{path.relative_to(ROOT)}: {m.group()}"
        for path in texts
        if ALIASES.parent not in path.parents
        for m in old_paths.finditer(path.read_text("utf-8"))
        if not MOVED[m.group(1)].startswith(m.group(1) + ".")
        or m.group().rpartition(".")[2] in _old_module_names(m.group(1))
    }
    assert not found, sorted(found)


def _old_module_names(old: str) -> set[str]:
    """Names of an old module whose path is a package now (``webrobot.politeness``)."""
    return {n for n in vars(importlib.import_module(MOVED[old])) if not n.startswith("_")}
