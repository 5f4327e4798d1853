"""The shared frontier: scrapy-redis's priority queue with leases.

scrapy-redis's ``PriorityQueue`` keeps serialized requests in a sorted set by
``-priority``; with ``DEPTH_PRIORITY = 1`` that is depth, so the frontier is
breadth-first across all workers. Its ``pop`` deletes the request: a worker
killed after a pop loses it. Here a pop is a *lease*, in one Lua script:

* the request moves from the frontier to ``<crawl>:leased`` (a hash: lease id
  ``<worker id>/<n>`` -> score and request);
* the worker *acknowledges* the lease when it is done with the request (which
  deletes it), or *releases* it (back to the frontier) when it closes with
  work left over;
* a lease lives as long as its worker: every worker is in ``<crawl>:leases``
  (a sorted set: worker id -> heartbeat deadline, Redis server time, so
  worker clocks do not matter) from before its first lease, and pushes its
  deadline one TTL ahead every third of the TTL (one ``ZADD``, whatever the
  number of leases it holds; the Redis time is read at each reclaim and
  carried forward on the worker's monotonic clock);
* any worker's periodic *reclaim* removes the workers whose deadline passed
  (they died or hung) and puts the requests leased by a worker that is not in
  the set back into the frontier. A request whose lease expired
  ``max_expiries`` times (a page that kills every worker that takes it) goes
  to ``<crawl>:dead`` instead of circling forever.

A worker that hung longer than the TTL and wakes up finds out at its next
heartbeat (its ``ZADD`` adds it again): the requests that were re-queued
meanwhile are lost to it (another worker may fetch them), those still in
``<crawl>:leased`` are its own again. A lease it took before that heartbeat
would belong to a worker that is not in the set: it does not take one more
than half a TTL after its last heartbeat without beating first, and the
reclaim walks ``<crawl>:leased`` after removing a worker and at least once
per TTL, so a lease whose worker is not in the set is re-queued, never left
behind.

Finishing pages is one script too (:meth:`LeasedFrontier.finish`): their
leases end, their items go into the item stream, and the links they found are
marked visited (a digest, see :mod:`.digests`) and queued if they were new, so
no worker can die between two of those steps and leave a URL marked visited
but never queued, or a page acknowledged without its items or links.

On a Redis Cluster the visited buckets are spread over all slots, so one
script cannot both mark a link visited and queue it. There finishing is two
steps: the links' visited marks (one pipelined ``SADD`` per link, grouped by
node), then the script above without them (leases, items, and the links that
were new). What covers the gap between the two:

* a worker that marked links but failed to run the script (an error, a
  failover) keeps the marks it made in :attr:`LeasedFrontier.fresh` and
  queues those links at its next try, although they are marked now (a mark
  whose reply was lost counts as its own: queued too, perhaps twice);
* a worker killed in the gap did not acknowledge its leases: its pages are
  fetched again once the leases expire, and a page taken again after an
  expiry is marked (:data:`RECLAIMED_KEY`), so the links it finds are queued
  even if marked visited (:data:`REQUEUE_KEY`, set by
  :class:`~webrobot.distributed.lineage.ReclaimedPageLinks`). Such a link
  that some other page had queued already is fetched twice: nothing is lost,
  a few pages may be doubled.

The score of a queued request is ``-priority * 10**12`` plus the crawl's
sequence number (``<crawl>:sequence``): higher ``Request.priority`` first
(``DEPTH_PRIORITY = 1`` makes that breadth-first), first in, first out within
a priority. Priorities are clamped to +-4000 so that scores stay exact.

The first byte of every stored request counts its expired leases.

The Lua scripts, each with the keys and arguments it takes, are in
:mod:`webrobot.distributed.leasescripts`.
"""

from __future__ import annotations

import logging
import os
import pickle
import re
import socket
import uuid
from itertools import count
from time import monotonic
from typing import TYPE_CHECKING, Any

import redis
from scrapy_redis.queue import PriorityQueue

if TYPE_CHECKING:
    from collections.abc import Sequence

    from scrapy import Request, Spider

from webrobot.distributed import leasescripts, scripts
from webrobot.distributed.keys import CrawlKeys

logger = logging.getLogger(__name__)

#: What serializing a request may raise (scrapy-redis pickles ``Request.to_dict``).
SERIALIZE_ERRORS = (ValueError, TypeError, AttributeError, pickle.PicklingError)

#: Private meta key of a leased request whose lease had expired before (taken again).
RECLAIMED_KEY = "_webrobot_reclaimed"
#: Private meta key of a link found by such a page: queued even if marked visited.
REQUEUE_KEY = "_webrobot_requeue"

#: |Request.priority| beyond this counts as this (scores stay exact doubles).
MAX_PRIORITY = 4000


def clamp_priority(priority: int) -> int:
    """``Request.priority`` as the frontier's scores count it (see :data:`MAX_PRIORITY`)."""
    return max(-MAX_PRIORITY, min(MAX_PRIORITY, int(priority)))


def new_worker_id() -> str:
    """``host:pid:random``: names this worker's leases (visible in Redis)."""
    return f"{socket.gethostname()}:{os.getpid()}:{uuid.uuid4().hex[:6]}"


class LeasedFrontier(PriorityQueue):
    """A breadth-first frontier in Redis whose pops are leases (see module doc)."""

    def __init__(
        self,
        server: redis.Redis,
        spider: Spider,
        keys: CrawlKeys,
        serializer: Any = None,
        *,
        lease_ttl: float = 60.0,
        max_expiries: int = 3,
        worker_id: str | None = None,
    ) -> None:
        super().__init__(server, spider, keys.frontier, serializer)
        if lease_ttl <= 0:
            raise ValueError(f"the lease TTL must be positive, got {lease_ttl}")
        self.keys = keys
        self.lease_ttl_ms = max(1, round(lease_ttl * 1000))
        self.max_expiries = max(0, max_expiries)
        self.worker_id = worker_id or new_worker_id()
        self.cluster = keys.cluster
        #: Cluster mode: visited slots this worker marked (or must queue although
        #: marked) whose requests are not queued yet.
        self.fresh: set[tuple[str, int]] = set()
        self._lease_numbers = count(1)
        #: Redis time (ms) as last read, and this worker's monotonic clock then.
        self._redis_clock: tuple[int, float] | None = None
        #: This worker's monotonic clock at its last heartbeat (None: not registered).
        self._beat: float | None = None
        #: Set when a heartbeat found this worker declared dead (its owner resets it).
        self.revived = False
        #: Whether the last reclaim left a walk of the leased hash to go on.
        self.walking = False
        self._lease = scripts.register(server, leasescripts.LEASE)
        self._finish = scripts.register(server, leasescripts.FINISH)
        self._missing = scripts.register(server, leasescripts.MISSING, writes=False)
        self._release = scripts.register(server, leasescripts.RELEASE)
        self._reclaim = scripts.register(server, leasescripts.RECLAIM)
        self._clock = scripts.register(server, leasescripts.CLOCK, writes=False)

    # -- adding ------------------------------------------------------------
    def encode(self, request: Request) -> bytes:
        """The stored form: one byte of expired-lease count, then scrapy-redis's
        serialized ``Request.to_dict``. Raises one of :data:`SERIALIZE_ERRORS`."""
        return b"\x00" + self._encode_request(request)

    def decode(self, data: bytes) -> Request:
        return self._decode_request(data[1:])

    def push(self, request: Request) -> None:
        """Queue ``request`` unconditionally (scrapy-redis's interface)."""
        self.add(self.encode(request), request.priority, None)

    def add(self, data: bytes, priority: int, visited: tuple[str, int] | None) -> bool:
        """Queue an encoded request; with ``visited`` (a digest key and member),
        only if that digest was not there yet, and mark it. True if queued."""
        return self.finish([], (), [(visited, priority, data)])[1][0]

    # -- taking ------------------------------------------------------------
    def lease(self, before: int | None = None) -> tuple[str, Request] | None:
        """Take the shallowest request under a new lease, or None if the frontier
        is empty. Requests that cannot be decoded are set aside in ``dead``.
        With ``before`` (a priority), None also when the first request would
        come after a request of that priority queued now."""
        if self._beat is None or (monotonic() - self._beat) * 1000 > self.lease_ttl_ms / 2:
            # Not registered, or perhaps declared dead (it hung): a lease taken now
            # could belong to a worker that is not in the set.
            self.heartbeat()
        while True:
            lease_id = f"{self.worker_id}/{next(self._lease_numbers)}"
            args: list[Any] = [lease_id]
            if before is not None:
                args.append(-clamp_priority(before) * 10**12 + 10**12)
            data = self._lease(keys=[self.keys.frontier, self.keys.leased], args=args)
            if data is None or data == 0:
                return None
            try:
                request = self.decode(data)
                if data[:1] != b"\x00":
                    request.meta[RECLAIMED_KEY] = True
                return lease_id, request
            except Exception as exc:  # noqa: BLE001 - another version's data, a renamed callback...
                logger.error("Setting aside a frontier entry that cannot be decoded: %r", exc)
                self.server.rpush(self.keys.dead, data)
                self.ack([lease_id])

    def heartbeat(self) -> bool:
        """Register this worker, or push its deadline one TTL ahead: one ``ZADD``
        whatever the number of leases it holds. True if it had been registered
        and was not any more: declared dead (it hung longer than the TTL), its
        leases re-queued (see :meth:`missing`); then :attr:`revived` is set too."""
        sent = monotonic()
        added = self.server.zadd(self.keys.leases, {self.worker_id: self.deadline()})
        revived = bool(added) and self._beat is not None
        self._beat = sent
        if revived:
            self.revived = True
        return revived

    def leave(self) -> None:
        """Leave the set of workers (at close, with no lease left)."""
        self.server.zrem(self.keys.leases, self.worker_id)
        self._beat = None

    def missing(self, lease_ids: list[str]) -> list[str]:
        """The ids among these that are no longer leased (re-queued after their
        worker was declared dead, or acknowledged)."""
        if not lease_ids:
            return []
        found = self._missing(keys=[self.keys.leased], args=lease_ids)
        return [m.decode() if isinstance(m, bytes) else str(m) for m in found]

    def strays(self, held: set[str]) -> list[str]:
        """This worker's lease ids in ``<crawl>:leased`` that are not in ``held``:
        leases it no longer knows of, which its heartbeat would keep alive for
        ever (an acknowledgement a failover lost, a lease whose reply was lost
        with the connection). Walks the leased hash: called after Redis errors."""
        pattern = re.sub(r"([*?\[\]\\])", r"\\\1", self.worker_id) + "/*"
        found = (
            field.decode() if isinstance(field, bytes) else str(field)
            for field, _ in self.server.hscan_iter(self.keys.leased, match=pattern, count=1000)
        )
        return sorted({lease_id for lease_id in found if lease_id not in held})

    def deadline(self) -> int:
        """A heartbeat's deadline: one TTL after the Redis server's time (ms), as
        read at the last reclaim (or now, if that was more than a third of a TTL
        ago) and carried forward on this worker's monotonic clock. Only durations
        measured here count, so the worker's wall clock does not matter; the time
        the reading took to arrive makes the deadline a little early, never late."""
        clock = self._redis_clock
        if clock is None or (monotonic() - clock[1]) * 1000 > self.lease_ttl_ms / 3:
            seconds, micros = self._clock(keys=[self.keys.leases])
            clock = self._redis_clock = (int(seconds) * 1000 + int(micros) // 1000, monotonic())
        return clock[0] + round((monotonic() - clock[1]) * 1000) + self.lease_ttl_ms

    def pop(self, timeout: int = 0) -> Request | None:
        """scrapy-redis's interface: a leased request (the lease is left to expire
        unless acknowledged; the scheduler uses :meth:`lease`)."""
        leased = self.lease()
        return leased[1] if leased else None

    def ack(self, lease_ids: list[str], items: Sequence[tuple[str, bytes]] = ()) -> int:
        """Done with these leases, and add ``items`` (``(key, serialized item)``,
        see :mod:`.items`) to the crawl's item stream in the same atomic step;
        returns how many leases were still held (the others expired and were
        handed to another worker)."""
        return self.finish(lease_ids, items, ())[0]

    def _finish_keys(self) -> list[str]:
        """The keys the finishing script touches, in its KEYS order."""
        k = self.keys
        return [k.leased, k.items, k.frontier, k.sequence]

    def finish(
        self,
        lease_ids: list[str],
        items: Sequence[tuple[str, bytes]],
        links: Sequence[tuple[tuple[str, int] | None, int, bytes]],
    ) -> tuple[int, list[bool]]:
        """One round trip: end these leases, store ``items`` and queue ``links``
        (``(visited slot or None, priority, encoded request)``, each queued only
        if its slot was not visited yet). Returns how many leases were still
        held, and per link whether it was queued."""
        if not lease_ids and not items and not links:
            return 0, []
        if self.cluster:
            return self._finish_on_cluster(lease_ids, items, links)
        keys = self._finish_keys()
        index: dict[str, int] = {}
        args: list[Any] = [len(lease_ids), *lease_ids, len(items)]
        for key, data in items:
            args += [key, data]
        for visited, raw_priority, data in links:
            priority = clamp_priority(raw_priority)
            if visited is None:
                args += [0, 0, priority, data]
                continue
            bucket, member = visited
            if bucket not in index:
                keys.append(bucket)
                index[bucket] = len(keys)
            args += [index[bucket], member, priority, data]
        out = self._finish(keys=keys, args=args)
        return int(out[0]), [bool(flag) for flag in out[1:]]

    def _finish_on_cluster(
        self,
        lease_ids: list[str],
        items: Sequence[tuple[str, bytes]],
        links: Sequence[tuple[tuple[str, int] | None, int, bytes]],
    ) -> tuple[int, list[bool]]:
        """:meth:`finish` in two steps: mark the links visited (their buckets are
        all over the cluster), then end the leases, store the items and queue the
        new links in the crawl's slot (see the module doc for the gap)."""
        marked = [visited for visited, _, _ in links if visited is not None]
        new: dict[tuple[str, int], bool] = {}
        if marked:
            pipe = self.server.pipeline(transaction=False)
            for bucket, member in marked:
                pipe.sadd(bucket, member)
            try:
                results = pipe.execute(raise_on_error=False)
            except redis.RedisError:
                # Which marks reached Redis is unknown: queue them all at the next try.
                self.fresh.update(marked)
                raise
            failed: Exception | None = None
            for slot, added in zip(marked, results, strict=True):
                if isinstance(added, Exception):
                    failed = added
                    self.fresh.add(slot)  # a lost reply: the mark may have been made
                    continue
                new[slot] = bool(added) or slot in self.fresh
                if added:
                    self.fresh.add(slot)
            if failed is not None:
                raise failed
        unfiltered = [(None, priority, data) for visited, priority, data in links
                      if visited is None or new.get(visited, False)]  # fmt: skip
        held, _ = self._finish_in_slot(lease_ids, items, unfiltered)
        self.fresh.difference_update(marked)
        return held, [visited is None or new.get(visited, False) for visited, _, _ in links]

    def _finish_in_slot(
        self,
        lease_ids: list[str],
        items: Sequence[tuple[str, bytes]],
        links: Sequence[tuple[None, int, bytes]],
    ) -> tuple[int, list[bool]]:
        keys = self._finish_keys()
        args: list[Any] = [len(lease_ids), *lease_ids, len(items)]
        for key, data in items:
            args += [key, data]
        for _, raw_priority, data in links:
            args += [0, 0, clamp_priority(raw_priority), data]
        out = self._finish(keys=keys, args=args)
        return int(out[0]), [bool(flag) for flag in out[1:]]

    def release(self, lease_ids: list[str]) -> int:
        """Put these leased requests back into the frontier now (not an expiry)."""
        if not lease_ids:
            return 0
        keys = [self.keys.leased, self.keys.frontier]
        return int(self._release(keys=keys, args=lease_ids))

    def reclaim_expired(self, batch: int = 100, walk: int = 1000) -> tuple[int, list[bytes]]:
        """Declare dead the workers (up to ``batch``) whose heartbeat deadline
        passed and re-queue the requests leased by workers not in the set
        (walking up to about ``walk`` leases per call); returns how many went
        back and the stored requests set aside as dead (:attr:`walking` tells
        whether the walk goes on at the next call)."""
        keys = [
            self.keys.leases,
            self.keys.leased,
            self.keys.frontier,
            self.keys.dead,
            self.keys.clock,
        ]
        ttl = self.lease_ttl_ms
        args = [self.max_expiries, batch, ttl // 2, ttl, ttl, walk]
        out = self._reclaim(keys=keys, args=args)
        self._redis_clock = (int(out[1]), monotonic())
        self.walking = bool(int(out[2]))
        return int(out[0]), list(out[3:])

    # -- state -------------------------------------------------------------
    def counts(self) -> tuple[int, int]:
        """``(queued, leased)`` in one round trip."""
        pipe = self.server.pipeline(transaction=False)
        pipe.zcard(self.keys.frontier)
        pipe.hlen(self.keys.leased)
        queued, leased = pipe.execute()
        return int(queued), int(leased)

    def clear(self) -> None:
        self.server.delete(self.keys.frontier, self.keys.leases, self.keys.leased)
