"""The Lua scripts of the shared frontier (:mod:`webrobot.distributed.frontier`):
leasing a request, finishing and releasing leases, finding missing ones, and
reclaiming the requests of dead workers. Each script is atomic on the Redis
server; the comment above it names the keys and arguments it takes and what it
answers, which :class:`~webrobot.distributed.frontier.LeasedFrontier` passes.
"""

from __future__ import annotations

# KEYS: frontier, leased
# ARGV: lease id, and optionally a score: a request at or behind it is not taken
# (the caller has requests to queue that come first): -> 0
# A lease id already held returns its request: redis-py sends a command again after
# a timeout or a dropped connection, and a second pop would overwrite (lose) the first.
# HSETNX both records the lease and finds such a repeat; the lease lives as long as its
# worker's heartbeat, so a lease costs three commands with the EVALSHA.
LEASE = """
local item = redis.call('ZPOPMIN', KEYS[1])
if #item == 0 or (ARGV[2] and tonumber(item[2]) >= tonumber(ARGV[2])) then
  local held = redis.call('HGET', KEYS[2], ARGV[1])
  if held then
    if #item > 0 then redis.call('ZADD', KEYS[1], item[2], item[1]) end
    return string.sub(held, string.find(held, ' ', 1, true) + 1)
  end
  if #item == 0 then return false end
  redis.call('ZADD', KEYS[1], item[2], item[1])
  return 0
end
if redis.call('HSETNX', KEYS[2], ARGV[1], item[2] .. ' ' .. item[1]) == 0 then
  redis.call('ZADD', KEYS[1], item[2], item[1])
  local held = redis.call('HGET', KEYS[2], ARGV[1])
  return string.sub(held, string.find(held, ' ', 1, true) + 1)
end
return item[1]
"""

# One script finishes pages: it ends their leases, adds the items they produced to
# the item stream (one entry for up to 200 items: ``k``, ``i``, ``k1``, ``i1``...,
# see :func:`.items.entry_items`) and queues the links they found, each only if its digest was not
# in the visited set yet (marking it). So a lease is never gone while its page's
# items or links are not in Redis, whatever happens to the worker.
# KEYS: leased, items stream, frontier, sequence, visited buckets...
# ARGV: n lease ids, the ids, m items, m (key, item) pairs, then per link
# (bucket's KEYS index, 0 for an unfiltered request; member; priority; request)
# -> {leases still held, 1/0 per link: queued or already visited}
# A link's score is -priority * 1e12 plus the crawl's sequence number: higher
# priority first, first in first out within a priority. The new links go into the
# frontier in one ZADD (in chunks, for Lua's stack) after one INCRBY for all of them.
FINISH = """
local n = tonumber(ARGV[1])
local held = 0
if n > 0 then
  held = redis.call('HDEL', KEYS[1], unpack(ARGV, 2, n + 1))
end
local i = n + 2
local m = tonumber(ARGV[i])
i = i + 1
local fields = {}
for j = 1, m do
  local suffix = ''
  if #fields > 0 then suffix = tostring(#fields / 4) end
  table.insert(fields, 'k' .. suffix)
  table.insert(fields, ARGV[i])
  table.insert(fields, 'i' .. suffix)
  table.insert(fields, ARGV[i + 1])
  i = i + 2
  if #fields >= 800 or j == m then
    redis.call('XADD', KEYS[2], '*', unpack(fields))
    fields = {}
  end
end
local out = {held}
local new = {}
while i <= #ARGV do
  local bucket = tonumber(ARGV[i])
  if bucket == 0 or redis.call('SADD', KEYS[bucket], ARGV[i + 1]) == 1 then
    table.insert(new, i)
    table.insert(out, 1)
  else
    table.insert(out, 0)
  end
  i = i + 4
end
if #new > 0 then
  local seq = redis.call('INCRBY', KEYS[4], #new) - #new
  local args = {}
  for _, j in ipairs(new) do
    seq = seq + 1
    table.insert(args, -tonumber(ARGV[j + 2]) * 1e12 + seq)
    table.insert(args, ARGV[j + 3])
    if #args >= 1000 then
      redis.call('ZADD', KEYS[3], unpack(args))
      args = {}
    end
  end
  if #args > 0 then redis.call('ZADD', KEYS[3], unpack(args)) end
end
return out
"""

# KEYS: leases   -> the server's time, read where the heartbeats are (on a cluster, the
# master of the crawl's slot: another node's clock may differ)
CLOCK = """
return redis.call('TIME')
"""

# KEYS: leased   ARGV: lease ids   -> the ids no longer leased
MISSING = """
local missing = {}
for i = 1, #ARGV do
  if redis.call('HEXISTS', KEYS[1], ARGV[i]) == 0 then table.insert(missing, ARGV[i]) end
end
return missing
"""

# KEYS: leased, frontier   ARGV: lease ids   -> how many went back
RELEASE = """
local n = 0
for i = 1, #ARGV do
  local v = redis.call('HGET', KEYS[1], ARGV[i])
  redis.call('HDEL', KEYS[1], ARGV[i])
  if v then
    local sep = string.find(v, ' ', 1, true)
    redis.call('ZADD', KEYS[2], string.sub(v, 1, sep - 1), string.sub(v, sep + 1))
    n = n + 1
  end
end
return n
"""

# KEYS: leases, leased, frontier, dead, clock
# ARGV: max expiries (0: no limit), batch, gap ms, grace ms, ttl ms, walk (leases per call)
# -> {requeued count, Redis time (ms), 1 if a walk goes on at the next call, dead requests...}
# Workers reclaim every poll interval; a longer gap since the last reclaim means that
# no worker could reach Redis (it was down, or every worker was): no heartbeat could
# be sent, so no worker is declared dead before it had a grace period to send one.
# At most one grace period per two TTLs: workers that always poll slowly (a loaded
# machine) delay re-queueing, they do not stop it.
# Workers whose deadline passed leave the set; then a walk of the leased hash re-queues
# every request whose worker is not in the set (those workers', and any lease taken by
# a worker after it was declared dead and before its heartbeat registered it again).
# The walk goes on over several calls (its HSCAN cursor is in the clock hash, ``walk``)
# and starts again at least once per TTL (``walked``), so no lease is left behind.
RECLAIM = """
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local clock = redis.call('HMGET', KEYS[5], 'seen', 'grace', 'walk', 'walked')
local seen, grace = tonumber(clock[1] or '0'), tonumber(clock[2] or '0')
if seen > 0 and now - seen > tonumber(ARGV[3]) and now >= grace + tonumber(ARGV[4]) then
  grace = now + tonumber(ARGV[4])
  redis.call('HSET', KEYS[5], 'seen', now, 'grace', grace)
else
  redis.call('HSET', KEYS[5], 'seen', now)
end
if now < grace then return {0, now, 0} end
local out = {0, now, 0}
local cursor = clock[3]
local expired = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', now, 'LIMIT', 0, tonumber(ARGV[2]))
if #expired > 0 then
  redis.call('ZREM', KEYS[1], unpack(expired))
  cursor = '0'
elseif not cursor and now >= tonumber(clock[4] or '0') + tonumber(ARGV[5]) then
  cursor = '0'
end
if not cursor then return out end
if cursor == '0' then redis.call('HSET', KEYS[5], 'walked', now) end
local limit = tonumber(ARGV[1])
local alive = {}
local walked = 0
repeat
  local page = redis.call('HSCAN', KEYS[2], cursor, 'COUNT', 100)
  cursor = page[1]
  local entries = page[2]
  for i = 1, #entries, 2 do
    local id, v = entries[i], entries[i + 1]
    local worker = string.match(id, '^(.*)/') or id
    if alive[worker] == nil then
      alive[worker] = redis.call('ZSCORE', KEYS[1], worker) ~= false
    end
    if not alive[worker] and redis.call('HDEL', KEYS[2], id) == 1 then
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
  walked = walked + #entries / 2
until cursor == '0' or walked >= tonumber(ARGV[6])
if cursor == '0' then
  redis.call('HDEL', KEYS[5], 'walk')
else
  redis.call('HSET', KEYS[5], 'walk', cursor)
  out[3] = 1
end
return out
"""
