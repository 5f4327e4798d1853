"""Optional dependencies, imported only when their feature is on.

``redis`` and ``scrapy-redis`` (``pip install 'webrobot[redis]'``) serve the
shared crawl of several workers (``WEBROBOT_REDIS_URL``); ``pygal``
(``pip install 'webrobot[charts]'``) draws the charts of ``report.html``;
``prometheus-client`` (``pip install 'webrobot[metrics]'``) serves ``/metrics``
(``WEBROBOT_METRICS_PORT``).
Nothing imports them until that feature is used, and a missing one is one
:class:`MissingExtra` error naming the extra to install. Every optional package is
reached through this module: :func:`require` imports it, :func:`check` and
:func:`installed` ask whether it is there without importing it (a feature that
decides at start whether it can run, but imports the package later or in a worker
process).

Pure: importlib only.
"""

from __future__ import annotations

import importlib
import importlib.util
from types import ModuleType


class MissingExtra(ImportError):
    """An optional dependency that a feature in use needs is not installed."""

    def __init__(self, module: str, extra: str, feature: str) -> None:
        self.module = module
        self.extra = extra
        super().__init__(
            f"{feature} needs the {module!r} package, which is not installed: "
            f"pip install 'webrobot[{extra}]'"
        )


def require(module: str, extra: str, feature: str) -> ModuleType:
    """``import module``, or :class:`MissingExtra` naming ``extra``."""
    try:
        return importlib.import_module(module)
    except ImportError as exc:
        if exc.name is not None and exc.name != module and not module.startswith(exc.name + "."):
            raise  # the package is there but broken: show the real error
        raise MissingExtra(module, extra, feature) from exc


def installed(module: str) -> bool:
    """Whether ``module`` can be imported, found without importing it."""
    try:
        return importlib.util.find_spec(module) is not None
    except (ImportError, ValueError):  # a parent package missing, or set to None
        return False


def check(module: str, extra: str, feature: str) -> None:
    """:class:`MissingExtra` naming ``extra`` unless ``module`` is installed; imports nothing."""
    if not installed(module):
        raise MissingExtra(module, extra, feature)


REDIS_FEATURE = "A shared crawl (WEBROBOT_REDIS_URL)"


def require_redis() -> None:
    """Both packages of the shared crawl, before any of its modules is imported."""
    require("redis", "redis", REDIS_FEATURE)
    require("scrapy_redis", "redis", REDIS_FEATURE)
