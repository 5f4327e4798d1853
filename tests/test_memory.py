"""The memory guard reads the memory the crawl holds now, not the peak a process
inherits across exec from the program that started it."""

from __future__ import annotations

import builtins
import subprocess
import sys
from typing import Any

import pytest
from scrapy.utils.test import get_crawler

from webrobot.resources import memory
from webrobot.resources.memory import MemoryGuard, resident_bytes


def test_resident_size_follows_what_the_process_holds() -> None:
    before = resident_bytes()
    assert before is not None and before > 10 * 2**20
    block = bytearray(200 * 2**20)  # touched: resident
    during = resident_bytes()
    assert during is not None and during - before > 150 * 2**20
    del block


def test_a_child_of_a_large_process_is_judged_on_its_own_memory() -> None:
    """ru_maxrss of a process started by a large one carries the parent's peak; the
    guard's reading does not."""
    block = bytearray(400 * 2**20)  # this process: over 400 MB resident
    code = (
        "import resource; from webrobot.resources.memory import resident_bytes;"
        "print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024, resident_bytes())"
    )
    peak, now = map(int, subprocess.check_output([sys.executable, "-c", code]).split())
    del block
    assert now < 200 * 2**20, "a small child"
    assert peak > 400 * 2**20, "Linux keeps the parent's peak across exec: why the guard exists"


def test_without_proc_the_guard_falls_back_to_scrapys_reading(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    real_open = builtins.open

    def no_proc(path: Any, *args: Any, **kwargs: Any) -> Any:
        if str(path).startswith("/proc/"):
            raise FileNotFoundError(path)
        return real_open(path, *args, **kwargs)

    monkeypatch.setattr(memory, "open", no_proc, raising=False)
    assert resident_bytes() is None
    crawler = get_crawler(settings_dict={"MEMUSAGE_ENABLED": True})
    guard = MemoryGuard(crawler)
    assert (
        guard.get_virtual_size()
        == guard.resource.getrusage(guard.resource.RUSAGE_SELF).ru_maxrss * 1024
    )
