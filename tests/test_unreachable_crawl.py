"""End-to-end: sites the robot cannot reach, judged by what the local servers saw,
how long the crawl took and what it said.

A host name that does not exist is given up after two tries
(``WEBROBOT_DEAD_NAME_RETRY`` apart) whichever download handler fetches its robots.txt.
Names under ``.invalid`` (RFC 6761) fail in webrobot's resolver at once, without a DNS
query, so these tests never leave the machine (``tests/test_dead_hosts_crawl.py`` tells
such a name from a resolver that cannot be reached, which keeps
``WEBROBOT_ROBOTS_DNS_DEFER_MAX``).

A crawl with nothing left but requests held for sites whose robots.txt keeps
failing (a refused port, a dead page host) closes after
``WEBROBOT_ROBOTS_HELD_ONLY_MAX``, says which sites and why in its last line and
its report, and keeps their requests for a ``JOBDIR`` resume.
"""

from __future__ import annotations

import json
import shutil
import socket
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.crawling import CrawlResult, run_crawl
from webrobot.demo.server import Reply, SiteServer

pytestmark = pytest.mark.slow

MakeSite = Callable[..., SiteServer]

DEAD_NAME = "http://no-such-host.invalid/"
#: The wait between the two tries of a name that does not exist, in these crawls, and
#: how long after it the crawl may take to end.
DNS_LIMIT = 0.5
MARGIN = 15.0

HANDLERS = {
    "webrobot": {},  # the project's KeepAliveDownloadHandler
    "scrapy-http11": {
        "DOWNLOAD_HANDLERS": '{"http": "scrapy.core.downloader.handlers.http11.HTTP11DownloadHandler"}'
    },
    # scrapy-playwright hands requests it does not render (robots.txt) to its HTTP/1.1 parent
    "playwright": {"WEBROBOT_RENDER": "browser"},
}


def live_site(make_site: MakeSite) -> SiteServer:
    site = make_site("live")
    site.add("/robots.txt", Reply.text(""))
    site.html(
        "/", f"<html><title>home</title><body><a href='/a'>a</a> of {site.origin}</body></html>"
    )
    site.html("/a", f"<html><title>a</title><body>page a of {site.origin}</body></html>")
    return site


def timed_crawl(
    tmp_path: Path, start_urls: list[str], settings: dict[str, str], timeout: float = 90
) -> tuple[CrawlResult, float]:
    result = run_crawl(
        tmp_path, args={"start_urls": ",".join(start_urls)}, settings=settings, timeout=timeout
    )
    return result, time.monotonic()


@pytest.mark.parametrize("handler", sorted(HANDLERS))
def test_a_name_that_does_not_exist_is_given_up_after_two_tries(
    make_site: MakeSite, tmp_path: Path, handler: str
) -> None:
    if handler == "playwright":
        pytest.importorskip(
            "scrapy_playwright", reason="the optional browser extra is not installed"
        )
        if shutil.which("chromium") is None:
            pytest.skip("chromium is not installed")
    live = live_site(make_site)
    settings = {
        "WEBROBOT_ROBOTS_HELD_ONLY_MAX": "0",  # the names' own limit ends the crawl
        "WEBROBOT_DEAD_NAME_RETRY": str(DNS_LIMIT),
        "WEBROBOT_ROBOTS_BACKOFF_BASE": "0.5",
        # Each failure also slows the host down (1 s, doubling, by default), which
        # postpones the robots.txt tries past the limit: 0.2 s keeps them near it.
        "WEBROBOT_POLITENESS_BACKOFF_BASE": "0.2",
        **HANDLERS[handler],
    }
    # Held as a site that errs, this crawl would wait WEBROBOT_ROBOTS_DEFER_MAX (an hour):
    # the timeout fails it.
    result, ended = timed_crawl(tmp_path, [live.url("/"), DEAD_NAME], settings)

    assert result.returncode == 0, result.stderr[-2000:]
    assert "Traceback" not in result.log, result.log[-3000:]
    assert sorted(live.targets()) == ["/", "/a", "/robots.txt"]
    first = min(h.started for h in live.hits)
    assert ended - first < DNS_LIMIT + MARGIN, "the crawl ends once the name's limit has passed"
    assert result.stat("webrobot/robots/deferred_dns") == 1  # the first try; the second gives up
    assert result.stat("webrobot/robots/deferred_gave_up") == 1
    assert result.stat("webrobot/hosts/dead/no_such_name") == 1
    assert "robots.txt of http://no-such-host.invalid:80 failed (the name does not resolve" in (
        result.log
    )
    assert (
        result.log.count("Gave up on no-such-host.invalid: the name does not resolve (2 tries") == 1
    )
    # The last line on the terminal names the host given up and why, with the count.
    assert last_line(result.stderr) == (
        "webrobot: Gave up on 1 dead host (the name does not resolve: 1): no-such-host.invalid "
        "(each host in the report: Hosts given up)"
    )


# --- Nothing left but held sites ----------------------------------------------------------

HELD_LIMIT = 3.0
#: The limit of the tests of the parallel part (their bound on the closing guards
#: against a hang; the serial test keeps HELD_LIMIT): tried at 0, 0.5 and 1.5 s, the
#: held site is still tried twice before it.
SHORT_HELD_LIMIT = 2.0


def closed_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def last_line(text: str) -> str:
    lines = [line for line in text.splitlines() if line.strip()]
    return lines[-1] if lines else ""


def test_a_refused_port_closes_the_crawl_soon_once_nothing_else_is_left(
    make_site: MakeSite, tmp_path: Path
) -> None:
    live = live_site(make_site)
    port = closed_port()
    dead = f"http://127.0.0.1:{port}"
    settings = {
        "WEBROBOT_ROBOTS_HELD_ONLY_MAX": str(SHORT_HELD_LIMIT),
        "WEBROBOT_ROBOTS_BACKOFF_BASE": "0.5",
        # The port is held, not given up as refused: this is the held-only clock's test.
        "WEBROBOT_DEAD_REFUSED_MAX": "600",
        "WEBROBOT_PROGRESS_INTERVAL": "1",
    }
    # Without the limit this crawl waits WEBROBOT_ROBOTS_DEFER_MAX (an hour): the timeout fails it.
    result, ended = timed_crawl(tmp_path, [live.url("/"), f"{dead}/"], settings)

    assert result.returncode == 0, result.stderr[-2000:]
    assert "Traceback" not in result.log, result.log[-3000:]
    assert result.stat("finish_reason") == "held_sites_only"
    assert sorted(live.targets()) == ["/", "/a", "/robots.txt"]
    done = max(h.finished for h in live.hits)
    assert ended - done < SHORT_HELD_LIMIT + MARGIN, (
        "the crawl closes once only the held site is left"
    )
    # The last line, in the log and on the terminal, names the site and its error.
    for text in (result.log, result.stderr):
        line = last_line(text)
        assert dead in line and "the connection was refused" in line, line
        assert "1 request held for 1 unreachable site " in line, line
        assert "not crawled" in line, line
    # The progress line said when the held site would be given up, and when the crawl closes.
    progress = [line for line in result.log.splitlines() if "Progress:" in line and "held:" in line]
    assert progress, result.log[-3000:]
    assert f"held: {dead} (DownloadConnectionRefusedError) gives up in" in progress[0]
    assert "nothing else left: the crawl closes in" in progress[-1]
    # The report lists it with its error and the requests it held.
    report = json.loads((tmp_path / "items.report.json").read_text("utf-8"))
    assert report["finish_reason"] == "held_sites_only"
    [held] = report["held"]
    assert held["site"] == dead and held["reason"] == "the connection was refused"
    assert held["requests"] == 1 and held["attempts"] >= 2
    assert "Connection refused" in held["detail"] or "refused" in held["detail"].lower()
    html = (tmp_path / "items.report.html").read_text("utf-8")
    assert "Sites not reached" in html and dead in html
    assert any(f["site"] == dead for f in report["health"]["flags"])


def test_held_requests_are_kept_for_the_jobs_next_run(make_site: MakeSite, tmp_path: Path) -> None:
    """``-a start_urls=http://127.0.0.1:PORT/`` alone, nothing listening: the crawl closes
    after the limit; run again with the server up, the held page is crawled."""
    port = closed_port()
    settings = {
        "JOBDIR": str(tmp_path / "job"),
        "WEBROBOT_ROBOTS_HELD_ONLY_MAX": str(SHORT_HELD_LIMIT),
        "WEBROBOT_ROBOTS_BACKOFF_BASE": "0.5",
        # The port is held, not given up as refused: this is the held-only clock's test.
        "WEBROBOT_DEAD_REFUSED_MAX": "600",
    }
    start = time.monotonic()
    first, ended = timed_crawl(tmp_path / "run1", [f"http://127.0.0.1:{port}/"], settings)
    assert first.returncode == 8, first.stderr[-2000:]  # nothing fetched: given up
    assert first.stat("finish_reason") == "held_sites_only"
    assert ended - start < 30 + SHORT_HELD_LIMIT, "start-up plus the limit, not the site's hour"
    said = [line for line in first.stderr.splitlines() if line.strip()]
    assert "kept for the next run of the job" in said[-2], said[-2:]
    assert said[-1] == "webrobot: nothing was fetched: exit status 8 (gave_up)"

    site = SiteServer("back", port=port).start()
    try:
        site.add("/robots.txt", Reply.text(""))
        site.html("/", "<html><title>back</title><body>back again</body></html>")
        second, _ = timed_crawl(tmp_path / "run2", [f"http://127.0.0.1:{port}/"], settings)
    finally:
        site.stop()
    assert second.returncode == 0, second.stderr[-2000:]
    assert second.stat("finish_reason") == "finished"
    assert site.targets().count("/") == 1
    assert "Traceback" not in first.log + second.log


def test_a_requisite_on_a_refusing_host_does_not_hold_a_finished_crawl(
    make_site: MakeSite, tmp_path: Path
) -> None:
    """An archived page's picture on a host that refuses connections: the host is
    found dead at its robots.txt's first refusal, the picture held for it is refused
    then, and the crawl finishes without waiting for the held-sites limit."""
    pytest.importorskip("warcio", reason="the optional archive extra is not installed")
    live = make_site("pages")
    dead = f"http://127.0.0.1:{closed_port()}"
    live.add("/robots.txt", Reply.text(""))
    live.html(
        "/",
        f"<html><title>home</title><body><img src='{dead}/logo.png'> {live.origin}</body></html>",
    )
    settings = {
        "WEBROBOT_WARC_DIR": str(tmp_path / "warc"),
        "WEBROBOT_INDEX_ENABLED": "False",
        "WEBROBOT_ROBOTS_HELD_ONLY_MAX": str(HELD_LIMIT),
        "WEBROBOT_ROBOTS_BACKOFF_BASE": "0.5",
        "WEBROBOT_DEAD_REFUSED_MAX": "600",
    }
    result, ended = timed_crawl(tmp_path, [live.url("/")], settings)

    assert result.returncode == 0, result.stderr[-2000:]
    assert sorted(live.targets()) == ["/", "/favicon.ico", "/robots.txt"]  # the icon: a requisite
    assert result.stat("finish_reason") == "finished"
    assert ended - max(h.finished for h in live.hits) < HELD_LIMIT + MARGIN
    assert result.stat("webrobot/requisite/image/refused") == 1
    assert result.stat("webrobot/hosts/dead/refused") == 1
    assert result.stat("webrobot/robots/held_only_closed", None) is None
