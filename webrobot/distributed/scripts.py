"""The shared crawl's Lua scripts, declared so that Redis at ``maxmemory`` refuses
a script whole, never halfway.

A script without a declaration runs under ``maxmemory`` (policy ``noeviction``)
until its first command that needs memory (``ZADD``, ``HSET``, ``XADD``...), which
fails with ``OOM command not allowed``; what it did before stays done, and
deletes (``HDEL``, ``ZPOPMIN``) need no memory. Ending leases and then failing to
store their items, or taking a request out of the frontier and failing to record
its lease, would lose pages. Redis 7 reads a first line ``#!lua`` as a
declaration: a script so declared that may write is refused before it starts
when memory is full; one declared ``flags=no-writes`` (the clock) still runs.
So at ``maxmemory`` every script either happened or did not, and the worker
treats the refusal as an outage (:mod:`webrobot.distributed.outage`): it pauses
and tries again until memory is freed.

Redis 6.2 knows no declaration: the scripts run as before there (the docs say
to give a shared crawl's Redis room, or Redis 7).
"""

from __future__ import annotations

from typing import Any

import redis

#: Declarations (Redis >= 7).
WRITES = "#!lua\n"
READS = "#!lua flags=no-writes\n"
#: Attribute of a client where what it answered is kept.
_CACHED = "_webrobot_script_flags"


def _major(version: object) -> int:
    try:
        return int(str(version).split(".", 1)[0])
    except ValueError:
        return 0


def declares_flags(server: Any) -> bool:
    """Whether the server (every node of a cluster) reads script declarations."""
    cached = getattr(server, _CACHED, None)
    if cached is not None:
        return bool(cached)
    try:
        info = server.info("server")
    except redis.RedisError:
        return False  # not known yet: undeclared scripts work everywhere
    if isinstance(info, dict) and "redis_version" in info:
        versions = [info["redis_version"]]
    else:  # a cluster client: one answer per node
        values = info.values() if isinstance(info, dict) else []
        versions = [v.get("redis_version", "0") for v in values if isinstance(v, dict)]
    flags = bool(versions) and all(_major(v) >= 7 for v in versions)
    try:
        setattr(server, _CACHED, flags)
    except AttributeError:
        pass
    return flags


def register(server: Any, source: str, *, writes: bool = True) -> Any:
    """``server.register_script(source)``, declared (Redis >= 7) as a script that
    may write (refused whole at ``maxmemory``) or, ``writes=False``, one that never
    does (runs at ``maxmemory``)."""
    if declares_flags(server):
        source = (WRITES if writes else READS) + source.lstrip("\n")
    return server.register_script(source)
