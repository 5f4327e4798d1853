"""Old module paths (before the package was laid out by the parts of the crawl) still load,
as aliases of their new modules, with a DeprecationWarning that names the new path."""

from __future__ import annotations

import importlib
import re
import sys
from pathlib import Path

import pytest
from scrapy.utils.misc import load_object

from webrobot.moved import MOVED, OLD_PACKAGES

ROOT = Path(__file__).resolve().parent.parent


def _forget(name: str) -> None:
    for key in [k for k in sys.modules if k == name or k.startswith(name + ".")]:
        del sys.modules[key]


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
        ("webrobot.frontier.Frontier", "webrobot.frontier.queues"),
        ("webrobot.sitemaps.SitemapEntry", "webrobot.sitemaps.entries"),
        ("webrobot.spiderloader.SiteSpiderLoader", "webrobot.spiders.loader"),
        ("webrobot.refusals.Refuser", "webrobot.urls.refusals"),
    ],
)
def test_class_paths_a_project_may_list_still_load(path: str, new: str) -> None:
    module, _, name = path.rpartition(".")
    if not MOVED[module].startswith(module + "."):
        _forget(module)  # imported by an earlier test: the warning comes at import
    with pytest.warns(DeprecationWarning):
        loaded = load_object(path)
    assert loaded is getattr(importlib.import_module(new), name)


def test_an_old_package_imports_and_a_missing_name_is_an_attribute_error() -> None:
    for package in OLD_PACKAGES:
        assert importlib.import_module(package).__path__ == []
    with pytest.raises(AttributeError):
        importlib.import_module("webrobot.politeness").NoSuchThing  # noqa: B018
    with pytest.raises(ModuleNotFoundError):
        importlib.import_module("webrobot.middlewares.no_such_module")


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
        if path.name != "moved.py"
        for m in old_paths.finditer(path.read_text("utf-8"))
        if not MOVED[m.group(1)].startswith(m.group(1) + ".")
        or m.group().rpartition(".")[2] in _old_module_names(m.group(1))
    }
    assert not found, sorted(found)


def _old_module_names(old: str) -> set[str]:
    """Names of an old module whose path is a package now (``webrobot.politeness``)."""
    return {n for n in vars(importlib.import_module(MOVED[old])) if not n.startswith("_")}
