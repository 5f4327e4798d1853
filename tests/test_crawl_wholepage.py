"""End to end: a blog whose every page ends its document before its body
(``</head></html><body>``, as Hexo's "yilia" theme writes it) is crawled whole, by the
``webrobot`` spider and by a user's ``CrawlSpider`` with Scrapy's ``LinkExtractor``,
judged by what the server was asked for; meta robots in such a page's head still count."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from tests.crawling import run_crawl, write_project
from webrobot.demo.server import Reply, SiteServer

pytestmark = pytest.mark.slow

POSTS = [f"/2026/12/0{n}/post-{n}/" for n in range(1, 6)]
PAGES = ["/", "/page/2/", "/archives/", *POSTS, "/private/"]


def yilia(title: str, links: list[str], head: str = "") -> str:
    """A page as the theme writes it: its head template closes the document."""
    anchors = "".join(f'<li><a href="{href}">{href}</a></li>' for href in links)
    return (
        f"<!DOCTYPE html><html><head><meta charset='utf-8'><title>{title} | Blog</title>"
        f"{head}</head></html>\n<body><div id='container'><nav><ul>{anchors}</ul></nav>"
        f"<article><h1>{title}</h1><p>Words of {title}.</p></article></div></body></html>"
    )


def blog(site: SiteServer) -> None:
    site.add("/robots.txt", Reply.text("User-agent: *\nDisallow:\n"))
    site.html("/", yilia("Home", ["/2026/12/01/post-1/", "/page/2/", "/archives/"]))
    site.html("/page/2/", yilia("Page 2", ["/", "/2026/12/02/post-2/"]))
    site.html("/archives/", yilia("Archives", POSTS))
    for n, post in enumerate(POSTS, 1):
        nxt = POSTS[n] if n < len(POSTS) else "/private/"
        site.html(post, yilia(f"Post {n}", ["/", nxt]))
    site.html(
        "/private/",
        yilia("Private", ["/private/child/"], '<meta name="robots" content="noindex,nofollow">'),
    )
    site.html("/private/child/", yilia("Child", []))


def test_the_webrobot_spider_reaches_every_page(
    make_site: Callable[..., SiteServer], tmp_path: Path
) -> None:
    site = make_site("blog")
    blog(site)
    result = run_crawl(tmp_path, args={"start_urls": site.url("/")})
    assert result.returncode == 0, result.stderr[-3000:] + result.log[-2000:]
    assert "Traceback" not in result.log
    requested = set(site.targets())
    assert set(PAGES) <= requested
    assert all(site.count(page) == 1 for page in PAGES)
    # the head before the early end is read: noindex, nofollow obeyed
    assert "/private/child/" not in requested
    items = {item["url"][len(site.origin) :]: item for item in result.items}
    assert set(items) == set(PAGES) - {"/private/"}
    assert items["/2026/12/03/post-3/"]["title"] == "Post 3 | Blog"
    assert result.stat("webrobot/meta/noindex") == 1
    assert result.stat("webrobot/meta/nofollow") == 1
    assert result.stat("webrobot/page/early_end") == len(PAGES)
    assert result.stat("webrobot/page/markup_fallback") == 0  # the tree itself has the links


def test_a_crawl_spider_with_scrapys_link_extractor_reaches_every_page(
    make_site: Callable[..., SiteServer], tmp_path: Path
) -> None:
    site = make_site("blog")
    blog(site)
    project = write_project(tmp_path / "project", [site.url("/")])
    result = run_crawl(tmp_path / "out", spider="site", project=project)
    assert result.returncode == 0, result.stderr[-3000:] + result.log[-2000:]
    requested = set(site.targets())
    assert set(PAGES) <= requested
    assert "/private/child/" not in requested
    titles = {item["url"][len(site.origin) :]: item["title"] for item in result.items}
    assert titles["/archives/"] == "Archives | Blog"
    assert "/private/" not in titles
    # every page fetched (the start page twice: Scrapy fetches its start request unfiltered)
    pages_fetched = [target for target in site.targets() if target != "/robots.txt"]
    assert result.stat("webrobot/page/early_end") == len(pages_fetched)
