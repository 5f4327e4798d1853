"""How the crawl spends its open-file descriptors (no Scrapy, no I/O).

Every connection is a descriptor, in flight or idle in the keep-alive pool, and
so is every file the crawl writes (log, feed, job folder, WARC, index spool,
pipes to the index process, Redis). Under a limit of 1024 (a common default),
a crawl of thousands of sites that kept one idle connection per site it had
visited would run out, and every new connection would then fail with "Too many
open files".

:func:`plan` splits the limit: ``WEBROBOT_FD_RESERVE`` descriptors for files and
the rest, ``CONCURRENT_REQUESTS`` connections in flight, and what is left (at
most ``WEBROBOT_MAX_IDLE_CONNECTIONS``) for idle keep-alive connections. A limit
too low for the configured concurrency lowers the concurrency, said in one
warning at start. :func:`exhausted` recognises "too many open files" in an
error, which the download handler treats as back-pressure, never as the site's
failure.
"""

from __future__ import annotations

import errno
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import TypeVar

#: The errors of a process (EMFILE) or a system (ENFILE) out of descriptors.
EXHAUSTED = frozenset({errno.EMFILE, errno.ENFILE})
#: Idle connections worth keeping at least, per connection in flight, before the
#: concurrency is lowered to fit the limit.
MIN_IDLE_SHARE = 0.25

K = TypeVar("K")


@dataclass(frozen=True)
class DescriptorPlan:
    limit: int  # the process's soft limit (RLIMIT_NOFILE); 0: unknown, no plan
    reserve: int  # kept for files and everything that is not a connection
    concurrency: int  # connections in flight (CONCURRENT_REQUESTS, maybe lowered)
    max_idle: int  # idle keep-alive connections kept at most (0: none kept)
    warning: str = ""  # said once at start when the limit is low for the concurrency


def plan(limit: int, reserve: int, concurrency: int, max_idle: int) -> DescriptorPlan:
    """Split ``limit`` descriptors (see the module doc). ``max_idle`` 0: as many
    idle connections as the limit leaves room for."""
    if limit <= 0:
        return DescriptorPlan(0, reserve, concurrency, max_idle)
    budget = max(limit - reserve, 2)
    warning = ""
    wanted = concurrency + max(1, int(concurrency * MIN_IDLE_SHARE))
    if wanted > budget:
        lowered = max(1, int(budget / (1 + MIN_IDLE_SHARE)))
        warning = (
            f"The open-file limit ({limit}, of which WEBROBOT_FD_RESERVE={reserve} is kept "
            f"for files) is low for CONCURRENT_REQUESTS={concurrency}: at most {lowered} "
            "requests run at once. Raise the limit (ulimit -n, systemd LimitNOFILE) or "
            "lower CONCURRENT_REQUESTS"
        )
        concurrency = lowered
    idle = budget - concurrency
    if max_idle > 0:
        idle = min(idle, max_idle)
    return DescriptorPlan(limit, reserve, concurrency, max(idle, 0), warning)


def exhausted(exc: BaseException | None) -> bool:
    """Whether ``exc`` (or an error it was raised from) says the process or the
    system has no descriptor left: an ``OSError`` with EMFILE/ENFILE, or Twisted's
    ``ConnectBindError``/``ConnectError`` carrying one (``osError``)."""
    seen = 0
    while exc is not None and seen < 10:
        if isinstance(exc, OSError) and exc.errno in EXHAUSTED:
            return True
        if getattr(exc, "osError", None) in EXHAUSTED:
            return True
        if "Too many open files" in str(exc):
            return True
        exc = exc.__cause__ or exc.__context__
        seen += 1
    return False


def victims(idle: Iterable[K], excess: int, queued: Callable[[K], bool]) -> list[K]:
    """Which idle connections to close when ``excess`` are too many: those of sites
    with nothing queued first, then the least recently used (``idle`` is in
    least-recently-used-first order)."""
    if excess <= 0:
        return []
    order = list(idle)
    chosen = [c for c in order if not queued(c)][:excess]
    if len(chosen) < excess:
        taken = set(map(id, chosen))
        chosen += [c for c in order if id(c) not in taken][: excess - len(chosen)]
    return chosen
