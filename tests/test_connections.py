"""The descriptor plan, "too many open files" recognised, and the bounded
keep-alive pool (a Twisted pool on a fake clock: no sockets)."""

from __future__ import annotations

import errno
from types import SimpleNamespace
from typing import Any

from twisted.internet.error import ConnectBindError, ConnectionRefusedError
from twisted.internet.task import Clock

from webrobot.politeness.connections import BoundedConnectionPool, pool_site
from webrobot.politeness.descriptors import exhausted, plan, victims


def test_plan_splits_the_limit_and_lowers_a_concurrency_that_does_not_fit() -> None:
    roomy = plan(1024, 256, 32, 512)
    assert (roomy.concurrency, roomy.max_idle, roomy.warning) == (32, 512, "")
    tight = plan(1024, 256, 64, 0)
    assert tight.max_idle == 1024 - 256 - 64
    low = plan(300, 256, 64, 512)
    assert low.concurrency < 64 and low.concurrency + low.max_idle <= 300 - 256
    assert "open-file limit (300" in low.warning and "CONCURRENT_REQUESTS=64" in low.warning
    assert plan(0, 256, 64, 512).limit == 0, "no limit known: nothing planned"


def test_too_many_open_files_is_recognised_through_the_chain() -> None:
    bind = ConnectBindError(errno.EMFILE, "Too many open files")
    assert exhausted(bind)
    assert exhausted(OSError(errno.ENFILE, "File table overflow"))
    try:
        try:
            raise bind
        except ConnectBindError as inner:
            raise RuntimeError("wrapped") from inner
    except RuntimeError as outer:
        assert exhausted(outer)
    assert not exhausted(ConnectionRefusedError("refused"))
    assert not exhausted(OSError(errno.ECONNRESET, "reset"))


def test_victims_are_sites_with_nothing_queued_first_then_the_oldest() -> None:
    idle = ["a", "b", "c", "d"]  # least recently used first
    assert victims(idle, 2, lambda c: c in {"a", "c"}) == ["b", "d"]
    assert victims(idle, 3, lambda c: c != "d") == ["d", "a", "b"]
    assert victims(idle, 0, lambda c: False) == []


class Connection:
    """What the pool uses of a connection: its state and its transport."""

    state = "QUIESCENT"

    def __init__(self, closed: list[str], name: str) -> None:
        self.transport = SimpleNamespace(loseConnection=lambda: closed.append(name))


def connection(closed: list[str], name: str) -> Any:
    return Connection(closed, name)


def test_the_pool_keeps_at_most_max_idle_connections_in_all() -> None:
    closed: list[str] = []
    queued = {("http", b"busy", 80)}
    counted: list[int] = []
    pool = BoundedConnectionPool(Clock(), 2, lambda key: key in queued, counted.append)
    busy, quiet1, quiet2 = ("http", b"busy", 80), ("http", b"q1", 80), ("http", b"q2", 80)
    pool._putConnection(busy, connection(closed, "busy"))
    pool._putConnection(quiet1, connection(closed, "q1"))
    assert closed == [] and pool.idle == 2
    pool._putConnection(quiet2, connection(closed, "q2"))
    # Over the bound: the oldest of the sites with nothing queued goes (busy is older).
    assert closed == ["q1"] and pool.idle == 2 and counted == [1]
    # A connection taken for a request leaves the idle order.
    pool.getConnection(busy, endpoint=None)
    assert pool.idle == 1
    assert pool.close_idle(5) == 1 and closed == ["q1", "q2"] and pool.idle == 0


def test_no_idle_connection_kept_when_the_limit_leaves_none() -> None:
    closed: list[str] = []
    pool = BoundedConnectionPool(Clock(), 0)
    pool._putConnection(("http", b"a", 80), connection(closed, "a"))
    assert closed == ["a"] and pool.idle == 0


def test_an_idle_timeout_leaves_the_order_too() -> None:
    clock = Clock()
    pool = BoundedConnectionPool(clock, 10)
    pool._putConnection(("http", b"a", 80), connection([], "a"))
    clock.advance(pool.cachedConnectionTimeout)
    assert pool.idle == 0


def test_pool_keys_name_sites() -> None:
    assert pool_site((b"http", b"127.0.0.1", 8080)) == "http://127.0.0.1:8080"
    assert pool_site((b"https", b"Example.COM", 443)) == "https://example.com:443"
    assert pool_site(("http-proxy", b"proxy", 3128)) is None


def test_a_projects_download_handlers_keep_webrobots_for_http_and_https() -> None:
    from tests.components import webrobot_crawler

    handler = "webrobot.politeness.connections.KeepAliveDownloadHandler"
    crawler = webrobot_crawler(DOWNLOAD_HANDLERS={"s3": None})
    handlers = crawler.settings.getdict("DOWNLOAD_HANDLERS")
    assert handlers == {"s3": None, "http": handler, "https": handler}
    own = "scrapy.core.downloader.handlers.http11.HTTP11DownloadHandler"
    crawler = webrobot_crawler(DOWNLOAD_HANDLERS={"http": own})
    assert crawler.settings.getdict("DOWNLOAD_HANDLERS")["http"] == own, "a project's choice wins"
