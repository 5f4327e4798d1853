"""End-to-end: crawls of local sites fill the full-text index; ``scrapy search``
finds what was crawled, never a noindex page, and a changed page by its new
text only once it was crawled again."""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import subprocess
from pathlib import Path
from typing import Any

import pytest

from tests.crawling import INDEX_ON, run_crawl, scrapy_command
from webrobot.demo.server import Reply, SiteServer

pytestmark = pytest.mark.slow

FILLER = (
    "<p>This paragraph is ordinary prose about museums, harbours and railway stations, "
    "written so the extractor sees a real article with several sentences in it. It talks "
    "about the weather, the river and the library, and then it goes on a little longer.</p>"
)
MENU = '<nav><ul><li><a href="/">Home</a></li><li><a href="/about">About us</a></li></ul></nav>'


def page(title: str, words: str, head: str = "", links: str = "") -> str:
    return (
        f"<!DOCTYPE html><html lang='en'><head><meta charset='utf-8'><title>{title}</title>{head}</head>"
        f"<body>{MENU}<main><h1>{title}</h1><p>{words}</p>{FILLER}{links}</main>"
        f"<footer>Footerword copyright notice</footer></body></html>"
    )


def search_site(site: SiteServer, a_words: str = "the zanzibarian expedition report",
                b_head: str = "") -> None:  # fmt: skip
    site.add("/robots.txt", Reply.text("User-agent: *\nDisallow:\n"))
    links = "".join(
        f'<a href="/{n}">{n}</a> ' for n in ("a", "b", "hidden", "dup1", "dup2", "phrase", "evil")
    )
    site.html("/", page("Home", f"welcome to the test site {site.name}", links=links))
    site.html("/a", page("Alpha page", a_words))
    site.html("/b", page("Bravo page", "quixotically brave bravo words", head=b_head))
    site.html(
        "/hidden",
        page("Hidden", "cryptozoology only here", head='<meta name="robots" content="noindex">'),
    )
    dup = page("Copy", "duplicated xylophone content")
    site.html("/dup1", dup)
    site.html("/dup2", dup)
    site.html("/phrase", page("Phrases", "red apple green banana, and later a green apple"))
    site.html(
        "/evil", page("<script>alert('x')</script> Evil &amp; co", "malicious wombat title test")
    )


def search(index: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return scrapy_command("search", "--index", str(index), *args)


def results(index: Path, *args: str) -> list[dict[str, Any]]:
    """The hits of ``scrapy search --json ARGS``: the command's own options, reading of the
    index and JSON lines, run in this process as Scrapy's command line runs a command
    (``parse_known_args``, then ``run``), without starting Scrapy anew for each of the
    dozens of queries (0.6 s of CPU each). :func:`search` runs the command as a process,
    for its text output, exit statuses and one-line errors."""
    from scrapy.settings import Settings

    from webrobot.commands.search import Command

    command = Command()
    command.settings = Settings(Command.default_settings)
    parser = argparse.ArgumentParser()
    command.add_options(parser)
    opts, query = parser.parse_known_args(["--index", str(index), "--json", *args])
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        command.run(query, opts)
    assert command.exitcode in (0, 1), out.getvalue()
    return [json.loads(line) for line in out.getvalue().splitlines()]


def crawl(tmp: Path, site: SiteServer, index: Path, name: str = "run") -> None:
    result = run_crawl(
        tmp / name,
        args={"start_urls": site.url("/")},
        settings={**INDEX_ON, "WEBROBOT_INDEX": str(index)},
    )
    assert result.returncode == 0, result.stderr[-2000:]
    assert result.stat("webrobot/index/pages") > 0


def test_search_finds_crawled_pages(tmp_path: Path, make_site: Any) -> None:
    site = make_site("search")
    search_site(site)
    index = tmp_path / "index"
    crawl(tmp_path, site, index)

    # a word on one page only: exactly that page
    found = results(index, "zanzibarian")
    assert [hit["url"] for hit in found] == [site.url("/a")]
    assert found[0]["title"] == "Alpha page"
    assert "zanzibarian" in found[0]["snippet"].lower()
    start, end = found[0]["highlights"][0]
    assert found[0]["snippet"][start:end].lower() == "zanzibarian"
    # the command run as a process prints the same JSON lines
    done = search(index, "--json", "zanzibarian")
    assert done.returncode == 0, done.stderr
    assert [json.loads(line) for line in done.stdout.splitlines()] == found

    # the noindex page is never found, by its words or its title
    assert results(index, "cryptozoology") == []
    assert site.url("/hidden") not in {h["url"] for h in results(index, "Hidden", "--limit", "100")}
    # content duplicates are indexed once
    assert len(results(index, "xylophone")) == 1
    # boilerplate (menu, footer) is not indexed
    assert results(index, "footerword") == []

    # phrase and prefix queries
    assert [h["url"] for h in results(index, '"green apple"')] == [site.url("/phrase")]
    assert results(index, '"apple red"') == []
    assert [h["url"] for h in results(index, "quixot*")] == [site.url("/b")]
    assert {h["url"] for h in results(index, "zanzibarian", "OR", "quixotically")} == {
        site.url("/a"),
        site.url("/b"),
    }

    # a word on many pages: ranked, --limit holds
    assert len(results(index, "museums")) >= 4
    assert len(results(index, "museums", "--limit", "2")) == 2

    # text output: title, URL, highlighted snippet
    done = search(index, "zanzibarian")
    assert done.returncode == 0
    assert "1. Alpha page" in done.stdout and site.url("/a") in done.stdout
    assert "[zanzibarian]" in done.stdout.lower()

    # no match: exit 1 and a sentence
    done = search(index, "nonexistentwordqq")
    assert done.returncode == 1 and "No page matches" in done.stdout


def test_site_filter(tmp_path: Path, make_site: Any) -> None:
    one, two = make_site("one"), make_site("two")
    search_site(one, a_words="the zanzibarian expedition, first site")
    search_site(two, a_words="the zanzibarian expedition, second site")  # not a duplicate of one's
    index = tmp_path / "index"
    run = run_crawl(tmp_path / "run", args={"start_urls": f"{one.url('/')},{two.url('/')}"},
                    settings={**INDEX_ON, "WEBROBOT_INDEX": str(index)})  # fmt: skip
    assert run.returncode == 0
    assert {h["url"] for h in results(index, "zanzibarian")} == {one.url("/a"), two.url("/a")}
    assert [h["url"] for h in results(index, "zanzibarian", "--site", two.origin)] == [
        two.url("/a")
    ]
    assert [h["site"] for h in results(index, "zanzibarian", "--site", two.origin)] == [two.origin]


def test_recrawl_replaces_changed_text_and_drops_new_noindex(
    tmp_path: Path, make_site: Any
) -> None:
    site = make_site("recrawl")
    search_site(site)
    index = tmp_path / "index"
    crawl(tmp_path, site, index, "first")
    assert [h["url"] for h in results(index, "zanzibarian")] == [site.url("/a")]
    assert [h["url"] for h in results(index, "quixotically")] == [site.url("/b")]

    # the site changes: /a gets new text, /b says noindex now
    search_site(site, a_words="the mesopotamian expedition report",
                b_head='<meta name="robots" content="noindex">')  # fmt: skip
    assert results(index, "mesopotamian") == []  # not before it is crawled again
    crawl(tmp_path, site, index, "second")
    assert [h["url"] for h in results(index, "mesopotamian")] == [site.url("/a")]
    assert results(index, "zanzibarian") == []
    assert results(index, "quixotically") == []
    assert len(results(index, "museums", "--limit", "50")) == len(
        {h["url"] for h in results(index, "museums", "--limit", "50")}
    )  # one row per URL


def test_missing_empty_and_bad_input_say_so(tmp_path: Path) -> None:
    missing = search(tmp_path / "nope", "word")
    assert missing.returncode == 2
    assert "no search index at" in missing.stderr and "crawl first" in missing.stderr

    from webrobot.search.index import SearchIndex

    SearchIndex(tmp_path / "empty", create=True).close()
    empty = search(tmp_path / "empty", "word")
    assert empty.returncode == 2 and "holds no pages yet" in empty.stderr

    (tmp_path / "junk.sqlite").write_bytes(b"this is not a database at all" * 100)
    junk = search(tmp_path / "junk.sqlite", "word")
    assert junk.returncode == 2 and "not" in junk.stderr and "Traceback" not in junk.stderr

    no_query = search(tmp_path / "empty")
    assert no_query.returncode == 2 and "give a query" in no_query.stderr


def test_ctrl_c_to_the_process_group_keeps_every_indexed_page(
    tmp_path: Path, make_site: Any
) -> None:
    """A terminal's Ctrl-C reaches the index process too: it must still finish
    its queue after the crawl stops, so every item of the stopped crawl is found."""
    import os
    import signal

    from tests.crawling import start_crawl, wait_until

    site = make_site("ctrlc")
    site.add("/robots.txt", Reply.text("User-agent: *\nDisallow:\n"))
    site.html(
        "/", page("Home", "start here", links="".join(f'<a href="/p{i}">p</a> ' for i in range(40)))
    )
    for i in range(40):
        site.add(f"/p{i}", Reply.html(page(f"Page {i}", f"uniqueword{i} text"), delay=0.05))
    index = tmp_path / "index"
    crawl = start_crawl(tmp_path / "run", args={"start_urls": site.url("/")},
                        settings={**INDEX_ON, "WEBROBOT_INDEX": str(index),
                                  "CONCURRENT_REQUESTS": "1"},
                        new_session=True)  # fmt: skip
    wait_until(lambda: len(site.hits) >= 12, 60, "a dozen fetches")
    os.killpg(crawl.process.pid, signal.SIGINT)
    result = crawl.wait(60)
    assert result.stat("finish_reason", "") == "shutdown"
    assert 0 < len(result.items) < 41
    assert result.stat("webrobot/index/pages") == len(result.items)
    assert not result.stat("webrobot/index/error")
    for item in result.items:
        if item["url"] != site.url("/"):
            word = "uniqueword" + item["url"].rsplit("/p", 1)[1]
            assert [h["url"] for h in results(index, word)] == [item["url"]]


def test_a_killed_crawl_leaves_no_index_process_behind(tmp_path: Path, make_site: Any) -> None:
    """SIGKILL to the crawl: the index process notices, closes the index (readable,
    with what it had committed) and exits instead of waiting for ever."""
    import os
    import signal

    from tests.crawling import start_crawl, wait_until

    site = make_site("killed")
    site.add("/robots.txt", Reply.text("User-agent: *\nDisallow:\n"))
    site.html(
        "/", page("Home", "start here", links="".join(f'<a href="/p{i}">p</a> ' for i in range(60)))
    )
    for i in range(60):
        site.add(f"/p{i}", Reply.html(page(f"Page {i}", f"killword{i} text"), delay=0.05))
    index = tmp_path / "index"
    crawl = start_crawl(tmp_path / "run", args={"start_urls": site.url("/")},
                        settings={**INDEX_ON, "WEBROBOT_INDEX": str(index),
                                  "CONCURRENT_REQUESTS": "1"},
                        new_session=True)  # fmt: skip
    wait_until(lambda: len(site.hits) >= 15, 60, "fifteen fetches")

    def children() -> list[int]:
        found = []
        for entry in os.listdir("/proc"):
            if entry.isdigit():
                try:
                    stat = Path(f"/proc/{entry}/stat").read_text()
                except OSError:
                    continue
                fields = stat.rsplit(")", 1)[1].split()
                if int(fields[3]) == crawl.process.pid and int(fields[2]) == crawl.process.pid:
                    found.append(int(entry))  # same process group, parent is the crawl
        return found

    kids = children()
    assert kids, "the index runs in a child process"
    os.kill(crawl.process.pid, signal.SIGKILL)
    crawl.process.wait()  # not communicate(): the index process shares the stderr pipe
    try:
        wait_until(
            lambda: not any(os.path.exists(f"/proc/{pid}") for pid in kids),
            30,
            "the index process to exit",
        )
    finally:
        for pid in kids:  # never leave one behind, even when this test fails
            if os.path.exists(f"/proc/{pid}"):
                os.kill(pid, signal.SIGKILL)
        assert crawl.process.stderr is not None
        crawl.process.stderr.close()
    found = results(index, "text", "--limit", "100")
    assert found and all(h["url"].startswith(site.url("/p")) for h in found)


def test_pages_handed_over_before_a_sigkill_are_indexed_by_the_resumed_job(
    tmp_path: Path, make_site: Any
) -> None:
    """SIGKILL to the crawl and the index process together, while the index process
    is behind (stopped, so it has committed none of the last pages): every page
    the killed run itemised is found after the resumed job, though the resumed
    job does not fetch it again, and each page once."""
    import os
    import signal

    from tests.crawling import start_crawl, wait_until
    from webrobot.search.index import SearchIndex

    site = make_site("hardkill")
    site.add("/robots.txt", Reply.text("User-agent: *\nDisallow:\n"))
    n = 60
    site.html(
        "/", page("Home", "start here", links="".join(f'<a href="/p{i}">p</a> ' for i in range(n)))
    )
    for i in range(n):
        site.add(f"/p{i}", Reply.html(page(f"Page {i}", f"spoolword{i} text"), delay=0.03))
    index, jobdir = tmp_path / "index", tmp_path / "job"
    settings = {
        **INDEX_ON,
        "WEBROBOT_INDEX": str(index),
        "JOBDIR": str(jobdir),
        "CONCURRENT_REQUESTS": "1",
    }
    first = start_crawl(tmp_path / "run1", args={"start_urls": site.url("/")}, settings=settings,
                        new_session=True)  # fmt: skip
    wait_until(lambda: len(site.hits) >= 5, 60, "five fetches")

    def index_process() -> int:
        for entry in os.listdir("/proc"):
            if entry.isdigit():
                try:
                    fields = Path(f"/proc/{entry}/stat").read_text().rsplit(")", 1)[1].split()
                except OSError:
                    continue
                if int(fields[1]) == first.process.pid:  # its parent is the crawl
                    return int(entry)
        raise AssertionError("no index process")

    child = index_process()
    os.kill(child, signal.SIGSTOP)  # from now on nothing handed over is committed
    try:
        stopped_at = len(site.hits)
        wait_until(lambda: len(site.hits) >= stopped_at + 15, 60, "fifteen more fetches")
    finally:
        os.killpg(first.process.pid, signal.SIGKILL)
        first.process.wait()
        assert first.process.stderr is not None
        first.process.stderr.close()
    wait_until(lambda: not os.path.exists(f"/proc/{child}"), 30, "the index process to die")
    fetched_first = {h.path for h in site.hits}
    killed_items = [
        json.loads(line)
        for line in (tmp_path / "run1" / "items.jsonl").read_text().splitlines()
        if line.strip()
    ]
    assert len([i for i in killed_items if "/p" in i["url"]]) >= 10

    second = run_crawl(tmp_path / "run2", args={"start_urls": site.url("/")}, settings=settings)
    assert second.returncode == 0, second.stderr[-2000:]
    assert second.stat("webrobot/index/replayed") >= 10, second.stats
    assert not second.stat("webrobot/index/error")
    hits = [h.path for h in site.hits]
    # One reader for the many words (a `scrapy search` each would start a Python per
    # word); the command reads the same index below.
    reader = SearchIndex(index)
    try:
        for item in killed_items:
            path = item["url"].split(site.origin, 1)[1]
            if path.startswith("/p"):
                assert hits.count(path) == 1 and path in fetched_first  # not fetched again
                word = "spoolword" + path[2:]
                assert [h.url for h in reader.search(word)] == [item["url"]]
    finally:
        reader.close()
    everything = results(index, "text", "--limit", "100")
    assert sorted(h["url"] for h in everything) == sorted(site.url(f"/p{i}") for i in range(n))


def test_webrobot_search_runs_in_the_crawls_output_folder(tmp_path: Path, make_site: Any) -> None:
    """No Scrapy project there: ``python -m webrobot search`` (the ``webrobot`` console
    script) finds the index the crawl kept beside its feed (items.index), and a
    ``--site`` given as host:port, without a scheme."""
    import os
    import sys

    from tests.crawling import PROJECT_ROOT

    site = make_site("output")
    search_site(site)
    result = run_crawl(tmp_path / "out", args={"start_urls": site.url("/")}, settings=INDEX_ON)
    assert result.returncode == 0, result.stderr[-2000:]
    assert (tmp_path / "out" / "items.index").is_dir()
    env = {k: v for k, v in os.environ.items() if k != "SCRAPY_SETTINGS_MODULE"}
    env["PYTHONPATH"] = str(PROJECT_ROOT)

    def webrobot(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, "-m", "webrobot", *args], cwd=tmp_path / "out",
                              env=env, capture_output=True, text=True, timeout=120, check=False)  # fmt: skip

    found = webrobot("search", "--json", "zanzibarian")
    assert found.returncode == 0, found.stderr
    assert [json.loads(line)["url"] for line in found.stdout.splitlines()] == [site.url("/a")]
    on_site = webrobot("search", "--site", f"127.0.0.1:{site.port}", "zanzibarian")
    assert on_site.returncode == 0 and site.url("/a") in on_site.stdout, on_site.stderr
    elsewhere = webrobot("search", "--site", "127.0.0.1:1", "zanzibarian")
    assert elsewhere.returncode == 1, elsewhere.stderr
    unknown = webrobot("crawl", "x")
    assert unknown.returncode == 2 and "unknown command 'crawl'" in unknown.stderr
