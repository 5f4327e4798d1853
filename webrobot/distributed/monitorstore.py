"""The monitor's memory shared by every worker: ``WEBROBOT_MONITOR_STORE_CLASS`` in Redis mode.

:class:`webrobot.monitor.store.MonitorStore` keeps one folder's snapshots and
events in SQLite, for one process. In a shared crawl each worker would keep its
own, and two workers would each tell a page ``new``. Here the crawl has one
memory in Redis, under ``<crawl>:monitor`` (:attr:`.CrawlKeys.monitor`):

* ``:pages``, a hash of URL -> the page's stored record (snapshot, matches told,
  first and last seen) as JSON;
* ``:events``, a stream of every event (field ``e``: its JSON), what
  ``scrapy webrobot-export --events`` writes;
* ``:outbox`` (sorted set of event numbers), ``:bodies`` and ``:tries``,
  ``:next`` (hashes by number): the events waiting for the webhook;
* ``:dead``, a list of the events the receiver refused for good (a 4xx other than
  408, 425, 429: :mod:`webrobot.monitor.answers`), their JSON, oldest first;
* ``:parked``, a hash of number -> JSON of the events the receiver kept failing (5xx,
  time-outs) after their retries, until ``scrapy webrobot-replay`` puts them back;
* ``:checks``, a hash of URL -> the page's last check and re-check interval
  (:mod:`webrobot.monitor.schedule`);
* ``:templates``, a hash of site -> the site's learnt template
  (:mod:`webrobot.monitor.template`), kept with :data:`RECORD` as a page is: the
  first worker to close with a new template tells its change, the others find it
  kept and compare theirs with it;
* ``:sequence``, the events' numbers; ``:sender``, who delivers.

A worker judges a page against the record it read, then records the new one
with :data:`RECORD`, a script that writes the record and adds the events only if
the page's record is still the one the judgement read (compare-and-set): two
workers that judge one page at once cannot both tell its change; the second
finds the record changed, judges again against the first one's and finds
nothing new. A page fetched again because its first worker was killed is judged
against what that worker recorded, so it is told once, whichever worker did it.

Delivery: one worker at a time holds ``:sender`` (``SET NX`` with an expiry,
renewed while it delivers) and POSTs the outbox in order; the others wait. A
delivered event leaves the outbox in one script. A holder killed in the middle
of a POST leaves that event in the outbox, and the next holder sends it again
under the same ``Idempotency-Key``: at least once, as in one process.
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import socket
import uuid
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any, Self

import redis

from webrobot.distributed import scripts
from webrobot.distributed.dupefilter import crawl_spider_name
from webrobot.distributed.keys import CrawlKeys, explain, redis_from_settings, safe_url
from webrobot.monitor.outbox import Pending
from webrobot.monitor.schedule import Check
from webrobot.monitor.snapshot import Snapshot
from webrobot.monitor.store import PageRecord, SiteTemplate, write_feed
from webrobot.monitor.template import Template
from webrobot.settingsmodel.parse import read

if TYPE_CHECKING:
    from scrapy.crawler import Crawler
    from scrapy.settings import BaseSettings

logger = logging.getLogger(__name__)

#: KEYS: pages, events, outbox, bodies, sequence. ARGV: URL, the record the judgement
#: read ("" for none, else "=" and the record), the new record ("" to delete the page),
#: "1" if a webhook takes the events, then the events' JSON bodies.
#: Returns 1 when recorded, 0 when the page's record changed meanwhile (nothing done).
RECORD = """
local current = redis.call('HGET', KEYS[1], ARGV[1])
if ARGV[2] == '' then
  if current then return 0 end
elseif (not current) or ('=' .. current) ~= ARGV[2] then
  return 0
end
if ARGV[3] == '' then
  redis.call('HDEL', KEYS[1], ARGV[1])
else
  redis.call('HSET', KEYS[1], ARGV[1], ARGV[3])
end
for i = 5, #ARGV do
  local n = redis.call('INCR', KEYS[5])
  redis.call('XADD', KEYS[2], '*', 'n', n, 'e', ARGV[i])
  if ARGV[4] == '1' then
    redis.call('ZADD', KEYS[3], n, n)
    redis.call('HSET', KEYS[4], n, ARGV[i])
  end
end
return 1
"""

#: KEYS: sender. ARGV: this worker, milliseconds. Takes or renews the delivery lock.
HOLD = """
local holder = redis.call('GET', KEYS[1])
if holder and holder ~= ARGV[1] then return 0 end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
return 1
"""

#: KEYS: sender. ARGV: this worker. Lets the delivery lock go if this worker holds it.
RELEASE = """
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
"""

#: KEYS: outbox, bodies, tries, next. ARGV: the event's number.
DELIVERED = """
redis.call('ZREM', KEYS[1], ARGV[1])
redis.call('HDEL', KEYS[2], ARGV[1])
redis.call('HDEL', KEYS[3], ARGV[1])
redis.call('HDEL', KEYS[4], ARGV[1])
return 1
"""

#: KEYS: outbox, bodies, tries, next, dead. ARGV: the event's number, its body as sent.
#: Moves a refused event from the outbox to the dead letters, in one step.
DEAD = """
redis.call('ZREM', KEYS[1], ARGV[1])
redis.call('HDEL', KEYS[2], ARGV[1])
redis.call('HDEL', KEYS[3], ARGV[1])
redis.call('HDEL', KEYS[4], ARGV[1])
redis.call('RPUSH', KEYS[5], ARGV[2])
return 1
"""


def _text(value: Any) -> str:
    return value.decode("utf-8", "replace") if isinstance(value, bytes) else str(value)


def worker_name() -> str:
    """This worker, as the delivery lock names its holder."""
    return f"{socket.gethostname()}:{os.getpid()}:{uuid.uuid4().hex[:8]}"


def read_events(server: redis.Redis, keys: CrawlKeys, batch: int = 1000) -> Iterator[str]:
    """Every event of the crawl's stream, oldest first (its JSON line)."""
    start = "-"
    stream = f"{keys.monitor}:events"
    while True:
        entries: list[Any] = server.xrange(stream, min=start, max="+", count=batch)  # type: ignore[assignment]
        if not entries:
            return
        for _, fields in entries:
            body = fields.get(b"e")
            if body is not None:
                yield _text(body)
        start = "(" + _text(entries[-1][0])


#: KEYS: outbox, bodies, tries, next, parked. ARGV: the event's number, its body.
#: Parks an event the receiver kept failing: out of the queue, kept by its number.
PARK = """
redis.call('ZREM', KEYS[1], ARGV[1])
redis.call('HDEL', KEYS[2], ARGV[1])
redis.call('HDEL', KEYS[3], ARGV[1])
redis.call('HDEL', KEYS[4], ARGV[1])
redis.call('HSET', KEYS[5], ARGV[1], ARGV[2])
return 1
"""

#: KEYS: outbox, bodies, parked. Puts every parked event back in the queue, under its
#: number (so in its first order), and returns how many.
REPLAY = """
local parked = redis.call('HGETALL', KEYS[3])
for i = 1, #parked, 2 do
  redis.call('ZADD', KEYS[1], tonumber(parked[i]), parked[i])
  redis.call('HSET', KEYS[2], parked[i], parked[i + 1])
end
redis.call('DEL', KEYS[3])
return #parked / 2
"""

#: Events the shared stream keeps (:meth:`RedisMonitorStore.compact`).
STREAM_EVENTS = 100_000


class RedisMonitorStore:
    """The monitor's memory of a shared crawl (see the module doc): a
    :class:`~webrobot.monitor.store.PageStore`."""

    def __init__(
        self, server: redis.Redis, keys: CrawlKeys, folder: Path, *, webhook: bool = False,
        settings: BaseSettings | None = None, hold: float = 30.0,
    ) -> None:  # fmt: skip
        # No SQLite file; the folder keeps this worker's feed only (:meth:`write_feed`).
        self.server = server
        self.keys = keys
        self.folder = Path(folder)
        self.folder.mkdir(parents=True, exist_ok=True)
        self.webhook = webhook
        self.settings = settings
        self.hold = hold
        base = keys.monitor
        self.pages_key = f"{base}:pages"
        self.events_key = f"{base}:events"
        self.checks_key = f"{base}:checks"
        self.templates_key = f"{base}:templates"
        self._record = scripts.register(server, RECORD)

    @classmethod
    def open(cls, crawler: Crawler, folder: Path, webhook: bool) -> Self:
        settings = crawler.settings
        keys = CrawlKeys.from_settings(settings, crawl_spider_name(crawler))
        timeout = float(read(settings, "WEBROBOT_MONITOR_WEBHOOK_TIMEOUT"))
        server = redis_from_settings(settings)
        try:
            server.ping()
            store = cls(server, keys, folder, webhook=webhook, settings=settings,
                        hold=2 * timeout + 5)  # fmt: skip
        except redis.RedisError as exc:
            server.close()
            where = safe_url(read(settings, "WEBROBOT_REDIS_URL"))
            raise OSError(f"the shared monitor at {where}: {explain(exc)}") from exc
        return store

    def close(self) -> None:
        self.server.close()

    # -- pages

    def get(self, url: str) -> PageRecord | None:
        raw = self.server.hget(self.pages_key, url)
        if raw is None:
            return None
        stored = _text(raw)
        try:
            data = json.loads(stored)
            snapshot = Snapshot.from_json(data["snapshot"])
            matches = frozenset(str(m) for m in data.get("matches", ()))
        except (ValueError, TypeError, AttributeError, KeyError):
            snapshot, matches = Snapshot(), frozenset()
        return PageRecord(snapshot, matches, stored)

    def urls(self) -> Iterator[str]:
        """Every page the monitor knows, oldest first."""
        found = []
        for url, raw in self.server.hscan_iter(self.pages_key, count=1000):
            try:
                first = str(json.loads(raw).get("first_seen", ""))
            except (ValueError, AttributeError):
                first = ""
            found.append((first, _text(url)))
        for _, url in sorted(found):
            yield url

    def __len__(self) -> int:
        return int(self.server.hlen(self.pages_key))  # type: ignore[arg-type]

    def _run(
        self, url: str, expected: PageRecord | SiteTemplate | None, stored: str,
        events: Iterable[dict[str, Any]], table: str = "",
    ) -> bool:  # fmt: skip
        base = self.keys.monitor
        bodies = [json.dumps(e, ensure_ascii=False) for e in events]
        keys = [table or self.pages_key, self.events_key, f"{base}:outbox", f"{base}:bodies",
                f"{base}:sequence"]  # fmt: skip
        was = "" if expected is None else "=" + expected.stored
        args = [url, was, stored, "1" if self.webhook else "0", *bodies]
        return bool(self._record(keys=keys, args=args))

    def record(
        self, url: str, snapshot: Snapshot, matches: Iterable[str], time: str,
        events: Iterable[dict[str, Any]], expected: PageRecord | None = None,
    ) -> bool:  # fmt: skip
        """Keep the page's record and its events if the page's record is still
        ``expected`` (None: the page was unknown); False, and nothing kept, if not."""
        first = time
        if expected is not None:
            with contextlib.suppress(ValueError, AttributeError):  # a record of another version
                first = str(json.loads(expected.stored).get("first_seen") or time)
        stored = json.dumps(
            {"snapshot": snapshot.to_json(), "matches": sorted(matches),
             "first_seen": first, "last_seen": time},
            ensure_ascii=False, separators=(",", ":"),
        )  # fmt: skip
        return self._run(url, expected, stored, events)

    def forget(
        self, url: str, events: Iterable[dict[str, Any]], expected: PageRecord | None = None
    ) -> bool:
        """Drop the page and keep its events if its record is still ``expected``."""
        if not self._run(url, expected, "", events):
            return False
        self.server.hdel(self.checks_key, url)
        return True

    # -- re-check schedule

    def check(self, url: str) -> Check | None:
        raw = self.server.hget(self.checks_key, url)
        try:
            checked, interval = _text(raw).split() if raw is not None else ("", "")
            return Check(float(checked), float(interval))
        except ValueError:
            return None

    def set_check(self, url: str, check: Check) -> None:
        self.server.hset(self.checks_key, url, f"{check.checked!r} {check.interval!r}")

    def due(self, now: float) -> Iterator[str]:
        urls = list(self.urls())
        for start in range(0, len(urls), 1000):
            batch = urls[start : start + 1000]
            for url, raw in zip(batch, self.server.hmget(self.checks_key, batch), strict=True):  # type: ignore[call-overload]
                try:
                    checked, interval = _text(raw).split() if raw is not None else ("", "")
                    due = Check(float(checked), float(interval)).due(now)
                except ValueError:
                    due = True  # never scheduled, or unreadable
                if due:
                    yield url

    # -- a year of state

    def compact(self) -> int:
        """Trim the crawl's event stream to about the newest :data:`STREAM_EVENTS` (export
        it with ``scrapy webrobot-export --events`` to keep more); returns the events dropped."""
        return int(self.server.xtrim(self.events_key, maxlen=STREAM_EVENTS, approximate=True))

    def rotate_log(self, max_bytes: int, max_age: float, files: int, now: float) -> bool:
        """No ``events.jsonl`` per worker: nothing to rotate."""
        return False

    def shared_by_workers(self) -> bool:
        return True

    # -- site templates

    def template(self, site: str) -> SiteTemplate | None:
        raw = self.server.hget(self.templates_key, site)
        if raw is None:
            return None
        stored = _text(raw)
        return SiteTemplate(Template.from_text(stored), stored)

    def templates(self) -> dict[str, Template]:
        found = {
            _text(site): Template.from_text(_text(raw))
            for site, raw in self.server.hscan_iter(self.templates_key, count=1000)
        }
        return dict(sorted(found.items()))

    def keep_template(
        self, site: str, template: Template, time: str, events: Iterable[dict[str, Any]],
        expected: SiteTemplate | None = None,
    ) -> bool:  # fmt: skip
        """Keep the site's template and its events if the stored one is still
        ``expected`` (None: none was); False, and nothing kept, if not."""
        return self._run(site, expected, template.to_text(), events, self.templates_key)

    # -- events

    def recent(self, count: int) -> list[dict[str, Any]]:
        out = []
        entries: list[Any] = self.server.xrevrange(self.events_key, count=count)  # type: ignore[assignment]
        for _, fields in entries:
            try:
                out.append(json.loads(fields[b"e"]))
            except (KeyError, ValueError):
                continue
        return out

    def write_feed(self, title: str, updated: str) -> Path:
        """This worker's ``events.atom``: the crawl's newest events."""
        return write_feed(self.folder, self, title, updated)

    def write_log(self) -> None:
        """No ``events.jsonl`` per worker: ``scrapy webrobot-export --events`` writes the crawl's."""

    def outbox(self) -> Callable[[], RedisOutbox]:
        settings, keys, hold = self.settings, self.keys, self.hold
        if settings is None:
            raise ValueError("a RedisMonitorStore without settings has no outbox")
        name = worker_name()
        return lambda: RedisOutbox(redis_from_settings(settings), keys, name, hold)


class RedisOutbox:
    """The crawl's events waiting for the webhook; only the holder of the delivery
    lock sees any due (:meth:`due`), so no two workers POST at once."""

    def __init__(self, server: redis.Redis, keys: CrawlKeys, owner: str, hold: float) -> None:
        self.server = server
        base = keys.monitor
        self.outbox_key = f"{base}:outbox"
        self.bodies_key = f"{base}:bodies"
        self.tries_key = f"{base}:tries"
        self.next_key = f"{base}:next"
        self.sender_key = f"{base}:sender"
        self.dead_key = f"{base}:dead"
        self.parked_key = f"{base}:parked"
        self.owner = owner
        self.hold_ms = max(1000, int(hold * 1000))
        self._hold = scripts.register(server, HOLD)
        self._release = scripts.register(server, RELEASE)
        self._delivered = scripts.register(server, DELIVERED)
        self._dead = scripts.register(server, DEAD)
        self._park = scripts.register(server, PARK)
        self._replay = scripts.register(server, REPLAY)

    def holds(self) -> bool:
        """Take or renew the delivery lock; True if this worker delivers."""
        return bool(self._hold(keys=[self.sender_key], args=[self.owner, self.hold_ms]))

    def due(self, now: float, limit: int = 100) -> list[Pending]:
        if not self.holds():
            return []
        numbers = [_text(n) for n in self.server.zrange(self.outbox_key, 0, limit - 1)]
        if not numbers:
            return []
        bodies = self.server.hmget(self.bodies_key, numbers)
        tries = self.server.hmget(self.tries_key, numbers)
        nexts = self.server.hmget(self.next_key, numbers)
        out = []
        for number, body, attempts, next_try in zip(numbers, bodies, tries, nexts, strict=True):  # type: ignore[call-overload]
            if next_try is not None and float(next_try) > now:
                break  # in order: the later ones wait for this one
            if body is None:
                self.delivered(int(number))  # half gone: nothing to send
                continue
            text = _text(body)
            try:
                event_id = str(json.loads(text)["id"])
            except (ValueError, KeyError, TypeError):
                event_id = number
            out.append(Pending(int(number), event_id, text, int(attempts or 0)))
        return out

    def waiting(self) -> int:
        return int(self.server.zcard(self.outbox_key))  # type: ignore[arg-type]

    def next_try(self) -> float | None:
        head = self.server.zrange(self.outbox_key, 0, 0)
        if not head:
            return None
        value = self.server.hget(self.next_key, _text(head[0]))  # type: ignore[index]
        return 0.0 if value is None else float(value)

    def delivered(self, seq: int) -> None:
        self._delivered(
            keys=[self.outbox_key, self.bodies_key, self.tries_key, self.next_key], args=[seq]
        )

    def failed(self, seq: int, next_try: float) -> None:
        pipe = self.server.pipeline(transaction=False)  # only the lock's holder writes these
        pipe.hincrby(self.tries_key, str(seq), 1)
        pipe.hset(self.next_key, str(seq), repr(next_try))
        pipe.execute()

    def dead(self, pending: Pending) -> str:
        """Move the event to the crawl's dead letters (``<key>:monitor:dead``)."""
        self._dead(
            keys=[self.outbox_key, self.bodies_key, self.tries_key, self.next_key, self.dead_key],
            args=[pending.seq, pending.body],
        )
        return f"Redis list {self.dead_key}"

    def park(self, pending: Pending, problem: str, now: float) -> None:
        """Move the event to the crawl's parked events (``<key>:monitor:parked``)."""
        self._park(
            keys=[self.outbox_key, self.bodies_key, self.tries_key, self.next_key, self.parked_key],
            args=[pending.seq, pending.body],
        )

    def parked(self) -> int:
        return int(self.server.hlen(self.parked_key))  # type: ignore[arg-type]

    def replay(self) -> int:
        return int(self._replay(keys=[self.outbox_key, self.bodies_key, self.parked_key]))

    def close(self) -> None:
        try:
            self._release(keys=[self.sender_key], args=[self.owner])
        except redis.RedisError:
            pass  # the lock expires by itself
        finally:
            self.server.close()
