"""pytest plugin: every stats key the test suite sees must be in docs/reference/stats.md.

Keys are recorded from every stats collector set in this process (Scrapy's
``StatsCollector`` methods, which webrobot's ``STATS_CLASS`` inherits) and from
the stats file of every crawl run in a subprocess (``tests.crawling``). At the
end of the session, keys in webrobot's namespaces that the reference does not
document are listed and the run fails. In a parallel run (pytest-xdist) each
worker hands the keys it saw to the controller, which checks them all.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable
from typing import Any

import pytest
from scrapy.statscollectors import StatsCollector

from tests.docs_reference import KeyPatterns, checked_stats_keys, documented

SEEN: set[str] = set()
_METHODS = ("set_value", "inc_value", "max_value", "min_value")


def record(keys: Iterable[str]) -> None:
    """Record stats keys seen (a crawl's stats file, a stats dict)."""
    SEEN.update(key for key in keys if isinstance(key, str))


def _recording(method: Callable[..., Any]) -> Callable[..., Any]:
    @functools.wraps(method)
    def wrapper(self: StatsCollector, key: str, *args: Any, **kwargs: Any) -> Any:
        SEEN.add(key)
        return method(self, key, *args, **kwargs)

    return wrapper


def pytest_configure(config: pytest.Config) -> None:
    for name in _METHODS:
        setattr(StatsCollector, name, _recording(getattr(StatsCollector, name)))


def undocumented() -> list[str]:
    return KeyPatterns(documented("stats.md")).missing(checked_stats_keys(SEEN))


@pytest.hookimpl(optionalhook=True)
def pytest_testnodedown(node: Any, error: object) -> None:
    """pytest-xdist's controller: a worker finished, with the keys it saw."""
    record(getattr(node, "workeroutput", {}).get("statskeys", ()))


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    if session.config.option.collectonly:
        return
    workeroutput = getattr(session.config, "workeroutput", None)
    if workeroutput is not None:  # an xdist worker: its controller checks every worker's keys
        workeroutput["statskeys"] = sorted(SEEN)
        return
    missing = undocumented()
    if missing:
        reporter = session.config.pluginmanager.get_plugin("terminalreporter")
        if reporter is not None:
            reporter.write_sep("=", "stats keys not in docs/reference/stats.md", red=True)
            for key in missing:
                reporter.write_line(key)
        session.exitstatus = pytest.ExitCode.TESTS_FAILED
