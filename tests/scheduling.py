"""How a parallel run (pytest-xdist, ``--dist loadgroup``) hands tests to its
workers: each test to the next free worker, except the tests of a file that
:func:`tests.tiers.one_worker` keeps together (its virtualenvs or a module fixture,
a Scrapyd, a crawl, built once), which go to one worker as one unit. conftest.py
makes this the run's scheduler.

The grouping is decided here, in the controller, from the test's file: pytest-xdist's
own ``xdist_group`` marks reach the controller as a suffix of each test's id, which
pytest 9.2 no longer lets a plugin change.
"""

from __future__ import annotations

import pytest
from xdist.remote import Producer
from xdist.scheduler import LoadGroupScheduling

from tests import tiers


class FileGroupScheduling(LoadGroupScheduling):
    """``loadgroup``, with every file :func:`tiers.one_worker` names as one group."""

    def __init__(self, config: pytest.Config, log: Producer | None = None) -> None:
        super().__init__(config, log)
        self.rootpath = config.rootpath

    def _split_scope(self, nodeid: str) -> str:
        path = nodeid.split("::", 1)[0]
        file = self.rootpath / path
        if path.endswith(".py") and file.is_file() and tiers.one_worker(file):
            return path
        return super()._split_scope(nodeid)
