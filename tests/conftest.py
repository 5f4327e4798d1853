from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn

import pytest

from tests import tiers
from tests.redisserver import RedisServer
from webrobot.demo.server import SiteServer

if TYPE_CHECKING:
    from tests.nginxbed import NginxBed

#: Every stats key seen while the suite runs must be documented (see tests/statskeys.py).
pytest_plugins = ["tests.statskeys"]


#: Where a run keeps the tiers' answers for every test file (pytest's cache folder).
TIERS_CACHE_KEY = "webrobot/tiers"


@pytest.hookimpl(tryfirst=True)  # before pytest-xdist's, which starts the workers
def pytest_sessionstart(session: pytest.Session) -> None:
    """The tiers' answers for every test file (tests/tiers.py), read once a run: a
    parallel run's controller reads every file and keeps the answers in pytest's cache
    before its workers start; the workers, and the serial run after them, take them
    while no test file has changed. A run of one process reads only the files it is
    asked about, as before, unless the answers are there."""
    config = session.config
    cache = getattr(config, "cache", None)  # -p no:cacheprovider has none
    if cache is None:
        return
    folder = Path(__file__).parent
    if tiers.preload(folder, cache.get(TIERS_CACHE_KEY, None)):
        return
    if getattr(config.option, "numprocesses", None) and not hasattr(config, "workerinput"):
        answers = tiers.answers(folder)
        cache.set(TIERS_CACHE_KEY, answers)
        tiers.preload(folder, answers)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """One tier marker on every test, ``serial`` on those that judge time (tests/tiers.py),
    and, in a parallel run, the heaviest files first (so that no long file starts last),
    within a tier the files kept on one worker first (tests/scheduling.py)."""
    heaviest: dict[Path, int] = {}
    for item in items:
        path = item.path
        tier = tiers.tier(path, getattr(item, "fixturenames", ()))
        if tier == "unit" and item.get_closest_marker("slow") is not None:
            tier = "loopback"  # whole crawls, whatever the file imports
        item.add_marker(tier)
        if tier != "unit" and item.get_closest_marker("serial") is None:
            name = getattr(item, "originalname", item.name)
            if name in tiers.timing_tests(path):
                item.add_marker(pytest.mark.serial("holds a span of time to a number"))
        heaviest[path] = min(heaviest.get(path, len(tiers.ORDER)), tiers.ORDER[tier])
    if hasattr(config, "workerinput"):  # a pytest-xdist worker: they collect, in this order
        # Stable: files keep their order. A file kept on one worker goes first in its
        # tier, so that it does not end the run alone on one worker.
        items.sort(key=lambda item: (heaviest[item.path], not tiers.one_worker(item.path)))


@pytest.hookimpl(optionalhook=True)  # a hook of pytest-xdist's: -p no:xdist has none
def pytest_xdist_make_scheduler(config: pytest.Config, log: Any) -> Any:
    """``--dist loadgroup`` with the tests of a file that shares a module fixture (or
    makes virtualenvs) kept on one worker, which builds it once (tests/scheduling.py)."""
    if config.getvalue("dist") != "loadgroup":
        return None
    from tests.scheduling import FileGroupScheduling  # pytest-xdist: only in its runs

    return FileGroupScheduling(config, log)


@pytest.fixture
def make_site() -> Iterator[Callable[..., SiteServer]]:
    """Start SiteServers on 127.0.0.1 ephemeral ports; all stop at teardown."""
    started: list[SiteServer] = []

    def factory(name: str = "site") -> SiteServer:
        site = SiteServer(name).start()
        started.append(site)
        return site

    yield factory
    for site in started:
        site.stop()


@pytest.fixture
def redis_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RedisServer]:
    """A real redis-server on 127.0.0.1, a free port and a temporary directory;
    always stopped at teardown."""
    server = RedisServer(tmp_path_factory.mktemp("redis")).start()
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture(autouse=True, scope="session")
def project_folder_stays_clean() -> Iterator[None]:
    """Crawls started by tests write under their own temporary folders: what the
    suite leaves in the project folder (an index, a report, a job) would be
    picked up by the next run or committed by mistake."""
    root = Path(__file__).resolve().parent.parent
    before = {p.name for p in root.iterdir()}
    yield
    left = sorted({p.name for p in root.iterdir()} - before - _EXPECTED_IN_PROJECT)
    assert not left, f"tests left these in the project folder: {left}"


#: What running the tools themselves may create there (caches, the wheel build's folders,
#: the virtualenvs `make` builds while the suite runs: .ci/run builds them beside it).
_EXPECTED_IN_PROJECT = {
    ".pytest_cache", ".hypothesis", ".ruff_cache", ".mypy_cache", "__pycache__",
    "build", "dist", "webrobot.egg-info", ".venv-floor", ".venv-py313",
}  # fmt: skip


@pytest.fixture
def nginx_bed(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[NginxBed]:
    """A real nginx on ports 80 and 443 of a loopback address of the test's own
    (tests/nginxbed.py), not yet started: the test says what its origins answer,
    then calls ``start()``, which skips the test, saying why, where nginx is
    missing or the ports cannot be bound. Always stopped at teardown."""

    from tests.nginxbed import NginxBed, address_for  # trustme: not in every test venv

    def unavailable(reason: str) -> NoReturn:
        pytest.skip(f"the nginx test bed is unavailable: {reason}")

    bed = NginxBed(tmp_path_factory.mktemp("nginx"), address_for(request.node.nodeid), unavailable)
    try:
        yield bed
    finally:
        bed.stop()
