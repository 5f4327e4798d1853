"""Per-site politeness shared by every worker: one Redis clock per site.

In one process Scrapy keeps a site's last request time in its download slot;
with several workers each has its own slot, so a site would be hit once per
delay *per worker*. Here the site's next allowed start time lives in Redis and
is taken in one Lua script (Redis server time, so worker clocks do not matter):

* :meth:`SharedPoliteness.reserve` books the next start time: it returns how
  long to wait and pushes the site's next allowed time one delay further, so
  concurrent callers get start times one delay apart (Crawl-delay and
  ``DOWNLOAD_DELAY`` spacing, start to start, as Scrapy measures it).
* :meth:`SharedPoliteness.acquire` / :meth:`release` also hold the site while
  a request is in flight, so no two requests to one site overlap across
  workers even when a download takes longer than the delay. The hold expires
  on its own (``hold`` seconds) if its worker dies.

Keys live under ``WEBROBOT_REDIS_POLITENESS_KEY`` (not a crawl's prefix: two
crawls of one site share its politeness) and expire once they no longer
matter. Wiring into the politeness hook of the robots.txt middleware comes
with that hook.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import redis

# KEYS: next   ARGV: delay ms   -> {ms to wait, start in ms of Redis time}
_RESERVE = """
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local start = math.max(now, tonumber(redis.call('GET', KEYS[1]) or '0'))
local after = start + tonumber(ARGV[1])
redis.call('SET', KEYS[1], after, 'PXAT', after + 1000)
return {start - now, start}
"""

# KEYS: next, hold   ARGV: token, delay ms, hold ms   -> 0 (acquired) or ms to wait
_ACQUIRE = """
local held = redis.call('PTTL', KEYS[2])
if held > 0 then return held end
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local nxt = tonumber(redis.call('GET', KEYS[1]) or '0')
if nxt > now then return nxt - now end
redis.call('SET', KEYS[2], ARGV[1], 'PX', tonumber(ARGV[3]))
local after = now + tonumber(ARGV[2])
redis.call('SET', KEYS[1], after, 'PXAT', after + 1000)
return 0
"""

# KEYS: next, hold   ARGV: token, gap ms   -> 1 if the hold was this token's
_RELEASE = """
if redis.call('GET', KEYS[2]) ~= ARGV[1] then return 0 end
redis.call('DEL', KEYS[2])
local gap = tonumber(ARGV[2])
if gap > 0 then
  local t = redis.call('TIME')
  local after = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000) + gap
  local nxt = tonumber(redis.call('GET', KEYS[1]) or '0')
  if after > nxt then redis.call('SET', KEYS[1], after, 'PXAT', after + 1000) end
end
return 1
"""


def _ms(seconds: float) -> int:
    return max(0, round(seconds * 1000))


class SharedPoliteness:
    def __init__(self, server: redis.Redis, prefix: str = "webrobot:politeness") -> None:
        self.server = server
        self.prefix = prefix
        self._reserve = server.register_script(_RESERVE)
        self._acquire = server.register_script(_ACQUIRE)
        self._release = server.register_script(_RELEASE)

    def _keys(self, site: str) -> list[str]:
        return [f"{self.prefix}:{site}:next", f"{self.prefix}:{site}:hold"]

    def booking(self, site: str, delay: float) -> tuple[float, float]:
        """Book the site's next start time: ``(seconds to wait, start time in
        seconds of the Redis server's clock)``."""
        wait, start = self._reserve(keys=self._keys(site)[:1], args=[_ms(delay)])
        return int(wait) / 1000, int(start) / 1000

    def reserve(self, site: str, delay: float) -> float:
        """Book the site's next start time; returns the seconds to wait for it."""
        return self.booking(site, delay)[0]

    def acquire(self, site: str, token: str, delay: float, hold: float) -> float:
        """Take the site for one request: 0.0 if taken (start now; the site is
        held for at most ``hold`` seconds and the next start is ``delay`` away),
        else the seconds after which to try again."""
        wait = int(self._acquire(keys=self._keys(site), args=[token, _ms(delay), max(1, _ms(hold))]))
        return wait / 1000

    def release(self, site: str, token: str, gap: float = 0.0) -> bool:
        """End this token's hold; with ``gap``, the next start is at least that
        far from now (a delay measured from the end of the request)."""
        return bool(self._release(keys=self._keys(site), args=[token, _ms(gap)]))
