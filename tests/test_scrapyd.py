"""End-to-end: webrobot deployed to a real Scrapyd and run there as jobs.

One Scrapyd per module (``scrapyd`` from PyPI, started as a subprocess in a
temporary directory with the example ``deploy/scrapyd.conf``, on 127.0.0.1 and a
free port, with basic authentication on). The project is deployed with
``scrapyd-deploy`` (scrapyd-client) using the ``[deploy]`` target of
``scrapy.cfg`` and environment variables for the URL and credentials. Jobs are
scheduled over HTTP with ``schedule.json`` and judged by what the local test
sites saw requested, plus the job's items and log files fetched from Scrapyd.

Most jobs are scheduled at once and awaited together to keep the module short.
The job whose download delay is judged runs alone, in the serial part of the
suite (docs/project/development.md, "Tiers"): that part needs only the deployed
Scrapyd, not the other jobs.
"""

from __future__ import annotations

import base64
import itertools
import json
import os
import re
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
import zipfile
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from tests.crawling import PROJECT_ROOT
from webrobot.demo.server import Reply, SiteServer

pytestmark = pytest.mark.slow

BIN = Path(sys.executable).parent
EXAMPLE_CONF = PROJECT_ROOT / "deploy" / "scrapyd.conf"
PROJECT = "webrobot"  # the [deploy] target's project in scrapy.cfg
DEADLINE = 60.0  # seconds for Scrapyd to start, and for all jobs to finish
#: What the project copy that scrapyd-deploy packs leaves out (not in git, or built).
NOT_PROJECT = shutil.ignore_patterns(
    ".git", ".venv", "build", "dist", "*.egg-info", "__pycache__", "*.pyc",
    ".pytest_cache", ".mypy_cache", ".ruff_cache", "demo-output", "scrapyd-run",
    ".venv*", ".hypothesis", "benchmarks-output", "_build",  # virtualenvs make build beside it
)  # fmt: skip

SHOP_ROBOTS = """\
User-agent: *
Disallow: /private/

User-agent: webrobot
Disallow: /private/
Disallow: /cgi-bin/
"""
WIDGET = "<html><head><title>Widget</title></head><body><p>The widget, 12 EUR.</p></body></html>"


def no_proxy_env(**extra: str) -> dict[str, str]:
    """The test's environment, minus what would point a child elsewhere."""
    env = {k: v for k, v in os.environ.items()
           if k not in ("PYTHONPATH", "SCRAPY_SETTINGS_MODULE", "SCRAPY_PROJECT")
           and not k.startswith("SCRAPYD_")}  # fmt: skip
    env["NO_PROXY"] = env["no_proxy"] = "127.0.0.1,localhost"
    env.update(extra)
    return env


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@dataclass
class Scrapyd:
    """A running Scrapyd and a tiny HTTP client for its API."""

    process: subprocess.Popen[bytes]
    workdir: Path
    port: int
    username: str
    password: str
    log_path: Path
    opener: urllib.request.OpenerDirector = field(
        default_factory=lambda: urllib.request.build_opener(urllib.request.ProxyHandler({}))
    )

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/"

    def call(
        self,
        path: str,
        data: dict[str, Any] | None = None,
        auth: tuple[str, str] | None | bool = True,
    ) -> tuple[int, str]:
        """GET (or POST ``data``, lists repeat the field); returns status and body."""
        body = urllib.parse.urlencode(data, doseq=True).encode() if data is not None else None
        request = urllib.request.Request(urllib.parse.urljoin(self.url, path), data=body)
        if auth is True:
            auth = (self.username, self.password)
        if auth:
            token = base64.b64encode(f"{auth[0]}:{auth[1]}".encode()).decode()
            request.add_header("Authorization", f"Basic {token}")
        try:
            with self.opener.open(request, timeout=20) as response:
                return response.status, response.read().decode("utf-8")
        except urllib.error.HTTPError as exc:
            return exc.code, exc.read().decode("utf-8", errors="replace")

    def json(self, path: str, data: dict[str, Any] | None = None) -> dict[str, Any]:
        status, body = self.call(path, data)
        assert status == 200, f"{path}: HTTP {status}: {body}"
        answer: dict[str, Any] = json.loads(body)
        return answer

    def server_log(self) -> str:
        return self.log_path.read_text("utf-8", errors="replace")


def start_scrapyd(workdir: Path, username: str, password: str) -> Scrapyd:
    """Scrapyd in ``workdir`` with the example conf; its port and credentials
    come from SCRAPYD_HTTP_PORT / SCRAPYD_USERNAME / SCRAPYD_PASSWORD."""
    shutil.copy(EXAMPLE_CONF, workdir / "scrapyd.conf")
    for attempt in range(3):  # the free port may be taken before Scrapyd binds it
        port = free_port()
        log_path = workdir / f"scrapyd-{attempt}.log"
        env = no_proxy_env(
            SCRAPYD_HTTP_PORT=str(port), SCRAPYD_USERNAME=username, SCRAPYD_PASSWORD=password
        )
        with log_path.open("wb") as log:
            process = subprocess.Popen(
                [str(BIN / "scrapyd")], cwd=workdir, env=env, stdout=log, stderr=subprocess.STDOUT,
                start_new_session=True,  # its own process group: teardown ends the jobs too
            )  # fmt: skip
        server = Scrapyd(process, workdir, port, username, password, log_path)
        deadline = time.monotonic() + DEADLINE
        while time.monotonic() < deadline and process.poll() is None:
            try:
                status, _ = server.call("daemonstatus.json")
            except OSError:
                time.sleep(0.1)
                continue
            if status == 200:
                return server
        stop_scrapyd(server)
        if "Address already in use" not in server.server_log():
            break
    pytest.fail(f"Scrapyd did not start:\n{server.server_log()[-3000:]}")


def stop_scrapyd(server: Scrapyd) -> None:
    if server.process.poll() is None:
        os.killpg(server.process.pid, signal.SIGTERM)
        try:
            server.process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            os.killpg(server.process.pid, signal.SIGKILL)
            server.process.wait(timeout=15)
    try:  # jobs still running (a failed test) are in the same process group
        os.killpg(server.process.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass


def shop_site() -> SiteServer:
    """robots.txt forbids /private/ to all and /cgi-bin/ to webrobot; one page
    is served under two URLs."""
    site = SiteServer("shop").start()
    site.add("/robots.txt", Reply.text(SHOP_ROBOTS))
    site.html("/", (
        "<html><head><title>Shop</title></head><body>"
        "<a href='/about.html'>about</a> <a href='/products/widget.html'>widget</a>"
        "<a href='/print/widget.html'>print</a> <a href='/private/secret.html'>secret</a>"
        "<a href='/cgi-bin/search?q=widget'>search</a> <a href='/private/'>private</a>"
        "</body></html>"
    ))  # fmt: skip
    site.html("/about.html", (
        "<html><head><title>About</title></head><body>"
        "<a href='/'>home</a> <a href='/private/team.html'>team</a></body></html>"
    ))  # fmt: skip
    site.html("/products/widget.html", WIDGET)
    site.html("/print/widget.html", WIDGET)  # the same bytes under another URL
    for secret in ("/private/", "/private/secret.html", "/private/team.html", "/cgi-bin/search"):
        site.html(secret, "<title>secret</title>")
    return site


def levels_site() -> SiteServer:
    """Two levels below the home page; nothing forbidden."""
    site = SiteServer("levels").start()
    site.add("/robots.txt", Reply.text("User-agent: *\nDisallow:\n"))
    site.html("/", "<title>home</title><a href='/d1/a'>a</a><a href='/d1/b'>b</a>")
    site.html("/d1/a", "<title>a</title><a href='/d2/c'>c</a>")
    site.html("/d1/b", "<title>b</title><a href='/d2/d'>d</a>")
    site.html("/d2/c", "<title>c</title>")
    site.html("/d2/d", "<title>d</title>")
    return site


@dataclass
class Job:
    id: str
    spider: str
    log: str = ""
    items: list[dict[str, Any]] = field(default_factory=list)


@dataclass
class Deployed:
    server: Scrapyd
    deploy: subprocess.CompletedProcess[str]


@dataclass
class Session:
    server: Scrapyd
    deploy: subprocess.CompletedProcess[str]
    shop: SiteServer
    jobs: dict[str, Job]
    refused: dict[str, Any]  # schedule.json's answer for an unknown spider


def schedule(server: Scrapyd, job_id: str, spider: str, **params: Any) -> Job:
    answer = server.json(
        "schedule.json", {"project": PROJECT, "spider": spider, "jobid": job_id, **params}
    )
    assert answer["status"] == "ok" and answer["jobid"] == job_id, answer
    return Job(job_id, spider)


def wait_for_jobs(server: Scrapyd, jobs: dict[str, Job]) -> None:
    deadline = time.monotonic() + DEADLINE
    while True:
        listing = server.json(f"listjobs.json?project={PROJECT}")
        finished = {job["id"]: job for job in listing["finished"]}
        if set(jobs) <= set(finished):
            break
        if time.monotonic() > deadline:
            pytest.fail(
                f"jobs not finished in {DEADLINE}s: {listing}\n{server.server_log()[-3000:]}"
            )
        time.sleep(0.2)
    for job_id, job in jobs.items():
        status, job.log = server.call(finished[job_id]["log_url"])
        assert status == 200, f"log of {job_id}: HTTP {status}"
        # No items file when the crawl never started (Scrapyd then answers its home page).
        if (server.workdir / "items" / PROJECT / job.spider / f"{job_id}.jl").exists():
            status, body = server.call(finished[job_id]["items_url"])
            assert status == 200, f"items of {job_id}: HTTP {status}"
            job.items = [json.loads(line) for line in body.splitlines() if line]


@pytest.fixture(scope="module")
def deployed(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Deployed]:
    """Scrapyd started, with the project deployed to it."""
    workdir = tmp_path_factory.mktemp("scrapyd")
    server = start_scrapyd(workdir, "webrobot-test", secrets.token_urlsafe(16))
    try:
        # Deploy a copy of the project, so the egg build leaves the checkout alone.
        project = tmp_path_factory.mktemp("project") / "webrobot"
        shutil.copytree(PROJECT_ROOT, project, ignore=NOT_PROJECT)
        deploy = subprocess.run(
            [str(BIN / "scrapyd-deploy")], cwd=project, capture_output=True, text=True, timeout=120, check=False,
            env=no_proxy_env(SCRAPYD_URL=server.url, SCRAPYD_USERNAME=server.username,
                             SCRAPYD_PASSWORD=server.password),
        )  # fmt: skip
        assert deploy.returncode == 0, f"scrapyd-deploy failed:\n{deploy.stdout}\n{deploy.stderr}"
        yield Deployed(server, deploy)
    finally:
        stop_scrapyd(server)


@pytest.fixture(scope="module")
def session(deployed: Deployed, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Session]:
    server, workdir = deployed.server, tmp_path_factory.mktemp("configs")
    shop, levels = shop_site(), levels_site()
    try:
        bad_toml = workdir / "bad_toml.toml"
        bad_toml.write_text("start_urls = [", "utf-8")
        jobs = [
            # A per-site spider (demo, bundled in the egg) aimed at the local shop.
            schedule(server, "shop", "demo", start_urls=shop.url("/")),
            # Bad arguments: each must end the job with one clear line.
            schedule(server, "missing_config", "webrobot", config=str(workdir / "missing.toml")),
            schedule(server, "bad_toml", "webrobot", config=str(bad_toml)),
            schedule(server, "bad_url", "demo", start_urls="ftp://127.0.0.1/"),
            schedule(server, "bad_setting", "webrobot", start_urls=levels.url("/"), setting="DEPTH_LIMIT=abc"),
        ]  # fmt: skip
        refused = json.loads(
            server.call("schedule.json", {"project": PROJECT, "spider": "no_such_site"})[1]
        )
        by_id = {job.id: job for job in jobs}
        wait_for_jobs(server, by_id)
        yield Session(server, deployed.deploy, shop, by_id, refused)
    finally:
        shop.stop()
        levels.stop()


def error_lines(log: str) -> list[str]:
    return [line for line in log.splitlines() if " ERROR: " in line]


def test_deploy_uses_the_scrapy_cfg_target_and_environment(session: Session) -> None:
    answer = json.loads(session.deploy.stdout.strip().splitlines()[-1])
    assert answer["status"] == "ok" and answer["project"] == PROJECT
    assert (
        f'Deploying to project "{PROJECT}" in {session.server.url}addversion.json'
        in session.deploy.stderr
    )
    assert "Basic authentication enabled" in session.server.server_log()


def test_listspiders_lists_webrobot_and_every_site(session: Session) -> None:
    sites = sorted(p.stem for p in (PROJECT_ROOT / "webrobot" / "sites").glob("*.toml"))
    assert sites, "no bundled site configs?"
    answer = session.server.json(f"listspiders.json?project={PROJECT}")
    assert sorted(answer["spiders"]) == sorted(["webrobot", *sites])


def test_egg_holds_every_file_of_the_package(session: Session) -> None:
    """Package data (site configs, demo pages, anything added later) must be in
    the egg Scrapyd runs; a file missing from setup.py's package_data fails here."""
    eggs = list((session.server.workdir / "eggs" / PROJECT).glob("*.egg"))
    assert len(eggs) == 1, eggs
    with zipfile.ZipFile(eggs[0]) as egg:
        packed = set(egg.namelist())
    package = PROJECT_ROOT / "webrobot"
    wanted = {
        path.relative_to(PROJECT_ROOT).as_posix()
        for path in package.rglob("*")
        if path.is_file() and "__pycache__" not in path.parts and path.suffix != ".pyc"
    }
    assert {"webrobot/sites/demo.toml", "webrobot/demo/pages/shop/index.html"} <= wanted
    assert wanted - packed == set()


def test_no_module_reads_files_relative_to_its_source() -> None:
    """Scrapyd runs the project from a zipped egg: files are read with
    importlib.resources or pkgutil.get_data, never via __file__."""
    offenders = [
        str(path.relative_to(PROJECT_ROOT))
        for path in (PROJECT_ROOT / "webrobot").rglob("*.py")
        if "__file__" in path.read_text("utf-8")
    ]
    assert offenders == []


def test_unauthenticated_requests_are_refused(session: Session) -> None:
    server = session.server
    data = {
        "project": PROJECT,
        "spider": "demo",
        "jobid": "sneaky",
        "start_urls": session.shop.url("/"),
    }
    assert server.call("schedule.json", data, auth=None)[0] == 401
    assert server.call("schedule.json", data, auth=("webrobot", "change-me"))[0] == 401
    assert server.call(f"listjobs.json?project={PROJECT}", auth=None)[0] == 401
    listing = server.json(f"listjobs.json?project={PROJECT}")
    ids = {job["id"] for state in ("pending", "running", "finished") for job in listing[state]}
    assert "sneaky" not in ids


def test_site_job_obeys_robots_txt(session: Session) -> None:
    job, shop = session.jobs["shop"], session.shop
    requested = set(shop.targets())
    assert requested == {
        "/robots.txt",
        "/",
        "/about.html",
        "/products/widget.html",
        "/print/widget.html",
    }
    assert not any(t.startswith(("/private/", "/cgi-bin/")) for t in shop.targets())
    assert shop.count("/robots.txt") == 1
    # The per-site config came from the egg: demo's operator address is sent.
    page_hits = [h for h in shop.hits if h.path == "/"]
    assert page_hits[0].headers.get("from") == "demo-operator@example.org"
    assert page_hits[0].headers["user-agent"].startswith("webrobot/")
    urls = {item["url"] for item in job.items}
    assert shop.url("/") in urls and shop.url("/about.html") in urls
    assert not any("/private/" in u or "/cgi-bin/" in u for u in urls)


def test_site_job_log_is_clean(session: Session) -> None:
    job = session.jobs["shop"]
    assert "Spider closed (finished)" in job.log
    assert "Traceback" not in job.log
    assert error_lines(job.log) == []
    assert f"Stored jsonlines feed ({len(job.items)} items)" in job.log
    assert re.search(r"'robotstxt/forbidden': [1-9]", job.log), "robots.txt refusals are counted"


def test_site_job_drops_duplicate_content(session: Session) -> None:
    items = session.jobs["shop"].items
    md5s = [item["md5"] for item in items]
    assert len(md5s) == len(set(md5s)), "one item per distinct body"
    widget = {session.shop.url("/products/widget.html"), session.shop.url("/print/widget.html")}
    assert len([item for item in items if item["url"] in widget]) == 1
    assert len(items) == 3, "home, about and one of the two widget URLs"


def test_settings_from_scrapyd_are_typed_and_beat_the_config(
    deployed: Deployed, tmp_path: Path
) -> None:
    """setting=DOWNLOAD_DELAY=0.5 / DEPTH_LIMIT=1 arrive as strings; they must be
    read as numbers and win over the config's download_delay = 0 and depth_limit = 5."""
    levels = levels_site()
    try:
        config = tmp_path / "levels.toml"
        config.write_text(
            f'start_urls = ["{levels.url("/")}"]\ndownload_delay = 0\ndepth_limit = 5\n'
            "[settings]\nAUTOTHROTTLE_ENABLED = false\n",
            "utf-8",
        )
        job = schedule(deployed.server, "levels", "webrobot", config=str(config),
                       setting=["DOWNLOAD_DELAY=0.5", "RANDOMIZE_DOWNLOAD_DELAY=false", "DEPTH_LIMIT=1"])  # fmt: skip
        wait_for_jobs(deployed.server, {job.id: job})
    finally:
        levels.stop()
    assert "Spider closed (finished)" in job.log and error_lines(job.log) == []
    pages = [h for h in levels.hits if h.path != "/robots.txt"]
    assert sorted(h.target for h in pages) == ["/", "/d1/a", "/d1/b"], "DEPTH_LIMIT=1"
    starts = sorted(h.started for h in pages)
    gaps = [later - earlier for earlier, later in itertools.pairwise(starts)]
    assert min(gaps) >= 0.45, f"DOWNLOAD_DELAY=0.5 not applied: gaps {gaps}"
    assert len(job.items) == 3


@pytest.mark.parametrize(
    ("job_id", "message"),
    [
        (
            "missing_config",
            r"webrobot cannot start: \S*missing\.toml: cannot be read: No such file",
        ),
        ("bad_toml", r"webrobot cannot start: \S*bad_toml\.toml: not valid TOML"),
        (
            "bad_url",
            r"webrobot cannot start: spider argument: key 'start_urls': expected an absolute http",
        ),
        (
            "bad_setting",
            r"webrobot cannot start: setting DEPTH_LIMIT='abc': expected a whole number",
        ),
    ],
)
def test_bad_argument_is_one_clear_line_in_the_job_log(
    session: Session, job_id: str, message: str
) -> None:
    job = session.jobs[job_id]
    errors = error_lines(job.log)
    assert len(errors) == 1, errors
    assert re.search(message, errors[0]), errors[0]
    assert "Traceback" not in job.log
    assert job.items == []
    assert re.search(rf"Process died: exitstatus=2 .*job='{job_id}'", session.server.server_log())


def test_unknown_spider_is_refused_when_scheduling(session: Session) -> None:
    assert session.refused["status"] == "error"
    assert session.refused["message"] == "spider 'no_such_site' not found"


def test_a_job_serves_metrics_on_its_own_port_listed_in_its_logs_folder(session: Session) -> None:
    """setting=WEBROBOT_METRICS_PORT=0: the job's logs folder, which Scrapyd's web UI
    lists, holds <job>.metrics.txt with the address while the job runs."""
    pytest.importorskip("prometheus_client")
    release = threading.Event()
    site = SiteServer("watched").start()

    def held(_: object) -> Reply:
        release.wait(60)
        return Reply.html("<title>held</title>")

    site.add("/robots.txt", Reply.text("User-agent: *\nDisallow:\n"))
    site.html("/", "<title>home</title><a href='/held'>held</a>")
    site.add("/held", held)
    folder = f"logs/{PROJECT}/webrobot/"
    try:
        job = schedule(session.server, "watched", "webrobot", start_urls=site.url("/"),
                       setting=["WEBROBOT_METRICS_PORT=0"])  # fmt: skip
        deadline = time.monotonic() + DEADLINE
        while "watched.metrics.txt" not in session.server.call(folder)[1]:
            assert time.monotonic() < deadline, session.server.call(folder)[1]
            time.sleep(0.2)
        status, address = session.server.call(folder + "watched.metrics.txt")
        assert status == 200 and address.startswith("http://127.0.0.1:"), address
        with urllib.request.build_opener(urllib.request.ProxyHandler({})).open(
            address.strip(), timeout=10
        ) as reply:
            metrics = reply.read().decode()
        assert "webrobot_pages_total " in metrics and 'webrobot_sites{state="active"}' in metrics
    finally:
        release.set()
    wait_for_jobs(session.server, {job.id: job})
    site.stop()
    assert "Spider closed (finished)" in job.log and error_lines(job.log) == []
    assert f"Metrics: {address.strip()}" in job.log
    assert "watched.metrics.txt" not in session.server.call(folder)[1], "gone with the job"


def test_a_job_mines_the_fields_its_settings_declare(session: Session) -> None:
    """setting=WEBROBOT_FIELDS={...} arrives as JSON text; the egg's mining glue reads
    the fields into every item."""
    site = SiteServer("mined").start()
    site.add("/robots.txt", Reply.text("User-agent: *\nDisallow:\n"))
    site.html("/", "<title>home</title><h1> Lamp </h1><p class='price'>EUR 12,50</p>")
    fields = (
        '{"name": {"css": "h1::text", "processors": ["strip", "first"]}, "price": ".price::text"}'
    )
    try:
        job = schedule(session.server, "mined", "webrobot", start_urls=site.url("/"),
                       setting=[f"WEBROBOT_FIELDS={fields}"])  # fmt: skip
        wait_for_jobs(session.server, {job.id: job})
    finally:
        site.stop()
    assert "Spider closed (finished)" in job.log and error_lines(job.log) == []
    assert [item["fields"] for item in job.items] == [{"name": "Lamp", "price": ["EUR 12,50"]}]


def test_a_monitored_job_writes_its_events_to_the_folder_given_as_a_setting(
    session: Session, tmp_path: Path
) -> None:
    """setting=WEBROBOT_MONITOR_DIR=...: two jobs with one folder; the second tells what
    changed since the first, in events.jsonl, and its report (in the job's items folder)
    has the changes section."""
    site = SiteServer("monitored").start()
    site.add("/robots.txt", Reply.text("User-agent: *\nDisallow:\n"))
    site.html("/", "<title>Harbour</title><a href='/ferry'>ferry</a><a href='/museum'>museum</a>")
    site.html(
        "/ferry", "<html><head><title>Ferry at nine</title></head><body><p>Ferry.</p></body></html>"
    )
    site.html(
        "/museum", "<html><head><title>Museum</title></head><body><p>Museum.</p></body></html>"
    )
    folder = tmp_path / "watch"
    # No politeness delay (the project's 1 s, before each of the four requests of each
    # job): what is judged is the monitor's folder, not the pace.
    settings = [f"WEBROBOT_MONITOR_DIR={folder}", "DEPTH_LIMIT=1", "DOWNLOAD_DELAY=0",
                "AUTOTHROTTLE_ENABLED=False"]  # fmt: skip
    ferry = site.url("/ferry")
    try:
        first = schedule(session.server, "monitored_1", "webrobot", start_urls=site.url("/"),
                         setting=settings)  # fmt: skip
        wait_for_jobs(session.server, {first.id: first})
        told = [
            json.loads(line) for line in (folder / "events.jsonl").read_text("utf-8").splitlines()
        ]
        assert sorted((e["event"], e["url"]) for e in told) == sorted(
            ("new", site.url(p)) for p in ("/", "/ferry", "/museum"))  # fmt: skip
        site.html(
            "/ferry",
            "<html><head><title>Ferry at ten</title></head><body><p>Ferry.</p></body></html>",
        )
        second = schedule(session.server, "monitored_2", "webrobot", start_urls=site.url("/"),
                          setting=settings)  # fmt: skip
        wait_for_jobs(session.server, {second.id: second})
    finally:
        site.stop()
    assert error_lines(first.log + second.log) == [] and "Traceback" not in second.log
    again = [json.loads(line) for line in (folder / "events.jsonl").read_text("utf-8").splitlines()]
    (changed,) = again[len(told) :]
    assert (changed["event"], changed["url"]) == ("changed", ferry)
    assert changed["changes"] == [{"field": "title", "old": "Ferry at nine", "new": "Ferry at ten"}]
    report = session.server.workdir / "items" / PROJECT / "webrobot" / "monitored_2.report.json"
    section = json.loads(report.read_text("utf-8"))["changes"]
    assert section["counts"] == {
        "new": 0,
        "changed": 1,
        "removed": 0,
        "moved": 0,
        "match": 0,
        "template_changed": 0,
    }
    assert section["folder"] == str(folder)
