"""Adopting webrobot in an existing project: the built wheel, fresh virtualenvs,
``scrapy startproject``, the add-on line and a ``CrawlSpider``.

The wheel is built from this checkout (``python -m build --wheel
--no-isolation``, so no build dependency is downloaded), and each install
made, once per run: by the first pytest-xdist worker that needs it, in a
folder they all share, under a file lock; so the file's tests spread over
the workers.

The virtualenvs are made without a pip of their own (``python -m venv
--without-pip``): uv installs into them.

The add-on's behaviour in depth (first in this file) runs in a virtualenv
whose dependencies come from this environment's site-packages through a
``.pth`` file instead of a download (``uv pip install --no-deps --no-index``);
the venv's own site-packages comes first on ``sys.path``, so ``import
webrobot`` is the installed wheel, never this checkout (the crawl runs outside
it, with no ``PYTHONPATH``). ``pip check`` in that venv then judges the wheel's
requirements against every package of this environment (Scrapy, Scrapyd,
pytest, redis, mypy, ruff...): pip's, since ``uv pip check`` reads only the
venv's own site-packages, not the folder a ``.pth`` file adds.

The installs as users choose them (second): the wheel installed with its
dependencies resolved (by uv, which installs from its cache in about a second
where pip takes ten or more), into a virtualenv with no extras, one per extra
alone and one with all extras, each checked by ``uv pip check`` (pip's checks:
missing and conflicting requirements, wheels for another platform; pip's run
costs a third of a second of CPU an install); the few requirements published
as source only are built into wheels once a run and offered to every install
(``--find-links``); in each an
add-on crawl of a local site, its extra's feature switched on and checked.

Crawls are judged by what the local sites saw requested.
"""

from __future__ import annotations

import ast
import concurrent.futures
import contextlib
import fcntl
import functools
import gzip
import itertools
import json
import os
import re
import shutil
import subprocess
import sys
import sysconfig
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from uv import find_uv_bin

from tests.crawling import PROJECT_ROOT
from tests.extras import EXTRA_INSTALLS, EXTRAS, OPTIONAL_MODULES
from webrobot.demo.server import Reply, SiteServer

pytestmark = pytest.mark.slow

SPIDER = """\
import os
from scrapy.linkextractors import LinkExtractor
from scrapy.spiders import CrawlSpider, Rule

class ShopSpider(CrawlSpider):
    name = "shop"
    start_urls = os.environ["SHOP_START_URLS"].split()
    rules = [Rule(LinkExtractor(), callback="parse_page", follow=True)]

    def parse_page(self, response):
        yield {"url": response.url, "title": response.css("title::text").get()}
"""
#: Short: the shop's dozen requests wait it out one after another (half a second made
#: the crawl six seconds long); far above the few milliseconds they are apart without it.
CRAWL_DELAY = 0.25


def page(title: str, body: str = "", head: str = "") -> str:
    return (
        f"<html><head><title>{title}</title>{head}</head><body><h1>{title}</h1>{body}</body></html>"
    )


def link(path: str) -> str:
    return f'<a href="{path}">{path}</a> '


@dataclass
class Adopted:
    venv_python: Path
    project: Path
    wheel: Path
    #: ``pip check``'s complaints about this environment before the wheel was installed.
    conflicts_before: set[str]


def _run(
    args: list[str], cwd: Path, timeout: float = 300, **env: str
) -> subprocess.CompletedProcess[str]:
    environment = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    environment.update(env)
    return subprocess.run(
        args, cwd=cwd, env=environment, capture_output=True, text=True, timeout=timeout, check=False
    )


def _venv(venv: Path) -> Path:
    """A fresh virtualenv with no pip of its own (uv installs into it); its ``python``."""
    made = _run([sys.executable, "-m", "venv", "--without-pip", str(venv)], cwd=venv.parent)
    assert made.returncode == 0, made.stderr
    return venv / "bin" / "python"


def _pip(python: Path, *args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    """The adopted project's virtualenv's pip: this environment's, which it imports
    through its ``.pth`` file like every other package (``pip --python`` would start a
    second Python for each run, 0.4 s of CPU)."""
    return _run([str(python), "-m", "pip", *args], cwd=cwd)


@contextlib.contextmanager
def _locked(path: Path) -> Iterator[None]:
    """An exclusive lock on ``path`` (made if missing), held by one process or thread
    at a time: what the first to hold it makes, the others find made."""
    with path.open("a") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


@pytest.fixture(scope="session")
def shared(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder of this run that every pytest-xdist worker shares (each worker's own
    base folder lies in the run's): the wheel and the installs are made once a run."""
    base = tmp_path_factory.getbasetemp()
    folder = (base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base) / "package-tests"
    folder.mkdir(exist_ok=True)
    return folder


@pytest.fixture(scope="session")
def wheel(shared: Path) -> Path:
    """The wheel of this checkout, built as ``make build`` builds it (no build
    dependency downloaded), by the first worker that needs it."""
    dist = shared / "dist"
    with _locked(shared / "wheel.lock"):
        if not list(dist.glob("webrobot-*.whl")):
            # From a copy: setuptools builds in the source tree's build/, which another
            # build of the same tree (a Scrapyd egg) would be writing at once.
            source = shared / "source" / "webrobot"
            shutil.rmtree(source.parent, ignore_errors=True)
            shutil.copytree(PROJECT_ROOT, source, ignore=shutil.ignore_patterns(
                ".git", ".venv*", "build", "dist", "*.egg-info", "__pycache__", "*.pyc", "_build",
                ".pytest_cache", ".mypy_cache", ".ruff_cache", ".hypothesis", "demo-output",
                "benchmarks-output", "scrapyd-run",
            ))  # fmt: skip
            build = _run([sys.executable, "-m", "build", "--wheel", "--no-isolation", "--outdir", str(dist), str(source)],
                         cwd=shared)  # fmt: skip
            assert build.returncode == 0, build.stderr[-3000:]
    [built] = dist.glob("webrobot-*.whl")
    return built


@pytest.fixture(scope="module")
def adopted(tmp_path_factory: pytest.TempPathFactory, wheel: Path) -> Iterator[Adopted]:
    root = tmp_path_factory.mktemp("adopt")
    python = _venv(root / "venv")
    site_packages = Path(_run([str(python), "-c", "import sysconfig; print(sysconfig.get_path('purelib'))"],
                              cwd=root).stdout.strip())  # fmt: skip
    (site_packages / "shared-dependencies.pth").write_text(
        sysconfig.get_path("purelib") + "\n", "utf-8"
    )
    before = _pip(python, "check", cwd=root)
    conflicts_before = set(before.stdout.splitlines()) if before.returncode else set()
    # uv, as for the other installs: pip's own run cost 1.5 s of CPU, most of it compiling
    # webrobot's bytecode, which the crawls below write for what they import.
    install = _run([*UV, "pip", "install", "--quiet", "--no-deps", "--no-index", "--python",
                    str(python), str(wheel)], cwd=root)  # fmt: skip
    assert install.returncode == 0, install.stderr
    where = _run([str(python), "-c", "import webrobot; print(webrobot.__file__)"], cwd=root)
    assert where.stdout.startswith(str(site_packages)), where.stdout + where.stderr
    start = _run([str(python), "-m", "scrapy", "startproject", "shopcrawl"], cwd=root)
    assert start.returncode == 0, start.stderr
    project = root / "shopcrawl"
    settings = project / "shopcrawl" / "settings.py"
    settings.write_text(settings.read_text("utf-8") + '\nADDONS = {"webrobot.Addon": 0}\n', "utf-8")
    (project / "shopcrawl" / "spiders" / "shop.py").write_text(SPIDER, "utf-8")
    assert len(SPIDER.splitlines()) <= 11
    yield Adopted(python, project, wheel, conflicts_before)


def test_pip_check_passes_with_the_wheel_beside_common_packages(adopted: Adopted) -> None:
    """The wheel's requirements hold beside everything this environment has, and it adds
    no conflict (one between two other packages of a shared environment is not the wheel's)."""
    check = _pip(adopted.venv_python, "check", cwd=adopted.project)
    conflicts = set(check.stdout.splitlines()) if check.returncode else set()
    assert not [line for line in conflicts if "webrobot" in line.lower()], check.stdout
    assert conflicts == adopted.conflicts_before, check.stdout + check.stderr
    # uv reads the same METADATA as pip show, at a hundredth of the CPU.
    shown = _run([*UV, "pip", "show", "--python", str(adopted.venv_python), "webrobot"],
                 cwd=adopted.project).stdout  # fmt: skip
    assert "Requires: itemadapter, protego, scrapy, tldextract, w3lib" in shown


def test_the_wheel_carries_its_package_data_and_license(adopted: Adopted) -> None:
    import zipfile

    with zipfile.ZipFile(adopted.wheel) as wheel:
        names = set(wheel.namelist())
        metadata = wheel.read(next(n for n in names if n.endswith("/METADATA"))).decode()
    assert {"webrobot/sites/demo.toml", "webrobot/demo/pages/shop/index.html"} <= names
    assert any(n.endswith("licenses/LICENSE") for n in names)
    assert "License-Expression: BSD-3-Clause" in metadata
    assert "Provides-Extra: redis" in metadata and "Provides-Extra: charts" in metadata
    assert "Requires-Dist: scrapy<3,>=2.18" in metadata


@pytest.fixture(scope="module")
def sites() -> Iterator[dict[str, SiteServer]]:
    shop, locked, forbidden, down = (
        SiteServer(n).start() for n in ("shop", "locked", "forbidden", "down")
    )
    shop.add(
        "/robots.txt",
        Reply.text(f"User-agent: *\nCrawl-delay: {CRAWL_DELAY}\nDisallow: /private/\n"),
    )
    loops = "".join(link(p) for p in ("/loop/",))
    # rel="nofollow": /sponsored is linked only that way; /partner also plainly, from /noindex.
    loops += (
        '<a rel="Sponsored NOFOLLOW" href="/sponsored">ad</a><a rel=nofollow href="/partner">p</a>'
    )
    shop.html("/", page("home", "".join(link(p) for p in (
        "/noindex", "/nofollow", "/header-noindex", "/copy-1", "/copy-2", "/private/secret",
    )) + loops))  # fmt: skip
    shop.html(
        "/noindex",
        page(
            "noindex",
            link("/noindex-child") + link("/partner"),
            '<meta name="robots" content="noindex">',
        ),
    )
    shop.html("/noindex-child", page("noindex child"))
    shop.html("/sponsored", page("sponsored"))
    shop.html("/partner", page("partner"))
    shop.html(
        "/nofollow",
        page("nofollow", link("/nofollow-child"), '<meta name="robots" content="nofollow">'),
    )
    shop.html("/nofollow-child", page("nofollow child"))
    shop.html("/header-noindex", page("header noindex"), **{"X-Robots-Tag": "noindex"})
    copy = page("the same page", "twice, at two addresses")
    shop.html("/copy-1", copy)
    shop.html("/copy-2", copy)
    shop.html("/private/secret", page("secret"))
    # A repeated-segment trap: every page links to "loop/" below itself.
    for depth in range(1, 5):
        path = "/" + "loop/" * depth
        shop.html(path, page(f"loop {depth}", link("loop/")))
    locked.add("/robots.txt", Reply.text("who are you?", 401))
    forbidden.add("/robots.txt", Reply.text("go away", 403))
    down.add("/robots.txt", Reply.text("later", 503))
    for site in (locked, forbidden, down):
        site.html("/", page(f"home of {site.name}", link("/inside")))
        site.html("/inside", page(f"inside {site.name}"))
    yield {"shop": shop, "locked": locked, "forbidden": forbidden, "down": down}
    for site in (shop, locked, forbidden, down):
        site.stop()


def test_a_crawlspider_gets_every_part_from_the_add_on_line(
    adopted: Adopted, sites: dict[str, SiteServer]
) -> None:
    shop = sites["shop"]
    out, stats_file = adopted.project / "items.jsonl", adopted.project / "stats.json"
    crawl = _run(
        [str(adopted.venv_python), "-m", "scrapy", "crawl", "shop", "-O", str(out),
         # -s beats the add-on's defaults: no base delay, so Crawl-delay is what spaces requests.
         "-s", "DOWNLOAD_DELAY=0", "-s", "AUTOTHROTTLE_ENABLED=False", "-s", "WEBROBOT_ROBOTS_DEFER_MAX=3",
         "-s", "WEBROBOT_ROBOTS_BACKOFF_BASE=1", "-s", f"WEBROBOT_STATS_FILE={stats_file}"],
        cwd=adopted.project, timeout=240,
        SHOP_START_URLS=" ".join(site.url("/") for site in sites.values()),
    )  # fmt: skip
    assert crawl.returncode == 0, crawl.stderr[-3000:]
    items = {json.loads(line)["url"] for line in out.read_text("utf-8").splitlines()}
    stats = json.loads(stats_file.read_text("utf-8"))
    seen = set(shop.targets())

    # robots.txt: 401 and 403 disallow the site; 5xx holds it, retries, then gives up.
    for name in ("locked", "forbidden"):
        assert sites[name].targets() == ["/robots.txt"], name
    down = sites["down"]
    assert set(down.targets()) == {"/robots.txt"} and down.count("/robots.txt") >= 2
    assert "/private/secret" not in seen and "/robots.txt" in seen

    # Crawl-delay: the shop's requests start CRAWL_DELAY apart. The server notes a
    # start when its thread has read the request, so 0.05 s is left for its jitter.
    starts = sorted(h.started for h in shop.hits if h.path != "/robots.txt")
    assert len(starts) >= 8
    assert min(b - a for a, b in itertools.pairwise(starts)) >= CRAWL_DELAY - 0.05

    # Meta robots and X-Robots-Tag.
    assert {"/noindex", "/noindex-child", "/nofollow", "/header-noindex"} <= seen
    assert "/nofollow-child" not in seen, "nofollow: the page's links are not requested"
    assert shop.url("/noindex") not in items and shop.url("/header-noindex") not in items
    assert shop.url("/nofollow") in items and shop.url("/noindex-child") in items
    assert stats["webrobot/meta/noindex"] == 2 and stats["webrobot/meta/nofollow"] == 1
    assert "/sponsored" not in seen, "a link only ever marked rel=nofollow is not requested"
    assert "/partner" in seen, "the same URL linked plainly from another page is"
    assert stats["webrobot/meta/rel_nofollow"] >= 1

    # The repeated-segment trap: /loop/loop/ is requested, /loop/loop/loop/ refused.
    assert {"/loop/", "/loop/loop/"} <= seen and "/loop/loop/loop/" not in seen
    assert stats["webrobot/url/refused/repeated_segment"] >= 1

    # MD5 duplicates: both copies downloaded, one item kept.
    assert {"/copy-1", "/copy-2"} <= seen
    assert len({shop.url("/copy-1"), shop.url("/copy-2")} & items) == 1
    assert stats["webrobot/dupes/content"] == 1

    # The crawl report, next to the feed.
    report = json.loads((adopted.project / "items.report.json").read_text("utf-8"))
    assert report["spider"] == "shop"
    assert (adopted.project / "items.report.html").exists()


def test_a_bad_value_in_the_project_stops_the_crawl_in_one_line(adopted: Adopted) -> None:
    settings = adopted.project / "shopcrawl" / "settings.py"
    original = settings.read_text("utf-8")
    settings.write_text(original + "WEBROBOT_ROBOTS_TTL = -5\n", "utf-8")
    try:
        crawl = _run([str(adopted.venv_python), "-m", "scrapy", "crawl", "shop"], cwd=adopted.project,
                     SHOP_START_URLS="http://127.0.0.1:9/")  # fmt: skip
    finally:
        settings.write_text(original, "utf-8")
    errors = [line for line in crawl.stderr.splitlines() if " ERROR: " in line]
    assert errors == [
        next(line for line in errors if line.endswith(
            "webrobot cannot start: setting WEBROBOT_ROBOTS_TTL=-5: expected a number >= 0 (default 86400.0)"
        ))
    ]  # fmt: skip
    assert "Traceback" not in crawl.stderr
    # Refused before the spider opened: Scrapy's own command says a crawl that did not start.
    assert crawl.returncode == 1


# ---------------------------------------------------------------------------------------
# The install as users choose it: no extras, each extra alone, all of them. Each is a
# real install of the wheel into its own fresh virtualenv (``uv pip install`` resolves
# the wheel's requirements and the extra's from the package index, pinned to
# requirements*.txt as constraints; ``uv pip check`` judges the result), then an
# add-on crawl of a local site in a ``scrapy startproject`` project, judged by the
# site's log. A module that imports an optional package at its top on the add-on's
# load path fails the plain install here, as it would for a user.
# ---------------------------------------------------------------------------------------

#: The installs tested: the core alone, each extra alone, every extra.
INSTALLS = ["core", *EXTRAS, "all"]
#: uv (requirements-dev.txt), this environment's: it resolves as pip does and installs
#: from its cache (hard links) in about a second, where pip takes ten to fifty. Its
#: binary, run directly: ``python -m uv`` would start a Python first on every call.
UV = [find_uv_bin()]
#: What the extras require that is published as a source distribution only (mining's
#: extruct requires jstyleson, wacz's cdxj-indexer surt): uv prepared its metadata and
#: built it with setuptools, in a build environment of its own, at every install that
#: needs it (about 2 s of CPU each: its cache kept no built wheel, the index answering
#: every revalidation of the file as modified). Their wheels are built once a run from
#: the same source distributions and offered to every install (``--find-links``); uv
#: still asks the index, so a newer release there is taken as a user's install would.
SOURCE_ONLY = ["jstyleson", "surt"]
#: What switches each extra's feature on, for a crawl (charts are always on: the report).
FEATURE_SETTINGS: dict[str, dict[str, str]] = {
    "redis": {"WEBROBOT_REDIS_URL": "{redis}", "WEBROBOT_REDIS_IDLE_CLOSE": "1"},
    "warc": {"WEBROBOT_WARC_DIR": "{out}/warc"},
    "search": {"WEBROBOT_INDEX_ENABLED": "True", "WEBROBOT_INDEX": "{out}/index"},
    "charts": {},
    "browser": {"WEBROBOT_RENDER": "browser"},
    "metrics": {"WEBROBOT_METRICS_PORT": "127.0.0.1:0"},
    "notify": {
        "WEBROBOT_MONITOR_DIR": "{out}/monitor",
        "WEBROBOT_MONITOR_NOTIFY": "json://127.0.0.1:9/",
        "WEBROBOT_MONITOR_WEBHOOK_CLOSE_WAIT": "0.5",
    },
}
CORE_PAGES = {"/robots.txt", "/", "/a", "/b", "/c"}

ADDON_SPIDER = """\
import os
from scrapy.linkextractors import LinkExtractor
from scrapy.spiders import CrawlSpider, Rule

class SiteSpider(CrawlSpider):
    name = "site"
    start_urls = [os.environ["SITE_URL"]]
    rules = [Rule(LinkExtractor(), callback="parse_page", follow=True)]

    def parse_page(self, response):
        yield {"url": response.url, "title": response.css("title::text").get()}
"""


def _constraints(folder: Path) -> Path:
    """The versions the project pins (requirements*.txt), as pip constraints."""
    pins = []
    for name in ("requirements.txt", "requirements-dev.txt"):
        for line in (PROJECT_ROOT / name).read_text("utf-8").splitlines():
            line = line.split("#", 1)[0].strip()
            if "==" in line and not line.startswith("-"):
                pins.append(line)
    path = folder / "constraints.txt"
    path.write_text("\n".join(pins) + "\n", "utf-8")
    return path


@dataclass
class Install:
    name: str
    python: Path
    #: seconds to make it (the venv, then the install)
    seconds: float
    #: the optional modules this install can import
    optional: list[str]
    #: ``uv pip check``: its exit status and what it said
    check: tuple[int, str]


def _install(python: Path, target: str, constraints: Path, wheels: Path, cwd: Path,
             *options: str) -> None:  # fmt: skip
    """``uv pip install``, asking the package index as a user's install does: the
    requirements webrobot does not pin (Twisted, lxml, cryptography...) resolve to their
    newest release, not to the newest one uv's cache happens to hold. ``wheels`` holds
    the wheels of :data:`SOURCE_ONLY`, built once a run."""
    done = _run([*UV, "pip", "install", "--quiet", "--python", str(python), "-c", str(constraints),
                 "--find-links", str(wheels), *options, target], cwd=cwd, timeout=600)  # fmt: skip
    assert done.returncode == 0, f"uv pip install {target}: {done.stderr[-3000:]}"


class Installs:
    """The installs by name, each made when a test first asks for it, once a run:
    a fresh virtualenv installed whole, its record kept beside it for the other
    workers (a lock per install)."""

    def __init__(self, folder: Path, wheel: Path) -> None:
        self.folder, self.wheel = folder, wheel
        self.constraints = _constraints(folder)
        self.made: dict[str, Install] = {}

    def _source_wheels(self) -> Path:
        """The wheels of :data:`SOURCE_ONLY`, built by the first worker that needs them
        (this environment's pip and setuptools, the project's pins as constraints)."""
        folder = self.folder / "source-wheels"
        with _locked(self.folder / "source-wheels.lock"):
            if not (folder / "built").exists():
                built = _run([sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps",
                              "--no-build-isolation", "-c", str(self.constraints), "-w", str(folder),
                              *SOURCE_ONLY], cwd=self.folder, timeout=600)  # fmt: skip
                assert built.returncode == 0, built.stderr[-3000:]
                (folder / "built").write_text("\n".join(SOURCE_ONLY), "utf-8")
        return folder

    def __getitem__(self, name: str) -> Install:
        if name not in self.made:
            self.made[name] = self._make(name)
        return self.made[name]

    def every(self) -> dict[str, Install]:
        """Every install: the core first (it fills uv's cache with what they all
        share), then the others four at a time."""
        self["core"]
        with concurrent.futures.ThreadPoolExecutor(max_workers=4) as pool:
            list(pool.map(self.__getitem__, INSTALLS[1:]))
        return {name: self[name] for name in INSTALLS}

    def _make(self, name: str) -> Install:
        record = self.folder / f"{name}.json"
        core = None if name == "core" else self["core"]
        with _locked(self.folder / f"{name}.lock"):
            if not record.exists():
                began = time.monotonic()
                python = _venv(self.folder / name)
                extras = ",".join(EXTRAS) if name == "all" else name
                target = str(self.wheel) if name == "core" else f"{self.wheel}[{extras}]"
                wheels = self._source_wheels()
                _install(python, target, self.constraints, wheels, self.folder)
                if core is None:
                    _compile_bytecode(python)
                else:
                    _share_bytecode(core.python, python)
                seconds = time.monotonic() - began
                record.write_text(json.dumps(_checked(python, seconds)), "utf-8")
        made = json.loads(record.read_text("utf-8"))
        return Install(name, Path(made["python"]), made["seconds"], made["optional"],
                       (made["check"][0], made["check"][1]))  # fmt: skip


def _site_packages(python: Path) -> Path:
    """A virtualenv's site-packages (made by this Python, so of its version)."""
    version = f"python{sys.version_info.major}.{sys.version_info.minor}"
    return python.parent.parent / "lib" / version / "site-packages"


#: Folders of the packages' own tests (Twisted's are a third of the core install's
#: modules), which no crawl imports: left out of the core's compiled bytecode.
TEST_FOLDERS = r"[/\\](tests?|testing)[/\\]"


def _compile_bytecode(python: Path) -> None:
    """The core install's bytecode, compiled once as pip compiles at install (uv does
    not unless asked), but for the packages' tests: 3.8 s of CPU where uv's
    ``--compile-bytecode`` (every module) took 5.2. Every other install shares it
    (:func:`_share_bytecode`)."""
    done = _run([str(python), "-m", "compileall", "-q", "-j0", "-x", TEST_FOLDERS,
                 str(_site_packages(python))], cwd=python.parent)  # fmt: skip
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]


def _share_bytecode(source: Path, python: Path) -> None:
    """Hard-link the ``.pyc`` files of ``source``'s install into ``python``'s where both
    installs' ``.py`` file is one file (uv links both from its cache): the first crawl in
    each fresh virtualenv compiled Scrapy, Twisted and webrobot anew, 0.9 s of CPU. Python
    takes a ``.pyc`` only if it records the source's modification time and size (the same
    for one file), names the module's own path in its code (it does on loading), and
    replaces rather than writes into one it recompiles; a file copied, not linked, by
    uv shares nothing."""
    source_site, site = _site_packages(source), _site_packages(python)
    for compiled in _compiled(source_site):
        folder = compiled.parent.parent.relative_to(source_site)
        module = compiled.name.split(".", 1)[0] + ".py"
        mine = site / folder / module
        with contextlib.suppress(FileNotFoundError):
            if not os.path.samefile(source_site / folder / module, mine):
                continue
            (mine.parent / "__pycache__").mkdir(exist_ok=True)
            with contextlib.suppress(FileExistsError):
                os.link(compiled, mine.parent / "__pycache__" / compiled.name)


@functools.cache
def _compiled(site: Path) -> list[Path]:
    """The ``.pyc`` files of an install (the core's), listed once for every other."""
    return list(site.glob("**/__pycache__/*.pyc"))


@pytest.fixture(scope="session")
def installs(shared: Path, wheel: Path) -> Installs:
    folder = shared / "installs"
    folder.mkdir(exist_ok=True)
    return Installs(folder, wheel)


def _checked(python: Path, seconds: float) -> dict[str, Any]:
    """What the install can import of the extras' packages, and ``uv pip check`` (what
    it says less the environment's path and its timing)."""
    probe = "import importlib.util as u, sys; print([m for m in sys.argv[1:] if u.find_spec(m)])"
    found = _run([str(python), "-c", probe, *OPTIONAL_MODULES], cwd=python.parent)
    assert found.returncode == 0, found.stderr
    check = _run([*UV, "pip", "check", "--python", str(python)], cwd=python.parent)
    said = "".join(line for line in (check.stdout + check.stderr).splitlines(keepends=True)
                   if not line.startswith(("Using Python ", "Checked ")))  # fmt: skip
    optional = list(ast.literal_eval(found.stdout.strip()))
    return {"python": str(python), "seconds": seconds, "optional": optional,
            "check": [check.returncode, said]}  # fmt: skip


@pytest.fixture(scope="session")
def addon_project(tmp_path_factory: pytest.TempPathFactory, installs: Installs) -> Path:
    """``scrapy startproject``, the add-on line and a CrawlSpider: made once by the
    core install's Scrapy and crawled by every install's Python."""
    root = tmp_path_factory.mktemp("project")
    start = _run([str(installs["core"].python), "-m", "scrapy", "startproject", "siteproject"],
                 cwd=root)  # fmt: skip
    assert start.returncode == 0, start.stderr
    project = root / "siteproject"
    settings = project / "siteproject" / "settings.py"
    settings.write_text(settings.read_text("utf-8") + '\nADDONS = {"webrobot.Addon": 0}\n', "utf-8")
    (project / "siteproject" / "spiders" / "site.py").write_text(ADDON_SPIDER, "utf-8")
    return project


@pytest.fixture(scope="session")
def small_site() -> Iterator[SiteServer]:
    """Four pages and one disallowed; ``/`` builds a link to ``/js`` with a script,
    so only a rendered page leads there."""
    site = SiteServer("small").start()
    site.add("/robots.txt", Reply.text("User-agent: *\nDisallow: /private/\n"))
    script = (
        "<script>document.body.insertAdjacentHTML('beforeend', '<a href=\"/js\">js</a>')</script>"
    )
    site.html("/", page("home", link("/a") + link("/b") + link("/private/x") + script))
    site.html("/a", page("alpha", "aardvarks live here " + link("/c")))
    site.html("/b", page("beta", "bees live here"))
    site.html("/c", page("gamma", "capybaras live here " + link("/")))
    site.html("/js", page("built by a script"))
    site.html("/private/x", page("private"))
    yield site
    site.stop()


@dataclass
class AddonCrawl:
    returncode: int
    stderr: str
    out: Path
    stats: dict[str, Any]
    items: set[str]


def addon_crawl(install: Install, project: Path, site: SiteServer, out: Path,
                **settings: str) -> AddonCrawl:  # fmt: skip
    out.mkdir(parents=True, exist_ok=True)
    args = [str(install.python), "-m", "scrapy", "crawl", "site", "-O", str(out / "items.jsonl"),
            "-s", "DOWNLOAD_DELAY=0", "-s", "AUTOTHROTTLE_ENABLED=False", "-s", "RETRY_TIMES=0",
            "-s", "LOG_LEVEL=INFO", "-s", f"WEBROBOT_STATS_FILE={out / 'stats.json'}"]  # fmt: skip
    for name, value in settings.items():
        args += ["-s", f"{name}={value}"]
    site.hits.clear()
    done = _run(args, cwd=project, timeout=240, SITE_URL=site.url("/"))
    stats_file, feed = out / "stats.json", out / "items.jsonl"
    stats = json.loads(stats_file.read_text("utf-8")) if stats_file.exists() else {}
    items = (
        {json.loads(line)["url"] for line in feed.read_text("utf-8").splitlines()}
        if feed.exists()
        else set()
    )
    return AddonCrawl(done.returncode, done.stderr, out, stats, items)


def test_each_install_has_exactly_its_extras_and_pip_check_is_clean(
    installs: Installs,
) -> None:
    every = installs.every()
    for name, install in every.items():
        wanted = OPTIONAL_MODULES if name == "all" else EXTRA_INSTALLS.get(name, [])  # core: none
        assert install.optional == sorted(wanted), name
        assert install.check == (0, "All installed packages are compatible\n"), name
    print("install seconds:", {n: round(i.seconds, 1) for n, i in every.items()})


@pytest.mark.parametrize("name", INSTALLS)
def test_the_add_on_crawls_with_each_install(
    name: str,
    installs: Installs,
    addon_project: Path,
    small_site: SiteServer,
    tmp_path: Path,
) -> None:
    """The add-on loads and crawls; the install's own extras' features work when
    switched on (every extra's at once for ``all``)."""
    features = list(EXTRAS) if name == "all" else [] if name == "core" else [name]
    if "browser" in features and shutil.which("chromium") is None:
        pytest.skip("chromium is not installed (Debian package chromium)")
    if "redis" in features and shutil.which("redis-server") is None:
        pytest.skip("redis-server is not installed (Debian package redis-server)")
    with contextlib.ExitStack() as stack:
        values = {"out": str(tmp_path)}
        if "redis" in features:
            from tests.redisserver import RedisServer

            server = stack.enter_context(RedisServer(tmp_path / "redis"))
            values["redis"] = server.url
        settings = {
            key: value.format(**values)
            for feature in features
            for key, value in FEATURE_SETTINGS.get(feature, {}).items()
        }
        crawl = addon_crawl(installs[name], addon_project, small_site, tmp_path / "out", **settings)
        assert crawl.returncode == 0, crawl.stderr[-3000:]
        assert "Traceback" not in crawl.stderr, crawl.stderr[-3000:]

        # Judged by the site's log: every page once, robots.txt first, nothing disallowed.
        seen = small_site.targets()
        rendered = "browser" in features
        # An archiving crawl also fetches what its pages need, and the favicon browsers ask for.
        requisites = {"/favicon.ico"} if "warc" in features else set()
        assert set(seen) == CORE_PAGES | requisites | ({"/js"} if rendered else set()), seen
        assert seen[0] == "/robots.txt" and "/private/x" not in seen
        assert crawl.items >= {small_site.url(p) for p in ("/a", "/b", "/c")}
        report = (crawl.out / "items.report.html").read_text("utf-8")

        if "redis" in features:
            client = server.client()
            assert client.exists("webrobot:site:meta"), "the crawl's layout is in Redis"
            assert list(client.scan_iter("webrobot:site:visited:*")), "visited URLs in Redis"
        if "warc" in features:
            archived = b"".join(
                gzip.decompress(f.read_bytes()) for f in (tmp_path / "warc").glob("*.warc.gz")
            )
            for target in CORE_PAGES:
                assert f"WARC-Target-URI: {small_site.url(target)}\r\n".encode() in archived
        if "search" in features:
            from webrobot.search.index import SearchIndex

            hits = SearchIndex(tmp_path / "index").search("capybaras")
            assert [hit.url for hit in hits] == [small_site.url("/c")]
        if "charts" in features:
            assert "<svg" in report and "No charts" not in report
        else:
            assert "<svg" not in report
            assert "No charts: " in report and "pip install &#x27;webrobot[charts]&#x27;" in report
        if "metrics" in features:
            assert crawl.stats["webrobot/metrics/url"].startswith("http://127.0.0.1:")
        else:
            assert "webrobot/metrics/url" not in crawl.stats
        if rendered:
            assert crawl.stats["webrobot/render/pages"] >= 4
        else:
            assert "webrobot/render/pages" not in crawl.stats


LOG_LINE = re.compile(r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d \[")
#: A feature switched on in the core install -> its extra and the line that says so.
MISSING_EXTRA = {
    "redis": "ERROR: webrobot cannot start: A shared crawl (WEBROBOT_REDIS_URL) needs the 'redis' package",
    "warc": "ERROR: No WARC archive: A WARC archive (WEBROBOT_WARC_DIR) needs the 'warcio' package",
    "search": "WARNING: Full-text index off: The full-text index (WEBROBOT_INDEX_ENABLED) needs the "
    "'resiliparse' package",
    "browser": "ERROR: webrobot cannot start: settings: key 'WEBROBOT_RENDER': Rendering pages "
    "(WEBROBOT_RENDER) needs the 'scrapy_playwright' package",
    "metrics": "ERROR: Metrics (WEBROBOT_METRICS_PORT) needs the 'prometheus_client' package",
    "notify": "ERROR: webrobot cannot start: setting WEBROBOT_MONITOR_NOTIFY=['json://127.0.0.1:9/']: "
    "expected Notices by e-mail and chat (WEBROBOT_MONITOR_NOTIFY) needs the 'apprise' package",
}


@pytest.mark.parametrize("extra", sorted(MISSING_EXTRA))
def test_a_feature_without_its_extra_says_which_extra_in_one_line(
    extra: str,
    installs: Installs,
    addon_project: Path,
    small_site: SiteServer,
    tmp_path: Path,
) -> None:
    values = {"out": str(tmp_path), "redis": "redis://127.0.0.1:9/0"}
    settings = {k: v.format(**values) for k, v in FEATURE_SETTINGS[extra].items()}
    crawl = addon_crawl(installs["core"], addon_project, small_site, tmp_path / "out", **settings)
    assert "Traceback" not in crawl.stderr, crawl.stderr[-3000:]
    # Log lines (the stats dump at the end repeats the config error as a value).
    told = [
        line
        for line in crawl.stderr.splitlines()
        if LOG_LINE.match(line) and f"pip install 'webrobot[{extra}]'" in line
    ]
    assert len(told) == 1 and MISSING_EXTRA[extra] in told[0], crawl.stderr[-3000:]
    if extra in (
        "redis",
        "browser",
        "notify",
    ):  # the crawl the user asked for cannot run: none at all
        assert crawl.stats["finish_reason"] == "config_error"
        assert small_site.targets() == []
    else:  # the crawl runs, without the archive or the index
        assert crawl.returncode == 0 and set(small_site.targets()) == CORE_PAGES
