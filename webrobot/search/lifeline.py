"""Tie a helper process's life to the crawl that started it (no Scrapy here).

A helper (the index writer) must never outlive the crawl, whenever the crawl
dies: a SIGKILL from the kernel's out-of-memory killer or ``kill -9`` included,
in the first fraction of a second too. Two pieces close every gap:

* :func:`bind_to_parent` asks Linux to send the helper a signal when its parent
  dies (``prctl(PR_SET_PDEATHSIG)``). It is the helper's first statement. The
  kernel only signals a death that happens after the call, so it then checks that
  its parent is still the process that started it (the pid the parent passed
  down): a parent that died between the start and the call (the fork race) is
  seen there, and the helper leaves at once.
* The helper also compares ``os.getppid()`` with that pid in its loop, which
  covers systems without ``prctl``.

Linux sends the parent-death signal when the *thread* that started the helper
exits; the crawl starts its helpers from the reactor's (main) thread, which lives
as long as the crawl.
"""

from __future__ import annotations

import ctypes
import os
import signal
import sys

#: From <linux/prctl.h>.
PR_SET_PDEATHSIG = 1


def bind_to_parent(parent_pid: int, sig: int = signal.SIGTERM) -> bool:
    """Have ``sig`` sent to this process when its parent dies; whether the parent
    (``parent_pid``) is still alive and still this process's parent."""
    if sys.platform.startswith("linux"):
        try:
            libc = ctypes.CDLL(None, use_errno=True)
            libc.prctl(PR_SET_PDEATHSIG, int(sig), 0, 0, 0)
        except (OSError, AttributeError):  # no prctl: the getppid() checks remain
            pass
    return os.getppid() == parent_pid


def orphaned(parent_pid: int) -> bool:
    """Whether the parent that started this process has gone."""
    return os.getppid() != parent_pid
