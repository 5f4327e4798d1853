"""The leases a scheduler handed out with its requests, for both frontiers.

A scheduler with leases (the crash-safe frontier's, whose leases are entry
ids, and the shared crawl's, whose leases are lease ids in Redis) gives the
engine a request under a lease and acknowledges the lease once the engine is
done with it. Meanwhile a downloader middleware may hand the request back to
the engine (the robots.txt middleware holds a site's requests until its
robots.txt is resolved, then schedules them again). Such a request is no
longer in the engine's in-progress set, yet its lease must be kept until it
is scheduled again and done, or refused.

:class:`LeaseTracker` keeps that book: which request holds which lease, which
were handed back to the engine (*parked*), which came back to the scheduler
and wait to be served again under their lease, and which are done. Its
scheduler tells it everything (what it handed out, what the engine scheduled
or refused, which requests the engine has in hand): no signals, no engine.
"""

from __future__ import annotations

from collections import deque
from typing import TYPE_CHECKING, Generic, TypeVar

if TYPE_CHECKING:
    from collections.abc import Container, Iterator

Lease = TypeVar("Lease")
Req = TypeVar("Req")


class LeaseTracker(Generic[Lease, Req]):
    """The leases held by one scheduler, by request. Its length is the number of
    leases held; iterating gives them; ``lease in tracker`` says whether one is."""

    def __init__(self) -> None:
        self._requests: dict[Lease, Req] = {}  # lease -> the request given to the engine
        self._lease_of: dict[int, Lease] = {}  # id(request) -> its lease, while handed out
        self._parked: set[Lease] = set()  # leases of requests handed back to the engine
        self._waiting: deque[Req] = deque()  # leased requests back in the scheduler

    def __len__(self) -> int:
        return len(self._requests)

    def __iter__(self) -> Iterator[Lease]:
        return iter(list(self._requests))

    def __contains__(self, lease: object) -> bool:
        return lease in self._requests

    @property
    def parked(self) -> int:
        """How many leased requests the engine was handed back and has not scheduled yet."""
        return len(self._parked)

    @property
    def waiting(self) -> int:
        """How many leased requests are back in the scheduler, to be served again."""
        return len(self._waiting)

    def handed_out(self, lease: Lease, request: Req) -> None:
        """The scheduler gives the engine ``request`` under ``lease``."""
        self._requests[lease] = request
        self._lease_of[id(request)] = lease

    def scheduled(self, request: Req) -> None:
        """The engine schedules ``request`` (``request_scheduled``): a leased request
        handed back to the engine keeps its lease."""
        lease = self._lease_of.get(id(request))
        if lease is not None:
            self._parked.add(lease)

    def gone(self, request: Req) -> None:
        """``request`` was refused or dropped: a held request is done (acknowledged with
        the next ones).

        It is no longer one handed out either: the robots.txt middleware refuses a
        released request *while* the engine schedules it again, in its own receiver
        of ``request_scheduled``, which runs before the scheduler's (receivers run in
        the order they connected; the scheduler connects at open, after the
        middlewares). Still known as handed out, the request would be parked again
        there, its lease never acknowledged, and the crawl would never be done."""
        lease = self._lease_of.pop(id(request), None)
        if lease is not None:
            self._parked.discard(lease)

    def handed_back(self, request: Req) -> bool:
        """The engine enqueues ``request`` again: True when it is a leased one, which
        then waits in the scheduler under its lease (:meth:`next_waiting`)."""
        if id(request) not in self._lease_of:
            return False
        self._waiting.append(request)
        return True

    def next_waiting(self) -> Req | None:
        """The first leased request back in the scheduler, given to the engine again."""
        if not self._waiting:
            return None
        request = self._waiting.popleft()
        lease = self._lease_of.get(id(request))
        if lease is not None:
            self._parked.discard(lease)
        return request

    def done(self, inprogress: Container[Req]) -> list[tuple[Lease, Req]]:
        """The leases whose requests the engine is done with: not in its in-progress
        set, not handed back to it, not waiting here to be served again."""
        waiting = {id(request) for request in self._waiting}
        return [
            (lease, request) for lease, request in self._requests.items()
            if request not in inprogress and lease not in self._parked and id(request) not in waiting
        ]  # fmt: skip

    def forget(self, lease: Lease) -> Req:
        """``lease`` is acknowledged (or given back): its request, no longer held."""
        request = self._requests.pop(lease)
        self._lease_of.pop(id(request), None)
        self._parked.discard(lease)
        return request

    def clear(self) -> None:
        """Every lease given back at once."""
        self._requests.clear()
        self._lease_of.clear()
        self._parked.clear()
        self._waiting.clear()
