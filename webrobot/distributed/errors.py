"""What a shared component does on a Redis error, the same in each: count it in
``webrobot/redis/error_count``, warn the first time (saying what this worker
does instead, e.g. "the page is let through"), and log the rest at DEBUG."""

from __future__ import annotations

import logging
from typing import Any

#: Stats key counting every Redis error of every shared component.
ERROR_COUNT = "webrobot/redis/error_count"


class RedisErrorLog:
    """One component's Redis errors: ``message`` is a ``%``-format with one
    ``%s`` for the error."""

    def __init__(self, logger: logging.Logger, message: str, stats: Any = None) -> None:
        self.logger = logger
        self.message = message
        self.stats = stats
        self.warned = False

    def __call__(self, exc: BaseException) -> bool:
        """Count and log one error; True if it is the component's first."""
        inc = getattr(self.stats, "inc_value", None)
        if inc is not None:
            inc(ERROR_COUNT)
        first = not self.warned
        self.warned = True
        self.logger.log(logging.WARNING if first else logging.DEBUG, self.message, exc)
        return first
