"""The shared frontier: scrapy-redis's priority queue with leases.

scrapy-redis's ``PriorityQueue`` keeps serialized requests in a sorted set by
``-priority``; with ``DEPTH_PRIORITY = 1`` that is depth, so the frontier is
breadth-first across all workers. Its ``pop`` deletes the request: a worker
killed after a pop loses it. Here a pop is a *lease*, in one Lua script:

* the request moves from the frontier to ``<crawl>:leased`` (a hash: lease id
  -> score and request) and its lease id goes into ``<crawl>:leases`` (a
  sorted set by deadline, Redis server time, so worker clocks do not matter);
* the worker *acknowledges* the lease when it is done with the request (which
  deletes it), *renews* it while the request waits or downloads, or
  *releases* it (back to the frontier) when it closes with work left over;
* any worker's periodic *reclaim* puts requests whose lease deadline passed
  back into the frontier: their worker died or hung. A request whose lease
  expired ``max_expiries`` times (a page that kills every worker that takes
  it) goes to ``<crawl>:dead`` instead of circling forever.

Adding a request is one script too: mark it visited (a digest, see
:mod:`.digests`) and queue it only if it was new, so no worker can die
between the two and leave a URL marked visited but never queued.

The first byte of every stored request counts its expired leases.
"""

from __future__ import annotations

import logging
import os
import pickle
import socket
import uuid
from itertools import count
from typing import TYPE_CHECKING, Any

from scrapy_redis.queue import PriorityQueue

if TYPE_CHECKING:
    import redis
    from scrapy import Request, Spider

    from webrobot.distributed.keys import CrawlKeys

logger = logging.getLogger(__name__)

#: What serializing a request may raise (scrapy-redis pickles ``Request.to_dict``).
SERIALIZE_ERRORS = (ValueError, TypeError, AttributeError, pickle.PicklingError)

# KEYS: visited bucket (or the frontier again when unfiltered), frontier
# ARGV: filtered (1/0), visited member, score, request
_ENQUEUE = """
if ARGV[1] == '1' and redis.call('SADD', KEYS[1], ARGV[2]) == 0 then
  return 0
end
redis.call('ZADD', KEYS[2], ARGV[3], ARGV[4])
return 1
"""

# KEYS: frontier, leases, leased   ARGV: ttl ms, lease id
# A lease id already held returns its request: redis-py sends a command again after
# a timeout or a dropped connection, and a second pop would overwrite (lose) the first.
_LEASE = """
local held = redis.call('HGET', KEYS[3], ARGV[2])
if held then return string.sub(held, string.find(held, ' ', 1, true) + 1) end
local item = redis.call('ZPOPMIN', KEYS[1])
if #item == 0 then return false end
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
redis.call('ZADD', KEYS[2], now + tonumber(ARGV[1]), ARGV[2])
redis.call('HSET', KEYS[3], ARGV[2], item[2] .. ' ' .. item[1])
return item[1]
"""

# KEYS: leases, leased   ARGV: lease ids   -> how many still existed
_ACK = """
local n = 0
for i = 1, #ARGV do
  n = n + redis.call('HDEL', KEYS[2], ARGV[i])
  redis.call('ZREM', KEYS[1], ARGV[i])
end
return n
"""

# KEYS: leases   ARGV: ttl ms, lease ids   -> the ids no longer leased
_RENEW = """
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local missing = {}
for i = 2, #ARGV do
  if redis.call('ZSCORE', KEYS[1], ARGV[i]) then
    redis.call('ZADD', KEYS[1], now + tonumber(ARGV[1]), ARGV[i])
  else
    table.insert(missing, ARGV[i])
  end
end
return missing
"""

# KEYS: leases, leased, frontier   ARGV: lease ids   -> how many went back
_RELEASE = """
local n = 0
for i = 1, #ARGV do
  local v = redis.call('HGET', KEYS[2], ARGV[i])
  redis.call('HDEL', KEYS[2], ARGV[i])
  redis.call('ZREM', KEYS[1], ARGV[i])
  if v then
    local sep = string.find(v, ' ', 1, true)
    redis.call('ZADD', KEYS[3], string.sub(v, 1, sep - 1), string.sub(v, sep + 1))
    n = n + 1
  end
end
return n
"""

# KEYS: leases, leased, frontier, dead   ARGV: max expiries (0: no limit), batch
# -> {requeued count, dead requests...}
_RECLAIM = """
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local ids = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', now, 'LIMIT', 0, tonumber(ARGV[2]))
local limit = tonumber(ARGV[1])
local out = {0}
for _, id in ipairs(ids) do
  local v = redis.call('HGET', KEYS[2], id)
  redis.call('HDEL', KEYS[2], id)
  redis.call('ZREM', KEYS[1], id)
  if v then
    local sep = string.find(v, ' ', 1, true)
    local score = string.sub(v, 1, sep - 1)
    local request = string.sub(v, sep + 1)
    local expiries = math.min(string.byte(request, 1) + 1, 255)
    request = string.char(expiries) .. string.sub(request, 2)
    if limit > 0 and expiries >= limit then
      redis.call('RPUSH', KEYS[4], request)
      table.insert(out, request)
    else
      redis.call('ZADD', KEYS[3], score, request)
      out[1] = out[1] + 1
    end
  end
end
return out
"""


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
        self._lease_numbers = count(1)
        self._enqueue = server.register_script(_ENQUEUE)
        self._lease = server.register_script(_LEASE)
        self._ack = server.register_script(_ACK)
        self._renew = server.register_script(_RENEW)
        self._release = server.register_script(_RELEASE)
        self._reclaim = server.register_script(_RECLAIM)

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
        args: list[bytes | str | int]
        if visited is None:
            keys, args = [self.keys.frontier, self.keys.frontier], [0, 0, -priority, data]
        else:
            keys, args = [visited[0], self.keys.frontier], [1, visited[1], -priority, data]
        return bool(self._enqueue(keys=keys, args=args))

    # -- taking ------------------------------------------------------------
    def lease(self) -> tuple[str, Request] | None:
        """Take the shallowest request under a new lease, or None if the frontier
        is empty. Requests that cannot be decoded are set aside in ``dead``."""
        while True:
            lease_id = f"{self.worker_id}/{next(self._lease_numbers)}"
            data = self._lease(
                keys=[self.keys.frontier, self.keys.leases, self.keys.leased],
                args=[self.lease_ttl_ms, lease_id],
            )
            if data is None:
                return None
            try:
                return lease_id, self.decode(data)
            except Exception as exc:  # noqa: BLE001 - another version's data, a renamed callback...
                logger.error("Setting aside a frontier entry that cannot be decoded: %r", exc)
                self.server.rpush(self.keys.dead, data)
                self.ack([lease_id])

    def pop(self, timeout: int = 0) -> Request | None:
        """scrapy-redis's interface: a leased request (the lease is left to expire
        unless acknowledged; the scheduler uses :meth:`lease`)."""
        leased = self.lease()
        return leased[1] if leased else None

    def ack(self, lease_ids: list[str]) -> int:
        """Done with these leases; returns how many were still held (the others
        expired and were handed to another worker)."""
        if not lease_ids:
            return 0
        return int(self._ack(keys=[self.keys.leases, self.keys.leased], args=lease_ids))

    def renew(self, lease_ids: list[str]) -> list[str]:
        """Push these leases' deadlines one TTL ahead; returns the ids that were
        no longer leased."""
        if not lease_ids:
            return []
        missing = self._renew(keys=[self.keys.leases], args=[self.lease_ttl_ms, *lease_ids])
        return [m.decode() if isinstance(m, bytes) else str(m) for m in missing]

    def release(self, lease_ids: list[str]) -> int:
        """Put these leased requests back into the frontier now (not an expiry)."""
        if not lease_ids:
            return 0
        keys = [self.keys.leases, self.keys.leased, self.keys.frontier]
        return int(self._release(keys=keys, args=lease_ids))

    def reclaim_expired(self, batch: int = 100) -> tuple[int, list[bytes]]:
        """Re-queue requests whose lease deadline passed; returns how many went
        back and the stored requests set aside as dead."""
        keys = [self.keys.leases, self.keys.leased, self.keys.frontier, self.keys.dead]
        out = self._reclaim(keys=keys, args=[self.max_expiries, batch])
        return int(out[0]), list(out[1:])

    # -- state -------------------------------------------------------------
    def counts(self) -> tuple[int, int]:
        """``(queued, leased)`` in one round trip."""
        pipe = self.server.pipeline(transaction=False)
        pipe.zcard(self.keys.frontier)
        pipe.zcard(self.keys.leases)
        queued, leased = pipe.execute()
        return int(queued), int(leased)

    def clear(self) -> None:
        self.server.delete(self.keys.frontier, self.keys.leases, self.keys.leased)
