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

Each old module is a file of three lines in ``webrobot/deprecated/paths/``, a folder that
``webrobot/__init__.py`` adds to the package's ``__path__``: Python finds an old path
there only when it is imported, so ``import webrobot`` installs no import hook and loads
none of this. An old *module* whose path is a package now (``webrobot.politeness``) keeps
its names through that package's ``__getattr__`` (:func:`moved_attribute`).
"""

from __future__ import annotations

import importlib
import sys
import warnings
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
    "webrobot.extensions.gctuning": "webrobot.resources.gctuning",
    "webrobot.gctuning": "webrobot.resources.gctuning",
}
#: Old packages that held only moved modules (folders of ``webrobot/deprecated/paths/``).
OLD_PACKAGES = frozenset(
    {"webrobot.middlewares", "webrobot.spidermiddlewares", "webrobot.extensions"}
)


#: The old paths that have warned in this process.
_warned: set[str] = set()


def _warn(old: str, new: str, stacklevel: int = 3) -> None:
    """One warning per old path and process, however often a setting loads it."""
    if old in _warned:
        return
    _warned.add(old)
    warnings.warn(
        f"{old} moved to {new}; the old path is deprecated and removed in webrobot {REMOVED_IN}",
        DeprecationWarning,
        stacklevel=stacklevel,
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


def alias(name: str) -> None:
    """Make the module ``name`` (an old path, run from ``webrobot/deprecated/paths/``) an
    alias of its new module: the very objects, one warning."""
    old = "webrobot." + name.removeprefix("webrobot.deprecated.paths.").removeprefix("webrobot.")
    new = MOVED[old]
    _warn(old, new, stacklevel=4)
    target = importlib.import_module(new)
    module = sys.modules[name]
    vars(module).pop("alias", None)
    module.__dict__.update(
        (key, value) for key, value in vars(target).items() if not key.startswith("__")
    )
    module.__doc__ = f"Moved to :mod:`{new}`."
