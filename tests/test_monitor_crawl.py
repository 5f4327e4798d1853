"""The monitor end to end: a local site crawled twice, changed between the crawls.

Noise only (a timestamp, a counter, a token, a rotating ad, a re-ordered list) gives
no event; a sentence added, a price changed, a page removed (404), a new page, a
planted term and a planted copy of a protected text give theirs; a decoy on the same
subject gives none. Judged by events.jsonl and by what the webhook receiver got.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.crawling import CrawlResult, run_crawl
from tests.webhookreceiver import WebhookReceiver
from webrobot.demo.server import SiteServer

PROTECTED = """The lighthouse keeper climbed the spiral stairs every evening at dusk, carrying a can
of oil and a rag to polish the great lens until it shone like a second moon.

Ships passing the headland would see the beam sweep across the water twice a minute, a signal
that the rocks below were near and that the harbour lay a short way to the north.

In the long winter the keeper wrote letters to his sister in the city, describing storms that
shook the tower and the gulls that sheltered on the gallery rail until the wind dropped."""
PARAGRAPHS = [" ".join(p.split()) for p in PROTECTED.split("\n\n")]
DECOY = [
    "Lighthouses guided ships for centuries, first with open fires and later with oil lamps.",
    "Keepers lived at the stations with their families, trimming wicks and winding clockwork.",
    "Most lights are automated today, and many towers are museums open to visitors in summer.",
]


def five_pages(site: Any) -> Any:
    """``site`` with a home page linking five small pages, ``/bad`` among them."""
    names = ["a", "b", "bad", "c", "d"]
    nav = "".join(f'<a href="/{n}">{n}</a>' for n in names)
    site.html("/", page("Home", ["Welcome to the harbour town site."], nav=nav))
    for n in names:
        site.html(f"/{n}", page(f"Page {n}", [f"This is the page called {n}."]))
    return site


def page(title: str, main: list[str], extra: str = "", nav: str = "") -> str:
    body = "".join(f"<p>{line}</p>" for line in main)
    return (f"<html><head><title>{title}</title></head><body><nav>{nav}</nav>"
            f"<main><h1>{title}</h1>{body}{extra}</main></body></html>")  # fmt: skip


def build(site: SiteServer, crawl: int) -> None:
    """The site as the first (1) or the second (2) crawl finds it."""
    links = ["/a", "/b", "/product", "/forum", "/copy", "/decoy"] + (
        ["/gone"] if crawl == 1 else ["/new"]
    )
    nav = "".join(f'<a href="{link}">{link}</a>' for link in links)
    site.html("/", page("Home", ["Welcome to the harbour town site."], nav=nav))
    stamp, views, token, ad = (
        ("Updated 2026-11-27 09:14.", "1,204 views", "a8f7e6d5c4b3a2f1e0d9c8b7", "Buy boots at Harbour Outfitters.")
        if crawl == 1 else
        ("Updated 2026-11-28 17:02.", "1,377 views", "0f1e2d3c4b5a69788796a5b4", "Ferry tickets half price this week.")
    )  # fmt: skip
    items = ["Fish market", "Old harbour", "Sea wall"]
    listing = "".join(f"<li>{i}</li>" for i in (items if crawl == 1 else reversed(items)))
    noise = (f'<p>{stamp}</p><p>{views}</p><p>Reference {token}</p><div class="ad"><p>{ad}</p></div>'
             f'<form><input type="hidden" name="csrf" value="{token}"></form>')  # fmt: skip
    site.html("/a", page("Walks", ["The coastal path runs for nine miles.", "Dogs are welcome."],
                         noise + f"<ul>{listing}</ul>"))  # fmt: skip
    b = ["The museum opens at ten.", "Entry is free."] + (
        ["The cafe closes in winter."] if crawl == 2 else []
    )
    site.html("/b", page("Museum", b, noise))
    price = "1299.00" if crawl == 1 else "1249.00"
    site.html("/product", page("Lantern", ["A brass storm lantern, made by hand."],
                               noise + f'<span itemprop="price" content="{price}">{price}</span>'))  # fmt: skip
    forum = ["Who sells good lanterns around here?"] + (
        ["I bought an ACME\nwidget last year."] if crawl == 2 else []
    )
    site.html("/forum", page("Forum", forum, noise))
    copy = ["A story we liked."] + (
        [p.replace("great", "huge") for p in reversed(PARAGRAPHS)] if crawl == 2 else []
    )
    site.html("/copy", page("Blog", copy, noise))
    site.html(
        "/decoy", page("History", DECOY[: 2 if crawl == 1 else 3], noise if crawl == 1 else "")
    )
    if crawl == 1:
        site.html("/gone", page("Old news", ["The pier reopened."]))
    else:
        site.routes.pop("/gone", None)  # 404 now, and no longer linked
        site.html("/new", page("Events", ["A regatta on Saturday."]))


def events_of(folder: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in (folder / "events.jsonl").read_text("utf-8").splitlines()]


def crawl(
    tmp_path: Path, name: str, site: SiteServer, receiver: WebhookReceiver, folder: Path
) -> CrawlResult:
    return run_crawl(tmp_path / name, args={"start_urls": site.url("/")}, settings={
        "WEBROBOT_MONITOR_DIR": str(folder),
        "WEBROBOT_WATCH": str(tmp_path / "watch.toml"),
        "WEBROBOT_MONITOR_WEBHOOK": receiver.url,
        "WEBROBOT_MONITOR_IGNORE_SELECTORS": ".ad",
        "WEBROBOT_MONITOR_WEBHOOK_BACKOFF_MAX": "0.2",
        "WEBROBOT_REPORT_ENABLED": "False",
    })  # fmt: skip


@pytest.mark.slow
def test_two_crawls_give_the_events_of_the_changes_and_none_of_the_noise(
    tmp_path: Path, make_site: Any
) -> None:
    site = make_site()
    (tmp_path / "keeper.txt").write_text(PROTECTED, "utf-8")
    (tmp_path / "watch.toml").write_text(
        '[[rule]]\nname = "brand"\nterms = ["Acme Widget"]\n\n[[rule]]\nname = "story"\ntexts = ["keeper.txt"]\n',
        "utf-8",
    )
    folder = tmp_path / "monitor"
    with WebhookReceiver() as receiver:
        receiver.refuse_next = 3  # the receiver fails for a while
        build(site, 1)
        first = crawl(tmp_path, "one", site, receiver, folder)
        assert first.returncode == 0, first.stderr[-3000:]
        once = events_of(folder)
        pages = {"/", "/a", "/b", "/product", "/forum", "/copy", "/decoy", "/gone"}
        assert sorted((e["event"], e["url"]) for e in once) == sorted(
            ("new", site.url(p)) for p in pages
        )

        build(site, 2)
        second = crawl(tmp_path, "two", site, receiver, folder)
        assert second.returncode == 0, second.stderr[-3000:]
        assert site.count("/gone") == 2, "the known page is re-checked, linked or not"
        assert "Traceback" not in first.log + second.log
        assert "Deprecat" not in first.log + second.log
        told = events_of(folder)[len(once) :]
        by = {(e["event"], e["url"].removeprefix(site.url("/")[:-1])): e for e in told}
        assert sorted(by) == sorted([
            ("changed", "/b"), ("changed", "/product"), ("removed", "/gone"), ("new", "/new"),
            ("changed", "/forum"), ("match", "/forum"), ("changed", "/copy"), ("match", "/copy"),
            ("changed", "/decoy"),  # more on the same subject: a change, not a copy
        ]), told  # fmt: skip
        assert by["changed", "/b"]["changes"] == [
            {"field": "main_text", "added": ["The cafe closes in winter."], "removed": []}
        ]
        assert by["changed", "/product"]["changes"] == [
            {"field": "price", "old": "1299.00", "new": "1249.00"}
        ]
        assert by["removed", "/gone"]["status"] == 404
        assert (by["match", "/forum"]["rule"], by["match", "/forum"]["kind"]) == ("brand", "term")
        assert by["match", "/forum"]["evidence"]["term"] == "Acme Widget"
        copy = by["match", "/copy"]
        assert (copy["rule"], copy["kind"], copy["evidence"]["text"]) == (
            "story",
            "text",
            "keeper.txt",
        )
        assert copy["score"] >= 0.5
        assert second.stat("webrobot/monitor/events/changed") == 5
        assert second.stat("webrobot/monitor/unchanged") == 2  # / and /a: noise only

    # The receiver failed at first, yet got every event once, under its own key.
    everything = events_of(folder)
    assert receiver.refused == 3
    assert sorted(receiver.keys()) == sorted(e["id"] for e in everything)
    assert all(key == body["id"] for key, body in receiver.accepted)
    # The feed lists them too, newest first.
    feed = (folder / "events.atom").read_text("utf-8")
    assert feed.count("<entry>") == len(everything)
    assert feed.index(everything[-1]["id"]) < feed.index(everything[0]["id"])


def _lines(folder: Path) -> list[str]:
    path = folder / "events.jsonl"
    return path.read_text("utf-8").splitlines() if path.exists() else []


@pytest.mark.slow
def test_a_killed_crawl_leaves_the_folder_whole(tmp_path: Path, make_site: Any) -> None:
    """SIGKILL in the middle of a crawl, then a crawl with the same folder: every page
    is told ``new`` exactly once across the two, and nothing else is told."""
    from tests.crawling import start_crawl, wait_until
    from webrobot.demo.server import Reply

    site = make_site()
    count = 24
    nav = "".join(f'<a href="/p{i}">{i}</a>' for i in range(count))
    site.html("/", page("Home", ["The index of the site."], nav=nav))
    for i in range(count):
        site.add(
            f"/p{i}",
            Reply.html(page(f"Page {i}", [f"This is page number {i} of the site."]), delay=0.15),
        )
    folder = tmp_path / "monitor"
    settings = {"SPIDER_MODULES": "webrobot.spiders,tests.monitorspider", "WEBROBOT_MONITOR_DIR": str(folder),
                "WEBROBOT_REPORT_ENABLED": "False", "CONCURRENT_REQUESTS_PER_DOMAIN": "2"}  # fmt: skip
    running = start_crawl(
        tmp_path / "one", spider="monitored", args={"site": site.url("/")}, settings=settings
    )
    try:
        wait_until(lambda: len(_lines(folder)) >= 6, 60, "a few events before the kill")
    finally:
        running.process.kill()
        running.wait(30)  # reads and closes its stderr
    assert len(_lines(folder)) < count + 1, "killed before the end"
    again = run_crawl(
        tmp_path / "two", spider="monitored", args={"site": site.url("/")}, settings=settings
    )
    assert again.returncode == 0, again.log[-3000:]
    told = []
    for line in _lines(folder):
        try:
            told.append(json.loads(line))
        except ValueError:
            continue  # a line the kill cut short
    assert len({e["id"] for e in told}) == len(told)
    assert sorted((e["event"], e["url"]) for e in told) == sorted(
        [("new", site.url("/"))] + [("new", site.url(f"/p{i}")) for i in range(count)]
    )


@pytest.mark.slow
def test_a_site_configs_watch_rules_and_ignore_selector_reach_the_monitor(
    tmp_path: Path, make_site: Any
) -> None:
    """One site config carries the monitor folder, a ``[[watch.rule]]`` term and an
    ignore selector: the planted term is a ``match``; a change only inside the
    ignored part of a page is no event."""
    site = make_site()
    sites = tmp_path / "sites"
    sites.mkdir()
    folder = tmp_path / "monitor"
    (sites / "harbour.toml").write_text(
        f'start_urls = ["{site.url("/")}"]\nmonitor_dir = "{folder}"\n'
        'monitor_ignore_selectors = [".notice"]\n'
        '[[watch.rule]]\nname = "brand"\nterms = ["Acme Widget"]\n',
        "utf-8",
    )
    settings = {"WEBROBOT_SITES_DIRS": str(sites), "WEBROBOT_REPORT_ENABLED": "False"}

    def build_small(crawl: int) -> None:
        site.html("/", page("Home", ["Welcome to the harbour town site."],
                            nav='<a href="/walks">walks</a><a href="/forum">forum</a>'))  # fmt: skip
        notice = ("The ferry leaves from the north quay." if crawl == 1
                  else "The lifeboat station holds an open day in June.")  # fmt: skip
        site.html("/walks", page("Walks", ["The coastal path runs for nine miles."],
                                 f'<div class="notice"><p>{notice}</p></div>'))  # fmt: skip
        forum = ["Who sells good lanterns around here?"] + (
            ["I bought an Acme Widget last year."] if crawl == 2 else []
        )
        site.html("/forum", page("Forum", forum))

    build_small(1)
    first = run_crawl(tmp_path / "one", spider="harbour", settings=settings)
    assert first.returncode == 0, first.log[-3000:]
    once = events_of(folder)
    assert sorted(e["event"] for e in once) == ["new", "new", "new"]
    build_small(2)
    second = run_crawl(tmp_path / "two", spider="harbour", settings=settings)
    assert second.returncode == 0, second.log[-3000:]
    told = events_of(folder)[len(once) :]
    assert sorted((e["event"], e["url"]) for e in told) == [
        ("changed", site.url("/forum")),
        ("match", site.url("/forum")),
    ], told
    match = next(e for e in told if e["event"] == "match")
    assert (match["rule"], match["evidence"]["term"]) == ("brand", "Acme Widget")


@pytest.mark.slow
def test_an_event_the_receiver_refuses_for_good_is_a_dead_letter_and_the_rest_arrive(
    tmp_path: Path, make_site: Any
) -> None:
    site = five_pages(make_site())
    folder = tmp_path / "monitor"
    with WebhookReceiver() as receiver:
        receiver.answer = lambda event: 422 if event["url"].endswith("/bad") else None
        result = run_crawl(tmp_path / "one", args={"start_urls": site.url("/")}, settings={
            "WEBROBOT_MONITOR_DIR": str(folder), "WEBROBOT_MONITOR_WEBHOOK": receiver.url,
            "WEBROBOT_REPORT_ENABLED": "False", "CONCURRENT_REQUESTS": "1",
        })  # fmt: skip
    assert result.returncode == 0, result.stderr[-3000:]
    told = events_of(folder)
    assert len(told) == 6
    [bad] = [e for e in told if e["url"] == site.url("/bad")]
    assert receiver.keys() == [e["id"] for e in told if e is not bad], "the rest, in order"
    refused = [key for key, status in receiver.answered if status == 422]
    assert refused == [bad["id"]], "refused once, never sent again"
    dead = [json.loads(x) for x in (folder / "dead-letters.jsonl").read_text("utf-8").splitlines()]
    assert dead == [bad]
    assert result.stat("webrobot/monitor/webhook/dead_letter") == len(refused)
    assert result.stat("webrobot/monitor/webhook/delivered") == len(receiver.keys())
    assert result.stat("webrobot/monitor/webhook/left") == 0
    assert result.log.count("(status 422)") == 1
