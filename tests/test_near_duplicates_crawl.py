"""Near duplicates end to end: a site with an article, a copy of it with a changed date
line and a different ad, and a different article. With ``WEBROBOT_NEAR_DUPLICATES`` only
the copy is dropped, and its links are not followed, also when the copy is fetched after
the job was paused or killed and resumed; judged by the items and by what the server saw
requested."""

from __future__ import annotations

import json
import random
import sqlite3
from collections import Counter
from collections.abc import Callable
from contextlib import closing
from pathlib import Path

import pytest

from tests.crawling import command_in_process, run_crawl, start_crawl, wait_until
from tests.redisserver import RedisServer
from tests.test_crashsafe_crawl import Job
from tests.test_distributed_crawl import LONG_LEASES, REDIS_FAST
from webrobot.demo.server import Reply, SiteServer
from webrobot.frontier.sqlitefrontier import CONTENT_NEAR

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
    settings = {**REDIS_FAST, **LONG_LEASES, "WEBROBOT_REDIS_URL": redis_server.url, "WEBROBOT_NEAR_DUPLICATES": "3",
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
    code, said = command_in_process("webrobot-export", "webrobot", "-o", str(path),
                                    "-s", f"WEBROBOT_REDIS_URL={redis_server.url}")  # fmt: skip
    assert code == 0, said
    prefix = site.url("/")[:-1]
    exported = {
        json.loads(line)["url"].removeprefix(prefix) for line in path.read_text().splitlines()
    }
    assert exported == {"/", "/market", "/oaks", "/only-from-oaks"}
    assert site.count("/copy1") == 0 and site.count("/only-from-copy") == 0, "links not followed"
    assert sum(r.stat("webrobot/dupes/near/items") for r in results) == 2  # /republished, /copy0


# -- JOBDIR: the near-duplicate index across a pause and across a crash ---------------------

STORIES = 4


def story_text(k: int) -> list[str]:
    """Three paragraphs of 30 words, different for each ``k`` (SimHashes ~32 bits apart)."""
    rng = random.Random(k)
    words = ARTICLE[0].split() + OTHER[0].split()
    return [" ".join(rng.choice(words) for _ in range(30)) + "." for _ in range(3)]


def jobdir_site(site: SiteServer, story_delay: float = 0.0, deep_delay: float = 0.0) -> None:
    """``/`` links ``/storyK``, each a different article linking ``/deepK`` (a short page),
    which links ``/copyK``: the article again with another date line and advertisement,
    linking ``/only-from-copyK``. Breadth-first, one request at a time: every story is
    fetched before any copy."""
    site.html(
        "/", page("News", "Today", ["Local news."], "", [f"/story{k}" for k in range(STORIES)])
    )
    for k in range(STORIES):
        site.add(f"/story{k}", Reply.html(page(f"Story {k}", "Published 27 November 2026, 09:14", story_text(k),
                                               "Buy boots at Harbour Outfitters.", [f"/deep{k}"]), delay=story_delay))  # fmt: skip
        site.add(f"/deep{k}", Reply.html(page(f"Deep {k}", "x", [f"More about story {k}."], "", [f"/copy{k}"]),
                                         delay=deep_delay))  # fmt: skip
        site.html(f"/copy{k}", page(f"Story {k}", "Updated 28 November 2026 at 17:02 GMT", story_text(k),
                                    "Ferry tickets are half price this week.", [f"/only-from-copy{k}"]))  # fmt: skip
        site.html(f"/only-from-copy{k}", page("Linked", "x", ["Only a copy links here."], "", []))


def judge_jobdir_crawl(site: SiteServer, item_urls: list[str]) -> None:
    """Each page fetched and itemised; each copy fetched, its item dropped, its link never requested."""
    prefix = site.url("/")[:-1]
    items = Counter(url.removeprefix(prefix) for url in item_urls)
    expected = {"/"} | {f"/{name}{k}" for name in ("story", "deep") for k in range(STORIES)}
    assert set(items) == expected, f"items: {sorted(items)}"
    assert max(items.values()) == 1, "an item written twice"
    for k in range(STORIES):
        assert site.count(f"/copy{k}") == 1, "the copy is fetched (its content is unknown before)"
        assert site.count(f"/only-from-copy{k}") == 0, "a near copy's links are not followed"


@pytest.mark.parametrize("scheduler", ["crash-safe", "scrapy"])
def test_a_near_copy_of_a_page_crawled_before_a_pause_is_dropped_after_the_resume(
    make_site: Callable[..., SiteServer], tmp_path: Path, scheduler: str
) -> None:
    site = make_site()
    jobdir_site(site, deep_delay=0.8)
    settings = {"JOBDIR": str(tmp_path / "job"), "LOG_LEVEL": "INFO", "WEBROBOT_NEAR_DUPLICATES": "3",
                "WEBROBOT_REPORT_ENABLED": "False"}  # fmt: skip
    if scheduler == "scrapy":  # its JOBDIR queue; the near index then goes to webrobot-near.store
        settings["SCHEDULER"] = "scrapy.core.scheduler.Scheduler"
    args = {"start_urls": site.url("/")}

    first = start_crawl(tmp_path / "run1", args=args, settings=settings)
    try:
        wait_until(lambda: site.count("/deep0") > 0, timeout=60, what="every story fetched")
    finally:
        first.interrupt()
    run1 = first.wait(timeout=60)
    assert run1.returncode == 130 and run1.stats["finish_reason"] == "shutdown", run1.log[-3000:]
    assert all(site.count(f"/story{k}") == 1 for k in range(STORIES))
    # Scrapy finishes what its downloader holds before it closes: a copy may be among them.
    copies_before = [t for t in site.targets() if t.startswith("/copy")]
    assert len(copies_before) < STORIES, "paused before the last copy"
    assert run1.stat("webrobot/dupes/stored/near") == STORIES
    if scheduler == "scrapy":
        assert (tmp_path / "job" / "webrobot-near.store").exists()

    run2 = run_crawl(tmp_path / "run2", args=args, settings=settings)
    assert run2.returncode == 0 and run2.stats["finish_reason"] == "finished", run2.log[-3000:]
    copies_after = STORIES - len(copies_before)
    assert run2.stat("webrobot/dupes/near/resumed") == STORIES
    # Every copy fetched after the resume is a near copy of a story fetched before the pause.
    assert run2.stat("webrobot/dupes/near/items") == copies_after
    assert run2.stat("webrobot/dupes/near/links_suppressed") == copies_after
    assert run2.stat("webrobot/dupes/stored/near") == STORIES, "no copy was recorded"
    judge_jobdir_crawl(site, run1.item_urls() + run2.item_urls())
    assert all(site.count(f"/story{k}") == 1 for k in range(STORIES)), "no story fetched again"
    assert "Traceback" not in run1.log + run2.log


def test_a_near_copy_of_a_page_crawled_before_a_sigkill_is_dropped_after_the_resume(
    make_site: Callable[..., SiteServer], tmp_path: Path
) -> None:
    """Killed while a story is in flight, right after the stories before it were
    acknowledged: those are recognised in their copies; the one in flight is fetched
    again and is not taken for a copy of itself."""
    site = make_site()
    jobdir_site(site, story_delay=0.6)
    job = Job(tmp_path, site.url("/"), WEBROBOT_NEAR_DUPLICATES="3", CONCURRENT_REQUESTS_PER_DOMAIN="1",
              WEBROBOT_REPORT_ENABLED="False")  # fmt: skip
    database = tmp_path / "job" / "webrobot-frontier.sqlite"

    def near_rows() -> int:
        if not database.exists():
            return 0
        with closing(sqlite3.connect(f"file:{database}?mode=ro", uri=True, timeout=5)) as db:
            try:
                query = "SELECT count(*) FROM content WHERE kind = ?"
                return int(db.execute(query, (CONTENT_NEAR,)).fetchone()[0])
            except sqlite3.OperationalError:  # the schema is not written yet
                return 0

    job.start()
    try:
        wait_until(lambda: near_rows() >= 2, timeout=60, what="two stories acknowledged")
    finally:
        job.kill()
    assert not [t for t in site.targets() if t.startswith("/copy")], "killed before any copy"
    committed = near_rows()
    assert 2 <= committed < STORIES, "killed in the middle of the stories"

    job.start()
    job.finish()
    stats = json.loads((tmp_path / "stats.json").read_text())
    assert stats["finish_reason"] == "finished"
    assert stats["webrobot/dupes/near/resumed"] == committed
    assert stats["webrobot/dupes/near/items"] == STORIES, (
        "every copy dropped, also of stories before the kill"
    )
    judge_jobdir_crawl(site, [str(item["url"]) for item in job.items()])
    assert max(site.count(f"/story{k}") for k in range(STORIES)) <= 2
    assert "Resumed the frontier of this job" in job.log() and "Traceback" not in job.log()
