"""The one way shared components report Redis errors."""

from __future__ import annotations

import logging

import pytest
from redis import ConnectionError as RedisConnectionError
from scrapy.utils.test import get_crawler

from webrobot.distributed.errors import ERROR_COUNT, RedisErrorLog

logger = logging.getLogger("webrobot.test")


def test_every_error_is_counted_the_first_is_a_warning(caplog: pytest.LogCaptureFixture) -> None:
    crawler = get_crawler()
    assert crawler.stats is not None
    errors = RedisErrorLog(logger, "Redis error in the shared thing (the page is let through): %s", crawler.stats)
    with caplog.at_level(logging.DEBUG, logger="webrobot.test"):
        assert errors(RedisConnectionError("refused")) is True
        assert errors(RedisConnectionError("refused again")) is False
        assert errors(RedisConnectionError("and again")) is False
    assert crawler.stats.get_value(ERROR_COUNT) == 3
    levels = [(r.levelno, r.getMessage()) for r in caplog.records]
    assert levels == [
        (logging.WARNING, "Redis error in the shared thing (the page is let through): refused"),
        (logging.DEBUG, "Redis error in the shared thing (the page is let through): refused again"),
        (logging.DEBUG, "Redis error in the shared thing (the page is let through): and again"),
    ]


def test_without_stats_errors_are_still_logged(caplog: pytest.LogCaptureFixture) -> None:
    errors = RedisErrorLog(logger, "Redis error: %s")
    with caplog.at_level(logging.WARNING, logger="webrobot.test"):
        errors(RedisConnectionError("down"))
    assert [r.getMessage() for r in caplog.records] == ["Redis error: down"]
