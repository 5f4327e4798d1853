"""End-to-end: several ``scrapy crawl`` workers share one crawl through a real
redis-server, judged by what the local sites saw requested."""

from __future__ import annotations

import itertools
import json
import os
import pickle
import signal
import subprocess
import sys
import threading
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest

from tests import statskeys
from tests.crawling import (
    FAST_SETTINGS,
    PROJECT_ROOT,
    command_in_process,
    run_crawl,
    scrapy_command,
)
from tests.redisserver import RedisServer
from webrobot.demo.server import Hit, Reply, SiteServer

pytestmark = pytest.mark.slow

ROBOTS_ALLOW_ALL = Reply.text("User-agent: *\nDisallow:\n")

#: Shared-crawl settings that keep a test crawl to a few seconds.
REDIS_FAST = {
    "WEBROBOT_REDIS_POLL_INTERVAL": "0.2",
    "WEBROBOT_REDIS_IDLE_CLOSE": "2",
    "WEBROBOT_REDIS_LEASE_TTL": "3",
    "CONCURRENT_REQUESTS": "2",
    "CONCURRENT_REQUESTS_PER_DOMAIN": "1",
}
#: For shared crawls that judge every page fetched once and wait for no lease to expire:
#: once is the promise while no worker goes without a turn for longer than a lease TTL,
#: and a loaded machine left a worker without one for over REDIS_FAST's 3 s (its pages
#: were rightly fetched again by another worker).
LONG_LEASES = {"WEBROBOT_REDIS_LEASE_TTL": "60"}
#: Seconds without Redis in the outage test: two more than a lease TTL, so every
#: worker's heartbeat deadline passes while Redis is away (5 s).
OUTAGE = float(REDIS_FAST["WEBROBOT_REDIS_LEASE_TTL"]) + 2


@dataclass
class Web:
    """Sites whose page handlers also record when each request *started*."""

    sites: list[SiteServer]
    offsite: SiteServer
    expected: dict[str, set[str]] = field(default_factory=dict)  # origin -> targets
    started: list[tuple[str, str, str]] = field(default_factory=list)  # (agent, origin, target)
    lock: threading.Lock = field(default_factory=threading.Lock)
    #: Called before a page other than a start page answers (see :func:`shared_by`).
    gate: Callable[[], None] | None = None

    def start_urls(self) -> str:
        return ",".join(site.url("/") for site in self.sites)

    def counts(self) -> dict[str, Counter[str]]:
        return {
            site.origin: Counter(t for t in site.targets() if t != "/robots.txt")
            for site in self.sites
        }

    def started_by(self, agent: str) -> set[tuple[str, str]]:
        """(origin, target) of the page requests ``agent`` started (finished or not)."""
        with self.lock:
            return {(o, t) for a, o, t in self.started if a == agent}

    def fetched_by(self, agent: str) -> set[tuple[str, str]]:
        """(origin, target) of the requests the servers answered for ``agent``
        (also those whose client died before reading the answer)."""
        return {
            (site.origin, hit.target)
            for site in self.sites
            for hit in list(site.hits)
            if hit.headers.get("user-agent") == agent and hit.target != "/robots.txt"
        }


COPY = "<html><head><title>one body on every site</title></head><body>same</body></html>"


def build_web(make_site: Callable[..., SiteServer], delay: float, fanout: int = 3,
              robots: Callable[[int], Reply] | None = None) -> Web:  # fmt: skip
    """Three sites, each a two-level tree of pages that link across sites, with a
    redirect, a 500, a 404, a page whose body is the same on every site (``/copy``)
    and a link to a fourth site outside the crawl."""
    sites = [make_site(f"s{i}") for i in range(3)]
    web = Web(sites, make_site("offsite"))

    def route(site: SiteServer, path: str, reply: Reply) -> None:
        def handler(hit: Hit) -> Reply:
            with web.lock:
                web.started.append((hit.headers.get("user-agent", ""), site.origin, hit.target))
            if web.gate is not None and path != "/":
                web.gate()
            return reply

        site.add(path, handler)
        web.expected.setdefault(site.origin, set()).add(path)

    def page(site: SiteServer, path: str, links: list[str]) -> None:
        body = "".join(f'<a href="{link}">{link}</a>' for link in links)
        html = f"<html><head><title>{site.name}{path}</title></head><body>{body}</body></html>"
        route(site, path, Reply(200, html, {"Content-Type": "text/html"}, delay=delay))

    for index, site in enumerate(sites):
        other = sites[(index + 1) % len(sites)]
        site.add("/robots.txt", robots(index) if robots else ROBOTS_ALLOW_ALL)
        children = [f"/n{i}/" for i in range(fanout)]
        page(site, "/", [*children, "/old", "/broken", "/missing", "/copy", web.offsite.url("/x")])
        route(site, "/copy", Reply(200, COPY, {"Content-Type": "text/html"}, delay=delay))
        for child in children:
            leaves = [f"{child}n{i}.html" for i in range(fanout)]
            page(site, child, [*leaves, "/", other.url(child)])
            for leaf in leaves:
                page(site, leaf, ["/", other.url(leaf)])
        route(site, "/old", Reply(301, b"", {"Location": "/n0/"}, delay=delay))
        route(
            site,
            "/broken",
            Reply(500, "<title>oops</title>", {"Content-Type": "text/html"}, delay=delay),
        )
        route(
            site,
            "/missing",
            Reply(404, "<title>no</title>", {"Content-Type": "text/html"}, delay=delay),
        )
    return web


class Worker:
    """One ``scrapy crawl`` worker process of the shared crawl."""

    def __init__(
        self, workdir: Path, name: str, args: dict[str, str], settings: dict[str, str]
    ) -> None:
        self.name = name
        self.workdir = workdir
        workdir.mkdir(parents=True, exist_ok=True)
        merged = {
            **FAST_SETTINGS, **REDIS_FAST, **settings,
            "USER_AGENT": name,  # tells the servers which worker asked
            "WEBROBOT_STATS_FILE": str(workdir / "stats.json"),
            "LOG_FILE": str(workdir / "crawl.log"),
        }  # fmt: skip
        command = [
            sys.executable,
            "-m",
            "scrapy",
            "crawl",
            "webrobot",
            "-O",
            str(workdir / "items.jsonl"),
        ]
        for key, value in args.items():
            command += ["-a", f"{key}={value}"]
        for key, value in merged.items():
            command += ["-s", f"{key}={value}"]
        env = {**os.environ, "PYTHONPATH": str(PROJECT_ROOT)}
        with (workdir / "stderr.txt").open("wb") as stderr:
            self.process = subprocess.Popen(
                command, cwd=PROJECT_ROOT, env=env, stdout=subprocess.DEVNULL, stderr=stderr
            )

    def wait(self, timeout: float = 120) -> int:
        try:
            return self.process.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
            raise AssertionError(
                f"{self.name} did not finish within {timeout} s:\n{self.log()[-3000:]}"
            ) from None

    def kill(self) -> None:
        self.process.send_signal(signal.SIGKILL)
        self.process.wait()

    def stats(self) -> dict[str, Any]:
        path = self.workdir / "stats.json"
        stats = json.loads(path.read_text("utf-8")) if path.exists() else {}
        statskeys.record(stats)  # every key a worker sets must be documented
        return stats

    def items(self) -> list[dict[str, Any]]:
        path = self.workdir / "items.jsonl"
        if not path.exists():
            return []
        return [json.loads(line) for line in path.read_text("utf-8").splitlines() if line]

    def log(self) -> str:
        path = self.workdir / "crawl.log"
        log = path.read_text("utf-8", errors="replace") if path.exists() else ""
        return log + (self.workdir / "stderr.txt").read_text("utf-8", errors="replace")


def shared_by(web: Web, redis_server: RedisServer, workers: int = 2) -> None:
    """The pages but the start pages answer once ``workers`` workers hold leases of the
    crawl (once seen, for good; or after 30 s, and then the test fails as it should):
    a worker that a loaded machine started seconds late found every page taken (one
    stopped 6 s at its start took none). The workers fetching wait, the other pages
    stay in the frontier, and a late worker leases one as soon as it polls."""
    client = redis_server.client()
    shared = threading.Event()

    def gate() -> None:
        deadline = time.monotonic() + 30
        while not shared.is_set() and time.monotonic() < deadline:
            owners = {key.rsplit(b"/", 1)[0] for key in client.hkeys("webrobot:webrobot:leased")}
            if len(owners) >= workers:
                shared.set()
            else:
                time.sleep(0.02)

    web.gate = gate


def start_workers(tmp_path: Path, web: Web, redis_server: RedisServer, n: int = 3,
                  **settings: str) -> list[Worker]:  # fmt: skip
    common = {"WEBROBOT_REDIS_URL": redis_server.url, **settings}
    return [
        Worker(tmp_path / f"worker-{i}", f"worker-{i}", {"start_urls": web.start_urls()}, common)
        for i in range(n)
    ]


def stop_all(workers: list[Worker]) -> None:
    for worker in workers:
        if worker.process.poll() is None:
            worker.process.kill()
            worker.process.wait()


def wait_for(condition: Callable[[], bool], timeout: float, what: str) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(0.02)


def redis_state(redis_server: RedisServer) -> tuple[int, int, int]:
    """Requests queued, requests leased, workers in the set (registered, not
    declared dead: a worker leaves it when it closes)."""
    client = redis_server.client()
    return (
        client.zcard("webrobot:webrobot:frontier"),
        client.hlen("webrobot:webrobot:leased"),
        client.zcard("webrobot:webrobot:leases"),
    )


def export(redis_server: RedisServer, path: Path) -> list[dict[str, Any]]:
    """The crawl's items as ``scrapy webrobot-export`` writes them (JSON lines), the
    command run in this process (the disk-full test of a shared crawl runs it as a
    process, and the errors here do)."""
    code, said = command_in_process("webrobot-export", "webrobot", "-o", str(path),
                                    "-s", f"WEBROBOT_REDIS_URL={redis_server.url}")  # fmt: skip
    assert code == 0, said
    assert said.startswith("Exported "), said
    return [json.loads(line) for line in path.read_text("utf-8").splitlines() if line]


def html_pages(web: Web) -> set[str]:
    """URLs of the pages that answer 200 with HTML (each gives an item, /copy once per crawl)."""
    return {
        o + t
        for o, ts in web.expected.items()
        for t in ts
        if t not in ("/old", "/broken", "/missing")
    }


def leased_by(redis_server: RedisServer, worker: Worker) -> set[tuple[str, str]]:
    """(origin, target) of the requests ``worker`` holds leases on (its lease ids
    are ``host:pid:random/n``; a stored request is ``score``, a space, one byte
    of expired-lease count, then the pickled ``Request.to_dict``)."""
    held = redis_server.client().hgetall("webrobot:webrobot:leased")
    urls = [
        pickle.loads(value.split(b" ", 1)[1][1:])["url"]
        for lease_id, value in held.items()
        if lease_id.decode().split(":")[-2] == str(worker.process.pid)
    ]  # fmt: skip
    parts = [urlsplit(url) for url in urls]
    return {
        (f"{p.scheme}://{p.netloc}", p.path + (f"?{p.query}" if p.query else "")) for p in parts
    }


def test_three_workers_download_every_page_exactly_once(
    make_site: Callable[..., SiteServer], redis_server: RedisServer, tmp_path: Path
) -> None:
    web = build_web(make_site, delay=0.05)
    shared_by(web, redis_server)
    workers = start_workers(tmp_path, web, redis_server, **LONG_LEASES)
    try:
        codes = [worker.wait() for worker in workers]
    finally:
        stop_all(workers)
    assert codes == [0, 0, 0], [w.log()[-2000:] for w in workers]
    for origin, counts in web.counts().items():
        assert set(counts) == web.expected[origin], f"{origin}: every allowed page, nothing else"
        assert {t: n for t, n in counts.items() if n != 1} == {}, f"{origin}: downloaded twice"
    assert web.offsite.targets() == []
    busy = [w.name for w in workers if web.fetched_by(w.name)]
    assert len(busy) >= 2, f"the work was not shared: only {busy} fetched pages"

    stats = [w.stats() for w in workers]
    assert all(s["finish_reason"] == "finished" for s in stats)
    pages = sum(sum(c.values()) for c in web.counts().values())
    refused = sum(s.get("webrobot/url/refused/offsite", 0) for s in stats)
    assert refused == 1, "the offsite link, once across workers"
    # The off-site link is refused where it is found, before the shared frontier: never leased.
    assert sum(s.get("webrobot/redis/lease/acked", 0) for s in stats) == pages
    assert sum(s.get("webrobot/redis/lease/expired", 0) for s in stats) == 0
    assert sum(s.get("webrobot/redis/lease/lost", 0) for s in stats) == 0
    items = [item["url"] for w in workers for item in w.items()]
    assert len(items) == len(set(items)), "one item per page across workers"
    copies = {o + "/copy" for o in web.expected}
    assert set(items) - copies == html_pages(web) - copies
    exported = [item["url"] for item in export(redis_server, tmp_path / "export.jsonl")]
    assert sorted(exported) == sorted(items), "the export holds what the workers' feeds hold"
    assert len(set(items) & copies) == 1, "one item for the body every site serves, across workers"
    assert sum(s.get("webrobot/dupes/content", 0) for s in stats) == 2
    robots = [site.count("/robots.txt") for site in web.sites]
    assert robots == [1, 1, 1], "each site's robots.txt fetched by one worker, reused by the others"
    reports = [json.loads((w.workdir / "items.report.json").read_text("utf-8")) for w in workers]
    assert [r["totals"]["frontier"] for r in reports] == [0, 0, 0], (
        "no worker's report shows work left"
    )
    assert sum(r["totals"]["requested"] for r in reports) == pages, "each page in one report"
    assert redis_state(redis_server) == (0, 0, 0)


def slow_for(agent: str, route: Callable[[Hit], Reply], extra: float) -> Callable[[Hit], Reply]:
    """``route``, its answers to ``agent`` (a worker's User-Agent) ``extra`` seconds slower."""

    def handler(hit: Hit) -> Reply:
        reply = route(hit)
        if hit.headers.get("user-agent") != agent:
            return reply
        return Reply(reply.status, reply.body, reply.headers, reply.delay + extra)

    return handler


def test_a_killed_worker_loses_nothing(
    make_site: Callable[..., SiteServer], redis_server: RedisServer, tmp_path: Path
) -> None:
    web = build_web(make_site, delay=0.1)
    # A 404 or 500 slows its site down by 0.2 s, doubling, not 1 s: not what is judged.
    workers = start_workers(tmp_path, web, redis_server, WEBROBOT_POLITENESS_BACKOFF_BASE="0.2")
    victim = workers[0]
    # The victim's pages are slow (those of the others quick): it is killed with a page
    # in flight that cannot finish between the look that sees it and the kill.
    for site in web.sites:
        for target, route in list(site.routes.items()):
            if callable(route):
                site.add(target, slow_for(victim.name, route, 0.5))
    in_flight: set[tuple[str, str]] = set()
    try:

        def victim_has_a_request_in_flight() -> bool:
            started = web.started_by(victim.name)
            if len(started) < 2:
                return False
            finished = {(s.origin, t) for s in web.sites for t in s.targets()}
            in_flight.clear()  # in flight now, not at an earlier look (retried, acknowledged)
            in_flight.update(started - finished)
            # And one page with an item done (its item is in no feed that survives).
            done_pages = {o + t for o, t in started & finished} & (
                html_pages(web) - {o + "/copy" for o in web.expected}
            )
            return bool(in_flight) and bool(done_pages)

        wait_for(victim_has_a_request_in_flight, 60, f"{victim.name} to have a page in flight")
        victim.kill()
        # Its leases stay until it is declared dead (a TTL after its last heartbeat): what it
        # had in hand.
        victim_held = leased_by(redis_server, victim)
        codes = [worker.wait() for worker in workers[1:]]
    finally:
        stop_all(workers)
    assert codes == [0, 0], [w.log()[-2000:] for w in workers[1:]]
    assert in_flight <= victim_held, "a request in flight is leased"
    for origin, counts in web.counts().items():
        assert set(counts) == web.expected[origin], f"{origin}: a page is missing"
        twice = {t for t, n in counts.items() if n > 1}
        assert all(counts[t] == 2 for t in twice), f"{origin}: more than twice: {counts}"
        assert {(origin, t) for t in twice} <= victim_held, (
            "only requests the killed worker had in hand"
        )
    for origin, target in in_flight:
        assert web.counts()[origin][target] == 2, f"{target} was in flight: fetched again"
    survivors = [w.stats() for w in workers[1:]]
    assert sum(s.get("webrobot/redis/lease/expired", 0) for s in survivors) >= len(in_flight)
    assert redis_state(redis_server) == (0, 0, 0)
    # Every page the servers answered has exactly one item in the export, also those
    # the killed worker fetched (its own feed lost what was still in its buffer).
    exported = Counter(item["url"] for item in export(redis_server, tmp_path / "export.jsonl"))
    assert {url: n for url, n in exported.items() if n != 1} == {}, "one item per page"
    copies = {o + "/copy" for o in web.expected}
    assert set(exported) - copies == html_pages(web) - copies
    assert len(set(exported) & copies) == 1
    killed_fetched = {o + t for o, t in web.fetched_by(victim.name)} & (html_pages(web) - copies)
    assert killed_fetched and killed_fetched <= set(exported), (
        "the killed worker's pages have items"
    )


def test_seeding_resetting_and_done_crawls(
    make_site: Callable[..., SiteServer], redis_server: RedisServer, tmp_path: Path
) -> None:
    site = make_site()
    site.add("/robots.txt", ROBOTS_ALLOW_ALL)
    site.html("/", "<a href='/a'>a</a>")
    site.html("/a", "<title>a</title>")
    site.html("/orphan", "<title>linked from nowhere</title>")
    redis_url = ["-s", f"WEBROBOT_REDIS_URL={redis_server.url}"]
    seeded = scrapy_command("webrobot-seed", "webrobot", site.url("/orphan"), *redis_url)
    assert seeded.returncode == 0, seeded.stderr
    assert "1 of 1 URLs queued" in seeded.stdout
    assert "1 requests queued, 0 leased, 1 URLs visited" in seeded.stdout

    settings = {
        **REDIS_FAST,
        "WEBROBOT_REDIS_URL": redis_server.url,
        "WEBROBOT_REDIS_IDLE_CLOSE": "0.5",
    }
    first = run_crawl(tmp_path / "first", args={"start_urls": site.url("/")}, settings=settings)
    assert first.returncode == 0, first.stderr
    assert sorted(site.targets()) == ["/", "/a", "/orphan", "/robots.txt"]

    again = run_crawl(tmp_path / "again", args={"start_urls": site.url("/")}, settings=settings)
    assert again.returncode == 0
    assert sorted(site.targets()) == ["/", "/a", "/orphan", "/robots.txt"], (
        "a crawl that is done stays done: its visited set is kept"
    )
    assert again.stat("dupefilter/filtered") == 1

    reset = scrapy_command("webrobot-seed", "webrobot", "--reset", *redis_url)
    assert reset.returncode == 0, reset.stderr
    assert "0 requests queued, 0 leased, 0 URLs visited" in reset.stdout
    fresh = run_crawl(tmp_path / "fresh", args={"start_urls": site.url("/")}, settings=settings)
    assert fresh.returncode == 0
    assert Counter(site.targets()) == {"/": 2, "/a": 2, "/orphan": 1, "/robots.txt": 2}


def test_without_redis_url_everything_stays_in_process(
    make_site: Callable[..., SiteServer], tmp_path: Path
) -> None:
    site = make_site()
    site.add("/robots.txt", ROBOTS_ALLOW_ALL)
    site.html("/", "<a href='/a'>a</a>")
    site.html("/a", "<title>a</title>")
    result = run_crawl(tmp_path, args={"start_urls": site.url("/")})
    assert result.returncode == 0
    assert "RedisLeaseScheduler" not in result.log
    assert result.stat("scheduler/enqueued/memory") >= 2  # (+1: the robots.txt hold)
    assert result.stat("scheduler/enqueued/redis") == 0
    assert result.stat("webrobot/redis/lease/acked") == 0


def test_unreachable_redis_stops_the_worker_with_one_clear_line(
    make_site: Callable[..., SiteServer], tmp_path: Path
) -> None:
    site = make_site()
    site.add("/robots.txt", ROBOTS_ALLOW_ALL)
    site.html("/", "<title>home</title>")
    result = run_crawl(
        tmp_path, args={"start_urls": site.url("/")},
        settings={"WEBROBOT_REDIS_URL": "redis://:secret@127.0.0.1:1/0"},
    )  # fmt: skip
    assert result.returncode == 1
    assert result.stats["finish_reason"] == "redis_unavailable"
    assert "Cannot join the shared crawl at redis://:***@127.0.0.1:1/0: " in result.log
    assert "Traceback" not in result.log
    assert site.targets() == []


def test_a_redis_url_without_a_scheme_is_one_clear_line_for_crawl_seed_and_export(
    make_site: Callable[..., SiteServer], tmp_path: Path
) -> None:
    site = make_site()
    site.add("/robots.txt", ROBOTS_ALLOW_ALL)
    site.html("/", "<title>home</title>")
    bad = {"WEBROBOT_REDIS_URL": "localhost:6379"}
    expected = "setting WEBROBOT_REDIS_URL='localhost:6379': expected empty, or text starting with"
    result = run_crawl(tmp_path, args={"start_urls": site.url("/")}, settings=bad)
    assert result.returncode != 0 and expected in result.log and "Traceback" not in result.log
    assert site.targets() == []
    for command in (["webrobot-seed", "webrobot", site.url("/")],
                    ["webrobot-export", "webrobot", "-o", str(tmp_path / "x.jsonl")]):  # fmt: skip
        done = scrapy_command(*command, "-s", "WEBROBOT_REDIS_URL=localhost:6379", cwd=tmp_path)
        assert done.returncode == 2, done.stderr
        lines = done.stderr.strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith(f"{command[0]}: {expected}"), lines


def test_a_worker_that_stops_early_hands_over_the_rest(
    make_site: Callable[..., SiteServer], redis_server: RedisServer, tmp_path: Path
) -> None:
    web = build_web(make_site, delay=0.05)
    early = Worker(tmp_path / "early", "early", {"start_urls": web.start_urls()},
                   {"WEBROBOT_REDIS_URL": redis_server.url, "CLOSESPIDER_PAGECOUNT": "4"})  # fmt: skip
    assert early.wait() == 0
    assert early.stats()["finish_reason"] == "closespider_pagecount"
    queued, leased, _ = redis_state(redis_server)
    assert queued > 0 and leased == 0, "its unfinished work went back to the frontier"
    late = Worker(tmp_path / "late", "late", {"start_urls": web.start_urls()},
                  {"WEBROBOT_REDIS_URL": redis_server.url})  # fmt: skip
    assert late.wait() == 0
    for origin, counts in web.counts().items():
        assert set(counts) == web.expected[origin]
        assert {t: n for t, n in counts.items() if n != 1} == {}
    assert web.fetched_by("early") and web.fetched_by("late")
    assert redis_state(redis_server) == (0, 0, 0)


def test_robots_txt_is_fetched_once_per_site_per_expiry_and_obeyed_by_every_worker(
    make_site: Callable[..., SiteServer], redis_server: RedisServer, tmp_path: Path
) -> None:
    lifetime = 1.0  # max-age=1; WEBROBOT_ROBOTS_MIN_TTL is lowered to it below
    rules = Reply.text(
        "User-agent: *\nDisallow: /n1/\n", **{"Cache-Control": f"max-age={lifetime:g}"}
    )
    web = build_web(make_site, delay=0.1, robots=lambda index: rules)
    workers = start_workers(tmp_path, web, redis_server, WEBROBOT_ROBOTS_MIN_TTL=str(lifetime))
    try:
        codes = [worker.wait() for worker in workers]
    finally:
        stop_all(workers)
    assert codes == [0, 0, 0], [w.log()[-2000:] for w in workers]
    stats = [w.stats() for w in workers]
    refetched = 0
    for site in web.sites:
        fetches = sorted(hit.started for hit in list(site.hits) if hit.target == "/robots.txt")
        assert fetches, f"{site.origin}: robots.txt never fetched"
        gaps = [later - earlier for earlier, later in itertools.pairwise(fetches)]
        assert all(gap >= lifetime * 0.9 for gap in gaps), (
            f"{site.origin}: fetched again before it expired: {gaps}"
        )
        refetched += len(gaps)
        pages = [hit for hit in list(site.hits) if hit.target != "/robots.txt"]
        span = max(hit.started for hit in pages) - fetches[0]
        assert len(fetches) <= span / lifetime + 1, f"{site.origin}: more fetches than expiries"
        assert not [t for t in site.targets() if t.startswith("/n1/")], (
            f"{site.origin}: disallowed page fetched"
        )
    assert refetched >= 1, "the crawl outlived a decision: it was fetched again once it expired"
    assert sum(s.get("webrobot/robots/reused", 0) for s in stats) >= 3, (
        "decisions reused across workers"
    )
    assert sum(s.get("robotstxt/forbidden", 0) for s in stats) >= 3, (
        "every worker obeys the rules it reused"
    )
    fetched_robots = sum(s.get("webrobot/robots/fetched", 0) for s in stats)
    assert fetched_robots == sum(site.count("/robots.txt") for site in web.sites)


def test_no_two_workers_overlap_on_a_site_crawl_delay_holds_and_one_budget_is_shared(
    make_site: Callable[..., SiteServer], redis_server: RedisServer, tmp_path: Path
) -> None:
    crawl_delay, budget = 0.3, 8
    slow = Reply.text(f"User-agent: *\nCrawl-delay: {crawl_delay:g}\n")
    web = build_web(
        make_site, delay=0.08, robots=lambda index: slow if index == 0 else ROBOTS_ALLOW_ALL
    )
    workers = start_workers(tmp_path, web, redis_server, WEBROBOT_MAX_PAGES_PER_SITE=str(budget))
    try:
        codes = [worker.wait() for worker in workers]
    finally:
        stop_all(workers)
    assert codes == [0, 0, 0], [w.log()[-2000:] for w in workers]
    for site in web.sites:
        hits = sorted(site.hits, key=lambda hit: hit.started)
        overlaps = [
            (a.target, b.target) for a, b in itertools.pairwise(hits) if b.started < a.finished
        ]
        assert overlaps == [], f"{site.origin}: requests of different workers overlapped"
        pages = [hit for hit in hits if hit.target != "/robots.txt"]
        assert len(pages) == budget, f"{site.origin}: the budget is per crawl, not per worker"
    delayed = sorted(
        (h for h in list(web.sites[0].hits) if h.target != "/robots.txt"), key=lambda h: h.started
    )
    agents = {hit.headers.get("user-agent") for hit in delayed}
    assert len(agents) >= 2, f"the crawl-delayed site was crawled by one worker only: {agents}"
    gaps = [b.started - a.started for a, b in itertools.pairwise(delayed)]
    assert min(gaps) >= crawl_delay * 0.9, f"Crawl-delay not held across workers: {gaps}"
    stats = [w.stats() for w in workers]
    assert sum(s.get("webrobot/url/refused/budget", 0) for s in stats) > 0


def spacing_and_overlaps(site: SiteServer) -> tuple[list[tuple[str, str]], list[float]]:
    """Requests to ``site`` that overlapped, and the gaps between page request starts."""
    hits = sorted(site.hits, key=lambda hit: hit.started)
    overlaps = [(a.target, b.target) for a, b in itertools.pairwise(hits) if b.started < a.finished]
    pages = [hit for hit in hits if hit.target != "/robots.txt"]
    return overlaps, [b.started - a.started for a, b in itertools.pairwise(pages)]


def test_redis_stopped_longer_than_a_lease_ttl_pauses_the_crawl_and_loses_nothing(
    make_site: Callable[..., SiteServer], tmp_path: Path
) -> None:
    crawl_delay = 0.3
    slow = Reply.text(f"User-agent: *\nCrawl-delay: {crawl_delay:g}\n")
    web = build_web(  # the crawl-delayed site: 17 pages, 7 s, the outage in their midst
        make_site,
        delay=0.1,
        robots=lambda index: slow if index == 0 else ROBOTS_ALLOW_ALL,
    )
    server = RedisServer(tmp_path / "redis", persistent=True).start()
    workers = start_workers(tmp_path, web, server, n=2)
    try:
        # Both workers in the crawl (one slow to start would find no Redis to join).
        wait_for(
            lambda: (
                sum(len(site.hits) for site in web.sites) >= 12
                and all(web.started_by(worker.name) for worker in workers)
            ),
            60,
            "the crawl to be under way with both workers",
        )
        server.stop()
        stopped = time.monotonic()
        time.sleep(OUTAGE)  # the outage is the point: every heartbeat deadline passes
        server.start(port=server.port)
        restarted = time.monotonic()
        codes = [worker.wait() for worker in workers]
        items = export(server, tmp_path / "export.jsonl")
    finally:
        stop_all(workers)
        server.stop()
    assert codes == [0, 0], [w.log()[-2000:] for w in workers]
    for origin, counts in web.counts().items():
        assert set(counts) == web.expected[origin], f"{origin}: a page is missing"
        assert {t: n for t, n in counts.items() if n != 1} == {}, f"{origin}: fetched twice"
    assert [site.count("/robots.txt") for site in web.sites] == [1, 1, 1]
    for site in web.sites:
        overlaps, _ = spacing_and_overlaps(site)
        assert overlaps == [], f"{site.origin}: requests overlapped"
        # The servers' clock is this process's monotonic clock (Hit.started).
        during = [h.target for h in list(site.hits) if stopped + 0.05 < h.started < restarted]
        assert during == [], f"{site.origin}: requests started while Redis was down: {during}"
    _, gaps = spacing_and_overlaps(web.sites[0])
    assert min(gaps) >= crawl_delay * 0.9, f"Crawl-delay not held: {gaps}"
    assert max(gaps) >= OUTAGE - 1, (
        "the outage fell in the middle of the crawl-delayed site's crawl"
    )
    stats = [w.stats() for w in workers]
    assert all(s.get("webrobot/redis/outages", 0) == 1 for s in stats), "each worker saw one outage"
    assert sum(s.get("webrobot/redis/lease/lost", 0) for s in stats) == 0, "no lease taken away"
    logs = [w.log() for w in workers]
    assert all(log.count("cannot be reached") == 1 for log in logs), "logged once"
    urls = Counter(item["url"] for item in items)
    copies = {o + "/copy" for o in web.expected}
    assert {u: n for u, n in urls.items() if n != 1} == {}
    assert set(urls) - copies == html_pages(web) - copies


def test_redis_gone_for_good_closes_every_worker_and_acknowledges_nothing_unfinished(
    make_site: Callable[..., SiteServer], tmp_path: Path
) -> None:
    web = build_web(make_site, delay=0.1)
    server = RedisServer(tmp_path / "redis", persistent=True).start()
    timeout = 2.0
    quick_backoff = {"WEBROBOT_POLITENESS_BACKOFF_BASE": "0.2"}  # not judged here
    workers = start_workers(tmp_path, web, server, n=2,
                            WEBROBOT_REDIS_OUTAGE_TIMEOUT=str(timeout), **quick_backoff)  # fmt: skip
    try:
        # Both workers in the crawl (one slow to start would find no Redis to join).
        wait_for(
            lambda: (
                sum(len(site.hits) for site in web.sites) >= 12
                and all(web.started_by(worker.name) for worker in workers)
            ),
            60,
            "the crawl to be under way with both workers",
        )
        server.stop()
        stopped = time.monotonic()
        codes = [worker.wait(timeout=timeout + 30) for worker in workers]
        took = time.monotonic() - stopped
        # Redis comes back later; a new worker finishes what the others did not acknowledge.
        server.start(port=server.port)
        late = Worker(tmp_path / "late", "late", {"start_urls": web.start_urls()},
                      {"WEBROBOT_REDIS_URL": server.url, **quick_backoff})  # fmt: skip
        late_code = late.wait()
        items = export(server, tmp_path / "export.jsonl")
    finally:
        stop_all(workers)
        server.stop()
    assert codes == [1, 1], [w.log()[-2000:] for w in workers]
    assert took < timeout + 30
    for worker in workers:
        assert worker.stats()["finish_reason"] == "redis_unavailable"
        stderr = (worker.workdir / "stderr.txt").read_text("utf-8")
        lines = [line for line in stderr.splitlines() if line.startswith("webrobot: ")]
        expected = (f"webrobot: Redis at {server.url} unreachable for {timeout:.0f} s "
                    f"(WEBROBOT_REDIS_OUTAGE_TIMEOUT={timeout:g}): closing this worker")  # fmt: skip
        assert lines == [expected], stderr[-2000:]
        assert "Traceback" not in worker.log()
    assert late_code == 0, late.log()[-2000:]
    for origin, counts in web.counts().items():
        assert set(counts) == web.expected[origin], f"{origin}: a page is missing"
    urls = Counter(item["url"] for item in items)
    copies = {o + "/copy" for o in web.expected}
    assert {u: n for u, n in urls.items() if n != 1} == {}
    assert set(urls) - copies == html_pages(web) - copies, "every page has its item"


def test_links_a_known_robots_txt_disallows_are_never_leased(
    make_site: Callable[..., SiteServer], redis_server: RedisServer, tmp_path: Path
) -> None:
    site = make_site("shop")
    site.add("/robots.txt", Reply.text("User-agent: *\nDisallow: /private/\n"))
    disallowed = [f"/private/{i}.html" for i in range(40)]
    allowed = [f"/p{i}.html" for i in range(6)]

    def page(title: str, *links: str) -> str:
        return f"<title>{title} of {site.origin}</title>" + "".join(
            f"<a href='{u}'>{u}</a>" for u in links
        )

    site.html("/", page("home", "/hub.html"))
    site.html("/hub.html", page("hub", *disallowed, *allowed))
    for path in allowed:
        site.html(path, page(path, "/", *disallowed[:10]))
    for path in disallowed:
        site.html(path, page(path))
    common = {"WEBROBOT_REDIS_URL": redis_server.url}
    workers = [
        Worker(tmp_path / f"worker-{i}", f"worker-{i}", {"start_urls": site.url("/")}, common)
        for i in range(2)
    ]
    try:
        codes = [worker.wait() for worker in workers]
    finally:
        stop_all(workers)
    assert codes == [0, 0], [w.log()[-2000:] for w in workers]
    stats = [w.stats() for w in workers]
    fetched = [t for t in site.targets() if t != "/robots.txt"]
    assert sorted(fetched) == sorted(["/", "/hub.html", *allowed])
    assert len(fetched) == len(set(fetched)), "every page fetched once"
    # Refused once in the whole crawl, by whichever worker met each link first.
    assert sum(s.get("robotstxt/forbidden", 0) for s in stats) == len(disallowed)
    # Never pushed to the shared frontier, so never leased: only the pages fetched were
    # (the start page once more per worker, seeded by each and held for robots.txt).
    leased = sum(s.get("scheduler/dequeued/redis", 0) for s in stats)
    assert leased <= len(fetched) + len(workers), leased
    assert redis_state(redis_server) == (0, 0, 0)
