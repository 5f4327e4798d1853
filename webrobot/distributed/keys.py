"""Where a shared crawl lives in Redis, and how workers connect to it.

All keys of one crawl start with ``WEBROBOT_REDIS_KEY`` formatted with the
spider name (default ``webrobot:<spider>``), so workers started with the same
spider and settings share one crawl, and ``webrobot-seed --reset`` can remove
exactly that crawl.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING
from urllib.parse import urlsplit, urlunsplit

from scrapy_redis import defaults as scrapy_redis_defaults
from scrapy_redis.connection import get_redis

from webrobot.settings_model import read

if TYPE_CHECKING:
    import redis
    from scrapy.settings import BaseSettings


@dataclass(frozen=True)
class CrawlKeys:
    prefix: str

    @classmethod
    def from_settings(cls, settings: BaseSettings, spider_name: str) -> CrawlKeys:
        template = read(settings, "WEBROBOT_REDIS_KEY")
        return cls(template % {"spider": spider_name})

    @property
    def frontier(self) -> str:
        """Sorted set: serialized requests by ``-priority`` (depth, breadth-first)."""
        return f"{self.prefix}:frontier"

    @property
    def leases(self) -> str:
        """Sorted set: lease ids by deadline (ms, Redis server time)."""
        return f"{self.prefix}:leases"

    @property
    def leased(self) -> str:
        """Hash: lease id -> ``"<score> <serialized request>"``."""
        return f"{self.prefix}:leased"

    @property
    def sequence(self) -> str:
        """Counter: the order in which requests were queued (FIFO within a priority)."""
        return f"{self.prefix}:sequence"

    @property
    def clock(self) -> str:
        """Hash: when a worker last re-queued expired leases (``seen``) and, after
        a gap (Redis or every worker away), until when none is (``grace``)."""
        return f"{self.prefix}:clock"

    @property
    def dead(self) -> str:
        """List: requests set aside after too many expired leases, or undecodable."""
        return f"{self.prefix}:dead"

    @property
    def items(self) -> str:
        """Stream: the items pages produced (``k``: page URL and ordinal, ``i``:
        the pickled item), each added in the script that acknowledged its lease."""
        return f"{self.prefix}:items"

    @property
    def visited(self) -> str:
        """Prefix of the visited-URL digest buckets (``<prefix>:<bucket hex>``)."""
        return f"{self.prefix}:visited"

    @property
    def content(self) -> str:
        """Prefix of the content-fingerprint buckets (``<prefix>:kept:<bucket>``,
        ``<prefix>:followed:<bucket>``)."""
        return f"{self.prefix}:content"

    @property
    def robots(self) -> str:
        """Prefix of the robots.txt decisions (``<prefix>:<site>``, a hash) and
        fetch claims (``<prefix>:<site>:claim``)."""
        return f"{self.prefix}:robots"

    @property
    def budget(self) -> str:
        """Hash: site -> pages spent (``WEBROBOT_MAX_PAGES_PER_SITE``)."""
        return f"{self.prefix}:budget"

    @property
    def meta(self) -> str:
        """Hash: the crawl's layout (digest bucket bits), checked by every worker."""
        return f"{self.prefix}:meta"

    def pattern(self) -> str:
        """A SCAN pattern matching every key of this crawl."""
        escaped = "".join("\\" + c if c in "*?[]\\" else c for c in self.prefix)
        return f"{escaped}:*"


def redis_from_settings(settings: BaseSettings) -> redis.Redis:
    """A client for ``WEBROBOT_REDIS_URL`` with scrapy-redis's connection defaults
    (timeouts, retry on timeout), overridable with its ``REDIS_PARAMS`` setting."""
    url = read(settings, "WEBROBOT_REDIS_URL").strip()
    if not url:
        raise ValueError("WEBROBOT_REDIS_URL is empty: no Redis to connect to")
    params = dict(scrapy_redis_defaults.REDIS_PARAMS)
    params.update(settings.getdict("REDIS_PARAMS"))
    params["url"] = url
    return get_redis(**params)


def safe_url(url: str) -> str:
    """The URL without its password, for logs."""
    parts = urlsplit(url)
    if parts.password is None:
        return url
    netloc = parts.hostname or ""
    if parts.port:
        netloc = f"{netloc}:{parts.port}"
    user = parts.username or ""
    return urlunsplit(parts._replace(netloc=f"{user}:***@{netloc}"))
