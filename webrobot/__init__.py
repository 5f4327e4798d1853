"""webrobot: a polite, trap-proof web robot built on Scrapy.

Turn it on in any Scrapy project with ``ADDONS = {"webrobot.Addon": 0}``.
"""

from __future__ import annotations

import os
from typing import Any

from webrobot.version import __version__

__all__ = ["Addon", "__version__"]

# The old paths of moved components (webrobot.deprecated): one more folder where Python
# looks for a webrobot module only when it is not found here, so they cost nothing at start.
# Built on the package's own path entry, which is also right inside a zipped egg (Scrapyd).
__path__.append(os.path.join(__path__[0], "deprecated", "paths"))


def __getattr__(name: str) -> Any:
    # Imported on first use, so that ``import webrobot`` (setup tools reading
    # __version__, the pure modules) does not import Scrapy.
    if name == "Addon":
        from webrobot.addon import Addon

        return Addon
    raise AttributeError(f"module 'webrobot' has no attribute {name!r}")
