"""The import graph of the ``webrobot`` package, read from the source (ast):

* the *pure* modules (the bottom floor: decisions only) import neither Scrapy
  nor Twisted, do no I/O (no files, network, processes, clocks, printing) and
  import no webrobot module that is not pure itself, so their unit tests call
  them directly and they can be reasoned about alone;
* the *Scrapy-free* modules may read and write files (site configs, blocklist
  files, checkpoint files) but import neither Scrapy nor Twisted nor a network
  client;
* no webrobot module imports itself back through others (no cycles);
* the packages are layered as the crawl is: each part of the crawl uses the
  crawl-wide modules and the parts below it, never a part beside or above it
  (:data:`LAYERS`);
* no module is longer than :data:`MAX_MODULE_LINES` (one job per module), the
  settings declarations and the modules listed with a reason excepted
  (:data:`LONG_MODULES`);
* every ``except Exception``, ``except BaseException`` and bare ``except:`` says on
  its line why it must be that broad.

Imports under ``if TYPE_CHECKING:`` are for annotations only and do not count;
nor does code under ``if __name__ == "__main__":`` (a module run as a script,
never when imported), nor a package's lazy attributes (a module-level
``__getattr__``, PEP 562: ``webrobot.Addon`` imports the add-on on first use,
after the package and its modules are imported, so ``import webrobot`` stays
pure and no import cycle can go through it).
A new decision module belongs in :data:`PURE`; docs/architecture.md says which
floor is which.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "webrobot"

#: Decision modules: no Scrapy, no Twisted, no I/O, only pure webrobot imports.
PURE = frozenset({
    "webrobot.report.metricsmodel",
    "webrobot.version",
    "webrobot.text",
    "webrobot.urls.budget",
    "webrobot.urls.canonical",
    "webrobot.urls.hostmap",
    "webrobot.urls.deadpolicy",
    "webrobot.job.exitstatus",
    "webrobot.politeness.unit",
    "webrobot.urls.upgrade",
    "webrobot.urls.hostnotes",
    "webrobot.urls.deadmemory",
    "webrobot.urls.tlsproblems",
    "webrobot.report.hosts",
    "webrobot.seen.contentfingerprints",
    "webrobot.seen.simhash",
    "webrobot.frontier.freshness",
    "webrobot.job.diskspace",
    "webrobot.politeness.identity",
    "webrobot.politeness.descriptors",
    "webrobot.items",
    "webrobot.pages.metarobots",
    "webrobot.pages.page",
    "webrobot.pages.wholetree",
    "webrobot.extract.page",
    "webrobot.extract.inputs",
    "webrobot.extract.fields",
    "webrobot.extract.images",
    "webrobot.urls.documents",
    "webrobot.pages.contenttypes",
    "webrobot.pages.srcset",
    "webrobot.extract.jsonld",
    "webrobot.extract.dates",
    "webrobot.extract.headtags",
    "webrobot.extract.authornames",
    "webrobot.extract.bylines",
    "webrobot.extract.urldates",
    "webrobot.extract.pagedates",
    "webrobot.extract.sitetitle",
    "webrobot.extract.htmltree",
    "webrobot.extract.structured",
    "webrobot.extract.metadata",
    "webrobot.extract.timeelements",
    "webrobot.extract.headlinetext",
    "webrobot.extract.printeddays",
    "webrobot.extract.postlistings",
    "webrobot.extract.wikidates",
    "webrobot.extract.language",
    "webrobot.extract.product",
    "webrobot.extract.product.extractor",
    "webrobot.extract.product.codes",
    "webrobot.extract.product.codelabels",
    "webrobot.extract.product.stockwords",
    "webrobot.extract.product.details",
    "webrobot.extract.product.skus",
    "webrobot.extract.product.datalayer",
    "webrobot.extract.product.context",
    "webrobot.extract.product.elements",
    "webrobot.extract.product.markup",
    "webrobot.extract.product.nodes",
    "webrobot.extract.product.offers",
    "webrobot.extract.product.shownprices",
    "webrobot.extract.product.stock",
    "webrobot.extract.product.prices",
    "webrobot.extract.product.walk",
    "webrobot.extract.shingles",
    "webrobot.extract.largepage",
    "webrobot.extract.articlebody",
    "webrobot.extract.continuation",
    "webrobot.extract.articleframe",
    "webrobot.extract.articlelead",
    "webrobot.extract.threadposts",
    "webrobot.extract.repeatedposts",
    "webrobot.extract.headline",
    "webrobot.extract.metaline",
    "webrobot.extract.textlayout",
    "webrobot.extract.sourcebreaks",
    "webrobot.extract.bodycontent",
    "webrobot.extract.layoutlists",
    "webrobot.extract.codeanchors",
    "webrobot.extract.layouttables",
    "webrobot.extract.emptytails",
    "webrobot.extract.seealso",
    "webrobot.extract.disclosures",
    "webrobot.extract.entrysections",
    "webrobot.extract.signupforms",
    "webrobot.extract.permalinks",
    "webrobot.extract.docchrome",
    "webrobot.extract.forumchrome",
    "webrobot.extract.references",
    "webrobot.extract.pagechrome",
    "webrobot.extract.sectionedpage",
    "webrobot.extract.shown",
    "webrobot.extract.speclists",
    "webrobot.extract.repeatedlines",
    "webrobot.extract.consentdialog",
    "webrobot.extract.listingcards",
    "webrobot.extract.cardtitles",
    "webrobot.extract.linkedcards",
    "webrobot.extract.collectionpage",
    "webrobot.extract.shownproduct",
    "webrobot.extract.cardframes",
    "webrobot.extract.pagekind",
    "webrobot.extract.sitepages",
    "webrobot.extract.readingchoice",
    "webrobot.extract.maintext",
    "webrobot.extract.trafilaturacompat",
    "webrobot.extract.justextcompat",
    "webrobot.extract.trafilaturacopies",
    "webrobot.extract.pagemeasure",
    "webrobot.extract.pagelanguage",
    "webrobot.optional",
    "webrobot.politeness.clock",
    "webrobot.frontier.priorities",
    "webrobot.frontier.leases",
    "webrobot.distributed.crawldone",
    "webrobot.distributed.leasetiming",
    "webrobot.render.rendering",
    "webrobot.report.model",
    "webrobot.report.givenup",
    "webrobot.report.kinds",
    "webrobot.report.budget",
    "webrobot.report.libraries",
    "webrobot.report.progressline",
    "webrobot.report.health",
    "webrobot.report.document",
    "webrobot.robots.cache",
    "webrobot.robots.policy",
    "webrobot.urls.scope",
    "webrobot.settingsmodel.model",
    "webrobot.settingsmodel.parse",
    "webrobot.settingsmodel.checks",
    "webrobot.signals",
    "webrobot.urls.sitekey",
    "webrobot.sitemaps.entries",
    "webrobot.report.summary",
    "webrobot.urls.traps",
    "webrobot.urls.templates",
    "webrobot.archive.requisites",
    "webrobot.monitor.snapshot",
    "webrobot.monitor.nearcopy",
    "webrobot.monitor.terms",
    "webrobot.monitor.images",
    "webrobot.monitor.events",
    "webrobot.monitor.watch",
    "webrobot.monitor.feed",
    "webrobot.monitor.reportpart",
    "webrobot.monitor.digest",
    "webrobot.monitor.moves",
    "webrobot.monitor.answers",
    "webrobot.monitor.summary",
    "webrobot.monitor.schedule",
    "webrobot.monitor.baseline",
    "webrobot.monitor.template",
    "webrobot.extract.version",
    "webrobot.wiring",
    "webrobot.distributed.leasescripts",
    "webrobot.distributed.politenessscripts",
    "webrobot.search.query",
})  # fmt: skip
#: No Scrapy or Twisted, but they load or save files.
SCRAPY_FREE = PURE | {
    "webrobot.urls.blocklist",
    "webrobot.sites.config",
    "webrobot.sites.values",
    "webrobot.frontier.freshnessstore",
    "webrobot.seen.stores",
    "webrobot.seen.storefile",
    "webrobot.search.lifeline",
    "webrobot.search.writerlock",
    "webrobot.extract.imagehashing",
    "webrobot.extract.documents",
    "webrobot.extract.parts",
    "webrobot.extract.item",
    "webrobot.extract.docworker",
    "webrobot.monitor.rules",
    "webrobot.monitor.store",
    "webrobot.monitor.database",
    "webrobot.monitor.outbox",
    "webrobot.monitor.retention",
    "webrobot.monitor.sitetemplates",
}
#: The crawl-wide modules (the package's top, the settings model and the old paths kept
#: for settings files, webrobot.deprecated): any part of the crawl may use them, and they
#: use only each other.
CRAWL_WIDE = frozenset({
    "webrobot.compat", "webrobot.items", "webrobot.deprecated",
    "webrobot.optional", "webrobot.signals", "webrobot.stats", "webrobot.text", "webrobot.version",
    "webrobot.wiring", "webrobot.settingsmodel", "webrobot.settingsmodel.model",
    "webrobot.settingsmodel.parse", "webrobot.settingsmodel.checks",
    "webrobot.settingsmodel.startup",
})  # fmt: skip
#: The parts of the crawl, lowest first: a module uses the crawl-wide modules, its own
#: package and the packages before its own, never one after it. The job and its disk
#: (a write that failed for want of space, the feeds, the spider state) are shared by every
#: part that writes under the crawl's folders. The URL filter's rules are used by every
#: part; what a page says is read by the frontier (re-crawls), the
#: seen-sets and robots.txt; the fetcher (politeness, render) obeys robots.txt; the
#: report, search index, shared crawl, archive and disk guard watch everything below them; site
#: configs and the spiders made of them put it all together, and the entry points
#: (the add-on, the project's settings, the commands, the demo) wire the crawl.
LAYERS = (
    "job", "urls", "pages", "extract", "frontier", "seen", "robots", "politeness", "render",
    "sitemaps", "report", "search", "monitor", "distributed", "archive", "resources", "sites",
    "spiders", "commands", "demo", "entry",
)  # fmt: skip
#: The most modules the package's top may hold (``__init__`` and ``__main__`` counted): a
#: newcomer finds the crawl-wide pieces there, and each part of the crawl in its folder.
MAX_TOP_LEVEL_MODULES = 12
#: The longest a module may be: one job per module, read in one sitting.
MAX_MODULE_LINES = 500
#: Why a module that is being reworked elsewhere is still over the cap.
#: The modules allowed over :data:`MAX_MODULE_LINES`, each with its reason. The settings
#: declarations are the lasting one (every setting declared once, one entry per
#: setting, in one place); every other entry is a debt: it leaves the list when its
#: module is split, and a test fails while a listed module fits under the cap.
LONG_MODULES: dict[str, str] = {
    "webrobot.settingsmodel.model": "every setting declared once, one entry per setting",
}
#: Top-level modules that are entry points: they put the parts together.
ENTRY = frozenset({"webrobot", "webrobot.__main__", "webrobot.addon", "webrobot.settings"})
#: Top-level packages that make a module Scrapy glue. parsel is not one: Scrapy's
#: selector library holds no Scrapy and does no I/O, and the per-site fields
#: (webrobot.extract.fields) read the crawl's tree with it.
SCRAPY = frozenset({"scrapy", "twisted", "scrapy_redis", "itemadapter"})
#: Top-level modules that do I/O (or read the clock, which pure modules are given).
IO_MODULES = frozenset({
    "asyncio", "ftplib", "glob", "http", "io", "mmap", "multiprocessing", "os", "pathlib",
    "pickle", "redis", "requests", "select", "selectors", "shutil", "signal", "smtplib",
    "socket", "sqlite3", "ssl", "subprocess", "sys", "tempfile", "threading", "time",
    "tomllib", "urllib.request", "zlib",
})  # fmt: skip
#: Network clients and servers: not even Scrapy-free modules use them.
NETWORK_MODULES = frozenset({"http", "redis", "requests", "socket", "ssl", "urllib.request"})
IO_BUILTINS = frozenset({"open", "print", "input"})


def module_name(path: Path) -> str:
    """The name Python imports ``path`` as. A command's file name keeps its hyphens
    (``commands/webrobot-seed.py`` is ``webrobot.commands.webrobot-seed``): Scrapy finds
    the commands by walking ``COMMANDS_MODULE`` and imports them by that name."""
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


MODULES = {module_name(p): p for p in sorted(PACKAGE.rglob("*.py"))}


def _type_checking_only(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _script_only(node: ast.If) -> bool:
    """``if __name__ == "__main__":``"""
    test = node.test
    return (
        isinstance(test, ast.Compare)
        and isinstance(test.left, ast.Name)
        and test.left.id == "__name__"
        and any(isinstance(c, ast.Constant) and c.value == "__main__" for c in test.comparators)
    )


def _walk(tree: ast.AST, top: bool = True) -> Iterator[ast.AST]:
    """Every node, except what runs only for type checkers, only as a script, or
    only when a package's lazy attribute is first used (module-level ``__getattr__``)."""
    for node in ast.iter_child_nodes(tree):
        if isinstance(node, ast.If) and (_type_checking_only(node) or (top and _script_only(node))):
            yield from (n for child in node.orelse for n in [child, *_walk(child, False)])
            continue
        if top and isinstance(node, ast.FunctionDef) and node.name == "__getattr__":
            continue
        yield node
        yield from _walk(node, False)


def imports(name: str) -> set[str]:
    """Every module ``name`` imports (dotted, absolute), function-level ones too."""
    path = MODULES[name]
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()
    for node in _walk(ast.parse(path.read_text("utf-8"), str(path))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                module = ".".join([*base, *([node.module] if node.module else [])])
            else:
                module = node.module or ""
            submodules = {f"{module}.{a.name}" for a in node.names} & MODULES.keys()
            found |= submodules  # from webrobot import signals: the submodule
            if len(submodules) < len(node.names):
                found.add(module)
    return found


def io_calls(name: str) -> set[str]:
    tree = ast.parse(MODULES[name].read_text("utf-8"))
    return {
        node.func.id for node in _walk(tree)
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in IO_BUILTINS
    }  # fmt: skip


def _top(module: str) -> str:
    return module.split(".")[0]


def _in(module: str, names: frozenset[str]) -> bool:
    """Is ``module`` one of ``names`` or inside one of them (``http.client`` is in ``http``)?"""
    parts = module.split(".")
    return any(".".join(parts[:n]) in names for n in range(1, len(parts) + 1))


def test_the_lists_name_real_modules() -> None:
    assert SCRAPY_FREE <= set(MODULES), sorted(SCRAPY_FREE - set(MODULES))


def test_every_file_of_the_package_is_checked() -> None:
    """No file is left out, the commands whose names hold a hyphen included."""
    assert sorted(MODULES.values()) == sorted(PACKAGE.rglob("*.py"))
    commands = {m for m in MODULES if m.startswith("webrobot.commands.webrobot-")}
    assert commands >= {
        "webrobot.commands.webrobot-export", "webrobot.commands.webrobot-seed",
        "webrobot.commands.webrobot-wacz",
    }  # fmt: skip
    assert "webrobot.distributed.keys" in imports("webrobot.commands.webrobot-seed")
    assert layer("webrobot.commands.webrobot-wacz") == "commands"


@pytest.mark.parametrize("name", sorted(PURE))
def test_pure_modules_import_no_scrapy_and_do_no_io(name: str) -> None:
    found = imports(name)
    assert not {m for m in found if _top(m) in SCRAPY}, "imports Scrapy or Twisted"
    assert not {m for m in found if _in(m, IO_MODULES)}, "imports a module that does I/O"
    assert not io_calls(name), "calls open(), print() or input()"
    impure = {m for m in found if _top(m) == "webrobot" and m in MODULES and m not in PURE}
    assert not impure, "imports webrobot modules that are not pure"


@pytest.mark.parametrize("name", sorted(SCRAPY_FREE - PURE))
def test_scrapy_free_modules_import_no_scrapy_and_no_network(name: str) -> None:
    found = imports(name)
    assert not {m for m in found if _top(m) in SCRAPY}, "imports Scrapy or Twisted"
    assert not {m for m in found if _in(m, NETWORK_MODULES)}, "imports a network client"
    glue = {m for m in found if _top(m) == "webrobot" and m in MODULES and m not in SCRAPY_FREE}
    assert not glue, "imports webrobot modules that use Scrapy"


def find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One cycle of ``graph`` as a path that ends where it starts, or None."""
    state: dict[str, int] = {}  # 1: on the current path, 2: done
    path: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        path.append(node)
        for nxt in sorted(graph.get(node, ())):
            if state.get(nxt) == 1:
                return path[path.index(nxt) :] + [nxt]
            if nxt not in state:
                cycle = visit(nxt)
                if cycle:
                    return cycle
        path.pop()
        state[node] = 2
        return None

    for start in sorted(graph):
        if start not in state:
            cycle = visit(start)
            if cycle:
                return cycle
    return None


def import_graph() -> dict[str, set[str]]:
    """webrobot module -> the webrobot modules it imports (a package's own
    ``__init__`` left out: importing ``webrobot.x`` runs it, but it imports nothing)."""
    graph = {}
    for name in MODULES:
        graph[name] = {m for m in imports(name) if m in MODULES and m != name}
    return graph


def test_no_import_cycles() -> None:
    assert find_cycle(import_graph()) is None, " -> ".join(find_cycle(import_graph()) or [])


def test_the_checks_can_fail() -> None:
    """The cycle finder finds cycles, and the purity rules catch what they are for."""
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": set()}) == ["a", "b", "c", "a"]
    assert find_cycle({"a": {"b"}, "b": set()}) is None
    assert _in("http.client", IO_MODULES) and _in("urllib.request", IO_MODULES)
    assert not _in("urllib.parse", IO_MODULES)
    glue = imports("webrobot.robots.middleware")
    assert {m for m in glue if _top(m) in SCRAPY}, "the robots.txt middleware is Scrapy glue"
    assert "webrobot.urls.sitekey" in glue and "webrobot.signals" in imports(
        "webrobot.report.collector"
    )
    assert "scrapy.crawler" not in imports("webrobot.politeness.clock"), (
        "TYPE_CHECKING imports do not count"
    )


def test_only_script_blocks_and_lazy_attributes_are_left_out() -> None:
    """Function-level imports count; a ``__main__`` block and a package's ``__getattr__`` do not."""
    assert "webrobot.robots.middleware" in imports("webrobot.render.middleware")  # in a function
    script = ast.parse('def f() -> None:\n    pass\nif __name__ == "__main__":\n    print(f())\n')
    walked = [n for n in _walk(script) if isinstance(n, ast.Call)]
    assert not walked and [n for n in ast.walk(script) if isinstance(n, ast.Call)]
    assert "webrobot.addon" in MODULES["webrobot"].read_text(
        "utf-8"
    ) and "webrobot.addon" not in imports("webrobot")


def layer(module: str) -> str:
    """The part of the crawl ``module`` belongs to: a package name, ``"crawl-wide"`` or ``"entry"``."""
    if module in ENTRY:
        return "entry"
    if module in CRAWL_WIDE or module.startswith("webrobot.deprecated."):
        return "crawl-wide"  # the old paths' aliases import their new modules by name only
    return module.split(".")[1]


def layering_problems(graph: dict[str, set[str]]) -> list[str]:
    """Every import that points beside or above its module's layer."""
    problems = []
    for name, found in sorted(graph.items()):
        own = layer(name)
        for target in sorted(found):
            other = layer(target)
            if other == own:
                continue
            if own == "crawl-wide":
                problems.append(f"{name} (crawl-wide) imports {target} ({other})")
            elif other != "crawl-wide" and LAYERS.index(other) > LAYERS.index(own):
                problems.append(f"{name} ({own}) imports {target} ({other}, a later part)")
    return problems


def test_every_module_has_a_layer() -> None:
    unknown = {m for m in MODULES if layer(m) not in {*LAYERS, "crawl-wide"}}
    assert not unknown, f"top-level modules that are neither crawl-wide nor entry points: {unknown}"


def test_each_part_of_the_crawl_uses_only_the_parts_below_it() -> None:
    assert layering_problems(import_graph()) == []


def test_the_layering_check_can_fail() -> None:
    graph = {
        "webrobot.urls.scope": {"webrobot.robots.policy", "webrobot.signals"},
        "webrobot.robots.middleware": {"webrobot.urls.sitekey", "webrobot.robots.policy"},
        "webrobot.signals": {"webrobot.urls.sitekey"},
        "webrobot.addon": {"webrobot.distributed.addon"},
    }
    assert layering_problems(graph) == [
        "webrobot.signals (crawl-wide) imports webrobot.urls.sitekey (urls)",
        "webrobot.urls.scope (urls) imports webrobot.robots.policy (robots, a later part)",
    ]


def module_lines(name: str) -> int:
    return len(MODULES[name].read_text("utf-8").splitlines())


def test_no_module_is_over_the_line_limit() -> None:
    assert set(LONG_MODULES) <= set(MODULES), sorted(set(LONG_MODULES) - set(MODULES))
    over = {
        name: module_lines(name)
        for name in sorted(set(MODULES) - set(LONG_MODULES))
        if module_lines(name) > MAX_MODULE_LINES
    }
    assert not over, f"modules over {MAX_MODULE_LINES} lines (split them by job): {over}"


def test_every_long_module_exception_is_still_needed_and_says_why() -> None:
    """The exception list cannot rot: a listed module that fits under the cap leaves it."""
    assert all(reason.strip() for reason in LONG_MODULES.values())
    fits = sorted(name for name in LONG_MODULES if module_lines(name) <= MAX_MODULE_LINES)
    assert not fits, f"under {MAX_MODULE_LINES} lines now: remove from LONG_MODULES: {fits}"


def test_the_top_level_holds_few_modules() -> None:
    top = sorted(p.name for p in PACKAGE.glob("*.py"))
    assert len(top) <= MAX_TOP_LEVEL_MODULES, f"{len(top)} modules at the top: {top}"


def _broad(handler: ast.ExceptHandler) -> bool:
    kinds = handler.type.elts if isinstance(handler.type, ast.Tuple) else [handler.type]
    return any(
        kind is None or (isinstance(kind, ast.Name) and kind.id in {"Exception", "BaseException"})
        for kind in kinds
    )


def _reason(line: str) -> str:
    """The words of a line's comment, a ``noqa`` directive left out."""
    comment = line.partition("except")[2].partition("#")[2]
    return re.sub(r"noqa(?::\s*[A-Z]+\d+(?:\s*,\s*[A-Z]+\d+)*)?", "", comment).strip(" -:")


def unexplained_broad_excepts(source: str) -> list[int]:
    """Lines of broad ``except`` clauses with no comment giving the reason."""
    lines = source.splitlines()
    return [
        node.lineno
        for node in ast.walk(ast.parse(source))
        if isinstance(node, ast.ExceptHandler)
        and _broad(node)
        and not re.search(r"[a-z]{2}", _reason(lines[node.lineno - 1]))
    ]


def test_every_broad_except_says_why() -> None:
    found = {
        name: lines
        for name, path in sorted(MODULES.items())
        if (lines := unexplained_broad_excepts(path.read_text("utf-8")))
    }
    assert not found, f"broad excepts with no reason on their line: {found}"


def test_the_broad_except_check_can_fail() -> None:
    source = (
        "try:\n    pass\nexcept:\n    pass\n"
        "try:\n    pass\nexcept (ValueError, Exception):\n    pass\n"
        "try:\n    pass\nexcept BaseException:  # rolled back, re-raised\n    raise\n"
        "try:\n    pass\nexcept ValueError:\n    pass\n"
        "try:\n    pass\nexcept Exception:  # noqa: BLE001, S110\n    pass\n"
        "try:\n    pass\nexcept Exception:  # noqa: BLE001 - a plugin may raise anything\n    pass\n"
    )
    assert unexplained_broad_excepts(source) == [3, 7, 19]
