"""Near duplicates end to end: a site with an article, a copy of it with a changed date
line and a different ad, and a different article. With ``WEBROBOT_NEAR_DUPLICATES`` only
the copy is dropped, and its links are not followed; judged by the items and by what
the server saw requested."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.crawling import run_crawl, scrapy_command, start_crawl
from tests.redisserver import RedisServer
from tests.test_distributed_crawl import REDIS_FAST
from webrobot.demo.server import SiteServer

pytestmark = pytest.mark.slow

ARTICLE = [
    (
        "The harbour board met on Tuesday evening to decide the future of the old fish market,"
        " which has stood empty since the last trawler company moved its boats to the new quay."
    ),
    (
        "Several members argued that the building should be sold to a developer who wants to turn"
        " it into flats, while others said the town needs a covered market for local growers."
    ),
    (
        "After two hours of debate the board agreed to ask the council for a survey of the roof and"
        " the sea wall before any decision is taken, and to hold a public meeting in the spring."
    ),
]
OTHER = [
    (
        "Volunteers planted four hundred young oak trees along the river path on Saturday morning,"
        " the largest planting the conservation group has organised in more than ten years."
    ),
    (
        "The saplings were grown from acorns collected in the valley two autumns ago and raised in"
        " a nursery behind the primary school, where pupils watered them through the dry summer."
    ),
    (
        "The group hopes the new wood will shade the path and give a home to birds and insects,"
        " and it plans a second planting on the far bank once the winter floods have passed."
    ),
]


def page(title: str, date: str, paragraphs: list[str], ad: str, links: list[str]) -> str:
    body = "".join(f"<p>{p}</p>" for p in paragraphs)
    nav = "".join(f'<a href="{link}">{link}</a>' for link in links)
    return (
        f"<html><head><title>{title}</title></head><body><nav>{nav}</nav><article>"
        f"<h1>{title}</h1><p class='date'>{date}</p>{body}</article>"
        f"<aside class='ad'><p>{ad}</p></aside></body></html>"
    )


def build(site: SiteServer) -> None:
    site.html("/", page("News", "Today", ["Local news."], "", ["/market", "/oaks"]))
    site.html("/market", page("Market", "Published 27 November 2026, 09:14", ARTICLE,
                              "Buy boots at Harbour Outfitters.", ["/republished"]))  # fmt: skip
    site.html("/republished", page("Market", "Updated 28 November 2026 at 17:02 GMT", ARTICLE,
                                   "Ferry tickets are half price this week.", ["/only-from-copy"]))  # fmt: skip
    site.html("/oaks", page("Oaks", "Published 27 November 2026, 10:30", OTHER,
                            "Buy boots at Harbour Outfitters.", ["/only-from-oaks"]))  # fmt: skip
    site.html("/only-from-copy", page("Linked", "x", ["A page only the copy links to."], "", []))
    site.html("/only-from-oaks", page("Linked", "x", ["A page only the oaks link to."], "", []))


def crawl(tmp_path: Path, site: SiteServer, **settings: str):  # type: ignore[no-untyped-def]
    return run_crawl(tmp_path, args={"start_urls": site.url("/")},
                     settings={"WEBROBOT_REPORT_ENABLED": "False", **settings})  # fmt: skip


def test_only_the_near_copy_is_dropped_and_its_links_are_not_followed(
    make_site: Callable[..., SiteServer], tmp_path: Path
) -> None:
    site = make_site()
    build(site)
    result = crawl(tmp_path / "near", site, WEBROBOT_NEAR_DUPLICATES="3")
    assert result.returncode == 0, result.log[-3000:]
    urls = {url.removeprefix(site.url("/")[:-1]) for url in result.item_urls()}
    assert urls == {"/", "/market", "/oaks", "/only-from-oaks"}
    assert site.count("/republished") == 1, "fetched, then dropped as a near copy"
    assert site.count("/only-from-copy") == 0, "a near copy's links are not followed"
    assert result.stat("webrobot/dupes/near/items") == 1
    assert result.stat("webrobot/dupes/near/links_suppressed") == 1
    assert result.stat("webrobot/dupes/content") == 0, "not an exact copy: counted apart"
    assert "Near-duplicate content" in result.log and "Traceback" not in result.log


def test_without_the_setting_the_copy_is_kept(
    make_site: Callable[..., SiteServer], tmp_path: Path
) -> None:
    site = make_site()
    build(site)
    result = crawl(tmp_path / "off", site)
    assert result.returncode == 0, result.log[-3000:]
    urls = {url.removeprefix(site.url("/")[:-1]) for url in result.item_urls()}
    assert {"/republished", "/only-from-copy"} <= urls
    assert result.stat("webrobot/dupes/near/items") == 0


def test_a_distance_out_of_range_is_one_line(
    make_site: Callable[..., SiteServer], tmp_path: Path
) -> None:
    site = make_site()
    build(site)
    result = crawl(tmp_path / "bad", site, WEBROBOT_NEAR_DUPLICATES="9")
    assert "setting WEBROBOT_NEAR_DUPLICATES='9': expected a whole number from 0 to 3" in (
        result.log + result.stderr
    )
    assert "Traceback" not in result.log + result.stderr
    assert site.count("/market") == 0


def test_two_workers_of_a_shared_crawl_drop_the_near_copy_once(
    make_site: Callable[..., SiteServer], tmp_path: Path, redis_server: RedisServer
) -> None:
    site = make_site()
    build(site)
    # More near copies, each linked from the last: whichever worker takes one, it is dropped.
    for n in range(3):
        site.html(f"/copy{n}", page("Market", f"Seen {n} hours ago", ARTICLE,
                                    f"Advert number {n}.", [f"/copy{n + 1}"]))  # fmt: skip
    site.html("/oaks", page("Oaks", "Published", OTHER, "Ad.", ["/only-from-oaks", "/copy0"]))
    settings = {**REDIS_FAST, "WEBROBOT_REDIS_URL": redis_server.url, "WEBROBOT_NEAR_DUPLICATES": "3",
                "WEBROBOT_REPORT_ENABLED": "False"}  # fmt: skip
    crawls = [
        start_crawl(
            tmp_path / f"w{n}",
            args={"start_urls": site.url("/")},
            settings={**settings, "USER_AGENT": f"worker-{n}"},
        )
        for n in range(2)
    ]
    results = [c.wait() for c in crawls]
    assert [r.returncode for r in results] == [0, 0], [r.log[-2000:] for r in results]
    path = tmp_path / "export.jsonl"
    done = scrapy_command("webrobot-export", "webrobot", "-o", str(path),
                          "-s", f"WEBROBOT_REDIS_URL={redis_server.url}")  # fmt: skip
    assert done.returncode == 0, done.stderr
    prefix = site.url("/")[:-1]
    exported = {
        json.loads(line)["url"].removeprefix(prefix) for line in path.read_text().splitlines()
    }
    assert exported == {"/", "/market", "/oaks", "/only-from-oaks"}
    assert site.count("/copy1") == 0 and site.count("/only-from-copy") == 0, "links not followed"
    assert sum(r.stat("webrobot/dupes/near/items") for r in results) == 2  # /republished, /copy0
