"""End-to-end: crawls that mine pages, against local sites, judged by their items,
stats and log (and by what the sites saw requested)."""

from __future__ import annotations

import json
import subprocess
from collections.abc import Callable
from dataclasses import fields
from pathlib import Path
from typing import Any

import pytest

from tests.crawling import run_crawl, scrapy_command
from tests.statskeys import record
from webrobot.demo.server import Reply, SiteServer
from webrobot.items import MINED_FIELDS, PageItem

pytestmark = pytest.mark.slow

ROBOTS_ALLOW_ALL = Reply.text("User-agent: *\nDisallow:\n")
POST = """<html lang="en"><head><title>{title} | Notes</title></head><body>
<nav><a href="/">Home</a> <a href="/post/1">One</a> <a href="/post/2">Two</a></nav>
<article><h1>{title}</h1>
<p class="byline">By <span class="author">{author}</span>,
<time datetime="{when}">some day</time></p>
<div class="entry"><p>First paragraph of {title}.</p><p>Second one.</p></div></article>
</body></html>"""
FIELDS = """
[fields]
title = { css = "article h1::text", processors = ["strip", "first"] }
author = { css = ".author::text", processors = ["strip", "first"] }
published = { xpath = "//article//time/@datetime", processors = ["date", "first"] }
text = { css = "div.entry p", processors = ["strip", "join:\\n"] }
"""


def blog(site: SiteServer) -> None:
    site.add("/robots.txt", ROBOTS_ALLOW_ALL)
    site.html("/", "<title>Home</title><a href='/post/1'>1</a> <a href='/post/2'>2</a>")
    site.html("/post/1", POST.format(title="Robots", author="Ada  Lovelace", when="2026-11-21"))
    site.html(
        "/post/2", POST.format(title="Sitemaps", author="Alan Turing", when="2026-11-22T10:00:00Z")
    )


def test_a_site_configs_fields_reach_every_item(
    make_site: Callable[..., SiteServer], tmp_path: Path
) -> None:
    site = make_site("blog")
    blog(site)
    config = tmp_path / "notes.toml"
    config.write_text(f'start_urls = ["{site.url("/")}"]\nextract = ["fields"]\n{FIELDS}', "utf-8")
    result = run_crawl(tmp_path / "out", args={"config": str(config)})
    assert result.returncode == 0, result.stderr
    assert sorted(site.targets()) == ["/", "/post/1", "/post/2", "/robots.txt"], (
        "mining fetches nothing more"
    )
    by_url = {item["url"]: item for item in result.items}
    post = by_url[site.url("/post/1")]
    assert post["fields"] == {
        "title": "Robots", "author": "Ada Lovelace", "published": "2026-11-21",
        "text": "First paragraph of Robots.\nSecond one.",
    }  # fmt: skip
    assert by_url[site.url("/post/2")]["fields"]["published"] == "2026-11-22T10:00:00+00:00"
    home = by_url[site.url("/")]
    assert home["fields"] == {"title": None, "author": None, "published": None, "text": None}
    assert set(MINED_FIELDS) <= set(post), "a mined item has every mined key"
    assert post["main_text"] is None and post["product"] is None, "parts not asked stay null"
    assert result.stat("webrobot/extract/pages") == 3
    assert result.stat("webrobot/extract/fields/found") == 2
    assert result.stat("webrobot/extract/fields/missing/author") == 1


AUTHOR = '{"author": {"css": ".author::text", "processors": ["strip", "first"]}}'


def test_fields_on_the_command_line_for_the_webrobot_spider(
    make_site: Callable[..., SiteServer], tmp_path: Path
) -> None:
    site = make_site("blog")
    blog(site)
    result = run_crawl(
        tmp_path,
        args={"start_urls": site.url("/post/1")},
        settings={"WEBROBOT_EXTRACT": "fields", "DEPTH_LIMIT": "0", "WEBROBOT_FIELDS": AUTHOR},
    )
    assert result.returncode == 0, result.stderr
    authors = {item["url"]: item["fields"]["author"] for item in result.items}
    assert authors[site.url("/post/1")] == "Ada Lovelace"
    assert authors[site.url("/post/2")] == "Alan Turing"


def test_without_mining_the_items_are_what_they_always_were(
    make_site: Callable[..., SiteServer], tmp_path: Path
) -> None:
    site = make_site("blog")
    blog(site)
    result = run_crawl(tmp_path, args={"start_urls": site.url("/")})
    assert result.returncode == 0, result.stderr
    assert len(result.items) == 3
    for item in result.items:
        assert set(item) == {f.name for f in fields(PageItem)}
    assert not [key for key in result.stats if key.startswith("webrobot/extract/")]
    assert "Mining:" not in result.log


def test_a_bad_field_stops_the_spider_with_one_line(
    make_site: Callable[..., SiteServer], tmp_path: Path
) -> None:
    site = make_site("blog")
    blog(site)
    config = tmp_path / "shop.toml"
    config.write_text(
        f'start_urls = ["{site.url("/")}"]\n[fields]\n'
        'name = { css = "h1::text" }\nprice = { css = ".price::text", processors = ["price", "cents"] }\n',
        "utf-8",
    )
    result = run_crawl(tmp_path / "out", args={"config": str(config)})
    assert result.returncode == 2
    line = f"{config}: key 'fields.price': unknown processor 'cents'"
    assert [row for row in result.log.splitlines() if line in row], result.log[-2000:]
    assert "Traceback" not in result.log
    assert result.stats["finish_reason"] == "config_error"
    assert site.targets() == [], "nothing was fetched"


def runspider(
    folder: Path, code: str, *settings: str, arguments: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    """A user's own spider (``code``), run with ``scrapy runspider`` under the add-on;
    its items in ``folder/items.jsonl``."""
    spider = folder / "spider.py"
    spider.write_text(code, "utf-8")
    options = ["DOWNLOAD_DELAY=0", "AUTOTHROTTLE_ENABLED=False", "LOG_LEVEL=INFO", *settings]
    done = scrapy_command(
        "runspider", str(spider), "-O", str(folder / "items.jsonl"),
        *(arg for option in options for arg in ("-s", option)),
        *(arg for name, value in (arguments or {}).items() for arg in ("-a", f"{name}={value}")),
        cwd=folder, timeout=120,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr[-3000:]
    return done


USER_SPIDER = """\
import os

from scrapy.linkextractors import LinkExtractor
from scrapy.spiders import CrawlSpider, Rule

from webrobot.extract import parts

# A metadata extractor that fails on every page: the crawl must go on without it.
def metadata(page, structured=None, tags=None):
    raise ValueError("cannot read " + page.url)
parts.metadata = metadata


class BlogSpider(CrawlSpider):
    name = "blog"
    start_urls = [os.environ["BLOG_START_URL"]]
    custom_settings = {"WEBROBOT_EXTRACT": ["fields", "metadata"], "WEBROBOT_FIELDS": {
        "author": {"css": ".author::text", "processors": ["strip", "first"]}}}
    rules = [Rule(LinkExtractor(), callback="parse_post", follow=True)]

    def parse_post(self, response):
        yield {"url": response.url, "title": response.css("title::text").get()}
"""


def test_a_users_own_crawl_spider_gets_the_fields_and_survives_a_failing_extractor(
    make_site: Callable[..., SiteServer], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    site = make_site("blog")
    blog(site)
    monkeypatch.setenv("BLOG_START_URL", site.url("/"))
    out, stats = tmp_path / "items.jsonl", tmp_path / "stats.json"
    done = runspider(tmp_path, USER_SPIDER, f"WEBROBOT_STATS_FILE={stats}")
    items = {i["url"]: i for i in map(json.loads, out.read_text("utf-8").splitlines())}
    assert sorted(items) == [site.url("/"), site.url("/post/1"), site.url("/post/2")]
    assert items[site.url("/post/2")] == {
        "url": site.url("/post/2"), "title": "Sitemaps | Notes", "fields": {"author": "Alan Turing"},
    }, "a dict item gets the fields, and no metadata from the extractor that failed"  # fmt: skip
    numbers = json.loads(stats.read_text("utf-8"))
    record(numbers)
    assert numbers["webrobot/extract/metadata/error"] == 3
    assert numbers["webrobot/extract/pages"] == 3
    failures = [line for line in done.stderr.splitlines() if "part 'metadata' failed" in line]
    assert len(failures) == 1 and "ValueError: cannot read" in failures[0]
    assert "Traceback" not in done.stderr
    assert "/robots.txt" in site.targets()


TEXT_SPIDER = """\
import os

from scrapy import Spider


class OwnTextSpider(Spider):
    name = "owntext"
    start_urls = [os.environ["BLOG_START_URL"] + "post/1"]

    def parse(self, response):
        # An item that carries its own main text, as mining's text part gives it.
        yield {"url": response.url, "title": "Robots",
               "main_text": "Polite crawlers read the quokkaword file first."}
"""


def test_the_index_takes_an_items_main_text_instead_of_its_own(
    make_site: Callable[..., SiteServer], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    site = make_site("blog")
    blog(site)
    monkeypatch.setenv("BLOG_START_URL", site.url("/"))
    index = tmp_path / "index"
    runspider(tmp_path, TEXT_SPIDER, f"WEBROBOT_INDEX={index}")

    def hits(word: str) -> list[str]:
        found = scrapy_command("search", "--index", str(index), "--json", word, cwd=tmp_path)
        assert found.returncode in (0, 1), found.stderr
        return [json.loads(line)["url"] for line in found.stdout.splitlines()]

    assert hits("quokkaword") == [site.url("/post/1")], "the item's text is indexed"
    assert hits("paragraph") == [], "the page's own text is not"


def test_a_shared_crawl_carries_the_mined_fields_through_redis(
    make_site: Callable[..., SiteServer], redis_server: Any, tmp_path: Path
) -> None:
    site = make_site("blog")
    blog(site)
    settings = {
        "WEBROBOT_REDIS_URL": redis_server.url, "WEBROBOT_REDIS_POLL_INTERVAL": "0.2",
        "WEBROBOT_REDIS_IDLE_CLOSE": "1", "WEBROBOT_FIELDS": AUTHOR,
    }  # fmt: skip
    result = run_crawl(tmp_path / "run", args={"start_urls": site.url("/")}, settings=settings)
    assert result.returncode == 0, result.stderr[-2000:]
    path = tmp_path / "export.jsonl"
    done = scrapy_command("webrobot-export", "webrobot", "-o", str(path),
                          "-s", f"WEBROBOT_REDIS_URL={redis_server.url}", cwd=tmp_path)  # fmt: skip
    assert done.returncode == 0, done.stderr[-2000:]
    exported = [json.loads(line) for line in path.read_text("utf-8").splitlines() if line]
    authors = {item["url"]: item["fields"]["author"] for item in exported}
    assert authors == {site.url("/"): None, site.url("/post/1"): "Ada Lovelace",
                       site.url("/post/2"): "Alan Turing"}  # fmt: skip


DOCUMENT_SPIDER = """\
import sys
import threading
import types

from webrobot.spiders.webrobot import WebrobotSpider

# A stand-in document reader: the text it was handed, and the thread it ran on.
reader = types.ModuleType("webrobot.extract.documents")
def read_document(body, url, content_type, *, max_bytes, timeout, **limits):
    if url.endswith("bad.pdf"):
        raise ValueError("hostile PDF")
    return {"main_text": body.decode("latin-1"),
            "metadata": {"title": threading.current_thread().name, "author": None, "pages": 1}}
reader.read_document = read_document
sys.modules["webrobot.extract.documents"] = reader


class DocumentSpider(WebrobotSpider):
    name = "documents"
"""


def test_documents_are_read_off_the_reactor_and_a_bad_one_still_yields_its_item(
    make_site: Callable[..., SiteServer], tmp_path: Path
) -> None:
    site = make_site("docs")
    site.add("/robots.txt", ROBOTS_ALLOW_ALL)
    site.html("/", "<title>Home</title><a href='/report.pdf'>r</a> <a href='/bad.pdf'>b</a>")
    for name in ("report", "bad"):
        site.add(
            f"/{name}.pdf",
            Reply(200, f"%PDF-1.4 {name}".encode(), {"Content-Type": "application/pdf"}),
        )
    stats = tmp_path / "stats.json"
    runspider(tmp_path, DOCUMENT_SPIDER, "WEBROBOT_EXTRACT=documents", "WEBROBOT_NON_HTML_ITEMS=True",
              f"WEBROBOT_STATS_FILE={stats}",
              arguments={"start_urls": ",".join(site.url(p) for p in ("/", "/report.pdf", "/bad.pdf"))})  # fmt: skip
    items = {
        i["url"]: i
        for i in map(json.loads, (tmp_path / "items.jsonl").read_text("utf-8").splitlines())
    }
    report = items[site.url("/report.pdf")]
    assert report["main_text"] == "%PDF-1.4 report" and report["content_type"] == "application/pdf"
    assert report["metadata"]["title"] != "MainThread", "read on a worker thread"
    bad = items[site.url("/bad.pdf")]
    assert bad["main_text"] is None and bad["metadata"] is None
    numbers = json.loads(stats.read_text("utf-8"))
    record(numbers)
    assert numbers["webrobot/extract/documents/error"] == 1
    assert numbers["webrobot/extract/documents/found"] == 1


def test_a_jekyll_post_reads_as_a_person_reads_it(
    make_site: Callable[..., SiteServer], tmp_path: Path
) -> None:
    """``-s WEBROBOT_EXTRACT=all,markdown`` on a local Jekyll blog: the post's headings,
    list items and code on lines of their own, its footer and donation plea left out, and
    the same as Markdown (tests/fixtures/maintext/jekyll)."""
    fixture = Path(__file__).parent / "fixtures" / "maintext" / "jekyll"
    expected = json.loads((fixture / "expected.json").read_text("utf-8"))
    site = make_site("jekyll")
    site.add("/robots.txt", ROBOTS_ALLOW_ALL)
    site.html("/2024/03/02/caches.html", (fixture / "page.html").read_text("utf-8"))
    result = run_crawl(
        tmp_path,
        args={"start_urls": site.url("/2024/03/02/caches.html")},
        settings={"WEBROBOT_EXTRACT": "all,markdown", "DEPTH_LIMIT": "0"},
    )
    assert result.returncode == 0, result.stderr
    (post,) = [i for i in result.items if i["url"] == site.url("/2024/03/02/caches.html")]
    lines = post["main_text"].split("\n")
    for line in expected["lines"]:
        assert line in lines, line
    markdown = post["main_markdown"].split("\n")
    for line in expected["markdown_lines"]:
        assert line in markdown, line
    for passage in expected["absent"]:
        assert passage not in post["main_text"] and passage not in post["main_markdown"]
    assert result.stat("webrobot/extract/markdown/found") == 1
    assert result.stat("webrobot/extract/text/found") == 1
