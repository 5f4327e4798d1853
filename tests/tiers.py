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
outside the ``unit`` tier, its own body (functions defined in it included) holds a
span of time to a number in an assertion (a clock-like name, :data:`CLOCK_NAMES`:
``gaps``, ``elapsed``, ``took``, ``started``, ``monotonic``..., compared with a bound
or ``pytest.approx``). So a new timing test that nobody marked still runs serially.
A wait that gives up at its deadline (``time.monotonic() < deadline``) and an upper
bound of :data:`HANG_GUARD` seconds or more (``took < 90``) fail on a hang, not on a
busy machine: they do not make a test serial.

Marked by hand are the tests whose timing no assertion shows: leases, holds and
claims with TTLs of tenths of a second that must outlive the test's own pauses, a
number of polls in a second, a Ctrl-C before the budget is spent (the list and the
reasons: docs/project/development.md, "Tiers"). Not serial: what a busy machine only
delays (a lease that must expire, a timeout that must fire, a kill at some moment).
"""

from __future__ import annotations

import ast
import functools
import hashlib
import itertools
import re
from collections.abc import Iterable
from pathlib import Path
from typing import Any

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
    r"monotonic|perf_counter|time|closed_after|deadline|[a-z_]*_(gaps?|elapsed|took|seconds|deadline))$"
)
#: An upper bound on a span of this many seconds or more guards against a hang: a busy
#: machine makes a span of seconds a few times longer, not half a minute.
HANG_GUARD = 30.0
#: Calls whose value is a clock reading (other calls are judged by their arguments).
CLOCK_CALLS = {"monotonic", "perf_counter", "time", "start_gaps", "gaps"}
#: Helpers that judge the spacing of requests (tests/nginxbed.py...): asserting on one
#: judges time however it is compared.
SPACING_CALLS = {"unspaced", "start_gaps", "gaps", "spacing_and_overlaps"}
#: Calls whose value counts things, whatever their arguments hold.
COUNTING_CALLS = {"len", "count", "bool", "isinstance", "sorted", "set", "list", "Counter"}


#: The answers for a test file taken from an earlier reading of the same sources
#: (:func:`preload`): its tier, whether it stays on one worker, its timing tests.
_KNOWN: dict[Path, tuple[str, bool, frozenset[str]]] = {}


def digest(folder: Path) -> str:
    """What the answers for the test files of ``folder`` come from: these rules and the
    source of every test file (a file's tier can follow another's that it imports)."""
    sha = hashlib.sha256(Path(__file__).read_bytes())
    for path in sorted(folder.glob("test_*.py")):
        sha.update(path.name.encode() + b"\0" + path.read_bytes() + b"\0")
    return sha.hexdigest()


def answers(folder: Path) -> dict[str, Any]:
    """Every test file's answers in ``folder``, with their :func:`digest` (JSON-ready): a
    run's first process reads the files once and its workers take the answers
    (:func:`preload`) instead of each reading every file again."""
    return {
        "digest": digest(folder),
        "files": {
            path.name: [file_tier(path), one_worker(path), sorted(timing_tests(path))]
            for path in sorted(folder.glob("test_*.py"))
        },
    }


def preload(folder: Path, saved: object) -> bool:
    """Take the :func:`answers` ``saved`` for the test files of ``folder`` if they come
    from the sources as they are now; whether they did (if not, every file is read as
    it is asked about)."""
    if not isinstance(saved, dict) or saved.get("digest") != digest(folder):
        return False
    for name, (tier_, together, timing) in saved["files"].items():
        _KNOWN[folder / name] = (tier_, together, frozenset(timing))
    for answer in (file_tier, one_worker, timing_tests):  # what was read before gives way
        answer.cache_clear()
    return True


@functools.cache
def _tree(path: Path) -> ast.Module:
    return ast.parse(path.read_text("utf-8"), str(path))


@functools.cache
def _nodes(path: Path) -> tuple[ast.AST, ...]:
    """Every node of the file, walked once: each worker of a parallel run reads every
    test file, and a walk costs more than the parse."""
    return tuple(ast.walk(_tree(path)))


def _imports(nodes: Iterable[ast.AST]) -> set[str]:
    """Every module the file imports, anywhere in it (functions too), with its parents."""
    names: set[str] = set()
    for node in nodes:
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


def _strings(nodes: Iterable[ast.AST]) -> set[str]:
    return {
        node.value
        for node in nodes
        if isinstance(node, ast.Constant) and isinstance(node.value, str)
    }


def _makes_venv(nodes: Iterable[ast.AST], imports: set[str]) -> bool:
    if "venv" in imports or "virtualenv" in imports:
        return True
    for node in nodes:  # [python, "-m", "venv", ...]
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
    if path in _KNOWN:
        return _KNOWN[path][0]
    nodes = _nodes(path)
    imports = _imports(nodes)
    if _makes_venv(nodes, imports):
        return "install"
    if imports & BED_MODULES or _strings(nodes) & BED_PROGRAMS:
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
    if path in _KNOWN:
        return _KNOWN[path][1]
    if file_tier(path) == "install":
        return True
    for node in _nodes(path):
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


def _value(node: ast.AST, constants: dict[str, float]) -> float | None:
    """The number an expression of literals and named constants comes to (None if not one)."""
    if isinstance(node, ast.Constant) and type(node.value) in (int, float):
        return float(node.value)
    if isinstance(node, ast.Name):
        return constants.get(node.id)
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        value = _value(node.operand, constants)
        return None if value is None else -value
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add | ast.Sub | ast.Mult):
        left, right = _value(node.left, constants), _value(node.right, constants)
        if left is None or right is None:
            return None
        if isinstance(node.op, ast.Add):
            return left + right
        return left - right if isinstance(node.op, ast.Sub) else left * right
    return None


def _constants(body: Iterable[ast.stmt], known: dict[str, float]) -> dict[str, float]:
    """``known`` plus the names these statements (not nested ones) bind to a number
    (``MARGIN = 15.0``, ``a = b = 3.0``, ``delay, budget = 0.3, 8``)."""
    found = dict(known)
    for statement in body:
        if not isinstance(statement, ast.Assign):
            continue
        value = statement.value
        pairs = [
            pair
            for target in statement.targets
            for pair in (
                zip(target.elts, value.elts, strict=False)
                if isinstance(target, ast.Tuple) and isinstance(value, ast.Tuple)
                else [(target, value)]
            )
        ]
        for name, expression in pairs:
            if isinstance(name, ast.Name) and (number := _value(expression, found)) is not None:
                found[name.id] = number
    return found


def _bound_on_time(compare: ast.Compare, constants: dict[str, float] | None = None) -> bool:
    """``took < 20``, ``0.3 < wait <= 0.5``, ``min(gaps) >= delay``, ``gap ==
    approx(4.0)``: a span of time held to a number. A busy machine breaks upper
    bounds, and lower ones too: a server that records a request's start late
    shortens the gap to the next one. Two clock readings ordered (``b.started >=
    a.finished``, ``time.monotonic() < deadline``: a wait that gives up at its
    deadline) are left alone, and so is an upper bound of :data:`HANG_GUARD`
    seconds or more (``took < 90``, ``took < timeout + 30`` with ``timeout`` a
    number in the test or its module): it fails on a hang, not on a busy machine."""
    operands = [compare.left, *compare.comparators]
    for op, (left, right) in zip(compare.ops, itertools.pairwise(operands), strict=True):
        clock_left, clock_right = _reads_clock(left), _reads_clock(right)
        if clock_left == clock_right:
            continue  # no clock, or two clock readings ordered
        if isinstance(op, ast.Lt | ast.LtE | ast.Gt | ast.GtE):
            upper = isinstance(op, ast.Lt | ast.LtE) == clock_left
            bound = _value(right if clock_left else left, constants or {})
            if upper and bound is not None and bound >= HANG_GUARD:
                continue  # a hang guard
            return True
        if isinstance(op, ast.Eq) and (_is_approx(right) or _is_approx(left)):
            return True
    return False


@functools.cache
def timing_tests(path: Path) -> frozenset[str]:
    """Names of the test functions in ``path`` (module level, or methods of a class)
    whose body, functions defined in it included, holds a span of time to a number
    in an assertion (:func:`_bound_on_time`)."""
    if path in _KNOWN:
        return _KNOWN[path][2]
    tree = _tree(path)
    module = _constants(tree.body, {})
    functions = [
        node
        for parent in [tree, *(n for n in tree.body if isinstance(n, ast.ClassDef))]
        for node in parent.body
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and node.name.startswith("test")
    ]
    found = set()
    for node in functions:
        constants = _constants(node.body, module)
        for sub in ast.walk(node):
            if isinstance(sub, ast.Assert) and any(
                isinstance(c, ast.Compare) and _bound_on_time(c, constants) or _spacing(c)
                for c in ast.walk(sub.test)
            ):
                found.add(node.name)
                break
    return frozenset(found)
