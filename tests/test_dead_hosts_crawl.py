"""End to end: a dead host is an answer. A real ``scrapy crawl`` of a start URL whose
name does not exist, or whose port refuses, ends in seconds with one line per host and
an exit status that says why; beside a live site, the live site is crawled and the crawl
exits 0.

Names never reach DNS: ``.invalid`` names fail in webrobot's resolver at once, and the
other names are answered by :mod:`tests.fakedns` (installed in the crawl's process), which
tells a name that does not exist (``EAI_NONAME``) from a resolver that cannot be reached
(``EAI_AGAIN``). The bounds on time guard against a hang only; how long these take is
measured in ``benchmarks/dead_hosts.py``.
"""

from __future__ import annotations

import json
import re
import socket
from collections.abc import Callable
from datetime import datetime
from pathlib import Path

import pytest

from tests.crawling import CrawlResult, run_crawl
from tests.fakedns import SCRIPT_ENV
from webrobot.demo.server import Reply, SiteServer
from webrobot.job import exitstatus

pytestmark = pytest.mark.slow

MakeSite = Callable[..., SiteServer]

#: Hang guard: from "Spider opened" to "Spider closed" in the crawl's log.
HANG_GUARD = 20.0
#: Settings of the crawls whose names tests.fakedns answers.
SCRIPTED = {
    "TWISTED_DNS_RESOLVER": "tests.fakedns.ScriptedResolver",
    "WEBROBOT_RESOLVE_ONLY": "False",
}


def closed_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def crawl(
    tmp_path: Path, start_urls: list[str], settings: dict[str, str] | None = None
) -> CrawlResult:
    return run_crawl(
        tmp_path, args={"start_urls": ",".join(start_urls)}, settings=settings or {}, timeout=90
    )


def open_seconds(log: str) -> float:
    """Seconds from the spider's opening to its closing, by the log's timestamps."""

    def at(event: str) -> datetime:
        match = re.search(
            rf"^(\S+ \S+) \[scrapy\.core\.engine\] INFO: Spider {event}", log, re.MULTILINE
        )
        assert match, f"no 'Spider {event}' in the log"
        return datetime.strptime(match.group(1), "%Y-%m-%d %H:%M:%S")

    return (at("closed") - at("opened")).total_seconds()


def stderr_lines(result: CrawlResult) -> list[str]:
    return [line for line in result.stderr.splitlines() if line.startswith("webrobot: ")]


def test_a_start_url_whose_name_does_not_exist_fails_in_seconds_with_status_6(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # One name under .invalid (never looked up) and one the resolver answers NXDOMAIN for.
    monkeypatch.setenv(SCRIPT_ENV, json.dumps({"gone.example": "EAI_NONAME"}))
    result = crawl(tmp_path, ["http://no-such-host.invalid/", "http://gone.example/"], SCRIPTED)

    assert result.returncode == exitstatus.NO_SUCH_NAME.code == 6, result.stderr[-2000:]
    assert "Traceback" not in result.log, result.log[-3000:]
    assert open_seconds(result.log) < HANG_GUARD
    assert result.stat("finish_reason") == "nothing_fetched"
    assert result.stat("webrobot/hosts/dead/no_such_name") == 2
    # Each name tried twice, then given up.
    assert result.stat("robotstxt/request_count") == 4
    lines = stderr_lines(result)
    assert "webrobot: no-such-host.invalid: the name does not resolve" in lines
    assert "webrobot: gone.example: the name does not resolve" in lines
    assert lines[-1] == "webrobot: nothing was fetched: exit status 6 (no_such_name)"
    # Said once in the log, per host.
    assert result.log.count("Gave up on gone.example: the name does not resolve") == 1
    assert result.items == []


def test_a_start_url_on_a_closed_port_fails_in_seconds_with_status_7(tmp_path: Path) -> None:
    port = closed_port()
    result = crawl(tmp_path, [f"http://127.0.0.1:{port}/"])

    assert result.returncode == exitstatus.REFUSED.code == 7, result.stderr[-2000:]
    assert "Traceback" not in result.log, result.log[-3000:]
    assert open_seconds(result.log) < HANG_GUARD
    assert result.stat("finish_reason") == "nothing_fetched"
    assert result.stat("webrobot/hosts/dead/refused") == 1
    assert result.stat("robotstxt/request_count") >= 2, "retried before it is given up"
    lines = stderr_lines(result)
    assert f"webrobot: 127.0.0.1:{port}: the connection was refused" in lines
    assert lines[-1] == "webrobot: nothing was fetched: exit status 7 (refused)"
    assert result.log.count(f"Gave up on 127.0.0.1:{port}: the connection was refused") == 1
    report = json.loads((tmp_path / "items.report.json").read_text("utf-8"))
    assert report["finish_reason"] == "nothing_fetched"
    assert [(d["host"], d["kind"]) for d in report["dead_hosts"]] == [
        (f"127.0.0.1:{port}", "refused")
    ]
    assert "Hosts given up" in (tmp_path / "items.report.html").read_text("utf-8")


def test_beside_a_live_site_the_dead_hosts_are_named_and_the_crawl_exits_0(
    make_site: MakeSite, tmp_path: Path
) -> None:
    live = make_site("live")
    live.add("/robots.txt", Reply.text(""))
    live.html("/", "<html><title>home</title><body><a href='/a'>a</a></body></html>")
    live.html("/a", "<html><title>a</title><body>page a</body></html>")
    port = closed_port()
    result = crawl(
        tmp_path, [live.url("/"), "http://no-such-host.invalid/", f"http://127.0.0.1:{port}/"]
    )

    assert result.returncode == 0, result.stderr[-2000:]
    assert "Traceback" not in result.log, result.log[-3000:]
    assert result.stat("finish_reason") == "finished"
    assert sorted(live.targets()) == ["/", "/a", "/robots.txt"]
    assert sorted(result.item_urls()) == [live.url("/"), live.url("/a")]
    assert result.stat("webrobot/hosts/dead/no_such_name") == 1
    assert result.stat("webrobot/hosts/dead/refused") == 1
    # One line for all of them, with their count (the report lists each).
    [line] = [line for line in stderr_lines(result) if "dead host" in line]
    assert line.startswith(
        "webrobot: Gave up on 2 dead hosts (the name does not resolve: 1; the connection was "
        "refused: 1): "
    ), line
    assert "no-such-host.invalid" in line and f"127.0.0.1:{port}" in line
    assert not any("nothing was fetched" in line for line in stderr_lines(result))
    report = json.loads((tmp_path / "items.report.json").read_text("utf-8"))
    assert {row["host"] for row in report["dead_hosts"]} == {
        "no-such-host.invalid",
        f"127.0.0.1:{port}",
    }


@pytest.mark.parametrize(
    ("answer", "given_up"),
    [("EAI_NONAME", True), ("EAI_AGAIN", False)],
    ids=["name-does-not-exist", "resolver-unreachable"],
)
def test_a_resolver_that_cannot_be_reached_is_not_a_dead_name(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, answer: str, given_up: bool
) -> None:
    """The same name, answered NXDOMAIN or "temporary failure": only the first is given
    up after two tries; the other is held under the longer limit (here the crawl closes
    first, with nothing left but it)."""
    monkeypatch.setenv(SCRIPT_ENV, json.dumps({"flaky.example": answer}))
    settings = {
        **SCRIPTED,
        "WEBROBOT_DEAD_NAME_RETRY": "0.3",
        "WEBROBOT_ROBOTS_BACKOFF_BASE": "0.3",
        "WEBROBOT_POLITENESS_BACKOFF_BASE": "0.1",
        "WEBROBOT_ROBOTS_HELD_ONLY_MAX": "3",
    }
    result = crawl(tmp_path, ["http://flaky.example/"], settings)

    assert "Traceback" not in result.log, result.log[-3000:]
    assert open_seconds(result.log) < HANG_GUARD
    tries = result.stat("robotstxt/request_count")
    if given_up:
        assert result.returncode == 6, result.stderr[-2000:]
        assert result.stat("webrobot/hosts/dead/no_such_name") == 1
        assert result.stat("finish_reason") == "nothing_fetched"
        assert tries == 2
    else:
        assert result.returncode == exitstatus.GAVE_UP.code == 8, result.stderr[-2000:]
        assert result.stat("webrobot/hosts/dead/no_such_name") == 0
        assert result.stat("finish_reason") == "held_sites_only"
        assert tries > 2, "retried under the longer limit, not given up after two tries"
        assert "the name does not resolve" not in result.stderr


def test_without_robots_txt_a_page_on_a_closed_port_names_its_host_and_exits_7(
    tmp_path: Path,
) -> None:
    """``ROBOTSTXT_OBEY = False``: no robots.txt asks the host first; the page itself
    fails for good (after Scrapy's retries) and names its host dead."""
    port = closed_port()
    result = crawl(tmp_path, [f"http://127.0.0.1:{port}/"], {"ROBOTSTXT_OBEY": "False"})

    assert result.returncode == 7, result.stderr[-2000:]
    assert open_seconds(result.log) < HANG_GUARD
    assert result.stat("robotstxt/request_count") == 0
    assert result.stat("webrobot/hosts/dead/refused") == 1
    assert f"webrobot: 127.0.0.1:{port}: the connection was refused" in stderr_lines(result)
