"""Where the classes a settings file names were before the package was laid out by the
parts of the crawl, kept loadable until :data:`REMOVED_IN`.

A project's settings name components by path (``DOWNLOADER_MIDDLEWARES``,
``SPIDER_MIDDLEWARES``, ``ITEM_PIPELINES``, ``EXTENSIONS``, ``SCHEDULER``,
``DUPEFILTER_CLASS``, ``REQUEST_FINGERPRINTER_CLASS``, ``DOWNLOADER``,
``SPIDER_LOADER_CLASS``, ``HTTPCACHE_POLICY``, ``ROBOTSTXT_PARSER`` and webrobot's own
``*_CLASS`` settings), so ``webrobot.middlewares.robots.RobotsMiddleware``,
``webrobot.robotsparsers.Rfc9309RobotParser`` and the other old paths of such classes
still load, with one ``DeprecationWarning`` each naming the new path. Only those: an old
path that holds no such class is gone (import from the new one). The old modules are
aliases, not copies: each old path gives the very objects of its new module.
"""

from __future__ import annotations

import importlib
import importlib.abc
import importlib.machinery
import sys
import warnings
from types import ModuleType
from typing import Any

#: The release that removes these old paths.
REMOVED_IN = "0.3.0"
#: Old module path (one that holds a class a settings file names) -> its new home.
MOVED: dict[str, str] = {
    "webrobot.robotsparsers": "webrobot.robots.parsers",
    "webrobot.robotscache": "webrobot.robots.cache",
    "webrobot.middlewares.robots": "webrobot.robots.middleware",
    "webrobot.middlewares.robotsfetch": "webrobot.robots.fetch",
    "webrobot.scheduler": "webrobot.frontier.scheduler",
    "webrobot.spidermiddlewares.priorities": "webrobot.frontier.prioritymiddleware",
    "webrobot.recrawl": "webrobot.frontier.recrawl",
    "webrobot.middlewares.freshness": "webrobot.frontier.freshnesstap",
    "webrobot.budget": "webrobot.urls.budget",
    "webrobot.middlewares.scope": "webrobot.urls.scopemiddleware",
    "webrobot.middlewares.traps": "webrobot.urls.trapmiddleware",
    "webrobot.middlewares.templates": "webrobot.urls.templatemiddleware",
    "webrobot.middlewares.blocklist": "webrobot.urls.blocklistmiddleware",
    "webrobot.middlewares.network": "webrobot.urls.networkmiddleware",
    "webrobot.middlewares.budget": "webrobot.urls.budgetmiddleware",
    "webrobot.spidermiddlewares.depth": "webrobot.urls.depthmiddleware",
    "webrobot.politeness": "webrobot.politeness.clock",
    "webrobot.downloader": "webrobot.politeness.downloader",
    "webrobot.middlewares.identity": "webrobot.politeness.fromheader",
    "webrobot.extensions.identity": "webrobot.politeness.identitycheck",
    "webrobot.middlewares.render": "webrobot.render.middleware",
    "webrobot.middlewares.metarobots": "webrobot.pages.metarobotsmiddleware",
    "webrobot.middlewares.contenttype": "webrobot.pages.contenttypegate",
    "webrobot.spidermiddlewares.metarobots": "webrobot.pages.metarobotsspidermiddleware",
    "webrobot.spidermiddlewares.links": "webrobot.urls.linkgate",
    "webrobot.spidermiddlewares.parsetree": "webrobot.pages.parsetree",
    "webrobot.dupefilter": "webrobot.seen.dupefilter",
    "webrobot.requestfingerprinter": "webrobot.seen.requestfingerprinter",
    "webrobot.contentdupes": "webrobot.seen.contentdupes",
    "webrobot.spidermiddlewares.dupes": "webrobot.seen.dupepages",
    "webrobot.pipelines": "webrobot.seen.pipelines",
    "webrobot.extensions.sitemaps": "webrobot.sitemaps.robotssitemaps",
    "webrobot.middlewares.archive": "webrobot.archive.middleware",
    "webrobot.extensions.searchindex": "webrobot.search.extension",
    "webrobot.extensions.report": "webrobot.report.extension",
    "webrobot.extensions.progress": "webrobot.report.progress",
    "webrobot.extensions.statsfile": "webrobot.report.statsfile",
    "webrobot.middlewares.report": "webrobot.report.taps",
    "webrobot.middlewares.failures": "webrobot.report.failures",
    "webrobot.spiderloader": "webrobot.spiders.loader",
    "webrobot.extensions.gctuning": "webrobot.gctuning",
}
#: Old packages that held only moved modules.
OLD_PACKAGES = frozenset(
    {"webrobot.middlewares", "webrobot.spidermiddlewares", "webrobot.extensions"}
)


#: The old paths that have warned in this process.
_warned: set[str] = set()


def _warn(old: str, new: str) -> None:
    """One warning per old path and process, however often a setting loads it."""
    if old in _warned:
        return
    _warned.add(old)
    warnings.warn(
        f"{old} moved to {new}; the old path is deprecated and removed in webrobot {REMOVED_IN}",
        DeprecationWarning,
        stacklevel=3,
    )


def moved_attribute(package: str, name: str) -> Any:
    """An attribute of an old *module* whose path is now a package (``webrobot.politeness``
    was a module; ``webrobot.politeness.SitePoliteness`` lives in ``webrobot.politeness.clock``)."""
    target = MOVED.get(package)
    if target is None or name.startswith("__"):
        raise AttributeError(f"module {package!r} has no attribute {name!r}")
    module = importlib.import_module(target)
    if not hasattr(module, name):
        raise AttributeError(f"module {package!r} has no attribute {name!r}")
    _warn(f"{package}.{name}", f"{target}.{name}")
    return getattr(module, name)


class OldPathFinder(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """Finds an old module path and loads it as an alias of the new module."""

    def find_spec(self, fullname: str, path: Any = None, target: Any = None) -> Any:
        new = MOVED.get(fullname)
        if fullname in OLD_PACKAGES:
            return importlib.machinery.ModuleSpec(fullname, self, is_package=True)
        if new is None or new.startswith(fullname + "."):  # that old path is a real package now
            return None
        return importlib.machinery.ModuleSpec(fullname, self)

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> ModuleType | None:
        return None

    def exec_module(self, module: ModuleType) -> None:
        if module.__name__ in OLD_PACKAGES:
            module.__path__ = []
            return
        new = MOVED[module.__name__]
        _warn(module.__name__, new)
        target = importlib.import_module(new)
        module.__dict__.update(
            (key, value) for key, value in vars(target).items() if not key.startswith("__")
        )
        module.__doc__ = f"Moved to :mod:`{new}`."


def install() -> None:
    """Make the old paths importable (once per process)."""
    if not any(isinstance(finder, OldPathFinder) for finder in sys.meta_path):
        sys.meta_path.append(OldPathFinder())
