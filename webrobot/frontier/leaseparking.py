"""Leases of requests the engine was handed back, for both frontiers.

A downloader middleware may hand a leased request back to the engine (the
robots.txt middleware holds a site's requests until its robots.txt is
resolved, then schedules them again). Such a request is no longer in the
engine's in-progress set, yet its lease must be kept until it is scheduled
again and done, or refused. The crash-safe scheduler (leases are entry ids)
and the shared crawl's scheduler (lease ids in Redis) keep them alike.
"""

from __future__ import annotations

from typing import Any, Generic, TypeVar

Lease = TypeVar("Lease")


class ParkedLeases(Generic[Lease]):
    """Mixin for a scheduler that keeps ``_lease_of`` (``id(request)`` -> its lease)
    for the requests it handed out: ``_parked`` holds the leases of those handed
    back to the engine. Connect :meth:`_request_scheduled` and
    :meth:`_request_gone` to the signals that say so."""

    _lease_of: dict[int, Lease]
    _parked: set[Lease]

    def _request_scheduled(self, request: Any, **kwargs: Any) -> None:
        """A leased request handed back to the engine: keep its lease."""
        lease = self._lease_of.get(id(request))
        if lease is not None:
            self._parked.add(lease)

    def _request_gone(self, request: Any, **kwargs: Any) -> None:
        """Refused or dropped: a held request is done (acknowledged with the next ones).

        It is no longer one handed out either: the robots.txt middleware refuses a
        released request *while* the engine schedules it again, in its own receiver
        of ``request_scheduled``, which runs before :meth:`_request_scheduled`
        (receivers run in the order they connected; the scheduler connects at
        open, after the middlewares). Still known as handed out, the request would
        be parked again there, its lease never acknowledged, and the crawl would
        never be done."""
        lease = self._lease_of.pop(id(request), None)
        if lease is not None:
            self._parked.discard(lease)
