"""``python -m benchmarks.quality.structured``: structured data against extruct's own samples.

Every page of extruct's test samples (``extruct-samples/``: schema.org, W3C,
Wikipedia, Songkick pages and deliberately broken JSON-LD, with the expected
extraction beside each) is read by :func:`webrobot.extract.structured.structured_data`
as the crawl calls it (the crawl's parsel tree, ``rdfa="auto"``), with
``rdfa="always"``, and by plain extruct (``extruct.extract`` on the HTML, one
syntax at a time, a failure counting as nothing found) as the anchor, in the
same run. Expected outputs are turned into extruct's uniform form with
extruct's own functions (microdata, OpenGraph); RDFa is compared as extruct's
tests do, except that blank node names, which pyRdfa draws at random, are all made one.

Per syntax: pages, exact-match rate (the page's whole list equal), and item
precision, recall and F1 (each top-level item, compared whole, as a multiset).
``--real`` also times the three on the 181 real news pages of the article
extraction benchmark and says how often webrobot's lists equal extruct's there.
"""

from __future__ import annotations

import argparse
import contextlib
import gzip
import json
import re
import statistics
import sys
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent.parent))

from benchmarks.quality import BENCHDATA, markdown_table, source_page
from webrobot.extract.structured import SYNTAXES, structured_data

SAMPLES = BENCHDATA / "extruct-samples"
NEWS = BENCHDATA / "article-extraction-benchmark" / "html"
RDFA_BASE = "http://www.example.com/index.html"
SONGKICK = "http://www.songkick.com/artists/236156-elysian-fields"
TOVE = "https://www.songkick.com/concerts/30166884-tove-styrke-at-hoxton-square-bar-and-kitchen"
ALL4 = ("json-ld", "microdata", "rdfa", "opengraph")


@dataclass(frozen=True)
class Case:
    """One sample page, the expected file beside it, which syntaxes it holds the answer
    for (``"*"``: a file of extruct.extract's output by syntax), and its URL."""

    html: str
    expected: str
    syntaxes: tuple[str, ...]
    url: str = ""
    #: The expected microdata was made with extruct's ``strict=True`` (every type and
    #: value a list); the crawl reads the default form, so single ones are unwrapped.
    strict: bool = False


def cases() -> list[Case]:
    """The samples, paired with their expected output as extruct's tests pair them."""
    out: list[Case] = []
    for page in ("CreativeWork.001",):
        out.append(Case(f"schema.org/{page}.html", f"schema.org/{page}.jsonld", ("json-ld",)))
    for page in (
        "Elysian Fields Brooklyn Tickets, The Owl Music Parlor, 31 Oct 2015",
        "Maxïmo Park Gigography, Tour History & Past Concerts",
        "Years & Years Tickets, Tour Dates 2015 & Concerts",
        "jsonld_empty_item_test",
    ):
        out.append(Case(f"songkick/{page}.html", f"songkick/{page}.jsonld", ("json-ld",)))
    for folder, page in [
        ("schema.org.invalid", "JoinAction.001"),
        ("schema.org.invalid", "AllocateAction.001"),
        ("custom.invalid", "JoinAction.001"),
        ("custom.invalid", "AllocateAction.001"),
        ("custom.invalid", "JSONLD_with_control_characters"),
        ("custom.invalid", "JSONLD_with_control_characters_comment"),
        ("custom.invalid", "JSONLD_with_JS_comment"),
        ("misc", "null_ld_mock"),
    ]:
        out.append(Case(f"{folder}/{page}.html", f"{folder}/{page}.jsonld", ("json-ld",)))
    schema = [
        "CreativeWork.001", "LocalBusiness.002", "LocalBusiness.003", "MusicRecording.001",
        "Event.001", "Event.002", "Event.003", "Event.004", "Event.008", "SearchAction.001",
        "product", "product-ref",
    ]  # fmt: skip
    for page in schema:
        out.append(Case(f"schema.org/{page}.html", f"schema.org/{page}.json", ("microdata",)))
    out.append(
        Case(
            "schema.org/product.html",
            "schema.org/product_custom_url.json",
            ("microdata",),
            "http://some-example.com",
        )
    )
    w3c = {
        "microdata.4.2.strings": "",
        "microdata.4.2.strings.unclean": "",
        "microdata.5.2": "",
        "microdata.5.3": "",
        "microdata.5.5": "",
        "microdata.7.1": "http://blog.example.com/progress-report",
        "microdata.4.2.meter": "",
        "microdata.4.2.data": "",
        "microdata.object": "http://www.example.com/microdata/test",
    }
    for page, url in w3c.items():
        out.append(Case(f"w3c/{page}.html", f"w3c/{page}.json", ("microdata",), url, strict=True))
    out.append(
        Case(
            "websites/microdata-with-description.html",
            "websites/microdata-with-description.json",
            ("microdata",),
        )
    )
    for path in sorted((SAMPLES / "w3crdfa").glob("*.html")):
        stem = path.name.removesuffix(".html")
        out.append(
            Case(f"w3crdfa/{stem}.html", f"w3crdfa/{stem}.expanded.json", ("rdfa",), RDFA_BASE)
        )
    out.append(
        Case(
            "wikipedia/xhtml+rdfa.html", "wikipedia/xhtml+rdfa.expanded.json", ("rdfa",), RDFA_BASE
        )
    )
    out.append(
        Case(
            "misc/Portfolio_Niels_Lubberman.html",
            "misc/Portfolio_Niels_Lubberman.json",
            ("rdfa",),
            "http://nielslubberman.nl/drupal/",
        )
    )
    out.append(
        Case(
            "misc/expanded_OG_support_test.html",
            "misc/expanded_OG_support_test.json",
            ("rdfa",),
            RDFA_BASE,
        )
    )
    for page in ("opengraph_test", "opengraph_ns_product_test"):
        out.append(Case(f"misc/{page}.html", f"misc/{page}.json", ("opengraph",)))
    out.append(Case("songkick/elysianfields.html", "songkick/elysianfields.json", ("*",), SONGKICK))
    out.append(
        Case("songkick/elysianfields_1.html", "songkick/elysianfields_1.json", ("*rdfa",), SONGKICK)
    )
    out.append(Case("songkick/tovestyrke.html", "songkick/tovestyrke.json", ("*",), TOVE))
    return out


def expected_lists(case: Case) -> dict[str, list[Any]]:
    """The expected output of ``case`` by syntax, in extruct's uniform form."""
    from extruct.uniform import _umicrodata_microformat, _uopengraph

    raw = json.loads((SAMPLES / case.expected).read_text("utf-8"))
    if case.syntaxes == ("*",):
        by_syntax = {s: raw.get(s, []) for s in ALL4}
    elif case.syntaxes == ("*rdfa",):
        by_syntax = {"rdfa": raw["rdfa"]}
    else:
        by_syntax = {case.syntaxes[0]: raw}
    if "json-ld" in by_syntax and isinstance(by_syntax["json-ld"], dict):
        # An older layout of the same answer: one list per <script> block.
        blocks = by_syntax["json-ld"].get("items", [])
        by_syntax["json-ld"] = [item for block in blocks for item in block if item]
    if case.strict:
        by_syntax["microdata"] = [_unstrict(item) for item in by_syntax["microdata"]]
    if "microdata" in by_syntax:
        by_syntax["microdata"] = _umicrodata_microformat(
            by_syntax["microdata"], "http://schema.org"
        )
    if "opengraph" in by_syntax:
        by_syntax["opengraph"] = _uopengraph(by_syntax["opengraph"])
    return by_syntax


def _unstrict(value: Any) -> Any:
    """extruct's strict microdata in its default form: a single type or value unwrapped."""
    if isinstance(value, list):
        return [_unstrict(v) for v in value]
    if not isinstance(value, dict) or "properties" not in value and "type" not in value:
        return value
    out = dict(value)
    if isinstance(out.get("type"), list) and len(out["type"]) == 1:
        out["type"] = out["type"][0]
    if isinstance(out.get("properties"), dict):
        out["properties"] = {
            name: _unstrict(v[0] if isinstance(v, list) and len(v) == 1 else v)
            for name, v in out["properties"].items()
        }
    return out


def read_html(path: Path) -> str:
    """A sample's text as a crawl would decode it (they are UTF-8)."""
    return path.read_bytes().decode("utf-8", "replace")


def plain_extruct(html: str, url: str) -> dict[str, list[Any]]:
    """The anchor: extruct.extract on the HTML, a syntax that raises giving ``[]``."""
    import extruct

    out: dict[str, list[Any]] = {}
    for syntax in ALL4:
        try:
            out[syntax] = extruct.extract(
                html.encode("utf-8"), base_url=url or None, syntaxes=[syntax], uniform=True
            )[syntax]
        except Exception:  # noqa: BLE001 - the anchor as a crawl would run it: a failure is nothing found
            out[syntax] = []
    return out


# --- comparison ---------------------------------------------------------------------------

XML_LITERAL = "http://www.w3.org/1999/02/22-rdf-syntax-ns#XMLLiteral"
_BNODE = re.compile(r'"_:(\w+)"')


def canonical_items(syntax: str, items: list[Any]) -> list[str]:
    """Each item as a canonical JSON string (RDFa: blank node names, which pyRdfa
    draws at random, all made one; lists unordered; XML literals canonical)."""
    if syntax == "rdfa":
        text = _BNODE.sub('"_:b"', json.dumps(items, sort_keys=True, ensure_ascii=True))
        items = json.loads(text)
        return [json.dumps(_unordered(item), sort_keys=True) for item in items]
    return [json.dumps(item, sort_keys=True, ensure_ascii=True) for item in items]


def _unordered(value: Any) -> Any:
    if isinstance(value, list):
        return sorted((_unordered(v) for v in value), key=lambda v: json.dumps(v, sort_keys=True))
    if isinstance(value, dict):
        if value.get("@type") == XML_LITERAL and isinstance(value.get("@value"), str):
            # Attribute order is no difference (extruct's tests canonicalise it too).
            from lxml.etree import XML, canonicalize

            with contextlib.suppress(ValueError, SyntaxError):
                value = {**value, "@value": canonicalize(XML(value["@value"]))}
        return {k: _unordered(v) for k, v in value.items()}
    return value


@dataclass
class Score:
    """Agreement of one reader with the expected output, for one syntax."""

    pages: int = 0
    exact: int = 0
    true_positives: int = 0
    found: int = 0
    expected: int = 0
    misses: list[str] = field(default_factory=list)

    def add(self, name: str, syntax: str, got: list[Any], want: list[Any]) -> None:
        got_items, want_items = canonical_items(syntax, got), canonical_items(syntax, want)
        self.pages += 1
        if sorted(got_items) == sorted(want_items) if syntax == "rdfa" else got_items == want_items:
            self.exact += 1
        else:
            self.misses.append(name)
        self.true_positives += sum((Counter(got_items) & Counter(want_items)).values())
        self.found += len(got_items)
        self.expected += len(want_items)

    @property
    def exact_rate(self) -> float:
        return self.exact / self.pages if self.pages else 0.0

    @property
    def precision(self) -> float:
        return self.true_positives / self.found if self.found else 1.0

    @property
    def recall(self) -> float:
        return self.true_positives / self.expected if self.expected else 1.0

    @property
    def f1(self) -> float:
        p, r = self.precision, self.recall
        return 2 * p * r / (p + r) if p + r else 0.0


READERS: dict[str, Callable[[str, str], dict[str, list[Any]]]] = {
    "webrobot": lambda html, url: structured_data(source_page(url, html)),
    "webrobot rdfa=always": lambda html, url: structured_data(
        source_page(url, html), rdfa="always"
    ),
    "extruct": plain_extruct,
}


def evaluate() -> dict[str, dict[str, Score]]:
    """Reader -> syntax -> score over every sample."""
    scores = {reader: {s: Score() for s in SYNTAXES} for reader in READERS}
    for case in cases():
        html = read_html(SAMPLES / case.html)
        want = expected_lists(case)
        for reader, read in READERS.items():
            got = read(html, case.url)
            for syntax, expected in want.items():
                scores[reader][syntax].add(case.expected, syntax, got.get(syntax, []), expected)
    return scores


def samples_table(scores: dict[str, dict[str, Score]]) -> str:
    rows = []
    for syntax in SYNTAXES:
        for reader in READERS:
            s = scores[reader][syntax]
            rows.append([
                syntax, reader, str(s.pages), f"{s.exact_rate:.3f}",
                f"{s.precision:.3f}", f"{s.recall:.3f}", f"{s.f1:.3f}",
            ])  # fmt: skip
    header = [
        "syntax",
        "reader",
        "pages",
        "exact match",
        "item precision",
        "item recall",
        "item F1",
    ]
    return markdown_table(header, rows)


# --- real pages: cost and agreement with extruct ------------------------------------------


def news_pages(limit: int | None = None) -> list[tuple[str, str]]:
    """The real news pages of the article extraction benchmark, as (url, html)."""
    truth = json.loads((NEWS.parent / "ground-truth.json").read_text("utf-8"))
    pages = []
    for path in sorted(NEWS.glob("*.html.gz"))[:limit]:
        key = path.name.removesuffix(".html.gz")
        url = truth.get(key, {}).get("url", "") if isinstance(truth, dict) else ""
        pages.append((url, gzip.decompress(path.read_bytes()).decode("utf-8", "replace")))
    return pages


def real_pages(limit: int | None = None) -> str:
    """ms/page (median, mean, max; the tree already built, as in the crawl) and how
    often each syntax's list equals extruct's, on real news pages."""
    pages = news_pages(limit)
    prepared = [(url, html, source_page(url, html)) for url, html in pages]
    times: dict[str, list[float]] = {reader: [] for reader in READERS}
    agree: dict[str, Counter[str]] = {reader: Counter() for reader in READERS}
    for url, html, page in prepared:
        results = {}
        for reader in READERS:
            started = time.process_time()
            if reader == "extruct":
                results[reader] = plain_extruct(html, url)
            else:
                mode = "always" if reader.endswith("always") else "auto"
                results[reader] = structured_data(page, rdfa=mode)
            times[reader].append(1000 * (time.process_time() - started))
        for reader, got in results.items():
            for syntax in SYNTAXES:
                a = canonical_items(syntax, got[syntax])
                b = canonical_items(syntax, results["extruct"][syntax])
                agree[reader][syntax] += (sorted(a) == sorted(b)) if syntax == "rdfa" else a == b
    rows = []
    for reader in READERS:
        t = times[reader]
        rows.append(
            [reader, f"{statistics.median(t):.1f}", f"{statistics.mean(t):.1f}", f"{max(t):.1f}"]
            + [f"{agree[reader][s]}/{len(prepared)}" for s in SYNTAXES]
        )
    header = ["reader", "ms/page median", "mean", "max"] + [f"= extruct {s}" for s in SYNTAXES]
    return markdown_table(header, rows)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--real", action="store_true", help="also time the 181 real news pages")
    parser.add_argument("--limit", type=int, default=None, help="real pages to read (all)")
    parser.add_argument("--misses", action="store_true", help="list the samples not matched")
    args = parser.parse_args(argv)
    scores = evaluate()
    print(f"Structured data: extruct's samples ({len(cases())} pages)\n")
    print(samples_table(scores))
    if args.misses:
        for reader, by_syntax in scores.items():
            for syntax, score in by_syntax.items():
                if score.misses:
                    print(f"{reader} {syntax}: {', '.join(score.misses)}")
    if args.real:
        print(
            f"\nReal news pages ({len(news_pages(args.limit))}): cost and agreement with extruct\n"
        )
        print(real_pages(args.limit))


if __name__ == "__main__":
    main()
