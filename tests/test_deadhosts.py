"""Which download errors say a host is dead, whichever handler raised them, and the
crawl's one record of dead hosts: logged and counted once, known to anything that asks,
closing a crawl that fetched nothing, remembered from one crawl to the next (where its
file is, what it writes at the close and reads back, a damaged file), and a resolver
that could not be reached neither given up nor remembered."""

from __future__ import annotations

import json
import logging
import os
import socket
from pathlib import Path
from typing import Any

import pytest
from scrapy import signals as scrapy_signals
from scrapy.exceptions import CannotResolveHostError, CloseSpider, DownloadConnectionRefusedError
from scrapy.utils.test import get_crawler
from twisted.internet.error import ConnectionRefusedError as TxConnectionRefusedError
from twisted.internet.error import DNSLookupError, TCPTimedOutError

from webrobot import signals
from webrobot.urls import resolver
from webrobot.urls.deadhosts import NOTHING_FETCHED, DeadHosts, failure_kind, memory_path
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
    with caplog.at_level(logging.DEBUG, logger="webrobot.urls.deadhosts"):
        dead.give_up("http://gone.example/robots.txt", NO_SUCH_NAME, 2, 0.5, requests=3)
        dead.give_up("https://gone.example/robots.txt", NO_SUCH_NAME, 2, 0.5)
        dead.give_up("http://127.0.0.1:9/robots.txt", REFUSED, 3, 6.0)
    said = [(r.levelname, r.getMessage()) for r in caplog.records]
    assert said == [
        (
            "WARNING",
            (
                "Gave up on gone.example: the name does not resolve (2 tries over 0.5 s); "
                "3 requests for it not crawled (further hosts given up are counted, and named "
                "when the crawl ends)"
            ),
        ),
        ("DEBUG", "Gave up on 127.0.0.1:9: the connection was refused (3 tries over 6.0 s)"),
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


def opened(**settings: Any) -> Any:
    crawler = get_crawler(settings_dict=settings)
    crawler.stats.open_spider()
    return crawler


def test_the_close_says_every_dead_host_in_one_line(caplog: pytest.LogCaptureFixture) -> None:
    crawler = opened(WEBROBOT_DEAD_HOSTS_FILE="")
    dead = DeadHosts.of(crawler)
    for n in range(122):
        dead.give_up(f"http://img{n}.gone.invalid/robots.txt", NO_SUCH_NAME, 2, 3.0)
    dead.give_up("http://127.0.0.1:9/robots.txt", REFUSED, 3, 6.0)
    assert dead.skip("http://img7.gone.invalid/a.png") == NO_SUCH_NAME
    caplog.clear()  # the first host given up was said at once
    with caplog.at_level(logging.INFO, logger="webrobot.urls.deadhosts"):
        dead._spider_closed()
    [line] = [r.getMessage() for r in caplog.records]
    assert line.startswith(
        "Gave up on 123 dead hosts (the name does not resolve: 122; the connection was "
        "refused: 1): img0.gone.invalid, img1.gone.invalid,"
    ), line
    assert "and 118 more" in line and "1 requisite on them not requested" in line
    rows = dead.rows()
    assert len(rows) == 123 and rows[7]["skipped"] == 1 and rows[-1]["host"] == "127.0.0.1:9"


def test_where_the_memory_lives(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    assert memory_path("") is None
    assert memory_path("  ") is None
    assert memory_path(str(tmp_path / "m.json")) == tmp_path / "m.json"
    # in a project: its .scrapy/ folder, as HTTPCACHE_DIR; nothing is created
    project = tmp_path / "project"
    (project / "pkg").mkdir(parents=True)
    (project / "scrapy.cfg").write_text("[settings]\ndefault = pkg.settings\n", "utf-8")
    monkeypatch.chdir(project / "pkg")
    monkeypatch.delenv("SCRAPY_SETTINGS_MODULE", raising=False)  # scrapy.cfg says it
    assert memory_path("dead.json") == project / ".scrapy" / "dead.json"
    assert not (project / ".scrapy").exists()
    # a [datadir] the project names
    (project / "scrapy.cfg").write_text(
        f"[settings]\ndefault = pkg.settings\n[datadir]\ndefault = {tmp_path / 'data'}\n", "utf-8"
    )
    assert memory_path("dead.json") == tmp_path / "data" / "dead.json"
    # outside a project: .scrapy/ of the working folder
    monkeypatch.chdir(tmp_path)
    (project / "scrapy.cfg").unlink()
    assert memory_path("dead.json") == Path(".scrapy", "dead.json")


def test_given_up_kept_and_read_back(tmp_path: Path) -> None:
    file = tmp_path / "state" / "dead.json"
    first = opened(WEBROBOT_DEAD_HOSTS_FILE=str(file))
    dead = DeadHosts.of(first)
    heard: list[tuple[str, str]] = []
    dead.listen(lambda url, kind: heard.append((url, kind)))
    # robots.txt given up by its policy: a name that does not resolve, a refused port
    dead.give_up("http://gone.invalid/robots.txt", NO_SUCH_NAME, 2, 3.0)
    dead.give_up("http://127.0.0.1:9/robots.txt", REFUSED, 3, 6.0)
    # a requisite's own download: a name the resolver says does not exist ...
    assert (
        dead.download_failed("http://other.invalid/a.png", DNSLookupError(NONAME)) == NO_SUCH_NAME
    )
    # ... but not a resolver that could not be reached, nor a time-out
    assert dead.download_failed("http://down.example/a.png", DNSLookupError(AGAIN)) is None
    assert dead.download_failed("http://slow.test/a.png", TimeoutError()) is None
    assert heard == [("http://gone.invalid/robots.txt", NO_SUCH_NAME),
                     ("http://127.0.0.1:9/robots.txt", REFUSED),
                     ("http://other.invalid/a.png", NO_SUCH_NAME)]  # fmt: skip
    assert dead.skip("https://gone.invalid/x.png") == NO_SUCH_NAME
    assert dead.skip("http://127.0.0.1:9/x.png") == REFUSED
    assert dead.skip("http://127.0.0.1:10/x.png") is None
    assert dead.skip("http://down.example/x.png") is None
    assert first.stats.get_value("webrobot/hosts/dead/no_such_name") == 2
    assert first.stats.get_value("webrobot/hosts/dead/refused") == 1
    assert first.stats.get_value("webrobot/hosts/dead/skipped") == 2
    assert first.stats.get_value("webrobot/hosts/dead/skipped_remembered") is None
    first.signals.send_catch_log(scrapy_signals.spider_closed, spider=None, reason="finished")
    kept = json.loads(file.read_text("utf-8"))
    assert sorted(kept["hosts"]) == ["127.0.0.1:9", "gone.invalid", "other.invalid"]
    assert not [p for p in file.parent.iterdir() if p.suffix == ".tmp"]

    second = opened(WEBROBOT_DEAD_HOSTS_FILE=str(file))
    again = DeadHosts.of(second)
    assert second.stats.get_value("webrobot/hosts/dead/remembered") == 3
    assert again.skip("http://gone.invalid/y.png") == NO_SUCH_NAME
    assert again.skip("http://gone.invalid/z.png") == NO_SUCH_NAME
    assert second.stats.get_value("webrobot/hosts/dead/skipped_remembered") == 2
    assert again.known("http://gone.invalid/") is None  # pages: this crawl's own finding only
    [row] = again.rows()  # the report lists the remembered host that kept requisites away
    assert (row["host"], row["remembered"], row["skipped"]) == ("gone.invalid", True, 2)
    assert "remembered dead from an earlier crawl" in (again.closing_line() or "")

    # expired: asked again
    third = opened(WEBROBOT_DEAD_HOSTS_FILE=str(file), WEBROBOT_DEAD_HOSTS_EXPIRY=1.0)
    os.utime(file)  # (the times are in the file, not its mtime)
    for entry in kept["hosts"].values():
        entry["found"] -= 10
    file.write_text(json.dumps(kept), "utf-8")
    assert DeadHosts.of(third).skip("http://gone.invalid/y.png") is None


def test_a_damaged_memory_is_one_warning(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    file = tmp_path / "dead.json"
    file.write_text("{not json", "utf-8")
    c = opened(WEBROBOT_DEAD_HOSTS_FILE=str(file))
    with caplog.at_level(logging.WARNING):
        dead = DeadHosts.of(c)
    assert "not read" in caplog.text and str(file) in caplog.text
    assert dead.skip("http://gone.invalid/") is None
    # a crawl that finds nothing leaves the file alone
    c.signals.send_catch_log(scrapy_signals.spider_closed, spider=None, reason="finished")
    assert file.read_text("utf-8") == "{not json"


def test_no_file_remembers_during_the_crawl_only() -> None:
    c = opened(WEBROBOT_DEAD_HOSTS_FILE="")
    dead = DeadHosts.of(c)
    dead.give_up("http://gone.invalid/", NO_SUCH_NAME, 2, 3.0)
    assert dead.skip("http://gone.invalid/a.png") == NO_SUCH_NAME
    c.signals.send_catch_log(scrapy_signals.spider_closed, spider=None, reason="finished")
    assert dead.path is None


def test_a_host_that_failed_once_is_not_waited_on_nor_remembered_yet(tmp_path: Path) -> None:
    """The resolver said once that a name does not exist: requisites stop waiting on
    it at once (a refused port too), but it is given up (and remembered) only when its
    policy says so, or when the crawl ends before its next try; a host that answers
    after all is asked again."""
    file = tmp_path / "dead.json"
    c = opened(WEBROBOT_DEAD_HOSTS_FILE=str(file))
    dead = DeadHosts.of(c)
    heard: list[tuple[str, str]] = []
    dead.listen(lambda url, kind: heard.append((url, kind)))
    dead.failing("http://gone.invalid/robots.txt", NO_SUCH_NAME)
    dead.failing("http://gone.invalid/robots.txt", NO_SUCH_NAME)  # heard once
    dead.failing("http://127.0.0.1:9/robots.txt", REFUSED)
    dead.failing("http://busy.example/robots.txt", None)  # another failure: nothing
    assert heard == [("http://gone.invalid/robots.txt", NO_SUCH_NAME),
                     ("http://127.0.0.1:9/robots.txt", REFUSED)]  # fmt: skip
    assert dead.skip("https://gone.invalid/a.png") == NO_SUCH_NAME
    assert dead.skip("http://127.0.0.1:9/a.png") == REFUSED
    assert dead.skip("http://127.0.0.1:10/a.png") is None  # a refusal: that port only
    assert dead.skip("http://busy.example/a.png") is None
    assert dead.known("http://gone.invalid/") is None and not dead.book.hosts
    assert c.stats.get_value("webrobot/hosts/dead/no_such_name") is None
    dead.failing("http://back.example/robots.txt", NO_SUCH_NAME)
    dead.failing("http://127.0.0.1:9/robots.txt", REFUSED)
    for site in ("http://back.example:80", "http://127.0.0.1:9"):  # they answer after all
        c.signals.send_catch_log(signals.robots_resolved, site=site, outcome="rules", status=200)
    assert dead.skip("http://back.example/a.png") is None
    assert dead.skip("http://127.0.0.1:9/a.png") is None
    dead.failing("http://127.0.0.1:9/robots.txt", REFUSED)  # held at the close: not given up
    # Idle while robots.txt waits for its next try: nothing given up yet.
    c.stats.set_value("downloader/response_count", 1)
    dead._spider_idle()
    assert not dead.book.hosts
    # The crawl ends before the name's second try: the resolver's answer stands.
    [row] = dead._report_part(finished=True)["dead_hosts"]  # type: ignore[misc]
    assert (row["host"], row["tries"]) == ("gone.invalid", 1)
    assert c.stats.get_value("webrobot/hosts/dead/no_such_name") == 1
    dead._spider_closed()
    assert sorted(json.loads(file.read_text("utf-8"))["hosts"]) == ["gone.invalid"]
