"""The tier of a test file, and which tests run serially, decided from the file's
own source, so that a new test file falls into a tier without being listed.

Tiers (pytest markers, registered in pytest.ini; conftest.py puts exactly one on
every test):

* ``install``: the fresh-virtualenv install tests (the file makes a virtualenv:
  ``import venv`` or ``-m venv``).
* ``bed``: real parts other than a plain redis-server (nginx, pywb, Prometheus,
  Redis Cluster, Scrapyd, Chromium): the file imports a bed's helper
  (``tests.nginxbed``, ``tests.replay``, ``tests.rediscluster``, ``tests.browser``,
  Playwright), uses the ``nginx_bed`` fixture, or names a bed's program in a
  string (``"chromium"``, ``"prometheus"``...).
* ``loopback``: end-to-end on loopback (local HTTP servers, ``scrapy crawl``
  subprocesses, a real redis-server): the file imports what starts a process, a
  server or a socket (``subprocess``, ``socket``, ``threading``, ``tests.crawling``,
  ``tests.redisserver``, ``webrobot.demo.server``, another ``tests.test_*`` file...),
  or uses the ``make_site`` or ``redis_server`` fixture.
* ``unit``: everything else (pure and in-process unit tests).

A file that fits several tiers gets the heaviest. The rule errs towards the
heavier tier: a unit test that imports ``threading`` is called ``loopback``, which
only runs it among the end-to-end tests.

Serial (``serial`` marker): tests that judge time (gaps between requests,
Crawl-delay, backoff, lease TTLs, kill timing, the disk-full window) and fail when
the machine is busy run alone, after the parallel run (``make test``). A test is
serial when it is marked ``@pytest.mark.serial("why")`` (or its file is), or when,
outside the ``unit`` tier, its own body holds a span of time to a number in an
assertion (a clock-like name, :data:`CLOCK_NAMES`: ``gaps``, ``elapsed``, ``took``,
``started``, ``monotonic``..., compared with a bound or ``pytest.approx``). So a new
timing test that nobody marked still runs serially.
"""

from __future__ import annotations

import ast
import functools
import itertools
import re
from collections.abc import Iterable
from pathlib import Path

TIERS = ("unit", "loopback", "bed", "install")
#: The heaviest first: the order the parallel run hands files to its workers.
ORDER = {"install": 0, "bed": 1, "loopback": 2, "unit": 3}

#: Modules whose import makes a file a bed test.
BED_MODULES = {"tests.nginxbed", "tests.replay", "tests.rediscluster", "tests.browser",
               "playwright", "scrapy_playwright"}  # fmt: skip
#: A bed's program named in a string literal of the file.
BED_PROGRAMS = {"chromium", "chromium-browser", "nginx", "prometheus", "promtool", "scrapyd",
                "scrapyd-deploy", "wayback", "wb-manager"}  # fmt: skip
BED_FIXTURES = {"nginx_bed"}
#: Modules whose import makes a file a loopback (end-to-end) test.
LOOPBACK_MODULES = {"subprocess", "socket", "socketserver", "threading", "multiprocessing",
                    "http.server", "aiohttp", "tests.crawling", "tests.redisserver",
                    "tests.manysites", "tests.requisite_site", "webrobot.demo.server",
                    "webrobot.demo.web"}  # fmt: skip
LOOPBACK_FIXTURES = {"make_site", "redis_server"}

#: Names (variables, attributes) that hold or read a clock.
CLOCK_NAMES = re.compile(
    r"^(gaps?|start_gaps|spacing|elapsed|took|started|finished|duration|wait|waited|"
    r"monotonic|perf_counter|time|closed_after|[a-z_]*_(gaps?|elapsed|took|seconds))$"
)
#: Calls whose value is a clock reading (other calls are judged by their arguments).
CLOCK_CALLS = {"monotonic", "perf_counter", "time", "start_gaps", "gaps"}
#: Helpers that judge the spacing of requests (tests/nginxbed.py...): asserting on one
#: judges time however it is compared.
SPACING_CALLS = {"unspaced", "start_gaps", "gaps", "spacing_and_overlaps"}
#: Calls whose value counts things, whatever their arguments hold.
COUNTING_CALLS = {"len", "count", "bool", "isinstance", "sorted", "set", "list", "Counter"}


@functools.cache
def _tree(path: Path) -> ast.Module:
    return ast.parse(path.read_text("utf-8"), str(path))


def _imports(tree: ast.AST) -> set[str]:
    """Every module the file imports, anywhere in it (functions too), with its parents."""
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            modules = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            modules = [node.module] + [f"{node.module}.{a.name}" for a in node.names]
        else:
            continue
        for module in modules:
            parts = module.split(".")
            names.update(".".join(parts[: i + 1]) for i in range(len(parts)))
    return names


def _strings(tree: ast.AST) -> set[str]:
    return {
        node.value
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant) and isinstance(node.value, str)
    }


def _makes_venv(tree: ast.AST, imports: set[str]) -> bool:
    if "venv" in imports or "virtualenv" in imports:
        return True
    for node in ast.walk(tree):  # [python, "-m", "venv", ...]
        if isinstance(node, ast.List | ast.Tuple):
            values = [e.value for e in node.elts if isinstance(e, ast.Constant)]
            pairs = itertools.pairwise(values)
            if any(a == "-m" and b in ("venv", "virtualenv") for a, b in pairs):
                return True
    return False


@functools.cache
def file_tier(path: Path) -> str:
    """The tier of the test file at ``path``, from its source alone (see the module's doc);
    the fixtures its tests use can raise it (:func:`tier`)."""
    tree = _tree(path)
    imports = _imports(tree)
    if _makes_venv(tree, imports):
        return "install"
    if imports & BED_MODULES or _strings(tree) & BED_PROGRAMS:
        return "bed"
    if imports & LOOPBACK_MODULES:
        return "loopback"
    # Helpers from another test file: at least as heavy as loopback when it is.
    for module in sorted(imports):
        if module.startswith("tests.test_") and module.count(".") == 1:
            other = path.parent / f"{module.split('.', 1)[1]}.py"
            if other.exists() and other != path and file_tier(other) != "unit":
                return "loopback"
    return "unit"


#: Fixture scopes whose value tests of one file share (``session`` ones are conftest's).
SHARED_SCOPES = {"module", "class", "package"}


@functools.cache
def one_worker(path: Path) -> bool:
    """Whether a parallel run keeps the tests of the file at ``path`` on one worker:
    the file makes virtualenvs (the ``install`` tier) or defines a fixture built once
    for its module or class (a Scrapyd, a crawl, an evaluation), which every worker
    that ran one of its tests would build again."""
    if file_tier(path) == "install":
        return True
    for node in ast.walk(_tree(path)):
        if not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            continue
        for decorator in node.decorator_list:
            if isinstance(decorator, ast.Call) and any(
                keyword.arg == "scope"
                and isinstance(keyword.value, ast.Constant)
                and keyword.value.value in SHARED_SCOPES
                for keyword in decorator.keywords
            ):
                return True
    return False


def tier(path: Path, fixtures: Iterable[str]) -> str:
    """The tier of one test: its file's, raised by the fixtures it uses."""
    found = file_tier(path)
    used = set(fixtures)
    if used & BED_FIXTURES and ORDER[found] > ORDER["bed"]:
        return "bed"
    if used & LOOPBACK_FIXTURES and ORDER[found] > ORDER["loopback"]:
        return "loopback"
    return found


def _reads_clock(node: ast.AST) -> bool:
    """Whether the expression holds a clock reading or a span of time (by its names)."""
    if isinstance(node, ast.Call):
        func = node.func
        name = func.id if isinstance(func, ast.Name) else getattr(func, "attr", "")
        if name in CLOCK_CALLS:
            return True
        if name in COUNTING_CALLS:
            return False  # len(gaps) is a number of gaps, not a span
        return any(_reads_clock(arg) for arg in [*node.args, *(k.value for k in node.keywords)])
    if isinstance(node, ast.Name):
        return bool(CLOCK_NAMES.match(node.id))
    if isinstance(node, ast.Attribute):
        return bool(CLOCK_NAMES.match(node.attr)) or _reads_clock(node.value)
    return any(_reads_clock(child) for child in ast.iter_child_nodes(node))


def _spacing(node: ast.AST) -> bool:
    if not isinstance(node, ast.Call):
        return False
    func = node.func
    return (func.id if isinstance(func, ast.Name) else getattr(func, "attr", "")) in SPACING_CALLS


def _is_approx(node: ast.AST) -> bool:
    return isinstance(node, ast.Call) and getattr(node.func, "attr", None) == "approx"


def _bound_on_time(compare: ast.Compare) -> bool:
    """``took < 90``, ``0.3 < wait <= 0.5``, ``min(gaps) >= delay``, ``gap ==
    approx(4.0)``: a span of time held to a number. A busy machine breaks upper
    bounds, and lower ones too: a server that records a request's start late
    shortens the gap to the next one. Two clock readings ordered (``b.started >=
    a.finished``) are left alone."""
    operands = [compare.left, *compare.comparators]
    for op, (left, right) in zip(compare.ops, itertools.pairwise(operands), strict=True):
        clock_left, clock_right = _reads_clock(left), _reads_clock(right)
        if clock_left == clock_right:
            continue  # no clock, or two clock readings ordered
        if isinstance(op, ast.Lt | ast.LtE | ast.Gt | ast.GtE):
            return True
        if isinstance(op, ast.Eq) and (_is_approx(right) or _is_approx(left)):
            return True
    return False


@functools.cache
def timing_tests(path: Path) -> frozenset[str]:
    """Names of the test functions in ``path`` whose own body holds a span of time to
    a number in an assertion (:func:`_bound_on_time`)."""
    found = set()
    for node in ast.walk(_tree(path)):
        if not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            continue
        if not node.name.startswith("test"):
            continue
        for sub in ast.walk(node):
            if isinstance(sub, ast.Assert) and any(
                isinstance(c, ast.Compare) and _bound_on_time(c) or _spacing(c)
                for c in ast.walk(sub.test)
            ):
                found.add(node.name)
                break
    return frozenset(found)
