"""Scrapy's memory guard (``MEMUSAGE_LIMIT_MB``, ``MEMUSAGE_WARNING_MB``) judged on the
memory the crawl holds now.

Scrapy's :class:`~scrapy.extensions.memusage.MemoryUsage` reads the process's *peak*
resident size (``ru_maxrss``). On Linux a process started from a large one (a test
runner, a notebook, any Python program that forks the crawl) inherits that peak
across ``exec``: such a crawl is over a 300 MB limit before its first request, and
stops with ``memusage_exceeded`` having done nothing. This guard reads the resident
size now (``/proc/self/statm``), which is what the limit is about, and falls back to
Scrapy's reading where ``/proc`` is not there.
"""

from __future__ import annotations

import os

from scrapy.extensions.memusage import MemoryUsage

_PAGE = os.sysconf("SC_PAGE_SIZE") if hasattr(os, "sysconf") else 4096


def resident_bytes() -> int | None:
    """This process's resident size now, or None where ``/proc`` cannot say."""
    try:
        with open("/proc/self/statm", "rb") as statm:
            return int(statm.read().split()[1]) * _PAGE
    except (OSError, ValueError, IndexError):
        return None


class MemoryGuard(MemoryUsage):
    """Scrapy's memory limits (MEMUSAGE_*), judged on the memory the crawl holds now."""

    def get_virtual_size(self) -> int:
        now = resident_bytes()
        return now if now is not None else super().get_virtual_size()
