"""The Lua scripts of shared politeness (:mod:`webrobot.distributed.politeness`):
reading the server's clock, reserving a site's next start, noting an answer
(backoff, ``Retry-After``), counting late starts and renewing a worker's holds.
Each runs atomically on one Redis server's clock; the comment above it names
the keys and arguments it takes and what it answers.
"""

from __future__ import annotations

# KEYS: the clock key   -> the server's time
CLOCK = """
return redis.call('TIME')
"""

# KEYS: state
# ARGV: worker, interval ms, backoff base ms, backoff max ms (0: none), hold ttl ms, busy ms,
# keep ms, requests of this worker's hold whose downloads ended (kept for this start),
# now (ms, on the clock: see the module doc)
# -> {ms to wait (0: started), source code, 1 if the site has throttle strikes}
# A worker's hold is two fields, ``h:<worker>`` (requests in flight, and kept) and
# ``u:<worker>`` (until when), so that letting a request go is one HINCRBY
# without a script. A start is EVALSHA, HGETALL and HSET; the key's expiry is
# pushed only when it would come less than half a keep time after the state
# stops mattering (``exp``: the expiry set last).
RESERVE = """
local now = tonumber(ARGV[9])
local st = redis.call('HGETALL', KEYS[1])
local f = {}
for i = 1, #st, 2 do f[st[i]] = st[i + 1] end
local strikes = tonumber(f['strikes'] or '0')
local struck = 0
if strikes > 0 then struck = 1 end
local mine, stale = 0, {}
local keep = tonumber(ARGV[7])
for k, v in pairs(f) do
  if string.sub(k, 1, 2) == 'h:' then
    local w = string.sub(k, 3)
    local held_until = tonumber(f['u:' .. w] or '0')
    if tonumber(v) > 0 and held_until > now then
      if w == ARGV[1] then
        mine = math.max(tonumber(v) - tonumber(ARGV[8]), 0)
      else
        return {tonumber(ARGV[6]), 3, struck}
      end
    elseif w ~= ARGV[1] and held_until < now - keep then
      table.insert(stale, k)
      table.insert(stale, 'u:' .. w)
    end
  end
end
local interval, source = tonumber(ARGV[2]), 0
if strikes > 0 then
  local backoff = tonumber(ARGV[3]) * 2 ^ math.min(strikes - 1, 62)
  local cap = tonumber(ARGV[4])
  if cap > 0 then backoff = math.min(backoff, cap) end
  if backoff > interval then interval, source = backoff, 1 end
end
local start = now
if f['last'] then start = tonumber(f['last']) + interval end
local penalty = tonumber(f['penalty'] or '0')
if penalty > start then start, source = penalty, 2 end
if start > now then return {start - now, source, struck} end
if #stale > 0 then redis.call('HDEL', KEYS[1], unpack(stale)) end
local ttl = tonumber(ARGV[5])
local matters = math.max(penalty - now, 0) + interval
local exp = tonumber(f['exp'] or '0')
if exp < now + math.max(matters + keep / 2, ttl) then
  exp = now + math.max(matters + keep, ttl)
  redis.call('HSET', KEYS[1], 'last', now, 'h:' .. ARGV[1], mine + 1, 'u:' .. ARGV[1], now + ttl, 'exp', exp)
  redis.call('PEXPIREAT', KEYS[1], exp)
else
  redis.call('HSET', KEYS[1], 'last', now, 'h:' .. ARGV[1], mine + 1, 'u:' .. ARGV[1], now + ttl)
end
return {0, source, struck}
"""

# KEYS: state   ARGV: throttled (1/0), wait ms (0: no Retry-After), keep ms, now ms
NOTE = """
if ARGV[1] == '0' then return redis.call('HDEL', KEYS[1], 'strikes') end
local now = tonumber(ARGV[4])
redis.call('HINCRBY', KEYS[1], 'strikes', 1)
local penalty = tonumber(redis.call('HGET', KEYS[1], 'penalty') or '0')
local wait = tonumber(ARGV[2])
if wait > 0 and now + wait > penalty then
  penalty = now + wait
  redis.call('HSET', KEYS[1], 'penalty', penalty)
end
local ttl = redis.call('PTTL', KEYS[1])
redis.call('PEXPIRE', KEYS[1], math.max(math.max(penalty - now, 0) + tonumber(ARGV[3]), ttl))
return 1
"""

# KEYS: state   ARGV: when a late request left (ms), the hold's field, requests it lets go
# ``last`` only moves forward: a worker stalled past its hold may find that another
# worker started since.
LATE = """
if tonumber(ARGV[1]) > tonumber(redis.call('HGET', KEYS[1], 'last') or '0') then
  redis.call('HSET', KEYS[1], 'last', ARGV[1])
end
if tonumber(ARGV[3]) > 0 then redis.call('HINCRBY', KEYS[1], ARGV[2], -tonumber(ARGV[3])) end
return 1
"""

# KEYS: states   ARGV: worker, hold ttl ms, now ms   -> how many were still this worker's
# The key outlives the hold it renews, so letting the hold go (HINCRBY) never
# recreates an expired key. A hold past its ``u:`` time is over (another worker
# may have started since: Redis refused the renewals while it was full, or could
# not be reached): it is never renewed back to life, or two workers would hold the
# site and each wait for the other.
RENEW = """
local n = 0
local ttl = tonumber(ARGV[2])
local now = tonumber(ARGV[3])
for i = 1, #KEYS do
  local hold = redis.call('HMGET', KEYS[i], 'h:' .. ARGV[1], 'u:' .. ARGV[1])
  if tonumber(hold[1] or '0') > 0 and tonumber(hold[2] or '0') > now then
    redis.call('HSET', KEYS[i], 'u:' .. ARGV[1], now + ttl)
    if redis.call('PTTL', KEYS[i]) < ttl then redis.call('PEXPIRE', KEYS[i], ttl) end
    n = n + 1
  end
end
return n
"""
