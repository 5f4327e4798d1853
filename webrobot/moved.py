"""Where webrobot's modules were before the package was laid out by the parts of the
crawl, kept importable for one more release.

``webrobot.robotsparsers.Rfc9309RobotParser``, ``webrobot.middlewares.robots.RobotsMiddleware``
and every other old path still load (Scrapy settings name classes by path), with a
``DeprecationWarning`` naming the new one. The old modules are aliases, not copies: each old
path gives the very objects of its new module.
"""

from __future__ import annotations

import importlib
import importlib.abc
import importlib.machinery
import sys
import warnings
from types import ModuleType
from typing import Any

#: Old module path -> its new home.
MOVED: dict[str, str] = {
    "webrobot.robotsparsers": "webrobot.robots.parsers",
    "webrobot.robotspolicy": "webrobot.robots.policy",
    "webrobot.robotscache": "webrobot.robots.cache",
    "webrobot.middlewares.robots": "webrobot.robots.middleware",
    "webrobot.middlewares.robotsfetch": "webrobot.robots.fetch",
    "webrobot.middlewares.robotsdecide": "webrobot.robots.decide",
    "webrobot.middlewares.robotsheld": "webrobot.robots.held",
    "webrobot.middlewares.robotsclaim": "webrobot.robots.claim",
    "webrobot.frontier": "webrobot.frontier.queues",
    "webrobot.journal": "webrobot.frontier.journal",
    "webrobot.compactrequest": "webrobot.frontier.compactrequest",
    "webrobot.leaseparking": "webrobot.frontier.leases",
    "webrobot.scheduler": "webrobot.frontier.scheduler",
    "webrobot.priorities": "webrobot.frontier.priorities",
    "webrobot.spidermiddlewares.priorities": "webrobot.frontier.prioritymiddleware",
    "webrobot.freshness": "webrobot.frontier.freshness",
    "webrobot.freshnessstore": "webrobot.frontier.freshnessstore",
    "webrobot.recrawl": "webrobot.frontier.recrawl",
    "webrobot.middlewares.freshness": "webrobot.frontier.freshnesstap",
    "webrobot.canonical": "webrobot.urls.canonical",
    "webrobot.sitekey": "webrobot.urls.sitekey",
    "webrobot.scope": "webrobot.urls.scope",
    "webrobot.traps": "webrobot.urls.traps",
    "webrobot.urltemplates": "webrobot.urls.templates",
    "webrobot.blocklist": "webrobot.urls.blocklist",
    "webrobot.netpolicy": "webrobot.urls.netpolicy",
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
    "webrobot.identity": "webrobot.politeness.identity",
    "webrobot.middlewares.identity": "webrobot.politeness.fromheader",
    "webrobot.extensions.identity": "webrobot.politeness.identitycheck",
    "webrobot.page": "webrobot.pages.page",
    "webrobot.metarobots": "webrobot.pages.metarobots",
    "webrobot.contenttypes": "webrobot.pages.contenttypes",
    "webrobot.inflate": "webrobot.pages.inflate",
    "webrobot.linkrequests": "webrobot.seen.linkrequests",
    "webrobot.rendering": "webrobot.render.rendering",
    "webrobot.middlewares.render": "webrobot.render.middleware",
    "webrobot.middlewares.metarobots": "webrobot.pages.metarobotsmiddleware",
    "webrobot.middlewares.contenttype": "webrobot.pages.contenttypegate",
    "webrobot.spidermiddlewares.metarobots": "webrobot.pages.metarobotsspidermiddleware",
    "webrobot.spidermiddlewares.links": "webrobot.pages.linkgate",
    "webrobot.spidermiddlewares.parsetree": "webrobot.pages.parsetree",
    "webrobot.seenstore": "webrobot.seen.stores",
    "webrobot.dupefilter": "webrobot.seen.dupefilter",
    "webrobot.requestfingerprinter": "webrobot.seen.requestfingerprinter",
    "webrobot.contentfingerprints": "webrobot.seen.contentfingerprints",
    "webrobot.contentdupes": "webrobot.seen.contentdupes",
    "webrobot.spidermiddlewares.dupes": "webrobot.seen.dupepages",
    "webrobot.checkpoint": "webrobot.seen.checkpoint",
    "webrobot.pipelines": "webrobot.seen.pipelines",
    "webrobot.sitemaps": "webrobot.sitemaps.entries",
    "webrobot.sitemapreader": "webrobot.sitemaps.reader",
    "webrobot.sitemapfollow": "webrobot.sitemaps.follow",
    "webrobot.extensions.sitemaps": "webrobot.sitemaps.robotssitemaps",
    "webrobot.warc": "webrobot.archive.warc",
    "webrobot.middlewares.archive": "webrobot.archive.middleware",
    "webrobot.searchindex": "webrobot.search.index",
    "webrobot.indexspool": "webrobot.search.spool",
    "webrobot.indexworker": "webrobot.search.worker",
    "webrobot.searchweb": "webrobot.search.web",
    "webrobot.textextract": "webrobot.search.textextract",
    "webrobot.extensions.searchindex": "webrobot.search.extension",
    "webrobot.extensions.report": "webrobot.report.extension",
    "webrobot.extensions.progress": "webrobot.report.progress",
    "webrobot.extensions.statsfile": "webrobot.report.statsfile",
    "webrobot.middlewares.report": "webrobot.report.taps",
    "webrobot.middlewares.failures": "webrobot.report.failures",
    "webrobot.summary": "webrobot.report.summary",
    "webrobot.config": "webrobot.sites.config",
    "webrobot.spiderloader": "webrobot.spiders.loader",
    "webrobot.refusals": "webrobot.urls.refusals",
    "webrobot.extensions.gctuning": "webrobot.gctuning",
}
#: Old packages that held only moved modules.
OLD_PACKAGES = frozenset(
    {"webrobot.middlewares", "webrobot.spidermiddlewares", "webrobot.extensions"}
)


def _warn(old: str, new: str) -> None:
    warnings.warn(
        f"{old} moved to {new}; the old path goes in a later release",
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
