"""webrobot: a polite, trap-proof web robot built on Scrapy.

Turn it on in any Scrapy project with ``ADDONS = {"webrobot.Addon": 0}``.
"""

from __future__ import annotations

from typing import Any

from webrobot import moved
from webrobot.version import __version__

__all__ = ["Addon", "__version__"]

moved.install()


def __getattr__(name: str) -> Any:
    # Imported on first use, so that ``import webrobot`` (setup tools reading
    # __version__, the pure modules) does not import Scrapy.
    if name == "Addon":
        from webrobot.addon import Addon

        return Addon
    raise AttributeError(f"module 'webrobot' has no attribute {name!r}")
