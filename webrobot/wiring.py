"""How components find each other: one shared object per crawl.

Scrapy builds each component on its own (``from_crawler``: the scheduler, the
downloader and spider middlewares, the pipelines, the extensions), in an order
of its choosing, and gives them nothing in common but the crawler. Several of
them must still share one object for the whole crawl: the report's collector,
the job journal, the crawl's scope, the trap rules and their warning clock,
the disk trouble every writer reports to. :func:`per_crawler` is how they get
it: whichever component asks first makes it, every later one gets the same
object, and another crawl in the same process (tests, ``CrawlerProcess``) gets
its own.

The objects live on the crawler (one attribute holding a dict), so they go
when the crawler goes. (A module-level ``WeakKeyDictionary`` keyed by crawler
would not free them: its values refer back to their crawler, and a value the
dictionary holds keeps its key alive.)

A key is the shared object's class (``per_crawler(crawler, JobJournal,
JobJournal)``: "the crawl's one JobJournal"), or a :class:`Key` naming a value
that has no class of its own, or whose class the asking module may not import.
Once the engine exists, Scrapy's own ``crawler.get_downloader_middleware(cls)``
(and ``get_spider_middleware``, ``get_item_pipeline``, ``get_extension``) finds
a component itself; :func:`per_crawler` is for what is shared while the
components are being built, and for objects that are not components.

No Scrapy, no I/O: any module of any part may use it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

T = TypeVar("T")
C = TypeVar("C")

#: The crawler's attribute that holds its shared objects, by key.
ATTRIBUTE = "_webrobot_per_crawler"


@dataclass(frozen=True)
class Key(Generic[T]):
    """The name of a value shared per crawl, typed with what it holds
    (``Key[int]("webrobot.pages.documents")``). Keys of the same name are the
    same key, so a module may find a value without importing its maker: name a
    key after the module that makes the value."""

    name: str


def _shared(crawler: object) -> dict[object, Any]:
    # setdefault is atomic, whichever thread asks
    shared: dict[object, Any] = vars(crawler).setdefault(ATTRIBUTE, {})
    return shared


def per_crawler(crawler: C, key: type[T] | Key[T], factory: Callable[[C], T]) -> T:
    """The crawl's one object under ``key``: ``factory(crawler)`` the first time
    it is asked for, the same object every time after."""
    shared = _shared(crawler)
    if key in shared:
        found: T = shared[key]
        return found
    made: T = shared.setdefault(key, factory(crawler))  # the first one made, in a race
    return made


def find_per_crawler(crawler: object, key: type[T] | Key[T]) -> T | None:
    """The crawl's object under ``key`` if one was made or set, else ``None``."""
    found: T | None = vars(crawler).get(ATTRIBUTE, {}).get(key)
    return found


def set_per_crawler(crawler: object, key: type[T] | Key[T], value: T) -> None:
    """Make ``value`` the crawl's object under ``key`` (for a component that
    registers itself, such as the crawl's ``DUPEFILTER_CLASS``)."""
    _shared(crawler)[key] = value
