"""Which download errors say a host is dead, whichever handler raised them, and the
crawl's one record of dead hosts: logged and counted once, known to anything that asks,
closing a crawl that fetched nothing."""

from __future__ import annotations

import logging
import socket

import pytest
from scrapy.exceptions import CannotResolveHostError, CloseSpider, DownloadConnectionRefusedError
from scrapy.utils.test import get_crawler
from twisted.internet.error import ConnectionRefusedError as TxConnectionRefusedError
from twisted.internet.error import DNSLookupError, TCPTimedOutError

from webrobot.urls import resolver
from webrobot.urls.deadhosts import NOTHING_FETCHED, DeadHosts, failure_kind
from webrobot.urls.deadpolicy import NO_SUCH_NAME, REFUSED
from webrobot.urls.hostmap import HostMap


def raised_from(outer: BaseException, inner: BaseException) -> BaseException:
    try:
        try:
            raise inner
        except BaseException as exc:
            raise outer from exc
    except BaseException as exc:  # noqa: BLE001 - the test builds a chain
        return exc


NONAME = f"address 'gone.example' not found: [Errno {socket.EAI_NONAME}] Name or service not known"
AGAIN = f"address 'down.example' not found: [Errno {socket.EAI_AGAIN}] Temporary failure"


@pytest.mark.parametrize(
    ("exc", "expected"),
    [
        (ConnectionRefusedError(111, "Connection refused"), REFUSED),  # aiohttp, httpx
        (TxConnectionRefusedError("111: Connection refused"), REFUSED),
        (raised_from(DownloadConnectionRefusedError("x"), TxConnectionRefusedError()), REFUSED),
        # Twisted's threaded resolver keeps getaddrinfo's answer in the message
        (DNSLookupError(NONAME), NO_SUCH_NAME),
        (DNSLookupError(AGAIN), None),
        (raised_from(CannotResolveHostError("x"), DNSLookupError(NONAME)), NO_SUCH_NAME),
        (DNSLookupError("address 'x' not found: timeout error"), None),
        # handlers that resolve by themselves raise from getaddrinfo's own error
        (raised_from(OSError("x"), socket.gaierror(socket.EAI_NONAME, "nope")), NO_SUCH_NAME),
        (raised_from(OSError("x"), socket.gaierror(socket.EAI_AGAIN, "later")), None),
        (TCPTimedOutError(), None),
        (TimeoutError(), None),
    ],
)
def test_failure_kind(exc: BaseException, expected: str | None) -> None:
    assert failure_kind(exc, "h.example") == expected


def test_a_no_results_error_is_told_by_what_the_resolver_answered() -> None:
    """The handlers turn every failed look-up into "no results": the resolver's own
    answer for the name decides."""
    no_results = DNSLookupError("no results for hostname lookup: x")
    resolver._note_answer("gone.example", resolver.dns_answer(NONAME) or "")
    resolver._note_answer("Down.Example.", resolver.dns_answer(AGAIN) or "")
    assert failure_kind(no_results, "gone.example") == NO_SUCH_NAME
    assert failure_kind(no_results, "down.example") is None
    assert failure_kind(no_results, "never-asked.example") is None  # not known: not dead
    resolver._resolved("1.2.3.4", "gone.example")  # it resolves now
    assert resolver.name_answer("gone.example") is None


def test_a_name_never_asked_is_a_name_that_does_not_exist() -> None:
    mapped = resolver.MappedResolver(None, 0, 1.0, HostMap())  # type: ignore[arg-type]
    failed = mapped.getHostByName("no-such-host.invalid")
    failed.addErrback(lambda failure: None)
    assert resolver.name_answer("no-such-host.invalid") == NO_SUCH_NAME


def test_the_record_logs_and_counts_each_host_once(caplog: pytest.LogCaptureFixture) -> None:
    crawler = get_crawler(settings_dict={"WEBROBOT_DEAD_NAME_RETRY": "0.5"})
    assert crawler.stats is not None
    dead = DeadHosts.of(crawler)
    assert DeadHosts.of(crawler) is dead and DeadHosts.find(crawler) is dead
    assert dead.policy.name_retry == 0.5
    with caplog.at_level(logging.WARNING, logger="webrobot.urls.deadhosts"):
        dead.give_up("http://gone.example/robots.txt", NO_SUCH_NAME, 2, 0.5, requests=3)
        dead.give_up("https://gone.example/robots.txt", NO_SUCH_NAME, 2, 0.5)
        dead.give_up("http://127.0.0.1:9/robots.txt", REFUSED, 3, 6.0)
    said = [r.getMessage() for r in caplog.records]
    assert said == [
        (
            "Gave up on gone.example: the name does not resolve (2 tries over 0.5 s); "
            "3 requests for it not crawled"
        ),
        "Gave up on 127.0.0.1:9: the connection was refused (3 tries over 6.0 s)",
    ]
    assert crawler.stats.get_value("webrobot/hosts/dead/no_such_name") == 1
    assert crawler.stats.get_value("webrobot/hosts/dead/refused") == 1
    # Anything that would wait on a host asks: the name is dead on any port, a refusal on its own.
    assert dead.known("https://gone.example:8443/logo.png") is not None
    assert dead.known("http://127.0.0.1:9/a.png") is not None
    assert dead.known("http://127.0.0.1:10/a.png") is None
    assert dead.known("http://live.example/") is None


def test_an_idle_crawl_that_fetched_nothing_closes_with_its_reason() -> None:
    crawler = get_crawler()
    assert crawler.stats is not None
    dead = DeadHosts.of(crawler)
    dead._spider_idle()  # nothing given up: the crawl closes as usual
    dead.give_up("http://gone.example/robots.txt", NO_SUCH_NAME, 2, 3.0)
    crawler.stats.set_value("robotstxt/response_count", 1)
    crawler.stats.set_value("downloader/response_count", 1)
    with pytest.raises(CloseSpider) as closed:
        dead._spider_idle()
    assert closed.value.reason == NOTHING_FETCHED
    crawler.stats.set_value("downloader/response_count", 2)  # a page answered
    dead._spider_idle()


def test_a_worker_of_a_shared_crawl_does_not_close_for_its_share() -> None:
    crawler = get_crawler(settings_dict={"WEBROBOT_REDIS_URL": "redis://127.0.0.1:1/0"})
    dead = DeadHosts.of(crawler)
    dead.give_up("http://gone.example/robots.txt", NO_SUCH_NAME, 2, 3.0)
    dead._spider_idle()
