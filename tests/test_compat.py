"""Each private part of Scrapy and protego that webrobot.compat wraps still does
what webrobot relies on, on the installed versions."""

from __future__ import annotations

import asyncio
from types import SimpleNamespace
from typing import Any

import pytest
from scrapy.utils.test import get_crawler

from webrobot import compat


def test_slot_randomness_reads_the_slot_entry_or_the_downloaders_default() -> None:
    from scrapy.core.downloader import Downloader, Slot

    crawler = get_crawler(settings_dict={"DOWNLOAD_DELAY": 2})
    downloader = Downloader(crawler)
    default = compat.slot_randomness(downloader, {})
    slot = Slot(1, 2.0, default)
    assert 1.0 <= slot.download_delay() <= 3.0  # Scrapy's default: +-50 %
    if hasattr(downloader, "_jitter"):  # Scrapy >= 2.19
        assert compat.slot_randomness(downloader, {"jitter": 0.25}) == 0.25
        assert default == 0.5
    else:
        assert compat.slot_randomness(downloader, {"randomize_delay": False}) is False
        assert default is True
    assert (
        Slot(
            1, 2.0, compat.slot_randomness(downloader, {"jitter": 0, "randomize_delay": False})
        ).download_delay()
        == 2.0
    )


def test_schedule_coro_runs_the_coroutine() -> None:
    ran: list[str] = []

    async def job() -> None:
        ran.append("ran")

    async def main() -> None:
        compat.schedule_coro(job())
        for _ in range(10):
            await asyncio.sleep(0)
            if ran:
                return

    asyncio.run(main())
    assert ran == ["ran"]


def test_call_later_is_scrapys_public_timer() -> None:
    from scrapy.utils import asyncio as scrapy_asyncio

    assert compat.call_later is scrapy_asyncio.call_later


def test_wake_engine_pokes_the_engine_loop() -> None:
    calls: list[str] = []
    engine = SimpleNamespace(
        _slot=SimpleNamespace(nextcall=SimpleNamespace(schedule=lambda: calls.append("x")))
    )
    assert compat.wake_engine(engine) is True and calls == ["x"]
    assert compat.wake_engine(SimpleNamespace()) is False  # no slot yet (or none in a later Scrapy)


def test_a_real_engine_has_the_slot_wake_engine_pokes() -> None:
    """The engine attribute itself: opened by a crawl, so check the class sets it up."""
    from scrapy.core.engine import ExecutionEngine

    crawler = get_crawler()
    engine = ExecutionEngine(crawler, lambda _: None)
    assert hasattr(engine, "_slot")  # None until the spider opens, then a slot with nextcall
    import inspect

    source = inspect.getsource(ExecutionEngine)
    assert "self._slot = _Slot(" in source and "nextcall" in source


def test_engine_in_progress_is_the_set_a_real_engine_slot_keeps() -> None:
    """The schedulers acknowledge a request once it leaves this set: the real
    ``_Slot`` must keep one, and the engine must add to it and discard from it."""
    import inspect

    from scrapy.core.engine import ExecutionEngine, _Slot

    assert "self.inprogress: set[Request] = set()" in inspect.getsource(_Slot.__init__)
    assert "self.inprogress.add(request)" in inspect.getsource(_Slot.add_request)
    assert "self.inprogress.remove(request)" in inspect.getsource(_Slot.remove_request)
    source = inspect.getsource(ExecutionEngine)
    assert "_slot.add_request(" in source and "_slot.remove_request(" in source
    held: set[Any] = set()
    assert (
        compat.engine_in_progress(SimpleNamespace(_slot=SimpleNamespace(inprogress=held))) is held
    )
    assert compat.engine_in_progress(SimpleNamespace()) is None  # not opened yet
    assert compat.engine_in_progress(SimpleNamespace(_slot=SimpleNamespace(inprogress=[]))) is None


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("User-agent: webrobot", ("user-agent", "webrobot")),
        ("Disallow: /private/", ("disallow", "/private/")),
        ("allow : /a", ("allow", "/a")),
    ],
)
def test_protego_directive_reader(line: str, expected: tuple[str, str]) -> None:
    key, value = compat.extract_directive(line)
    assert (key.lower(), value) == expected
    directives: Any = {
        "user-agent": compat.USER_AGENT_DIRECTIVE,
        "disallow": compat.DISALLOW_DIRECTIVE,
        "allow": compat.ALLOW_DIRECTIVE,
    }
    assert key.lower() in directives[expected[0]]


def test_protego_directive_names() -> None:
    assert "crawl-delay" in compat.CRAWL_DELAY_DIRECTIVE
    assert "request-rate" in compat.REQUEST_RATE_DIRECTIVE
    assert "sitemap" in compat.SITEMAP_DIRECTIVE


def test_protego_quoting_and_pattern_matching() -> None:
    assert compat.quote_path("http://example.com/a b") == "/a%20b"
    # A rule and a URL are quoted alike, so a rule written with a query matches.
    url = "http://example.com/search?q=a b"
    assert compat.URLPattern(compat.quote_pattern("/search?q=a b")).match(compat.quote_path(url))
    pattern = compat.URLPattern(compat.quote_pattern("/private/*.html$"))
    assert pattern.match("/private/x.html")
    assert not pattern.match("/private/x.htmlx")


def test_robots_parsed_is_scrapys_signal_where_scrapy_has_it() -> None:
    from scrapy import signals

    assert compat.robots_parsed is getattr(signals, "robots_parsed", compat.robots_parsed)


def test_scrapys_http11_handler_keeps_its_pool_where_replace_connection_pool_finds_it() -> None:
    from scrapy.core.downloader.handlers.http11 import HTTP11DownloadHandler
    from twisted.internet import reactor
    from twisted.web.client import HTTPConnectionPool

    crawler = get_crawler(settings_dict={"CONCURRENT_REQUESTS_PER_DOMAIN": 3})
    handler = HTTP11DownloadHandler(crawler)
    old = compat.connection_pool(handler)
    assert isinstance(old, HTTPConnectionPool) and old.maxPersistentPerHost == 3
    new = HTTPConnectionPool(reactor, persistent=True)
    assert compat.replace_connection_pool(handler, new)
    assert compat.connection_pool(handler) is new
    assert new.maxPersistentPerHost == 3 and new._factory is old._factory
    assert not compat.replace_connection_pool(object(), new)


def test_twisted_pool_keeps_idle_connections_and_their_timers_where_compat_reads_them() -> None:
    from twisted.internet.task import Clock
    from twisted.web.client import HTTPConnectionPool

    clock = Clock()
    pool = HTTPConnectionPool(clock, persistent=True)
    closed: list[object] = []

    class Connection:
        state = "QUIESCENT"
        transport = SimpleNamespace(loseConnection=lambda: closed.append(1))

    connection = Connection()
    pool._putConnection(("http", b"a", 80), connection)
    assert compat.idle_connections(pool) == {("http", b"a", 80): [connection]}
    assert connection in compat.idle_timeouts(pool)
    clock.advance(pool.cachedConnectionTimeout)  # the idle timeout goes through _removeConnection
    assert compat.idle_connections(pool) == {("http", b"a", 80): []}
    assert connection not in compat.idle_timeouts(pool) and closed == [1]


def test_name_not_resolved_knows_the_installed_handlers_errors_by_class() -> None:
    from scrapy import exceptions
    from twisted.internet.error import ConnectionRefusedError, DNSLookupError

    assert compat.name_not_resolved(DNSLookupError("x"))
    scrapys = getattr(exceptions, "CannotResolveHostError", None)
    if scrapys is not None:  # Scrapy >= 2.19: its handlers raise it from Twisted's
        assert scrapys in compat.NAME_NOT_RESOLVED
        assert compat.name_not_resolved(scrapys("x"))
    else:
        assert compat.NAME_NOT_RESOLVED == (DNSLookupError,)

    class Wrapper(Exception):
        pass

    class Subclass(DNSLookupError):
        pass

    def wrapped(cause: BaseException) -> BaseException:
        try:
            raise Wrapper("wrapped") from cause
        except Wrapper as exc:
            return exc

    assert compat.name_not_resolved(Subclass())
    assert compat.name_not_resolved(wrapped(wrapped(DNSLookupError("x"))))
    assert not compat.name_not_resolved(wrapped(ConnectionRefusedError()))
    assert not compat.name_not_resolved(Wrapper("DNSLookupError"))
    looped = Wrapper("a")
    looped.__cause__ = Wrapper("b")
    looped.__cause__.__cause__ = looped
    assert not compat.name_not_resolved(looped)


def test_on_shutdown_signal_wraps_the_hook_scrapys_signal_handler_calls() -> None:
    from scrapy.crawler import CrawlerProcess

    assert callable(getattr(CrawlerProcess, "_log_shutdown", None))
    heard: list[int] = []
    process = SimpleNamespace(_log_shutdown=lambda signum: heard.append(-signum))
    assert compat.on_shutdown_signal(process, heard.append)
    process._log_shutdown(2)
    assert heard == [-2, 2], "Scrapy's own line first, then ours"
    assert not compat.on_shutdown_signal(SimpleNamespace(), heard.append)


def test_scrapys_signal_handler_looks_the_hook_up_on_the_process() -> None:
    """CrawlerProcess._signal_shutdown schedules ``self._log_shutdown``: an attribute
    of the process replaces it (checked on the installed Scrapy's source)."""
    import inspect

    from scrapy.crawler import CrawlerProcess

    source = inspect.getsource(CrawlerProcess._signal_shutdown)
    assert "self._log_shutdown" in source


class _NoDownloader:
    """A downloader that opens no connection pool (the test builds an engine, never runs it)."""

    def __init__(self, crawler: Any) -> None:
        self.crawler = crawler

    def fetch(self, *args: Any) -> None:
        raise AssertionError("the engine was never to fetch")

    def close(self) -> None:
        """Nothing was opened."""


def test_engine_scheduler_finds_a_real_engines_scheduler() -> None:
    from scrapy.core.engine import ExecutionEngine

    crawler = get_crawler(settings_dict={"DOWNLOADER": f"{__name__}._NoDownloader"})
    crawler._apply_settings()

    async def main() -> Any:
        engine = ExecutionEngine(crawler, lambda _: None)
        assert compat.engine_scheduler(engine) is None  # no spider open yet
        return engine

    asyncio.run(main())
    assert compat.engine_scheduler(SimpleNamespace(scheduler="s")) == "s"
    assert compat.engine_scheduler(SimpleNamespace(slot=SimpleNamespace(scheduler="old"))) == "old"


def test_fail_queued_downloads_fails_what_waits_in_a_real_downloaders_slots() -> None:
    """A shared crawl that gives up on Redis fails the requests waiting for a download
    slot: the real downloader must keep ``(request, deferred)`` pairs in each slot's
    queue and await the deferred."""
    import inspect

    from scrapy import Request
    from scrapy.core.downloader import Downloader, Slot
    from scrapy.exceptions import IgnoreRequest
    from twisted.internet.defer import Deferred

    source = inspect.getsource(Downloader._enqueue_request)
    assert "slot.queue.append((request, d))" in source and "(d)" in source.split("await")[1]
    downloader = Downloader(get_crawler())
    waiting = [Request(f"http://a/{n}") for n in range(2)]
    downloader.slots["a"] = slot = Slot(1, 0.0, 0.0)
    failures: list[Any] = []
    for request in waiting:
        queued: Deferred[Any] = Deferred()
        queued.addErrback(failures.append)
        slot.queue.append((request, queued))
    engine = SimpleNamespace(downloader=downloader)
    assert compat.fail_queued_downloads(engine, lambda r: IgnoreRequest(r.url)) == 2
    assert not slot.queue
    assert [str(f.value) for f in failures] == ["http://a/0", "http://a/1"]
    assert all(f.check(IgnoreRequest) for f in failures)
    assert compat.fail_queued_downloads(SimpleNamespace(), IgnoreRequest) == 0  # no downloader


def test_before_spider_opens_wraps_the_engine_factory_crawl_calls_before_opening() -> None:
    """``Crawler.crawl`` and ``crawl_async`` build the engine with ``self._create_engine()``
    right before ``open_spider_async`` (checked on the installed Scrapy's source); the
    wrapper runs the check after it and a failed check stops there."""
    import inspect

    from scrapy.crawler import Crawler

    for method in (Crawler.crawl, Crawler.crawl_async):
        source = inspect.getsource(method)
        built = source.index("self.engine = self._create_engine()")
        assert built < source.index("open_spider", built)
    crawler = SimpleNamespace(_create_engine=lambda: "engine", engine=None)
    checked: list[object] = []
    assert compat.before_spider_opens(crawler, lambda: checked.append(crawler.engine))
    assert crawler._create_engine() == "engine"
    assert checked == ["engine"], "checked once the engine is built"

    def refuse() -> None:
        raise ValueError("bad setting")

    crawler = SimpleNamespace(_create_engine=lambda: "engine", engine=None)
    compat.before_spider_opens(crawler, refuse)
    with pytest.raises(ValueError, match="bad setting"):
        crawler._create_engine()
    assert crawler.engine == "engine", "kept, so that the crawler closes its downloader"
    assert not compat.before_spider_opens(SimpleNamespace(), refuse)


def test_keep_selector_is_what_the_responses_readers_get() -> None:
    from scrapy.http import HtmlResponse
    from scrapy.linkextractors import LinkExtractor
    from scrapy.selector import Selector

    response = HtmlResponse(
        url="http://x.test/", body=b"<html><body><a href='/a'>a</a></body></html>"
    )
    other = Selector(text="<html><body><a href='/b'>b</a></body></html>")
    assert compat.keep_selector(response, other)
    assert response.selector is other
    assert response.xpath("//a/@href").getall() == ["/b"]
    assert [link.url for link in LinkExtractor().extract_links(response)] == ["http://x.test/b"]
    assert not compat.keep_selector(object(), other)


def test_scrapys_tls_aliases_imported_without_source_keep_their_module() -> None:
    """The crawl imports Scrapy's TLS modules with ``sourceless_stack``: their
    deprecated aliases still name the module that made them, as with the whole
    ``inspect.stack()``, and ``inspect.stack`` is Python's own again after. In a
    fresh process, where the crawl's import is the first."""
    import subprocess
    import sys

    from tests.crawling import PROJECT_ROOT

    code = """
import inspect
original = inspect.stack
import webrobot.politeness.connections
from scrapy.core.downloader import contextfactory, tls
for module in (contextfactory, tls):
    for name, value in sorted(vars(module).items()):
        if type(value).__name__ == "DeprecatedClass":
            print(module.__name__, name, value.__module__)
print("restored", inspect.stack is original)
"""
    done = subprocess.run([sys.executable, "-c", code], cwd=PROJECT_ROOT, capture_output=True,
                          text=True, timeout=60, check=True)  # fmt: skip
    lines = done.stdout.splitlines()
    assert lines[-1] == "restored True", done.stdout
    aliases = [line.split() for line in lines[:-1]]
    assert aliases, "Scrapy makes deprecated aliases in its TLS modules"
    for made_in, name, module in aliases:
        assert module == made_in, f"{name} names {module}, not {made_in}"


def _spider_bound_again(spider: Any) -> Any:
    """``spider.parse`` bound anew, as each request's callback is."""
    return type(spider).parse.__get__(spider)


def test_generator_callbacks_checked_at_the_start_need_no_source_file_later(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Scrapy reads a generator callback's source when a response reaches it, unless it
    remembers the answer for an equal bound method still alive: with every descriptor
    taken, that read fails and the page is lost as a spider error."""
    import gc
    import inspect

    from scrapy.utils.misc import warn_on_generator_with_return_value

    from webrobot.spiders.webrobot import WebrobotSpider

    crawler = get_crawler(WebrobotSpider)
    spider = WebrobotSpider.from_crawler(crawler, start_urls="http://127.0.0.1:1/")
    assert any(m.__name__ == "parse" for m in spider.checked_callbacks)

    def no_source(obj: Any) -> str:
        raise OSError("could not get source code")  # as when no descriptor is left

    monkeypatch.setattr(inspect, "getsource", no_source)
    warn_on_generator_with_return_value(spider, _spider_bound_again(spider))  # no read

    spider.checked_callbacks = []  # what Scrapy alone keeps
    gc.collect()
    with pytest.raises(OSError):
        warn_on_generator_with_return_value(spider, _spider_bound_again(spider))
