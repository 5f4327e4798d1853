"""End to end: a crawl of pages, images, documents and robots.txt counts each kind
apart, in the stats, report.json and the progress line, as the server saw them
requested; its hosts table lists only hosts it requested; a page budget passed
says by how much and why; Pillow's warnings are counted, not printed."""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.crawling import run_crawl
from tests.imagefiles import picture
from tests.pdfmaker import text_pdf
from tests.test_librarywarnings import PALETTE_WARNING, palette_png
from webrobot.demo.server import Hit, Reply, SiteServer

pytestmark = pytest.mark.slow

PAGES = 8
#: pages whose second picture is a palette PNG of its own (Pillow warns of each)
PALETTE_PAGES = (1, 3, 5)


def kind_of(hit: Hit) -> str:
    path = hit.path
    if path == "/robots.txt":
        return "robots"
    if path.startswith("/img/"):
        return "image"
    if path.endswith(".pdf") or path == "/get":
        return "document"
    return "page"


def counts_site(make_site: Callable[..., SiteServer]) -> SiteServer:
    """A chain of pages, each with its picture and the shared logo (fetched once), a PDF
    on every other page (one served without an extension), links to other hosts."""
    site = make_site("counts")
    site.add("/robots.txt", Reply.text("User-agent: *\nDisallow:\n"))
    site.add("/img/logo.png", Reply(200, picture(40, 30, seed=99), {"Content-Type": "image/png"}))
    for i in range(PAGES):
        nxt = (
            f"<a href='/p{i + 1}.html'>next</a>"
            if i + 1 < PAGES
            else "<a href='/last.html'>last</a>"
        )
        pdf = f"<a href='/doc{i}.pdf'>pdf</a>" if i % 2 else "<a href='/get?id=7'>pdf</a>"
        site.html(
            "/" if i == 0 else f"/p{i}.html",
            f"<title>Page {i}</title><h1>Page {i}</h1><p>{'Words of a page. ' * 30}</p>"
            f"<img src='/img/pic{i}.png' alt='pic'><img src='/img/logo.png' alt='logo'>"
            f"{nxt} {pdf} <a href='http://elsewhere{i}.test/'>elsewhere</a>",
        )
        body = palette_png(i) if i in PALETTE_PAGES else picture(60, 40, seed=i)
        site.add(f"/img/pic{i}.png", Reply(200, body, {"Content-Type": "image/png"}))
        site.add(f"/doc{i}.pdf", Reply(200, text_pdf([f"Document {i}"]), {"Content-Type": "application/pdf"}))  # fmt: skip
    site.add("/get", Reply(200, text_pdf(["No extension"]), {"Content-Type": "application/pdf"}))
    site.add("/last.html", Reply.html("<title>last</title>"))
    return site


def _report(workdir: Path) -> dict:
    return json.loads((workdir / "items.report.json").read_text("utf-8"))


def test_each_kind_is_counted_apart_as_the_server_saw_it(
    make_site: Callable[..., SiteServer], tmp_path: Path
) -> None:
    site = counts_site(make_site)
    result = run_crawl(
        tmp_path,
        args={"start_urls": site.url("/")},
        settings={"WEBROBOT_EXTRACT": "images,documents", "WEBROBOT_PROGRESS_INTERVAL": "60"},
    )
    assert result.returncode == 0, result.stderr[-2000:]
    seen = Counter(kind_of(hit) for hit in site.hits)
    assert seen == {"page": PAGES + 1, "image": PAGES + 1, "document": PAGES // 2 + 1, "robots": 1}

    # the stats
    for kind, n in seen.items():
        assert result.stat(f"webrobot/requests/{kind}") == n, kind
        assert result.stat(f"webrobot/responses/{kind}") == n, kind
    # the report
    report = _report(tmp_path)
    totals = report["totals"]
    assert totals["requests"] == totals["responses"] == dict(seen)
    assert totals["requested"] == totals["downloaded"] == seen["page"], "pages only"
    assert totals["robots_fetches"] == 1
    assert totals["fetches"] == sum(seen.values()) - 1, "every kind but robots.txt"
    # hosts: the one requested; the eight only refused as off-site links counted apart
    assert [row["host"] for row in report["hosts"]] == [f"127.0.0.1:{site.port}"]
    assert report["hosts_refused_only"] == PAGES
    assert totals["refused"] == {"offsite": PAGES}
    # the progress line's last word, at close
    (last,) = re.findall(r"INFO: (Progress at close: .*)", result.log)
    assert re.match(
        rf"Progress at close: {seen['page']} pages \(\d+/min\), \d+ items \(\d+/min\), also "
        rf"{seen['image']} images, {seen['document']} documents, 1 robots\.txt \| frontier 0 \+ 0",
        last,
    ), last
    # Pillow's warning of each palette picture: counted, logged once at DEBUG, never printed
    assert result.stat("webrobot/warnings/pillow") == len(PALETTE_PAGES)
    told = [line for line in result.log.splitlines() if PALETTE_WARNING in line]
    assert len(told) == 1 and "DEBUG" in told[0], told
    assert PALETTE_WARNING not in result.stderr
    html = (tmp_path / "items.report.html").read_text("utf-8")
    assert "Other fetches" in html and "images requested" in html


def test_a_page_budget_passed_says_by_how_much_of_which_kinds_and_why(
    make_site: Callable[..., SiteServer], tmp_path: Path
) -> None:
    site = counts_site(make_site)
    budget = 10
    result = run_crawl(
        tmp_path,
        args={"start_urls": site.url("/")},
        settings={"WEBROBOT_EXTRACT": "images,documents", "CLOSESPIDER_PAGECOUNT": str(budget)},
    )
    assert result.returncode == 0, result.stderr[-2000:]
    assert result.stat("finish_reason") == "closespider_pagecount"
    seen = Counter(kind_of(hit) for hit in site.hits)
    report = _report(tmp_path)
    (section,) = report["budgets"]
    assert section["setting"] == "CLOSESPIDER_PAGECOUNT" and section["reached"]
    assert section["responses"] == sum(seen.values()) == result.stat("response_received_count")
    assert section["by_kind"] == dict(seen), "what the budget counted, by kind"
    assert section["over"] == sum(seen.values()) - budget == sum(section["over_by_kind"].values())
    assert report["totals"]["requested"] == seen["page"] < budget, "pages alone did not reach it"
    logged = re.findall(r"INFO: Crawl budget: (.*)", result.log)
    assert logged == [section["message"]]
    assert logged[0].startswith(
        f"page budget {budget} (CLOSESPIDER_PAGECOUNT) reached; {sum(seen.values())} responses: "
        f"{seen['page']} pages, {seen['image']} images"
    )
    assert "the budget counts responses of every kind, not only pages" in logged[0]
