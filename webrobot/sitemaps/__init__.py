"""Sitemaps: reading them, checking what their entries say, and the requests made of
them (those robots.txt names, and those of site configs)."""

from __future__ import annotations

from typing import Any


def __getattr__(name: str) -> Any:
    # This path was a module before; its names still load from here for one release.
    from webrobot.moved import moved_attribute

    return moved_attribute(__name__, name)
