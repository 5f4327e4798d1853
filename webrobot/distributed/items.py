"""Items of a shared crawl, kept in Redis until they are exported.

In Redis mode every item a page produced goes into the crawl's item stream
(``<crawl>:items``) in the same Lua script that acknowledges the page's lease
(:meth:`.LeasedFrontier.ack`): the items of the pages acknowledged together
share one stream entry (fields ``k``/``i``, then ``k1``/``i1``, ``k2``/``i2``...;
see :func:`entry_items`), so the stream costs one command per acknowledgement,
not one per item. So:

* a page whose lease was acknowledged has its items in Redis, whatever happens
  to the worker afterwards;
* a worker killed before that script ran did not acknowledge the lease: the
  page goes back to the frontier when the lease expires, another worker fetches
  it again and its items are added then.

A page is fetched twice only when its lease expired while its first worker
still worked on it (blocked longer than ``WEBROBOT_REDIS_LEASE_TTL``, or cut off
from Redis); then both workers add its items. Each entry carries a key (the
page's URL and the item's ordinal on that page), and ``scrapy webrobot-export``
writes the first entry of each key only: one item per URL in the export.

This module is the stored form; no Scrapy, no I/O.
"""

from __future__ import annotations

import pickle
from typing import TYPE_CHECKING, Any

from itemadapter import ItemAdapter

if TYPE_CHECKING:
    from collections.abc import Iterable, Iterator, Mapping

#: What pickling an item may raise.
PICKLE_ERRORS = (pickle.PicklingError, TypeError, AttributeError, ValueError, RecursionError)


def item_key(url: str, ordinal: int) -> str:
    """The export's identity of an item: the page URL, and its ordinal on that
    page after the first (``url``, ``url#2``, ...)."""
    return url if ordinal <= 1 else f"{url}#{ordinal}"


def encode_item(item: Any) -> bytes:
    """The item pickled as it is (its class kept, so exporters see its fields),
    else as a plain dict. Raises one of :data:`PICKLE_ERRORS` if neither pickles."""
    try:
        return pickle.dumps(item, protocol=pickle.HIGHEST_PROTOCOL)
    except PICKLE_ERRORS:
        return pickle.dumps(ItemAdapter(item).asdict(), protocol=pickle.HIGHEST_PROTOCOL)


def decode_item(data: bytes) -> Any:
    return pickle.loads(data)


def entry_items(fields: Mapping[bytes, bytes]) -> Iterator[tuple[str, bytes | None]]:
    """The ``(key, pickled item)`` pairs of one stream entry, in order (the item
    None where an entry was cut short)."""
    n = 0
    while True:
        suffix = str(n).encode() if n else b""
        key = fields.get(b"k" + suffix)
        if key is None:
            return
        yield key.decode("utf-8", "replace"), fields.get(b"i" + suffix)
        n += 1


class FirstPerKey:
    """Which stream entries an export writes: the first of each key."""

    def __init__(self) -> None:
        self._seen: set[str] = set()
        self.repeated = 0

    def first(self, key: str) -> bool:
        if key in self._seen:
            self.repeated += 1
            return False
        self._seen.add(key)
        return True


class ItemsAwaitingAck:
    """The stored form of the items of pages whose lease is not acknowledged yet, by
    lease id (``""``: a page under no lease, stored with the next acknowledgement)."""

    def __init__(self) -> None:
        self._by_lease: dict[str, list[tuple[str, bytes]]] = {}

    def __bool__(self) -> bool:
        return bool(self._by_lease)

    def add(self, lease_id: str, url: str, item: Any) -> None:
        """Keep ``item`` of the page ``url`` until ``lease_id`` is acknowledged.
        Raises one of :data:`PICKLE_ERRORS` when it cannot be stored."""
        waiting = self._by_lease.setdefault(lease_id, [])
        ordinal = 1 + sum(1 for key, _ in waiting if key.split("#", 1)[0] == url)
        try:
            waiting.append((item_key(url, ordinal), encode_item(item)))
        except PICKLE_ERRORS:
            if not waiting:
                del self._by_lease[lease_id]
            raise

    def of(self, lease_ids: Iterable[str]) -> list[tuple[str, bytes]]:
        """The ``(key, pickled item)`` pairs to store with the acknowledgement of
        ``lease_ids``: theirs, and those under no lease."""
        return [item for lid in ["", *lease_ids] for item in self._by_lease.get(lid, ())]

    def stored(self, lease_ids: Iterable[str]) -> None:
        """The items of ``lease_ids`` and those under no lease are in Redis now."""
        for lease_id in ["", *lease_ids]:
            self._by_lease.pop(lease_id, None)

    def forget_leased(self) -> None:
        """Every lease was given back (its page is fetched again): only the items
        under no lease stay."""
        self._by_lease = {"": self._by_lease[""]} if "" in self._by_lease else {}
