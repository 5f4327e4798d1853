"""When a worker of a shared crawl may close (webrobot.distributed.crawldone), and how
often it polls and looks for stopped workers (webrobot.distributed.leasetiming)."""

from __future__ import annotations

import pytest
from scrapy.settings import Settings

from webrobot.distributed.crawldone import CrawlDone
from webrobot.distributed.leasetiming import LeaseTiming
from webrobot.settingsmodel.parse import defaults


def test_the_crawl_is_done_once_it_had_no_work_for_the_idle_close_time() -> None:
    done = CrawlDone(idle_close=2.0)
    assert done.done_for(work=False, now=10.0) is None, "done from now on"
    assert done.done_for(work=False, now=11.5) is None
    assert done.done_for(work=False, now=12.5) == pytest.approx(2.5)


def test_work_anywhere_starts_the_done_time_again() -> None:
    done = CrawlDone(idle_close=2.0)
    done.done_for(work=False, now=10.0)
    assert done.done_for(work=True, now=11.0) is None
    assert done.done_for(work=False, now=12.5) is None, "done since 12.5, not 10"
    assert done.done_for(work=False, now=14.5) == pytest.approx(2.0)


def test_idle_close_zero_waits_for_seeds_forever() -> None:
    done = CrawlDone(idle_close=0)
    assert done.done_for(work=False, now=0.0) is None
    assert done.done_for(work=False, now=1e9) is None


def test_lease_timing_polls_at_least_every_third_of_the_ttl() -> None:
    assert LeaseTiming.of(lease_ttl=3.0, poll_interval=5.0, max_expiries=3).poll_interval == 1.0
    assert LeaseTiming.of(3.0, 0.1, 3).reclaim_interval == pytest.approx(0.75), "a quarter TTL"
    assert LeaseTiming.of(3.0, 0.0, 3).poll_interval == 0.01, "never busy-polls"


def test_stopped_workers_are_looked_for_well_within_half_a_ttl() -> None:
    timing = LeaseTiming.of(lease_ttl=1.0, poll_interval=0.2, max_expiries=3)
    assert timing.reclaim_interval == pytest.approx(0.1), "half a TTL less two polls"
    assert LeaseTiming.of(0.3, 0.1, 3).reclaim_interval == 0.0


def test_lease_timing_from_the_settings_and_a_ttl_that_is_not_positive() -> None:
    settings = Settings({k: v for k, v in defaults().items() if k.startswith("WEBROBOT_REDIS")})
    timing = LeaseTiming.from_settings(settings)
    assert timing.lease_ttl == settings.getfloat("WEBROBOT_REDIS_LEASE_TTL")
    assert timing.max_expiries == settings.getint("WEBROBOT_REDIS_MAX_LEASE_EXPIRIES")
    with pytest.raises(ValueError, match="WEBROBOT_REDIS_LEASE_TTL must be positive, got 0"):
        LeaseTiming.of(0, 1.0, 3)
