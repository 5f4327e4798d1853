"""``python -m benchmarks.monitor``: what changed on a changing site of real article pages.

The site (:class:`ChangingSite`) is made of the real HTML pages of the public
article-extraction benchmark (``article-extraction-benchmark`` in
``$WEBROBOT_BENCHDATA``, else in ``../shared/benchdata``, read in place), each
wrapped in noise that changes on *every* fetch: a timestamp, a view counter, a
CSRF token in a form, a rotating advert, a re-ordered "Trending" list and a
generation time in the footer. Some pages carry a shop box (a product in
JSON-LD, its price written ``1,299.00`` at one fetch and ``1299`` at another). Between
two crawls each page gets one role:

* ``noise``: nothing but the noise changes;
* ``text``: a sentence added to one of the article's paragraphs (one the benchmark's
  ground truth has in the article's text), or one word of it changed;
* ``price``: the shop box's price changes;
* ``removed``: the page answers 404; ``new``: a page only the second crawl finds.

Three monitors judge the same two fetches of each page, in the same run: **webrobot**
(the crawl's extractors, then :func:`webrobot.monitor.snapshot.changes`), the same with
the site's ignore selectors (``.ad, .trending``, as ``WEBROBOT_MONITOR_IGNORE_SELECTORS``),
a **whole-page MD5** and a **whole-page text diff** (the text of ``<body>``, spaces
collapsed). For the pages in both crawls: precision and recall of *changed* (truly
changed = ``text`` or ``price``). Also the monitor's CPU per page (snapshot and
comparison, extraction apart) and the state a page leaves in the monitor folder: its
snapshot row, besides the text's own sentences (goal: under 2 KB).

The main-text extractor is the crawl's own (``webrobot.extract.maintext``); where
this checkout has none, trafilatura stands in and the output says so.

``tests/test_monitor_bench_crawl.py`` runs the same site as two real crawls against a
local server, judged by ``events.jsonl``.
"""

from __future__ import annotations

import argparse
import gzip
import hashlib
import json
import os
import platform
import random
import re
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import lxml.html

from webrobot.demo.server import Hit, Reply, SiteServer
from webrobot.extract.metadata import metadata
from webrobot.extract.page import SourcePage
from webrobot.extract.product import product
from webrobot.extract.structured import structured_data
from webrobot.monitor.snapshot import Ignore, changes, snapshot_of

PROJECT_ROOT = Path(__file__).resolve().parent.parent
BENCHDATA = os.environ.get("WEBROBOT_BENCHDATA") or PROJECT_ROOT.parent / "shared" / "benchdata"
DATA = Path(BENCHDATA) / "article-extraction-benchmark" / "html"
ROLES = ("noise", "text", "price", "removed")
#: Share of the pages of both crawls per role (``new`` pages are added on top).
SHARES = {"noise": 0.45, "text": 0.25, "price": 0.15, "removed": 0.15}
NEW_SHARE = 0.10
IGNORE_SELECTORS = (".ad", ".trending")
ADS = (
    "Ferry tickets half price this week only.",
    "Buy walking boots at Harbour Outfitters.",
    "Subscribe now and read without limits.",
    "Win a weekend for two at the Lighthouse Inn.",
    "Fresh fish delivered to your door every Friday.",
)
TRENDING = ("Storm warning for the coast", "Council votes on the new bridge", "Local team wins",
            "Museum opens a new wing", "Train timetable changes")  # fmt: skip
ADDED = "The council said on Tuesday that a full report would follow within three weeks."
_PARAGRAPH = re.compile(r"<p[^>]*>([^<]{160,})</p>")
_WORD = re.compile(r"\b[a-z]{7,}\b")


def article_pages(limit: int = 0) -> list[tuple[str, str, str]]:
    """(key, HTML, the article's text as the benchmark's ground truth has it) of the
    benchmark's pages, sorted by key; ``limit`` > 0: the first ones."""
    truth = json.loads((DATA.parent / "ground-truth.json").read_text("utf-8"))
    files = sorted(DATA.glob("*.html.gz"))
    files = files[:limit] if limit else files
    out = []
    for path in files:
        key = path.name.split(".")[0]
        html = gzip.decompress(path.read_bytes()).decode("utf-8", "replace")
        out.append((key[:12], html, str(truth.get(key, {}).get("articleBody") or "")))
    return out


@dataclass
class Page:
    key: str
    html: str
    role: str
    shop: bool
    edited: str = ""  # the HTML after a text edit


def _edit(html: str, body: str, rng: random.Random) -> str:
    """The article with one sentence added to one of its paragraphs (one the ground
    truth's article text has), or one word of it changed; "" when it has no paragraph
    of text long enough."""
    flat = " ".join(body.split())
    found = [p for p in _PARAGRAPH.findall(html) if " ".join(p.split())[:60] in flat]
    if not found:
        return ""
    paragraph = max(found, key=len)
    if rng.random() < 0.5:
        return html.replace(paragraph, f"{paragraph} {ADDED}", 1)
    words = _WORD.findall(paragraph)
    if not words:
        return html.replace(paragraph, f"{paragraph} {ADDED}", 1)
    word = words[len(words) // 2]
    return html.replace(paragraph, re.sub(rf"\b{word}\b", "crocodile", paragraph, count=1), 1)


class ChangingSite:
    """The site at crawl 1 or 2; every fetch draws new noise."""

    def __init__(self, pages: list[tuple[str, str, str]], seed: int = 7) -> None:
        rng = random.Random(seed)
        self.rng = random.Random(seed + 1)
        self.fetches = 0
        count = len(pages)
        new = round(count * NEW_SHARE)
        order = list(range(count - new))
        rng.shuffle(order)
        roles: dict[int, str] = {}
        start = 0
        for role in ROLES:
            n = round((count - new) * SHARES[role])
            for i in order[start : start + n]:
                roles[i] = role
            start += n
        self.pages: list[Page] = []
        for i, (key, html, body) in enumerate(pages):
            role = "new" if i >= count - new else roles.get(i, "noise")
            page = Page(key, html, role, shop=role == "price" or rng.random() < 0.4)
            if role == "text":
                page.edited = _edit(html, body, rng)
                if not page.edited:
                    page.role = "noise"
            self.pages.append(page)
        self.crawl = 1

    def path(self, page: Page) -> str:
        return f"/article/{page.key}"

    def present(self, page: Page, crawl: int) -> bool:
        return not ((crawl == 1 and page.role == "new") or (crawl == 2 and page.role == "removed"))

    def index(self, crawl: int) -> str:
        links = "".join(f'<li><a href="{self.path(p)}">{p.key}</a></li>'
                        for p in self.pages if self.present(p, crawl))  # fmt: skip
        return f"<html><head><title>News</title></head><body><ul>{links}</ul></body></html>"

    def _noise(self) -> tuple[str, str]:
        rng = self.rng
        self.fetches += 1
        stamp = datetime.fromtimestamp(1_790_000_000 + self.fetches * 97 + rng.randrange(9999), UTC)
        token = "".join(rng.choice("abcdef0123456789") for _ in range(32))
        trending = list(TRENDING)
        rng.shuffle(trending)
        top = (
            f'<div class="topbar"><span>Updated {stamp:%Y-%m-%d %H:%M} UTC</span> '
            f"<span>{rng.randrange(1000, 99999):,} views</span>"
            f'<form action="/login" method="post"><input type="hidden" name="csrf" value="{token}">'
            "</form></div>"
            f'<aside class="ad"><p>{rng.choice(ADS)}</p></aside>'
            '<div class="trending"><h3>Trending</h3><ul>'
            + "".join(f"<li>{t}</li>" for t in trending)
            + "</ul></div>"
        )
        foot = f"<footer><p>Page generated in 0.{rng.randrange(10, 99)} s (request {token[:12]}).</p></footer>"
        return top, foot

    def _shop(self, page: Page, crawl: int) -> tuple[str, str]:
        if not page.shop:
            return "", ""
        price = "24.99" if (page.role == "price" and crawl == 2) else "1,299.00"
        written = price if crawl == 1 or price != "1,299.00" else "1299"
        data = {"@context": "https://schema.org", "@type": "Product", "name": "Reader's edition",
                "offers": {"@type": "Offer", "price": written, "priceCurrency": "EUR",
                           "availability": "https://schema.org/InStock"}}  # fmt: skip
        head = f'<script type="application/ld+json">{json.dumps(data)}</script>'
        return head, '<div class="shop"><p>The reader\'s edition, in our shop.</p></div>'

    def html(self, page: Page, crawl: int) -> str | None:
        """The page's HTML at this fetch, or None when it is not there (404)."""
        if not self.present(page, crawl):
            return None
        html = page.edited if (crawl == 2 and page.role == "text") else page.html
        top, foot = self._noise()
        head, box = self._shop(page, crawl)
        if head:
            html = re.sub(r"(?i)</head>", lambda m: head + m.group(0), html, count=1)
        html = re.sub(r"(?i)<body[^>]*>", lambda m: m.group(0) + top + box, html, count=1)
        return re.sub(r"(?i)</body>", lambda m: foot + m.group(0), html, count=1)

    def serve(self, server: SiteServer) -> None:
        """Answer on ``server``: ``/`` lists the pages of the current crawl (:attr:`crawl`)."""
        by_path = {self.path(p): p for p in self.pages}

        def article(hit: Hit) -> Reply:
            page = by_path.get(hit.path)
            html = self.html(page, self.crawl) if page is not None else None
            return Reply.html(html) if html is not None else Reply.html("<html>gone</html>", 404)

        server.add("/", lambda hit: Reply.html(self.index(self.crawl)))
        server.add_prefix("/article/", article)

    def changed(self) -> set[str]:
        """The pages truly changed between the crawls."""
        return {p.key for p in self.pages if p.role in ("text", "price")}


# -- the monitors ---------------------------------------------------------------------


def text_extractor() -> tuple[str, Callable[[SourcePage], str]]:
    try:
        from webrobot.extract import maintext  # type: ignore[attr-defined]

        return "webrobot.extract.maintext", maintext.main_text  # type: ignore[no-any-return]
    except ImportError:
        import trafilatura

        return "trafilatura (stand-in)", lambda page: trafilatura.extract(page.html) or ""


def mined(html: str, url: str, text: Callable[[SourcePage], str]) -> tuple[dict[str, Any], Any]:
    """The item the crawl's extractors make of a page, and its lxml tree."""
    root = lxml.html.document_fromstring(html)
    page = SourcePage(url, html, root)
    structured = structured_data(page)
    return {"main_text": text(page), "metadata": metadata(page, structured),
            "product": product(page, structured)}, root  # fmt: skip


def ignored_text(root: Any) -> list[str]:
    out = []
    for selector in IGNORE_SELECTORS:
        for node in root.cssselect(selector):
            out.append("\n".join(t.strip() for t in node.itertext() if t.strip()))
    return out


def page_text(html: str) -> str:
    root = lxml.html.document_fromstring(html)
    for node in root.xpath("//script|//style|//noscript"):
        node.drop_tree()
    body = root.find("body")
    return " ".join((body if body is not None else root).text_content().split())


@dataclass
class Scores:
    said: set[str] = field(default_factory=set)
    cpu: list[float] = field(default_factory=list)

    def precision_recall(self, truth: set[str]) -> tuple[float, float]:
        hit = len(self.said & truth)
        return (hit / len(self.said) if self.said else 1.0, hit / len(truth) if truth else 1.0)


def measure(pages: int, seed: int = 7) -> dict[str, Any]:
    site = ChangingSite(article_pages(pages), seed)
    extractor, text = text_extractor()
    monitors = {name: Scores() for name in ("webrobot", "webrobot + ignore selectors", "MD5",
                                            "text diff")}  # fmt: skip
    extract_cpu: list[float] = []
    state_besides_text: list[int] = []
    state_text: list[int] = []
    both = [p for p in site.pages if site.present(p, 1) and site.present(p, 2)]
    outside = 0  # text edits the main-text extractor did not keep (outside the main text)
    ignore = Ignore()
    for page in both:
        url = f"http://news.example{site.path(page)}"
        first, second = site.html(page, 1) or "", site.html(page, 2) or ""
        started = time.process_time()
        (item1, root1), (item2, root2) = mined(first, url, text), mined(second, url, text)
        extract_cpu.append((time.process_time() - started) / 2)
        if page.role == "text" and not any(m in item2["main_text"] for m in (ADDED, "crocodile")):
            outside += 1
        for name, skip in (("webrobot", False), ("webrobot + ignore selectors", True)):
            started = time.process_time()
            old = snapshot_of(item1, ignore, ignored_text(root1) if skip else ())
            new = snapshot_of(item2, ignore, ignored_text(root2) if skip else ())
            row = json.dumps(new.to_json(), ensure_ascii=False, separators=(",", ":"))
            if changes(old, new, ignore):
                monitors[name].said.add(page.key)
            monitors[name].cpu.append((time.process_time() - started) / 2)
            if not skip:
                text_bytes = sum(len(s.encode("utf-8")) for s in new.text)
                # the row's other columns: URL, matches, first and last seen
                others = len(url) + 2 + 2 * 20
                state_text.append(text_bytes)
                state_besides_text.append(len(row.encode("utf-8")) - text_bytes + others)
        started = time.process_time()
        if hashlib.md5(first.encode()).digest() != hashlib.md5(second.encode()).digest():
            monitors["MD5"].said.add(page.key)
        monitors["MD5"].cpu.append((time.process_time() - started) / 2)
        started = time.process_time()
        if page_text(first) != page_text(second):
            monitors["text diff"].said.add(page.key)
        monitors["text diff"].cpu.append((time.process_time() - started) / 2)
    truth = site.changed()
    rows = []
    for name, scores in monitors.items():
        precision, recall = scores.precision_recall(truth)
        rows.append({"monitor": name, "precision": round(precision, 3), "recall": round(recall, 3),
                     "said_changed": len(scores.said),
                     "cpu_ms_per_page": round(1000 * statistics.mean(scores.cpu), 3)})  # fmt: skip
    roles = {r: sum(p.role == r for p in site.pages) for r in (*ROLES, "new")}
    return {
        "date": datetime.now(UTC).strftime("%Y-%m-%d"),
        "machine": f"{platform.machine()}, {platform.processor() or platform.system()}, "
        f"Python {platform.python_version()}",
        "pages": len(site.pages), "roles": roles, "truly_changed": len(truth),
        "text_edits_outside_main_text": outside,
        "main_text_extractor": extractor,
        "extraction_cpu_ms_per_page": round(1000 * statistics.mean(extract_cpu), 2),
        "state_bytes_besides_text": {"median": statistics.median(state_besides_text),
                                     "max": max(state_besides_text)},
        "state_text_bytes_median": statistics.median(state_text),
        "monitors": rows,
    }  # fmt: skip


def table(result: dict[str, Any]) -> str:
    lines = [
        (
            f"{result['pages']} pages {result['roles']}, {result['truly_changed']} truly changed; "
            f"main text: {result['main_text_extractor']}, which kept "
            f"{result['roles']['text'] - result['text_edits_outside_main_text']} of the "
            f"{result['roles']['text']} text edits"
        ),
        "",
        "| monitor | precision | recall | said changed | CPU ms / page |",
        "| --- | ---: | ---: | ---: | ---: |",
    ]
    for row in result["monitors"]:
        lines.append(f"| {row['monitor']} | {row['precision']:.3f} | {row['recall']:.3f} | "
                     f"{row['said_changed']} | {row['cpu_ms_per_page']:.3f} |")  # fmt: skip
    state = result["state_bytes_besides_text"]
    lines += [
        "",
        f"extraction: {result['extraction_cpu_ms_per_page']} ms CPU per page (apart from the monitor)",
        (
            f"state per page besides the text: median {state['median']} B, max {state['max']} B "
            f"(text: median {result['state_text_bytes_median']} B)"
        ),
    ]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--pages", type=int, default=0, help="the first N articles (0: all 181)")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--json", action="store_true", help="print the result as JSON")
    args = parser.parse_args(argv)
    result = measure(args.pages, args.seed)
    print(json.dumps(result, indent=1) if args.json else table(result))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
