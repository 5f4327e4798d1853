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
    from collections.abc import Iterator, Mapping

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
