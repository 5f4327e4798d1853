from __future__ import annotations

from collections.abc import Callable, Iterator

import pytest

from webrobot.demo.server import SiteServer


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
