"""How often a worker of a shared crawl polls and looks for stopped workers,
derived from its lease TTL.

The heartbeat that keeps a worker's leases alive goes every third of
``WEBROBOT_REDIS_LEASE_TTL``, so the scheduler polls at least that often
(``WEBROBOT_REDIS_POLL_INTERVAL`` otherwise). Stopped workers are looked for
every quarter of a TTL, but often enough that the gap between two looks stays
well under half a TTL, which the re-queueing script takes for "Redis was
unreachable" (and then waits a grace period).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from webrobot.settingsmodel.parse import read

if TYPE_CHECKING:
    from scrapy.settings import BaseSettings


@dataclass(frozen=True)
class LeaseTiming:
    lease_ttl: float
    max_expiries: int
    poll_interval: float
    reclaim_interval: float

    @classmethod
    def of(cls, lease_ttl: float, poll_interval: float, max_expiries: int) -> LeaseTiming:
        """From the settings' values; a TTL that is not positive is a ValueError."""
        if lease_ttl <= 0:
            raise ValueError(f"WEBROBOT_REDIS_LEASE_TTL must be positive, got {lease_ttl}")
        poll = min(max(poll_interval, 0.01), lease_ttl / 3)
        reclaim = max(0.0, min(lease_ttl / 4, lease_ttl / 2 - 2 * poll))
        return cls(lease_ttl, max_expiries, poll, reclaim)

    @classmethod
    def from_settings(cls, settings: BaseSettings) -> LeaseTiming:
        return cls.of(
            read(settings, "WEBROBOT_REDIS_LEASE_TTL"),
            read(settings, "WEBROBOT_REDIS_POLL_INTERVAL"),
            read(settings, "WEBROBOT_REDIS_MAX_LEASE_EXPIRIES"),
        )
