"""Where a shared crawl lives in Redis, and how workers connect to it.

All keys of one crawl start with ``WEBROBOT_REDIS_KEY`` formatted with the
spider name (default ``webrobot:<spider>``), so workers started with the same
spider and settings share one crawl, and ``webrobot-seed --reset`` can remove
exactly that crawl.

On a Redis Cluster (``WEBROBOT_REDIS_CLUSTER``) the keys carry *hash tags*
(the part of a key in ``{}`` that Redis hashes to pick its slot): the
crawl-wide keys (frontier, leases, sequence, items, budget...) share the tag
``{<prefix>}``, so the scripts that take, re-queue and finish leases touch one
slot (and the workers' heartbeats are on its master); a site's robots.txt state and politeness clock are tagged with its host
(the robots.txt keys of ``http://h`` and ``https://h`` and the clock of
``h``: one slot), so each host's scripts touch one slot and hosts spread over the masters; the
visited and content digest buckets carry no tag, so they spread over all
slots. On one Redis the names stay as they were (no braces).

The key layout and :func:`safe_url` need no Redis client: ``redis`` and
``scrapy-redis`` (the ``redis`` extra) are imported by :func:`redis_from_settings`
only, so modules of every crawl (the archive's) can use the rest.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING
from urllib.parse import urlsplit, urlunsplit

from webrobot.optional import require_redis
from webrobot.settingsmodel.parse import read
from webrobot.urls.sitekey import host_key

if TYPE_CHECKING:
    import redis
    from scrapy.settings import BaseSettings


def cluster_enabled(settings: BaseSettings) -> bool:
    return bool(read(settings, "WEBROBOT_REDIS_CLUSTER"))


def site_tag(site: str, cluster: bool) -> str:
    """An origin (``http://h:80``) or a politeness unit (``h``) as it appears in its keys:
    on a cluster, tagged with its host (``{h}http://h:80``, ``{h}``): one slot per host."""
    if not cluster:
        return site
    if "://" not in site:
        return "{" + site + "}"
    return "{" + host_key(site) + "}" + site


@dataclass(frozen=True)
class CrawlKeys:
    prefix: str
    cluster: bool = False

    @classmethod
    def from_settings(cls, settings: BaseSettings, spider_name: str) -> CrawlKeys:
        template = read(settings, "WEBROBOT_REDIS_KEY")
        return cls(template % {"spider": spider_name}, cluster_enabled(settings))

    @property
    def crawl(self) -> str:
        """The prefix of the crawl-wide keys: hash-tagged on a cluster (one slot)."""
        return "{" + self.prefix + "}" if self.cluster else self.prefix

    @property
    def frontier(self) -> str:
        """Sorted set: serialized requests by ``-priority`` (depth, breadth-first)."""
        return f"{self.crawl}:frontier"

    @property
    def leases(self) -> str:
        """Sorted set: worker ids by heartbeat deadline (ms, Redis server time);
        a lease lives as long as its worker is in it."""
        return f"{self.crawl}:leases"

    @property
    def leased(self) -> str:
        """Hash: lease id (``<worker id>/<n>``) -> ``"<score> <serialized request>"``."""
        return f"{self.crawl}:leased"

    @property
    def sequence(self) -> str:
        """Counter: the order in which requests were queued (FIFO within a priority)."""
        return f"{self.crawl}:sequence"

    @property
    def clock(self) -> str:
        """Hash: when a worker last re-queued expired leases (``seen``), after a
        gap (Redis or every worker away) until when none is (``grace``), and the
        walk of the leased hash (``walk``: its cursor, ``walked``: its start)."""
        return f"{self.crawl}:clock"

    @property
    def dead(self) -> str:
        """List: requests set aside after too many expired leases, or undecodable."""
        return f"{self.crawl}:dead"

    @property
    def items(self) -> str:
        """Stream: the items pages produced (``k``: page URL and ordinal, ``i``:
        the pickled item), each added in the script that acknowledged its lease."""
        return f"{self.crawl}:items"

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
    def near(self) -> str:
        """Prefix of the near-duplicate SimHash tables (``<prefix>:<band>:<block hex>``,
        hashes of SimHash hex -> URL digest): crawl-tagged, so the script that checks and
        records a page's four bands touches one slot."""
        return f"{self.crawl}:near"

    @property
    def robots(self) -> str:
        """Prefix of the robots.txt decisions (``<prefix>:<site>``, a hash) and
        fetch claims (``<prefix>:<site>:claim``)."""
        return f"{self.prefix}:robots"

    @property
    def budget(self) -> str:
        """Hash: site -> pages spent (``WEBROBOT_MAX_PAGES_PER_SITE``)."""
        return f"{self.crawl}:budget"

    @property
    def monitor(self) -> str:
        """Prefix of the monitor's memory (:mod:`webrobot.distributed.monitorstore`):
        ``:pages`` (hash: URL -> snapshot), ``:events`` (stream), ``:outbox`` (sorted set),
        ``:bodies``, ``:tries`` (hashes), ``:dead`` (list: the events the webhook's
        receiver refused for good), ``:sequence``, ``:sender`` (the delivery lock).
        Kept by ``webrobot-seed --reset``: the next crawl compares with it."""
        return f"{self.crawl}:monitor"

    @property
    def meta(self) -> str:
        """Hash: the crawl's layout (digest bucket bits), checked by every worker."""
        return f"{self.crawl}:meta"

    def robots_key(self, site: str) -> str:
        """The hash of ``site``'s robots.txt decision (its claim and deferral
        keys add ``:claim`` and ``:deferral``)."""
        return f"{self.robots}:{site_tag(site, self.cluster)}"

    def patterns(self) -> list[str]:
        """SCAN patterns matching every key of this crawl."""
        prefixes = [self.prefix, self.crawl] if self.cluster else [self.prefix]
        return [_escape(prefix) + ":*" for prefix in prefixes]

    def pattern(self) -> str:
        """A SCAN pattern matching every key of this crawl on one Redis."""
        return self.patterns()[0]


def _escape(prefix: str) -> str:
    return "".join("\\" + c if c in "*?[]\\" else c for c in prefix)


def redis_from_settings(settings: BaseSettings) -> redis.Redis:
    """A client for ``WEBROBOT_REDIS_URL`` with scrapy-redis's connection defaults
    (timeouts, retry on timeout), overridable with its ``REDIS_PARAMS`` setting.
    With ``WEBROBOT_REDIS_CLUSTER``, redis-py's cluster client: the URL names any
    node, the client learns the others and follows slots as they move."""
    require_redis()
    from redis.exceptions import ConnectionError as RedisConnectionError
    from scrapy_redis import defaults as scrapy_redis_defaults
    from scrapy_redis.connection import get_redis

    url = read(settings, "WEBROBOT_REDIS_URL").strip()
    if not url:
        raise ValueError("WEBROBOT_REDIS_URL is empty: no Redis to connect to")
    params = dict(scrapy_redis_defaults.REDIS_PARAMS)
    params.update(settings.getdict("REDIS_PARAMS"))
    if cluster_enabled(settings):
        from redis.cluster import RedisCluster
        from redis.exceptions import RedisClusterException

        params.pop("url", None)
        try:
            # Typed as a RedisCluster; every command webrobot sends works on both.
            return RedisCluster.from_url(url, **params)  # type: ignore[return-value]
        except RedisClusterException as exc:  # not a RedisError: "not a cluster", no node...
            raise RedisConnectionError(f"no Redis Cluster at {safe_url(url)}: {exc}") from exc
    params["url"] = url
    return get_redis(**params)


def explain(exc: BaseException) -> str:
    """A Redis error as one line, with the likely fix for a cluster node used as one Redis."""
    text = str(exc)
    if text.startswith("MOVED") or "hash to the same slot" in text:
        text += " (a Redis Cluster: set WEBROBOT_REDIS_CLUSTER=true)"
    return text


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
