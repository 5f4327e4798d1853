"""Every use of a private part of Scrapy or protego, in one place.

Each entry says why webrobot needs it and what it falls back to where the
private part is gone, and ``tests/test_compat.py`` checks each on the installed
versions, so a release that moves one fails a test instead of a crawl.
"""

from __future__ import annotations

import contextlib
import inspect
import sys
from typing import TYPE_CHECKING, Any

# protego's directive reader, path quoting and pattern matcher: the RFC 9309
# and first-match parsers (webrobot.robots.parsers) read robots.txt exactly as
# protego does and differ only in which rule wins, which protego's public API
# (can_fetch) cannot express. Private modules of protego 0.7 (hence the
# dependency range protego>=0.7,<0.8): a change fails tests/test_compat.py.
from protego._protego import _ALLOW_DIRECTIVE as ALLOW_DIRECTIVE
from protego._protego import _CRAWL_DELAY_DIRECTIVE as CRAWL_DELAY_DIRECTIVE
from protego._protego import _DISALLOW_DIRECTIVE as DISALLOW_DIRECTIVE
from protego._protego import _REQUEST_RATE_DIRECTIVE as REQUEST_RATE_DIRECTIVE
from protego._protego import _SITEMAP_DIRECTIVE as SITEMAP_DIRECTIVE
from protego._protego import _USER_AGENT_DIRECTIVE as USER_AGENT_DIRECTIVE
from protego._protego import _extract_directive as extract_directive
from protego._urlpattern import _URLPattern as URLPattern
from protego._utils import _quote_path as quote_path
from protego._utils import _quote_pattern as quote_pattern
from scrapy import exceptions as scrapy_exceptions
from scrapy import signals as scrapy_signals

# Public since Scrapy 2.14: a timer on the reactor or the asyncio loop in use.
from scrapy.utils.asyncio import call_later
from scrapy.utils.defer import deferred_from_coro
from twisted.internet.error import DNSLookupError
from twisted.python.failure import Failure

if TYPE_CHECKING:
    from collections.abc import Callable, Coroutine, Iterator
    from types import FrameType

__all__ = [
    "ALLOW_DIRECTIVE",
    "CRAWL_DELAY_DIRECTIVE",
    "DISALLOW_DIRECTIVE",
    "REQUEST_RATE_DIRECTIVE",
    "SITEMAP_DIRECTIVE",
    "USER_AGENT_DIRECTIVE",
    "URLPattern",
    "before_spider_opens",
    "call_later",
    "check_generator_callbacks",
    "connection_pool",
    "engine_scheduler",
    "extract_directive",
    "fail_queued_downloads",
    "idle_connections",
    "idle_timeouts",
    "keep_selector",
    "name_not_resolved",
    "on_shutdown_signal",
    "quote_path",
    "quote_pattern",
    "replace_connection_pool",
    "robots_parsed",
    "schedule_coro",
    "slot_randomness",
    "sourceless_stack",
    "wake_engine",
]


@contextlib.contextmanager
def sourceless_stack() -> Iterator[None]:
    """``inspect.stack()`` without the frames' source lines, while Scrapy's TLS modules
    are imported (``with sourceless_stack(): from scrapy.core.downloader.handlers.http11
    import ...``).

    ``scrapy.core.downloader.contextfactory`` and ``.tls`` make their deprecated
    aliases with ``scrapy.utils.deprecate.create_deprecated_class``, which calls
    ``inspect.stack()`` only to name the module of its caller (``stack()[1]``). That
    call reads the source of every frame, and for each frame of the import machinery
    (which has no source file) walks every loaded module: at a crawl's start, three
    calls through 52 to 58 frames with 843 modules loaded, about 135 ms of CPU, in
    every crawl process. Here the frames are the same, with their file, line and
    function, only without their source lines (``code_context`` None, as
    ``inspect.stack(0)`` gives them), so the aliases get the same module. Where
    Scrapy no longer calls it, nothing changes."""
    original = inspect.stack

    def stack(context: int = 1) -> list[inspect.FrameInfo]:
        frames = []
        frame: FrameType | None = sys._getframe(1)  # the caller's, as inspect.stack()[0]
        while frame is not None:
            code = frame.f_code
            frames.append(
                inspect.FrameInfo(frame, code.co_filename, frame.f_lineno, code.co_name, None, None)
            )
            frame = frame.f_back
        return frames

    inspect.stack = stack
    try:
        yield
    finally:
        inspect.stack = original


#: Scrapy's ``robots_parsed`` signal (sent with ``robotparser`` and ``request``
#: once rules are in use for a site), where the installed Scrapy has it; before
#: it existed, an object of webrobot's own that the robots.txt middleware sends
#: and the crawl report listens to alike.
robots_parsed: object = getattr(scrapy_signals, "robots_parsed", None) or object()


#: The exceptions a download fails with when its host name does not resolve:
#: Twisted's ``DNSLookupError`` (what Scrapy 2.18's handlers raise), and Scrapy's
#: ``CannotResolveHostError`` where the installed Scrapy has it (2.19 and later, whose
#: handlers raise it ``from`` Twisted's error).
NAME_NOT_RESOLVED: tuple[type[BaseException], ...] = (DNSLookupError,) + tuple(
    cls
    for cls in (getattr(scrapy_exceptions, "CannotResolveHostError", None),)
    if isinstance(cls, type)
)


def name_not_resolved(exc: BaseException) -> bool:
    """Whether ``exc`` says that a host name does not resolve: one of
    :data:`NAME_NOT_RESOLVED`, or caused by one (``raise ... from``: a handler or a
    middleware that wraps the error keeps it as ``__cause__``)."""
    seen: set[int] = set()
    current: BaseException | None = exc
    while current is not None and id(current) not in seen:
        if isinstance(current, NAME_NOT_RESOLVED):
            return True
        seen.add(id(current))
        current = current.__cause__
    return False


def schedule_coro(coro: Coroutine[Any, Any, Any]) -> None:
    """Start ``coro`` now, as Scrapy's downloader starts a download.

    Scrapy's downloader uses its private ``_schedule_coro``; the public
    ``deferred_from_coro`` does the same (a task on the asyncio loop, or a
    Deferred), and the coroutine handles its own errors."""
    deferred_from_coro(coro)


def slot_randomness(downloader: Any, slot_settings: dict[str, Any]) -> Any:
    """The third argument of Scrapy's ``Slot`` for a ``DOWNLOAD_SLOTS`` entry, as
    Scrapy's own slots get it.

    The downloader builds its own slot class, so it repeats what Scrapy's
    private ``Downloader._get_slot`` does: Scrapy >= 2.19 takes a ``jitter``
    magnitude (private ``_slot_jitter`` reads the entry, with the deprecated
    ``randomize_delay`` key, over the downloader's private ``_jitter``); Scrapy
    2.18 takes the ``randomize_delay`` flag (entry over ``downloader.randomize_delay``)."""
    if hasattr(downloader, "_jitter"):
        try:
            from scrapy.core.downloader import _slot_jitter  # type: ignore[attr-defined]
        except ImportError:
            return float(slot_settings.get("jitter", downloader._jitter))
        return float(_slot_jitter(slot_settings, downloader._jitter))
    return bool(slot_settings.get("randomize_delay", getattr(downloader, "randomize_delay", False)))


def wake_engine(engine: Any) -> bool:
    """Make the engine look at its scheduler now, not at its next 5 s heartbeat.

    Requests released after a robots.txt decision are put back with
    ``engine.crawl``; Scrapy has no public call to run the engine loop at once,
    so this pokes the private ``engine._slot.nextcall``. Without it the
    released requests still go, at the heartbeat. True when it could poke."""
    slot = getattr(engine, "_slot", None)
    nextcall = getattr(slot, "nextcall", None)
    schedule = getattr(nextcall, "schedule", None)
    if schedule is None:
        return False
    schedule()
    return True


def engine_scheduler(engine: Any) -> Any:
    """The engine's scheduler: public ``engine.scheduler`` since Scrapy 2.19, the
    private ``engine.slot.scheduler`` in 2.18; None before the spider opens."""
    scheduler = getattr(engine, "scheduler", None)
    if scheduler is None:
        scheduler = getattr(getattr(engine, "slot", None), "scheduler", None)
    return scheduler


def engine_in_progress(engine: Any) -> set[Any] | None:
    """The requests the engine has in hand (downloading, or their response or
    failure still being processed), or None where the engine does not expose them.

    A frontier with leases acknowledges a request when the engine is done with it,
    and no Scrapy signal marks that moment (``response_received`` comes before the
    spider, errors and redirects have none); the engine empties its private
    ``_slot.inprogress`` set exactly then (Scrapy 2.13 to 2.19)."""
    slot = getattr(engine, "_slot", None)
    inprogress = getattr(slot, "inprogress", None)
    return inprogress if isinstance(inprogress, set) else None


def fail_queued_downloads(engine: Any, error: Callable[[Any], BaseException]) -> int:
    """Fail every request that waits in a downloader slot's queue (not started yet)
    with ``error(request)``; how many were failed.

    Scrapy has no public call for it: each of the downloader's ``slots`` keeps, in its
    ``queue``, ``(request, deferred)`` pairs, and ``Downloader._enqueue_request`` awaits
    the deferred (Scrapy 2.13 to 2.19), so failing it fails the download. 0, and
    nothing changed, where the engine has no downloader slots."""
    downloader = getattr(engine, "downloader", None)
    failed = 0
    for slot in list(getattr(downloader, "slots", {}).values()):
        queue = getattr(slot, "queue", None)
        while queue:
            request, queue_dfd = queue.popleft()
            queue_dfd.errback(Failure(error(request)))
            failed += 1
    return failed


def on_shutdown_signal(process: Any, callback: Callable[[int], None]) -> bool:
    """Call ``callback(signum)`` when Scrapy's ``CrawlerProcess`` gets its first SIGINT
    or SIGTERM (Ctrl-C), in the reactor's (or event loop's) thread, where printing and
    logging are safe.

    Scrapy has no public hook there: its signal handler schedules the private
    ``_log_shutdown`` (Scrapy 2.13 to 2.19, reactor and reactorless alike), looked up
    on the process when the signal comes, so the process's own attribute wraps it.
    False, and nothing changed, where the process has no ``_log_shutdown``."""
    original = getattr(process, "_log_shutdown", None)
    if not callable(original):
        return False

    def log_shutdown(signum: int) -> None:
        original(signum)
        callback(signum)

    process._log_shutdown = log_shutdown
    return True


def before_spider_opens(crawler: Any, check: Callable[[], None]) -> bool:
    """Call ``check()`` once every component of ``crawler`` is built (its spider, the
    add-ons, extensions, downloader and spider middlewares, item pipelines) and before
    the engine opens the spider, where the feeds, the index and the report are
    opened; an exception ``check`` raises ends ``crawler.crawl()`` with that error,
    before anything is opened or written.

    Scrapy has no signal between building the engine and opening the spider:
    ``Crawler.crawl`` and ``crawl_async`` call the private ``_create_engine`` right
    before ``engine.open_spider_async`` (Scrapy 2.13 to 2.19), looked up on the
    crawler, so the crawler's own attribute wraps it. False, and nothing changed,
    where the crawler has no ``_create_engine``."""
    original = getattr(crawler, "_create_engine", None)
    if not callable(original):
        return False

    def create_engine() -> Any:
        engine = original()
        crawler.engine = engine  # so that a failed check closes its downloader
        check()
        return engine

    crawler._create_engine = create_engine
    return True


def connection_pool(handler: Any) -> Any:
    """The keep-alive pool of Scrapy's HTTP/1.1 download handler (its private
    ``_pool``, a Twisted ``HTTPConnectionPool``), or None where it is gone."""
    return getattr(handler, "_pool", None)


def replace_connection_pool(handler: Any, pool: Any) -> bool:
    """Give Scrapy's HTTP/1.1 download handler ``pool`` instead of its own (which
    bounds idle connections per host only, never in all). Settings of the old
    pool (per-host cap, Scrapy's lenient protocol factory, private ``_factory``)
    carry over. False, and nothing changed, where the handler has no ``_pool``."""
    old = connection_pool(handler)
    if old is None:
        return False
    pool.maxPersistentPerHost = old.maxPersistentPerHost
    pool.cachedConnectionTimeout = old.cachedConnectionTimeout
    pool.retryAutomatically = old.retryAutomatically
    pool._factory = old._factory
    handler._pool = pool
    return True


def idle_connections(pool: Any) -> dict[Any, list[Any]]:
    """Twisted's ``HTTPConnectionPool._connections``: pool key -> idle connections
    (private; the bounded pool of :mod:`webrobot.politeness.connections` keeps its
    order of use beside it and closes through ``_removeConnection``)."""
    connections: dict[Any, list[Any]] = pool._connections
    return connections


def idle_timeouts(pool: Any) -> dict[Any, Any]:
    """Twisted's ``HTTPConnectionPool._timeouts``: idle connection -> its timer
    (private); a connection is idle in the pool exactly while it has one."""
    timeouts: dict[Any, Any] = pool._timeouts
    return timeouts


def keep_selector(response: Any, selector: Any) -> bool:
    """Make ``selector`` the one ``response.selector`` (and so ``response.xpath``,
    ``response.css`` and Scrapy's ``LinkExtractor``) returns: Scrapy caches a text
    response's selector in the private ``_cached_selector``, and has no public way to
    hand it a tree parsed otherwise (:mod:`webrobot.pages.wholepage` hands it the whole
    tree of a page that ends its document before its body). False, and nothing
    changed, where the response has no such cache: its readers then see Scrapy's own
    parse."""
    if not hasattr(response, "_cached_selector"):
        return False
    response._cached_selector = selector
    return True


def check_generator_callbacks(spider: Any) -> list[Any]:
    """Run Scrapy's check for a generator callback that returns a value on each of
    ``spider``'s generator methods now, and return them bound, to be kept for the crawl.

    Scrapy checks a callback when a response first reaches it, by reading its source
    file (``scrapy.utils.misc.warn_on_generator_with_return_value``), and remembers
    the answer only while that bound method lives (a weak-key cache): a callback bound
    again later (every request's is) may be read again mid-crawl. With the open-file
    limit reached, that read fails (``OSError: could not get source code``) and the
    response is lost as a spider error, its links with it. Checked here, at the
    start, while descriptors are free, and kept alive, the answers hold for the
    whole crawl (bound methods of one spider and function are equal keys). A method
    whose source cannot be read is left to Scrapy, as before."""
    from scrapy.utils.misc import warn_on_generator_with_return_value

    checked = []
    for name, _ in inspect.getmembers(type(spider), inspect.isgeneratorfunction):
        method = getattr(spider, name)
        try:
            warn_on_generator_with_return_value(spider, method)
        except (OSError, TypeError, SyntaxError):
            continue
        checked.append(method)
    return checked
