"""End-to-end: pages whose images live on hosts that are gone. Every live page is
itemised and its links followed, the dead images are listed as unfetched with the
reason, the crawl ends in seconds, and a re-crawl does not ask the dead hosts again.

The dead names end in ``.invalid`` (RFC 6761) and the crawls run with
``WEBROBOT_RESOLVE_ONLY``: they fail in webrobot's resolver at once, no DNS query
leaves the machine. The refused host is a port on 127.0.0.1 nothing listens on.
Timings of the same crawl at full size are in ``benchmarks/dead_embeds.py``.
"""

from __future__ import annotations

import json
import re
import socket
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.crawling import CrawlResult, run_crawl
from tests.imagefiles import picture
from webrobot.demo.server import Reply, SiteServer

pytest.importorskip("imagehash")
pytestmark = pytest.mark.slow

MakeSite = Callable[..., SiteServer]

PAGES = 12
#: A crawl that waited on its dead hosts as it used to (two minutes each) fails here.
HANG_GUARD = 90.0


def closed_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def dead_images(page: int, refused_port: int) -> list[str]:
    """A shared dead CDN, two names of the page's own, and a port that refuses."""
    return [
        f"http://cdn.gone.invalid/p{page}.png",
        f"http://img{page}-a.gone.invalid/x.png",
        f"https://img{page}-b.gone.invalid/y.jpg",
        f"http://127.0.0.1:{refused_port}/z{page}.png",
    ]


def dead_embeds_site(make_site: MakeSite, refused_port: int, pages: int = PAGES) -> SiteServer:
    site = make_site("dead-embeds")
    site.add("/robots.txt", Reply.text(""))
    for page in range(pages):
        links = "".join(
            f'<a href="/p/{j}">page {j}</a>' for j in (2 * page + 1, 2 * page + 2) if j < pages
        )
        images = "".join(f'<img src="{url}">' for url in dead_images(page, refused_port))
        site.html(
            f"/p/{page}",
            f"<html><head><title>Page {page}</title></head><body><p>Page {page}.</p>"
            f'{images}<img src="/live{page}.png" alt="live">{links}</body></html>',
        )
        png = picture(30 + page, 20, seed=page)
        site.add(f"/live{page}.png", Reply(200, png, {"Content-Type": "image/png"}))
    return site


def crawl(site: SiteServer, workdir: Path, memory: Path, **settings: str) -> CrawlResult:
    return run_crawl(
        workdir,
        args={"start_urls": site.url("/p/0")},
        settings={
            "WEBROBOT_EXTRACT": "images",
            "WEBROBOT_DEAD_HOSTS_FILE": str(memory),
            "WEBROBOT_ROBOTS_BACKOFF_BASE": "0.5",
            **settings,
        },
        timeout=HANG_GUARD,
    )


def images_by_kind(item: dict[str, Any]) -> dict[str, list[dict[str, Any]]]:
    kinds: dict[str, list[dict[str, Any]]] = {"live": [], "dead": []}
    for image in item["images"]:
        kinds["dead" if "gone.invalid" in image["url"] or "/z" in image["url"] else "live"].append(
            image
        )
    return kinds


def check_crawl(
    result: CrawlResult, site: SiteServer, refused_port: int, pages_count: int = PAGES
) -> None:
    assert result.returncode == 0, result.stderr[-2000:]
    assert "Traceback" not in result.log, result.log[-3000:]
    pages = [f"/p/{n}" for n in range(pages_count)]
    # every page fetched (its links followed) and itemised
    assert sorted(t for t in site.targets() if t.startswith("/p/")) == sorted(pages)
    assert sorted(item["url"].split(site.origin, 1)[1] for item in result.items) == sorted(pages)
    for item in result.items:
        page = int(item["url"].rsplit("/", 1)[1])
        kinds = images_by_kind(item)
        [live] = kinds["live"]
        assert live["status"] == "described" and len(live["phash"]) == 16, live
        assert live["width"] == 30 + page
        reasons = {image["url"]: (image["status"], image.get("reason")) for image in kinds["dead"]}
        expected = {url: ("unfetched", "no_such_name") for url in dead_images(page, refused_port)}
        expected[f"http://127.0.0.1:{refused_port}/z{page}.png"] = ("unfetched", "refused")
        assert reasons == expected, item["url"]
    assert result.stat("webrobot/extract/images/described") == pages_count
    assert result.stat("webrobot/extract/images/unfetched") == 4 * pages_count


def test_dead_embeds_cost_seconds_and_a_recrawl_remembers_them(
    make_site: MakeSite, tmp_path: Path
) -> None:
    refused_port = closed_port()
    site = dead_embeds_site(make_site, refused_port)
    memory = tmp_path / "state" / "dead-hosts.json"

    first = crawl(site, tmp_path / "first", memory)
    check_crawl(first, site, refused_port)
    # Each dead host found once: the shared CDN, two names per page, the refused port.
    assert first.stat("webrobot/hosts/dead/no_such_name") == 1 + 2 * PAGES
    assert first.stat("webrobot/hosts/dead/refused") == 1
    assert first.stat("webrobot/robots/deferred_dns") >= 1 + 2 * PAGES
    # said once: the first host given up, then all of them in one line at the end
    [closing] = [line for line in first.log.splitlines() if "dead hosts (" in line]
    assert f"Gave up on {2 + 2 * PAGES} dead hosts" in closing and str(memory) in closing
    assert sum("Crawl health" in line for line in first.log.splitlines()) == 1
    # The crawl did not wait for the dead hosts' robots.txt to be given up (2 min each).
    assert first.stat("elapsed_time_seconds") < HANG_GUARD / 2
    kept = json.loads(memory.read_text("utf-8"))
    assert "cdn.gone.invalid" in kept["hosts"] and f"127.0.0.1:{refused_port}" in kept["hosts"]
    assert len(kept["hosts"]) == 2 + 2 * PAGES

    site.hits.clear()
    again = crawl(site, tmp_path / "again", memory)
    check_crawl(again, site, refused_port)
    # Nothing asked of the dead hosts: no robots.txt fetched, no image requested.
    assert again.stat("webrobot/hosts/dead/remembered") == 2 + 2 * PAGES
    assert again.stat("webrobot/hosts/dead/skipped_remembered") == 4 * PAGES
    assert again.stat("webrobot/robots/deferred_dns") == 0
    assert again.stat("webrobot/robots/deferred") == 0
    assert again.stat("webrobot/hosts/dead/no_such_name", 0) == 0
    assert again.stat("webrobot/hosts/dead/refused", 0) == 0
    assert "remembered dead from earlier crawls" in again.log
    assert "gone.invalid" not in "".join(
        line for line in again.log.splitlines() if "robots.txt of" in line
    )

    # A week later the hosts are asked again (one of them may have come back).
    for entry in kept["hosts"].values():
        entry["found"] -= 8 * 86400
    memory.write_text(json.dumps(kept), "utf-8")
    site.hits.clear()
    later = crawl(site, tmp_path / "later", memory)
    check_crawl(later, site, refused_port)
    assert later.stat("webrobot/hosts/dead/remembered", 0) == 0
    assert later.stat("webrobot/hosts/dead/no_such_name") == 1 + 2 * PAGES


def test_an_item_waits_for_its_images_at_most_the_bound(
    make_site: MakeSite, tmp_path: Path
) -> None:
    """An image host that is neither dead nor answering (its robots.txt answers 503,
    then its image would take a minute): the item goes out after
    WEBROBOT_IMAGES_WAIT_MAX with the image unfetched for ``timeout``."""
    site = make_site("pages")
    slow = make_site("slow-images")
    site.add("/robots.txt", Reply.text(""))
    slow.add("/robots.txt", Reply.text("down for maintenance", 503))
    other = make_site("slow-answer")
    other.add("/robots.txt", Reply.text(""))
    other.add("/late.png", Reply(200, picture(10, 10), {"Content-Type": "image/png"}, delay=60))
    for page in range(3):
        nxt = f'<a href="/p/{page + 1}">next</a>' if page < 2 else ""
        site.html(
            f"/p/{page}",
            f"<html><title>{page}</title><body><img src='{slow.url(f'/i{page}.png')}'>"
            f"<img src='{other.url('/late.png')}'>{nxt}</body></html>",
        )
    result = run_crawl(
        tmp_path,
        args={"start_urls": site.url("/p/0")},
        settings={
            "WEBROBOT_EXTRACT": "images",
            "WEBROBOT_IMAGES_WAIT_MAX": "2",
            "WEBROBOT_ROBOTS_HELD_ONLY_MAX": "1",
            "DOWNLOAD_TIMEOUT": "120",
        },
        timeout=HANG_GUARD,
    )
    assert result.returncode == 0, result.stderr[-2000:]
    assert "Traceback" not in result.log, result.log[-3000:]
    assert sorted(item["url"] for item in result.items) == [site.url(f"/p/{n}") for n in range(3)]
    for item in result.items:
        for image in item["images"]:
            assert (image["status"], image["reason"]) == ("unfetched", "timeout"), image
    assert result.stat("webrobot/extract/images/unfetched/timeout") == 6
    assert not any(target.startswith("/i") for target in slow.targets())
    # Well before the late image's minute or the 503 site's hour.
    assert result.stat("elapsed_time_seconds") < HANG_GUARD / 2


def test_the_archives_requisites_on_dead_hosts_do_not_hold_the_crawl(
    make_site: MakeSite, tmp_path: Path
) -> None:
    """With the archive on, each page's images are requisites too, queued for the
    archive: those queued on a host before it was found dead are held while its
    robots.txt is retried (two minutes for a name that does not resolve, unless a
    shorter rule gives it up); they are refused as soon as the host is found dead."""
    refused_port = closed_port()
    site = dead_embeds_site(make_site, refused_port)
    result = crawl(
        site,
        tmp_path / "warc-crawl",
        tmp_path / "dead-hosts.json",
        WEBROBOT_WARC_DIR=str(tmp_path / "warc"),
        WEBROBOT_ROBOTS_HELD_ONLY_MAX="0",  # only the dead hosts' own limits could end it
    )
    check_crawl(result, site, refused_port)
    assert result.stat("finish_reason") == "finished"
    assert result.stat("elapsed_time_seconds") < HANG_GUARD / 2
    assert result.stat("webrobot/requisite/image/archived") == PAGES  # the live images
    dead = result.stat("webrobot/requisite/image/no_such_name") + result.stat(
        "webrobot/requisite/image/refused"
    )
    assert dead == 4 * PAGES, {k: v for k, v in result.stats.items() if "requisite/image" in k}
    # The archive's own copy of each live image, besides the one the mining described.
    assert all(site.count(f"/live{n}.png") >= 1 for n in range(PAGES))
    # Each dead host is said by the record of dead hosts: its requisites refused, and
    # the requests held for it dropped, are counted (above) and logged at DEBUG only.
    info = [line for line in result.log.splitlines() if " INFO: " in line]
    assert not [
        line for line in info if "Refusing no_such_name" in line or "Refusing refused" in line
    ]
    assert not [line for line in info if "Dropped " in line and "gone.invalid" in line]


#: The monitored crawl's pages: each with four dead embeds and one live picture.
WATCHED_PAGES = 20


def test_a_watch_with_a_picture_rule_crawls_at_the_speed_of_its_live_hosts(
    make_site: MakeSite, tmp_path: Path
) -> None:
    """A watch whose rule has a picture waits on each page's images: on pages whose
    embeds are on dead names and a refused port, every live page is itemised, the
    crawl ends in seconds, the dead hosts are said once and listed in the report, and
    the re-crawl asks none of them again."""
    refused_port = closed_port()
    site = dead_embeds_site(make_site, refused_port, pages=WATCHED_PAGES)
    (tmp_path / "protected.png").write_bytes(picture(40, 40, seed=991))  # not on the site
    (tmp_path / "watch.toml").write_text(
        '[[rule]]\nname = "our-picture"\nimages = ["protected.png"]\n', "utf-8"
    )
    memory = tmp_path / "state" / "dead-hosts.json"
    watch = {
        "WEBROBOT_EXTRACT": "",  # the picture rule alone asks for the images
        "WEBROBOT_MONITOR_DIR": str(tmp_path / "monitor"),
        "WEBROBOT_WATCH": str(tmp_path / "watch.toml"),
    }
    dead_count = 2 + 2 * WATCHED_PAGES  # the shared CDN, two names per page, the port

    first = crawl(site, tmp_path / "first", memory, **watch)
    check_crawl(first, site, refused_port, WATCHED_PAGES)
    assert first.stat("webrobot/hosts/dead/no_such_name") == dead_count - 1
    assert first.stat("webrobot/hosts/dead/refused") == 1
    assert first.stat("elapsed_time_seconds") < HANG_GUARD / 2
    # Said once: the first host at once, then all in one line, and one health line.
    lines = first.log.splitlines()
    assert sum("Gave up on" in line and "WARNING" in line for line in lines) == 2, [
        line for line in lines if "Gave up on" in line
    ]
    assert sum("Crawl health" in line for line in lines) == 1
    report = json.loads((tmp_path / "first" / "items.report.json").read_text("utf-8"))
    listed = {row["host"] for row in report["dead_hosts"]}
    assert len(listed) == dead_count and f"127.0.0.1:{refused_port}" in listed
    assert "cdn.gone.invalid" in listed
    html = (tmp_path / "first" / "items.report.html").read_text("utf-8")
    assert "Hosts given up" in html and "img7-a.gone.invalid" in html

    site.hits.clear()
    again = crawl(site, tmp_path / "again", memory, **watch)
    check_crawl(again, site, refused_port, WATCHED_PAGES)
    # No dead host asked again: no robots.txt, no image, nothing given up anew.
    assert again.stat("webrobot/robots/deferred") == 0
    assert again.stat("webrobot/hosts/dead/no_such_name", 0) == 0
    assert again.stat("webrobot/hosts/dead/refused", 0) == 0
    assert again.stat("webrobot/hosts/dead/skipped_remembered") == 4 * WATCHED_PAGES
    assert again.stat("elapsed_time_seconds") < HANG_GUARD / 2
    report = json.loads((tmp_path / "again" / "items.report.json").read_text("utf-8"))
    assert len(report["dead_hosts"]) == dead_count
    assert all(row["remembered"] for row in report["dead_hosts"])


def test_dead_image_hosts_are_said_once_and_are_not_counted_as_sites(
    make_site: MakeSite, tmp_path: Path
) -> None:
    """The hosts of the dead images were asked for nothing but their robots.txt: each is
    said in one INFO line of the robots.txt middleware (its tries all counted), listed
    under "Hosts given up" with its tries, and is not a site of the crawl: the report
    counts one site (the live one), with no deferrals and no site left unreached."""
    refused_port = closed_port()
    site = dead_embeds_site(make_site, refused_port)
    result = crawl(
        site,
        tmp_path / "crawl",
        tmp_path / "dead-hosts.json",
        # each dead name tried twice (and given up) while the crawl runs
        WEBROBOT_DEAD_NAME_RETRY="0.2",
        WEBROBOT_DEAD_REFUSED_MAX="0.5",
        DOWNLOAD_DELAY="0.1",
    )
    check_crawl(result, site, refused_port)
    names = ["cdn.gone.invalid"] + [
        f"img{page}-{side}.gone.invalid" for page in range(PAGES) for side in "ab"
    ]
    labels = [*names, f"127.0.0.1:{refused_port}"]
    report = json.loads((tmp_path / "crawl" / "items.report.json").read_text("utf-8"))
    rows = {row["host"]: row for row in report["dead_hosts"]}
    assert sorted(rows) == sorted(labels)
    given_up_in_crawl = [host for host in names if rows[host]["tries"] == 2]
    assert len(given_up_in_crawl) >= PAGES, "most dead names were tried twice in the crawl"

    # One INFO line of robots.txt per dead host; every try and decision counted.
    robots_info = [
        line for line in result.log.splitlines()
        if " INFO: " in line and "[webrobot.robots." in line
    ]  # fmt: skip
    for host in labels:
        said = [line for line in robots_info if re.search(rf"//{re.escape(host)}[:/ ]", line)]
        assert len(said) == 1, (host, said)
    assert result.stat("webrobot/robots/deferred_dns") == len(names)
    assert result.stat("webrobot/robots/outcome/unreachable") >= len(given_up_in_crawl)
    assert result.stat("webrobot/robots/error/CannotResolveHostError", 0) + result.stat(
        "webrobot/robots/error/DNSLookupError", 0
    ) == sum(rows[host]["tries"] for host in names)

    # Not sites: only the live one is counted, with nothing deferred or held.
    totals = report["totals"]
    assert (totals["sites"], totals["sites_crawled"], totals["sites_with_pages"]) == (1, 1, 1)
    assert list(report["sites"]) == [site.origin]
    assert (totals["deferrals"], totals["deferred_seconds"]) == (0, 0)
    assert report["held"] == []
    assert [row["origins"] for row in report["hosts"]] == [[site.origin]]
    assert report["hosts_refused_only"] == 0
    for host in labels:  # their tries are under their own host
        assert rows[host]["robots_fetches"] == rows[host]["tries"] >= 1, rows[host]
        assert len(rows[host]["sites"]) == 1, rows[host]
    [line] = [line for line in result.log.splitlines() if "Crawl report:" in line]
    assert "(1 sites," in line
    [progress] = [line for line in result.log.splitlines() if "Progress at close" in line]
    assert "0 deferred, 1 exhausted" in progress, progress


#: Pages of the logo crawl: enough that some wait for their turn after the logo's download.
LOGO_PAGES = 30


def test_a_picture_every_page_shows_is_fetched_once_behind_dead_embeds(
    make_site: MakeSite, tmp_path: Path
) -> None:
    """Every page embeds six images on dead names, then the site's logo: the logo waits
    for its turn behind the dead ones, and is asked of the server once in the crawl."""
    site = make_site("dead-embeds-logo")
    site.add("/robots.txt", Reply.text(""))
    site.add("/logo.png", Reply(200, picture(24, 24, seed=7), {"Content-Type": "image/png"}))
    for page in range(LOGO_PAGES):
        links = "".join(
            f'<a href="/p/{j}">page {j}</a>' for j in (2 * page + 1, 2 * page + 2) if j < LOGO_PAGES
        )
        dead = [f"http://cdn{k}.gone.invalid/p{page}.png" for k in range(2)] + [
            f"http://img{page}-{k}.gone.invalid/x.png" for k in range(4)
        ]
        images = "".join(f'<img src="{url}">' for url in dead)
        site.html(
            f"/p/{page}",
            f"<html><head><title>Page {page}</title></head><body><p>Page {page}.</p>"
            f'{images}<img src="/logo.png" alt="logo">{links}</body></html>',
        )
    result = crawl(site, tmp_path / "crawl", tmp_path / "dead-hosts.json")
    assert result.returncode == 0, result.stderr[-2000:]
    assert len(result.items) == LOGO_PAGES
    for item in result.items:
        [logo] = [image for image in item["images"] if image["url"].endswith("/logo.png")]
        assert logo["status"] == "described", logo
    assert site.count("/logo.png") == 1
