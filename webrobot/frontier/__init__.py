"""The URL frontier: what waits to be fetched and in which order. The in-memory and
crash-safe queues and their journal, compact requests, leases, the scheduler, priorities,
and freshness (when a stored page is due again, conditional re-crawls)."""

from __future__ import annotations

from typing import Any


def __getattr__(name: str) -> Any:
    # This path was a module before; its names still load from here for one release.
    from webrobot.moved import moved_attribute

    return moved_attribute(__name__, name)
