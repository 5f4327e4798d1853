"""A helper bound to its parent with :func:`webrobot.search.lifeline.bind_to_parent`
dies when the parent is SIGKILLed, and leaves at once when its parent has gone
before it could bind (the fork race)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

HELPER = """
import os, sys, time
from webrobot.search.lifeline import bind_to_parent
expected = int(sys.argv[1]) if len(sys.argv) > 1 else os.getppid()
if not bind_to_parent(expected):
    print("gone", flush=True)
    sys.exit(0)
print("bound", flush=True)
time.sleep(120)  # alive until killed: the test ends it
"""

PARENT = """
import subprocess, sys, time
helper = subprocess.Popen([sys.executable, "-c", sys.argv[1]], stdout=subprocess.PIPE, text=True)
assert helper.stdout.readline().strip() == "bound"
print(helper.pid, flush=True)
time.sleep(120)  # alive until killed: the test ends it
"""


def running(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state not in ("Z", "X")


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="PR_SET_PDEATHSIG is Linux's")
def test_the_helper_dies_with_its_parent() -> None:
    parent = subprocess.Popen([sys.executable, "-c", PARENT, HELPER], cwd=ROOT,
                              stdout=subprocess.PIPE, text=True)  # fmt: skip
    assert parent.stdout is not None
    helper = int(parent.stdout.readline())
    try:
        assert running(helper)
        parent.kill()  # SIGKILL: the parent runs no code of its own any more
        parent.wait()
        deadline = time.monotonic() + 10
        while running(helper) and time.monotonic() < deadline:
            time.sleep(0.02)
        assert not running(helper), "the helper outlived its parent"
    finally:
        parent.stdout.close()
        if running(helper):
            os.kill(helper, signal.SIGKILL)


def test_a_helper_whose_parent_is_not_the_expected_one_leaves() -> None:
    done = subprocess.run([sys.executable, "-c", HELPER, "1"], cwd=ROOT, capture_output=True,
                          text=True, timeout=60, check=True)  # fmt: skip
    assert done.stdout.strip() == "gone"
