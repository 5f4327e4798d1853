from __future__ import annotations

from collections.abc import Callable, Iterator

import pytest

from tests.redisserver import RedisServer
from webrobot.demo.server import SiteServer

#: Every stats key seen while the suite runs must be documented (see tests/statskeys.py).
pytest_plugins = ["tests.statskeys"]


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
