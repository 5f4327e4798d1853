"""End-to-end: a crawl of a local site writes WARC files that independent readers
(warcio's reader and ``warcio check``, cdxj-indexer) accept, with a request and a
response (or revisit) record for every fetch the server saw."""

from __future__ import annotations

import gzip
import json
import shutil
import subprocess
import sys
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

import pytest
from warcio.archiveiterator import ArchiveIterator

from tests.crawling import run_crawl, start_crawl, wait_until
from webrobot.demo.server import Reply, SiteServer
from webrobot.version import __version__

pytestmark = pytest.mark.slow


def page(title: str, words: str, links: str = "", head: str = "") -> str:
    return (
        f"<!DOCTYPE html><html><head><meta charset='utf-8'><title>{title}</title>{head}</head>"
        f"<body><h1>{title}</h1><p>{words}</p>{links}</body></html>"
    )


DUP_BODY = page("Same", "identical content served under two addresses")


def archive_site(site: SiteServer) -> None:
    site.add("/robots.txt", Reply.text("User-agent: *\nDisallow: /private\n"))
    names = ["a", "b", "dup1", "dup2", "noarchive", "hdr-noarchive", "noindex", "moved", "gz",
             "logo.png", "private"]  # fmt: skip
    links = "".join(f'<a href="/{n}">{n}</a> ' for n in names)
    site.html("/", page("Home", "welcome", links))
    site.html("/a", page("A", "alpha page"))
    site.html("/b", page("B", "bravo page"))
    site.html("/dup1", DUP_BODY)
    site.html("/dup2", DUP_BODY)
    site.html(
        "/noarchive", page("NA", "not to be kept", head='<meta name="robots" content="noarchive">')
    )
    site.add(
        "/hdr-noarchive",
        Reply.html(page("HNA", "not kept either"), **{"X-Robots-Tag": "noarchive"}),
    )
    site.html(
        "/noindex",
        page("NI", "kept but not indexed", head='<meta name="robots" content="noindex">'),
    )
    site.add("/moved", Reply(301, b"", {"Location": "/c"}))
    site.html("/c", page("C", "charlie page, the redirect target"))
    site.add(
        "/gz",
        Reply(
            200,
            gzip.compress(page("GZ", "zipped golf page").encode()),
            {"Content-Type": "text/html; charset=utf-8", "Content-Encoding": "gzip"},
        ),
    )
    site.add("/logo.png", Reply(200, b"\x89PNG\r\n\x1a\nnot really", {"Content-Type": "image/png"}))


def read_warcs(folder: Path) -> list[dict[str, Any]]:
    records = []
    for path in sorted(folder.glob("*.warc.gz*")):
        with path.open("rb") as stream:
            for record in ArchiveIterator(stream, check_digests="raise"):
                payload = record.content_stream().read() if record.rec_type != "request" else b""
                records.append({
                    "file": path.name,
                    "type": record.rec_type,
                    "uri": record.rec_headers.get_header("WARC-Target-URI"),
                    "id": record.rec_headers.get_header("WARC-Record-ID"),
                    "headers": dict(record.rec_headers.headers),
                    "http": record.http_headers,
                    "payload": payload,
                })  # fmt: skip
    return records


def tool(name: str) -> str:
    """A command installed with the package that provides it (next to this Python)."""
    found = shutil.which(name, path=str(Path(sys.executable).parent)) or shutil.which(name)
    assert found is not None, f"{name} is not installed"
    return found


def fetched_urls(site: SiteServer) -> Counter[str]:
    return Counter(site.url(hit.target) for hit in site.hits if hit.method == "GET")


def test_every_fetch_is_archived_and_readable(tmp_path: Path, make_site: Any) -> None:
    site = make_site("archive")
    archive_site(site)
    warc_dir = tmp_path / "warc"
    result = run_crawl(
        tmp_path, args={"start_urls": site.url("/")},
        settings={"WEBROBOT_WARC_DIR": str(warc_dir), "WEBROBOT_INDEX_ENABLED": "False"},
    )  # fmt: skip
    assert result.returncode == 0, result.stderr[-2000:]
    files = sorted(warc_dir.iterdir())
    assert files and all(f.name.endswith(".warc.gz") for f in files), (
        files
    )  # closed, none left .open

    # warcio's own checker: every record's block and payload digest verifies
    check = subprocess.run([tool("warcio"), "check", "-v", *map(str, files)],
                           check=False, capture_output=True, text=True, timeout=60)  # fmt: skip
    assert check.returncode == 0, check.stdout + check.stderr
    assert "digest pass" in check.stdout

    records = read_warcs(warc_dir)
    by_type: dict[str, Counter[str]] = defaultdict(Counter)
    for rec in records:
        by_type[rec["type"]][rec["uri"]] += 1

    # a warcinfo record opens every file, naming crawler, version and settings
    assert records[0]["type"] == "warcinfo"
    info = records[0]["payload"].decode()
    assert f"software: webrobot/{__version__}" in info
    assert f"WEBROBOT_WARC_DIR: {warc_dir}" in info
    assert "isPartOf: webrobot" in info

    fetched = fetched_urls(site)
    never_archived = {site.url("/noarchive"), site.url("/hdr-noarchive")}
    assert never_archived <= set(fetched)  # they were fetched...
    for url in never_archived:  # ...but left no record
        assert all(rec["uri"] != url for rec in records), url
    assert result.stat("webrobot/warc/noarchive") == 2
    assert site.url("/private") not in fetched  # robots.txt refused it: no fetch, no record

    # every other fetch the server saw: one request and one response or revisit record each
    for url, times in fetched.items():
        if url in never_archived:
            continue
        assert by_type["request"][url] == times, url
        assert by_type["response"][url] + by_type["revisit"][url] == times, url
    archived = set(by_type["request"])
    assert archived == set(fetched) - never_archived
    assert site.url("/robots.txt") in by_type["response"]
    assert site.url("/moved") in by_type["response"] and site.url("/c") in by_type["response"]
    # a link whose extension says binary is refused before any request: nothing to archive
    assert site.url("/logo.png") not in fetched and site.url("/logo.png") not in archived

    # the duplicate is a revisit pointing at the first copy, with its digest
    dups = {
        rec["uri"]: rec
        for rec in records
        if rec["uri"] in (site.url("/dup1"), site.url("/dup2"))
        and rec["type"] in ("response", "revisit")
    }
    kinds = sorted(rec["type"] for rec in dups.values())
    assert kinds == ["response", "revisit"]
    first = next(r for r in dups.values() if r["type"] == "response")
    revisit = next(r for r in dups.values() if r["type"] == "revisit")
    assert revisit["headers"]["WARC-Refers-To-Target-URI"] == first["uri"]
    assert revisit["headers"]["WARC-Refers-To-Date"] == first["headers"]["WARC-Date"]
    assert revisit["headers"]["WARC-Payload-Digest"] == first["headers"]["WARC-Payload-Digest"]
    assert revisit["headers"]["WARC-Profile"].endswith("/revisit/identical-payload-digest")
    assert result.stat("webrobot/warc/records/revisit") == 1

    # request records are tied to their response and carry the headers sent
    responses = {rec["id"]: rec for rec in records if rec["type"] in ("response", "revisit")}
    for rec in records:
        if rec["type"] == "request":
            assert responses[rec["headers"]["WARC-Concurrent-To"]]["uri"] == rec["uri"]
            assert rec["http"].get_header("User-Agent", "").startswith("webrobot/")

    # the gzip page is kept as it came over the wire; the reader decodes it
    gz = next(r for r in records if r["uri"] == site.url("/gz") and r["type"] == "response")
    assert gz["http"].get_header("Content-Encoding") == "gzip"
    assert b"zipped golf page" in gz["payload"]

    # the WARC/1.1 header line
    with gzip.open(files[0]) as first_file:
        raw = first_file.read(9)
    assert raw == b"WARC/1.1\r"


def test_cdxj_indexer_reads_the_files(tmp_path: Path, make_site: Any) -> None:
    """A tool of the web-archive world (pywb's index format) indexes every capture."""
    site = make_site("cdx")
    archive_site(site)
    warc_dir = tmp_path / "warc"
    result = run_crawl(
        tmp_path,
        args={"start_urls": site.url("/")},
        settings={"WEBROBOT_WARC_DIR": str(warc_dir), "WEBROBOT_INDEX_ENABLED": "False"},
    )
    assert result.returncode == 0, result.stderr[-2000:]
    out = subprocess.run([tool("cdxj-indexer"), *map(str, sorted(warc_dir.iterdir()))],
                         capture_output=True, text=True, timeout=60, check=True).stdout  # fmt: skip
    captures = [json.loads(line.split(" ", 2)[2]) for line in out.splitlines() if line.strip()]
    urls = {c["url"] for c in captures}
    assert site.url("/a") in urls and site.url("/robots.txt") in urls
    assert site.url("/noarchive") not in urls
    assert {c.get("mime") for c in captures if c["url"] == site.url("/a")} == {"text/html"}


def test_size_rotation_makes_several_complete_files(tmp_path: Path, make_site: Any) -> None:
    site = make_site("rotate")
    archive_site(site)
    warc_dir = tmp_path / "warc"
    result = run_crawl(tmp_path, args={"start_urls": site.url("/")},
                       settings={"WEBROBOT_WARC_DIR": str(warc_dir), "WEBROBOT_WARC_MAX_SIZE": "1500",
                                 "WEBROBOT_INDEX_ENABLED": "False"})  # fmt: skip
    assert result.returncode == 0, result.stderr[-2000:]
    files = sorted(warc_dir.iterdir())
    assert len(files) >= 4
    assert result.stat("webrobot/warc/files") == len(files)
    serials = sorted(int(f.name.split("-")[-3]) for f in files)
    assert serials == list(range(1, len(files) + 1))
    for path in files:
        with path.open("rb") as stream:
            types = [r.rec_type for r in ArchiveIterator(stream, check_digests="raise")]
        assert types[0] == "warcinfo" and types.count("warcinfo") == 1
        # a fetch's records stay together in one file
        assert types.count("request") == types.count("response") + types.count("revisit")


def numbered_site(site: Any, n: int, delay: float) -> Any:
    """A home page linking to ``/p0`` ... ``/p{n-1}`` (slow by ``delay``), of which the
    first and the last carry the same body (a duplicate to archive as a revisit)."""
    site.add("/robots.txt", Reply.text("User-agent: *\nDisallow:\n"))
    site.html("/", page("Home", "start", "".join(f'<a href="/p{i}">{i}</a> ' for i in range(n))))
    for i in range(n):
        body = DUP_BODY if i in (0, n - 1) else page(f"P{i}", f"page number {i}")
        site.add(f"/p{i}", Reply.html(body, delay=delay))
    return site


def test_resumed_job_neither_loses_nor_repeats_records(tmp_path: Path, make_site: Any) -> None:
    """Stop a JOBDIR job mid-crawl (Ctrl-C), resume it: the WARC files of both runs
    hold exactly one record pair per fetch the server saw, and a page duplicating
    one archived before the stop is a revisit."""
    n = 40
    site = numbered_site(make_site("resume"), n, delay=0.05)
    warc_dir, jobdir = tmp_path / "warc", tmp_path / "job"
    settings = {"WEBROBOT_WARC_DIR": str(warc_dir), "JOBDIR": str(jobdir),
                "WEBROBOT_INDEX_ENABLED": "False", "CONCURRENT_REQUESTS": "1"}  # fmt: skip
    first = start_crawl(tmp_path / "run1", args={"start_urls": site.url("/")}, settings=settings)
    wait_until(lambda: len(site.hits) >= 10, 60, "ten fetches before the stop")
    first.interrupt()
    one = first.wait(60)
    assert one.stat("finish_reason", "") == "shutdown"
    hits_first = len(site.hits)
    assert hits_first < n + 2
    second = run_crawl(tmp_path / "run2", args={"start_urls": site.url("/")}, settings=settings)
    assert second.returncode == 0, second.stderr[-2000:]
    assert len(site.hits) > hits_first

    records = read_warcs(warc_dir)
    fetched = fetched_urls(site)
    requests = Counter(r["uri"] for r in records if r["type"] == "request")
    mains = Counter(r["uri"] for r in records if r["type"] in ("response", "revisit"))
    assert requests == fetched
    assert mains == fetched
    assert len({r["file"] for r in records}) >= 2  # each run its own file set
    dups = sorted(
        r["type"]
        for r in records
        if r["uri"] in (site.url("/p0"), site.url(f"/p{n - 1}"))
        and r["type"] in ("response", "revisit")
    )
    assert dups == ["response", "revisit"]


def test_redis_workers_write_one_file_set_each(
    tmp_path: Path, make_site: Any, redis_server: Any
) -> None:
    """Workers of one shared crawl, one WARC folder: each writes its own files, and
    together they hold one record pair per fetch the servers saw."""
    from tests.test_distributed_crawl import build_web, shared_by, start_workers, stop_all

    web = build_web(make_site, delay=0.05)
    shared_by(web, redis_server)
    warc_dir = tmp_path / "warc"
    workers = start_workers(tmp_path, web, redis_server, n=2, WEBROBOT_WARC_DIR=str(warc_dir),
                            WEBROBOT_INDEX_ENABLED="False")  # fmt: skip
    try:
        codes = [worker.wait() for worker in workers]
    finally:
        stop_all(workers)
    assert codes == [0, 0], [w.log()[-2000:] for w in workers]
    writers = {"-".join(p.name.split("-")[-2:]) for p in warc_dir.iterdir()}  # HOST-PID.warc.gz
    busy = [w for w in workers if w.stats().get("webrobot/warc/records/request")]
    assert len(writers) == len(busy) >= 2
    assert all(p.name.endswith(".warc.gz") for p in warc_dir.iterdir())
    records = read_warcs(warc_dir)
    fetched: Counter[str] = Counter()
    for site in web.sites:
        fetched.update(fetched_urls(site))
    assert Counter(r["uri"] for r in records if r["type"] == "request") == fetched
    assert Counter(r["uri"] for r in records if r["type"] in ("response", "revisit")) == fetched


def test_sigkill_then_resume_repairs_the_open_file_and_keeps_every_handed_on_fetch(
    tmp_path: Path, make_site: Any
) -> None:
    """SIGKILL a JOBDIR job mid-crawl, with its file's last exchange torn (as a kill
    in the middle of a write leaves it), and resume: the open file is cut after
    its last complete exchange and closed; every page the killed run itemised is
    in its files; every file reads back whole; no fetch has more records than the
    server saw fetches of it, and a page fetched once has exactly one record pair."""
    import signal

    n = 60
    site = numbered_site(make_site("killed"), n, delay=0.03)
    warc_dir, jobdir = tmp_path / "warc", tmp_path / "job"
    settings = {"WEBROBOT_WARC_DIR": str(warc_dir), "JOBDIR": str(jobdir),
                "WEBROBOT_INDEX_ENABLED": "False", "CONCURRENT_REQUESTS": "2"}  # fmt: skip
    first = start_crawl(tmp_path / "run1", args={"start_urls": site.url("/")}, settings=settings)
    wait_until(lambda: len(site.hits) >= 20, 60, "twenty fetches before the kill")
    first.process.send_signal(signal.SIGKILL)
    first.wait(30)
    (open_file,) = warc_dir.glob("*.warc.gz.open")
    with open_file.open("ab") as stream:  # a write the kill cut in the middle
        stream.write(gzip.compress(b"WARC/1.1\r\nWARC-Type: response\r\n" + b"x" * 900)[:-40])
    itemised = [
        json.loads(line)["url"]
        for line in (tmp_path / "run1" / "items.jsonl").read_text().splitlines()
        if line.strip()
    ]
    assert len(itemised) >= 10
    hits_first = len(site.hits)
    assert hits_first < n + 2, "the crawl finished before it could be killed"

    second = run_crawl(tmp_path / "run2", args={"start_urls": site.url("/")}, settings=settings)
    assert second.returncode == 0, second.stderr[-2000:]
    assert second.stat("webrobot/warc/repaired") == 1
    assert second.stat("webrobot/warc/cut") >= 1
    assert "WARC file left open by a killed run closed" in second.log
    assert not list(warc_dir.glob("*.open"))
    repaired = warc_dir / open_file.name.removesuffix(".open")
    check = subprocess.run([tool("warcio"), "check", *map(str, sorted(warc_dir.iterdir()))],
                           capture_output=True, text=True, check=False)  # fmt: skip
    assert check.returncode == 0, check.stdout + check.stderr

    records = read_warcs(warc_dir)  # digests checked: every record whole
    in_killed_run = {r["uri"] for r in records if r["file"] == repaired.name}
    assert set(itemised) <= in_killed_run, "a fetch the killed run handed on is not archived"
    fetched = fetched_urls(site)
    requests = Counter(r["uri"] for r in records if r["type"] == "request")
    mains = Counter(r["uri"] for r in records if r["type"] in ("response", "revisit"))
    assert requests == mains
    assert set(mains) == set(fetched), "a fetched URL has no record"
    assert all(mains[url] <= fetched[url] for url in fetched), "a record repeated"
    assert all(mains[url] == 1 for url in fetched if fetched[url] == 1)


def test_redis_workers_write_a_duplicate_found_by_another_worker_as_a_revisit(
    tmp_path: Path, make_site: Any, redis_server: Any
) -> None:
    """Two workers of one shared crawl, each its own file set: a page whose payload
    another worker archived first is a revisit naming that worker's record (its
    URL, date and payload digest), so the file sets together hold one full copy
    of each payload."""
    from tests.test_distributed_crawl import LONG_LEASES, Worker, stop_all

    one, two = make_site("one"), make_site("two")  # one site at a time per worker
    n = 16
    for site in (one, two):
        site.add("/robots.txt", Reply.text(f"# {site.name}\nUser-agent: *\nDisallow:\n"))
    one.html("/", page("Home", "start", "".join(f'<a href="/a{i}">{i}</a> ' for i in range(n))))
    two.html("/", page("Other home", "the second site"))
    for i in range(n):
        body = page(f"Original {i}", f"content number {i}", f'<a href="{two.url(f"/b{i}")}">c</a>')
        one.add(f"/a{i}", Reply.html(body, delay=0.05))
        two.add(f"/b{i}", Reply.html(body, delay=0.05))  # found only once /a{i} is archived
    warc_dir = tmp_path / "warc"
    # pages only: each site's /favicon.ico (a requisite) is a 404 page the same on both sites
    settings = {"WEBROBOT_REDIS_URL": redis_server.url, "WEBROBOT_WARC_DIR": str(warc_dir),
                "WEBROBOT_INDEX_ENABLED": "False", "WEBROBOT_REQUISITES_ENABLED": "False",
                **LONG_LEASES}  # fmt: skip
    starts = {"start_urls": f"{one.url('/')},{two.url('/')}"}
    workers = [Worker(tmp_path / f"worker-{i}", f"worker-{i}", starts, settings) for i in range(2)]
    try:
        codes = [worker.wait() for worker in workers]
    finally:
        stop_all(workers)
    assert codes == [0, 0], [w.log()[-2000:] for w in workers]
    check = subprocess.run([tool("warcio"), "check", *map(str, sorted(warc_dir.iterdir()))],
                           capture_output=True, text=True, check=False)  # fmt: skip
    assert check.returncode == 0, check.stdout + check.stderr
    records = read_warcs(warc_dir)
    writer = {r["file"]: "-".join(r["file"].split("-")[-2:]) for r in records}
    responses = {r["uri"]: r for r in records if r["type"] == "response"}
    revisits = [r for r in records if r["type"] == "revisit"]
    assert sorted(r["uri"] for r in revisits) == sorted(two.url(f"/b{i}") for i in range(n))
    across = 0
    for revisit in revisits:
        headers = revisit["headers"]
        original = responses[headers["WARC-Refers-To-Target-URI"]]
        assert original["uri"] == one.url(revisit["uri"].replace(two.url("/b"), "/a"))
        assert headers["WARC-Refers-To-Date"] == original["headers"]["WARC-Date"]
        assert headers["WARC-Payload-Digest"] == original["headers"]["WARC-Payload-Digest"]
        across += writer[revisit["file"]] != writer[original["file"]]
    busy = [w for w in workers if w.stats().get("webrobot/warc/records/request")]
    if len(busy) == 2:
        assert across >= 1, "no duplicate was fetched by the worker that did not archive it"
