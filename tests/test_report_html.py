"""report.html: built from the report document, self-contained, readable in a
real browser (headless Chromium) without console errors or network fetches."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import lxml.html
import pytest

from tests.browser import render
from webrobot.report.document import build_report
from webrobot.report.health import HealthThresholds
from webrobot.report.html import human_bytes, human_seconds, render_html
from webrobot.report.model import CrawlTally

SHOP = "http://shop.example:8701"
BLOG = "http://blog.example:8702"
GONE = "http://gone.example:80"
EVIL = "<script>alert(1)</script>"


def sample_report() -> dict:
    tally = CrawlTally()
    for i in range(12):
        tally.scheduled(SHOP)
        tally.left_downloader(SHOP, kind="page", now=i * 0.5)
        tally.downloaded(SHOP, 200 if i < 10 else 404, 2048, kind="page", now=i * 0.5, delay=1.0)
        tally.item_scraped(SHOP, ["nofollow"] if i == 3 else [])
    tally.left_downloader(SHOP, kind="robots", now=0)
    tally.robots_response(SHOP, 200, 1_700_000_000, rules="1 group, 2 Disallow, 0 Allow")
    tally.robots_parsed(SHOP, 0.1)
    tally.refused(SHOP, "robots_txt")
    tally.refused(SHOP, EVIL)
    tally.item_dropped(SHOP, "duplicate content")
    tally.left_downloader(BLOG, kind="page", now=1)
    tally.downloaded(BLOG, 304, 0, kind="page", now=1)
    tally.deferred(BLOG, now=0, delay=3)
    tally.robots_resolved(BLOG, now=2, info={"status": 503, "outcome": "unreachable"})
    tally.refused(GONE, "offsite")
    return build_report(tally, 6.0, HealthThresholds(), {
        "spider": "demo", "started_at": "2026-11-21T08:00:00Z",
        "finished_at": "2026-11-21T08:00:06Z", "elapsed_seconds": 6.0,
        "finish_reason": "finished", "webrobot_version": "0.1.0"})  # fmt: skip


_URL_ATTRS = {"src", "href", "srcset", "action", "data", "poster", "background", "formaction"}


def external_references(html: str) -> list[str]:
    """Everything in the page that would make a browser fetch something."""
    found = []
    root = lxml.html.fromstring(html)
    for element in root.iter():
        if not isinstance(element.tag, str):
            continue
        for name, value in element.attrib.items():
            local = name.rsplit("}", 1)[-1].rsplit(":", 1)[-1].lower()
            if (
                local in _URL_ATTRS
                and value.strip()
                and not value.strip().startswith(("#", "data:"))
            ):
                found.append(f"{element.tag} {name}={value}")
        css = (element.text or "") if element.tag == "style" else element.get("style", "")
        for ref in re.findall(r"url\(\s*['\"]?([^'\")\s]+)|@import\s+['\"]?([^'\";\s]+)", css):
            target = ref[0] or ref[1]
            if not target.startswith(("#", "data:")):
                found.append(f"{element.tag} css {target}")
    return found


def test_external_reference_check_can_fail() -> None:
    page = ("<html><head><style>@import 'x.css'; p{background:url(http://cdn/x.png)}</style></head>"
            "<body><img src='http://cdn/i.png'><svg><use xlink:href='http://cdn/s.svg#a'/></svg>"
            "<a href='#ok'>ok</a><img src='data:image/png;base64,AA=='></body></html>")  # fmt: skip
    assert len(external_references(page)) == 4


def test_page_shows_sites_health_and_charts() -> None:
    report = sample_report()
    html = render_html(report)
    assert external_references(html) == []
    root = lxml.html.fromstring(html)
    rows = root.xpath("//table[@id='sites']/tbody/tr")
    assert [r.xpath("string(td[1])") for r in rows] == [SHOP, BLOG], "busiest site first"
    shop = {h.text_content(): c for h, c in zip(root.xpath("//table[@id='sites']/thead/tr/th"),
                                               rows[0].xpath("td"))}  # fmt: skip
    assert shop["Requested"].get("data-v") == "12"
    assert shop["Items"].text_content() == "12"
    assert shop["nofollow"].text_content() == "1" and shop["Dupes"].text_content() == "1"
    assert shop["Errors"].text_content() == "2HTTP 404 2"
    assert shop["Error rate"].text_content() == "17%"
    assert shop["Bytes"].text_content() == "24.0 KiB"
    assert "2 Disallow" in shop["robots.txt"].text_content()
    blog = {h.text_content(): c for h, c in zip(root.xpath("//table[@id='sites']/thead/tr/th"),
                                               rows[1].xpath("td"))}  # fmt: skip
    assert "unresolved" in blog["robots.txt"].text_content()
    assert blog["Unchanged"].text_content() == "1"
    assert blog["Deferred"].text_content() == "2.0 s1×"
    assert rows[1].get("class") == "warn" and rows[0].get("class") is None
    health = root.xpath("string(//section[contains(@class,'health')])")
    assert "1 health warning" in health and BLOG in health and "could never be resolved" in health
    note = root.xpath("string(//p[@class='note'])")
    assert "1 other site only had URLs refused (offsite 1)" in note and GONE in note
    assert len(root.xpath("//section[@class='charts']/figure/svg")) == 3
    assert "Responses over time" in html and "Refusals by reason" in html


def test_the_sites_tile_counts_sites_whose_pages_were_requested() -> None:
    tally = CrawlTally()
    tally.left_downloader(SHOP, kind="page", now=0)
    tally.downloaded(SHOP, 200, 10, kind="page", now=0)
    for site in (BLOG, GONE):  # robots.txt asked, no page requested
        tally.left_downloader(site, kind="robots", now=0)
        tally.robots_response(site, 200, 1_700_000_000, rules="1 group")
    report = build_report(tally, 1.0, HealthThresholds(), {"spider": "s"})
    assert report["totals"]["sites_crawled"] == 3 and report["totals"]["sites_with_pages"] == 1
    root = lxml.html.fromstring(render_html(report))
    tile = root.xpath("//div[@class='tile'][contains(span, 'sites crawled')]")[0]
    assert tile.xpath("string(b)") == "1"
    assert tile.xpath("string(span)") == "sites crawled (+2 robots.txt only)"


def test_everything_from_the_crawl_is_escaped() -> None:
    html = render_html(sample_report())
    assert EVIL not in html
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html
    assert len(lxml.html.fromstring(html).xpath("//script")) == 1, "only the page's own script"


def test_a_crawl_that_did_nothing_still_renders() -> None:
    empty = build_report(
        CrawlTally(), 0.0, HealthThresholds(), {"spider": "x", "finish_reason": "config_error"}
    )
    html = render_html(empty)
    assert "✔ Healthy" in html and "config_error" in html
    assert lxml.html.fromstring(html).xpath("//table[@id='sites']/tbody/tr") == []


def test_human_units() -> None:
    assert [human_bytes(n) for n in (0, 1023, 1024, 5 * 1024**2, 3 * 1024**4)] == [
        "0 B", "1023 B", "1.0 KiB", "5.0 MiB", "3072.0 GiB"]  # fmt: skip
    assert [human_seconds(s) for s in (2, 600, 7200)] == ["2.0 s", "10.0 min", "2.0 h"]


@pytest.mark.slow
def test_browser_check_catches_console_errors_and_fetches(tmp_path: Path) -> None:
    """The harness can fail: a page that logs, throws and fetches is caught."""
    page = tmp_path / "bad.html"
    page.write_text(
        "<html><body><img src='http://example.invalid/x.png'><script>console.error('boom');"
        "fetch('http://example.invalid/data.json').catch(function(){}); undefinedFunction();"
        "</script></body></html>", "utf-8")  # fmt: skip
    shown = render(page, tmp_path / "bad.png", 400, 300)
    assert any("boom" in line for line in shown.console)
    assert any("undefinedFunction" in line for line in shown.console)
    assert sorted(line.split()[1] for line in shown.requests) == [
        "http://example.invalid/data.json", "http://example.invalid/x.png"]  # fmt: skip


@pytest.mark.slow
def test_report_renders_in_chromium(tmp_path: Path) -> None:
    page = tmp_path / "report.html"
    page.write_text(render_html(sample_report()), "utf-8")
    shown = render(page, tmp_path / "report.png")
    assert shown.console == [], shown.console
    assert shown.requests == []
    assert 'data-ready="1"' in shown.dom, "the page's script did not run to the end"
    png = shown.screenshot.read_bytes()
    assert png[:8] == b"\x89PNG\r\n\x1a\n" and len(png) > 20_000


def test_pygal_leaves_no_legacy_import_hook_behind() -> None:
    """pygal's map-plugin finder makes Python 3.11 warn on every failed import."""
    assert not [f for f in sys.meta_path if type(f).__module__ == "pygal"]


def test_the_live_status_page_reloads_itself_and_shows_the_work_in_hand() -> None:
    report = {
        **sample_report(),
        "as_of": "2026-01-01T00:00:09Z",
        "now": {"frontier": 31, "in_flight": 4, "sites": {"active": 2, "deferred": 1}},
    }
    live = render_html(report, refresh=7)
    assert '<meta http-equiv="refresh" content="7">' in live
    assert "Crawl status" in live and "as of 2026-01-01T00:00:09Z, reloads every 7 s" in live
    assert "<b>31</b> in the frontier, <b>4</b> in flight" in live
    assert "sites: 2 active, 0 waiting robots.txt, 1 deferred, 0 exhausted" in live
    final = render_html(report)
    assert "http-equiv" not in final and 'id="now"' not in final and "Crawl report" in final


def test_other_fetches_budgets_and_refused_hosts_are_shown() -> None:
    tally = CrawlTally()
    for kind in ("page", "image", "image", "document"):
        tally.left_downloader(SHOP, kind=kind, now=0)
        tally.downloaded(SHOP, 200, 10, kind=kind, now=0)
    report = build_report(
        tally, 1.0, HealthThresholds(), {"finish_reason": "closespider_pagecount"}
    )
    report["budgets"] = [{"message": f"page budget 3 reached {EVIL}"}]
    report["hosts"] = [{"host": "shop.example:8701", "schemes": ["http", "https"],
                        "origins": [SHOP, "https://shop.example:8701"], "https_only": None,
                        "upgraded": 0, "tls_problems": []}]  # fmt: skip
    report["hosts_refused_only"] = 4
    html = render_html(report)
    tiles = {
        t: v for v, t in re.findall(r'<div class="tile"><b>([^<]*)</b><span>([^<]*)</span>', html)
    }
    assert (tiles["pages requested"], tiles["images requested"], tiles["document requested"]) == (
        "1",
        "2",
        "1",
    )
    assert "page budget 3 reached &lt;script&gt;" in html and EVIL not in html
    assert "Links to 4 other hosts were refused, never requested." in html
    assert "2 images, 1 document" in html  # the site's Other fetches cell
