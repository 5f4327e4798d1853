"""``python -m benchmarks.quality.productdev``: product fields on real shop pages, split by shop.

The pages are the development half of a public product benchmark
(``../shared/benchdata/product-dev``: real product pages, ``html/<key>.html.gz``, and
``ground-truth.json`` with, per page, its ``url`` and a list of accepted values for
``price``, ``currency``, ``sku``, ``gtin``, ``mpn``, ``brand`` and ``availability``).
The benchmark's own metric: a price is right when its decimal value equals an accepted
one (``Decimal("24.99")``), every other field when it equals an accepted value exactly;
precision (of the values given, how many are right) and recall (of the pages with a
value, how many were given right) per field, pooled over the pages, and F1. The
benchmark scores price, sku and availability; gtin, mpn and brand are scored the same
way where annotated (currency is left out: it is annotated as printed, ``€``, ``Lei``).

The pages are split by shop, never by page: the shop is the URL's registered name
without its public suffix (``ebay.co.uk`` and ``ebay.fr`` are one shop), and a fixed
hash of it puts each shop in the ``tuned`` half (the pages the extractor's readers were
developed and checked on) or the ``unseen`` half (never looked at while developing: a
reader that only fits the tuned shops falls there). Both halves are scored in one run,
beside the anchor run on the same bytes: extruct and price-parser on structured data
only (:func:`benchmarks.quality.product.baseline_product`), and the CPU per page of
:func:`webrobot.extract.product.product` on the crawl's tree, structured data included.
"""

from __future__ import annotations

import argparse
import gzip
import hashlib
import json
import os
import sys
import time
from dataclasses import dataclass
from decimal import Decimal
from functools import lru_cache
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent.parent))

from benchmarks.quality import BENCHDATA, markdown_table, source_page
from benchmarks.quality.product import Case, FieldScore, baseline_product

DATA_ENV = "WEBROBOT_BENCHDATA"
BENCHMARK = "product-dev"
#: The fields the benchmark annotates and scores.
FIELDS = ("price", "sku", "availability", "gtin", "mpn", "brand")
SPLITS = ("tuned", "unseen")


@dataclass(frozen=True)
class DevPage:
    key: str
    shop: str
    split: str
    case: Case
    accepted: dict[str, list[str]]


def shop_of(url: str) -> str:
    """The shop a page belongs to: its registered name without the public suffix."""
    return _suffixes()(url).domain or url


@lru_cache(maxsize=1)
def _suffixes() -> Any:
    import tldextract

    # The public suffix list shipped with tldextract: no download, no cache files.
    return tldextract.TLDExtract(cache_dir=None, suffix_list_urls=())


def split_of(shop: str) -> str:
    """``tuned`` or ``unseen``, fixed by a hash of the shop's name."""
    return SPLITS[hashlib.sha256(shop.encode()).digest()[0] % 2]


def data_folder() -> Path:
    """``$WEBROBOT_BENCHDATA/product-dev``, else the shared folder beside the repository."""
    env = os.environ.get(DATA_ENV)
    return (Path(env) if env else BENCHDATA) / BENCHMARK


def pages() -> list[DevPage]:
    """Every page in key order; :class:`FileNotFoundError` naming the folder when absent."""
    data = data_folder()
    truth_file = data / "ground-truth.json"
    if not truth_file.is_file():
        raise FileNotFoundError(f"{truth_file}: not found (set ${DATA_ENV})")
    truth = json.loads(truth_file.read_text("utf-8"))
    out = []
    for key in sorted(truth):
        answer = truth[key]
        html = gzip.decompress((data / "html" / f"{key}.html.gz").read_bytes())
        text = html.decode("utf-8", errors="replace")
        shop = shop_of(answer["url"])
        accepted = {f: [str(v) for v in answer.get(f) or []] for f in FIELDS}
        out.append(
            DevPage(key, shop, split_of(shop), Case(key, answer["url"], text, None), accepted)
        )
    return out


def _decimal(value: Any) -> Decimal | None:
    try:
        return Decimal(str(value))
    except ArithmeticError:
        return None


def right(field_name: str, got: Any, accepted: list[str]) -> bool:
    if field_name == "price":
        value = _decimal(got)
        return value is not None and any(value == _decimal(a) for a in accepted)
    return str(got) in accepted


@dataclass
class Scored:
    fields: dict[str, FieldScore]
    pages: int
    #: CPU time per page (process time, so other processes on the machine do not count).
    ms_per_page: float


def score(answers: dict[str, tuple[Any, float]], chosen: list[DevPage]) -> Scored:
    """Scores of one reader's ``answers`` (page key -> (fields, CPU seconds)) on ``chosen``."""
    fields = {f: FieldScore() for f in FIELDS}
    elapsed = 0.0
    for page in chosen:
        got, seconds = answers[page.key]
        elapsed += seconds
        for name in FIELDS:
            value = got.get(name) if got else None
            accepted = page.accepted[name]
            s = fields[name]
            s.given += value is not None
            s.expected += bool(accepted)
            if value is not None and accepted and right(name, value, accepted):
                s.right += 1
            elif value is not None or accepted:
                s.wrong.append(f"{page.shop} {page.key[:8]}: {value!r} not in {accepted!r}")
    return Scored(fields, len(chosen), 1000 * elapsed / max(1, len(chosen)))


def _answers(read: Any, chosen: list[DevPage]) -> dict[str, tuple[Any, float]]:
    out = {}
    for page in chosen:
        started = time.process_time()
        got = read(page)
        out[page.key] = (got, time.process_time() - started)
    return out


#: What the crawl has built before product runs: the tree, and the structured data
#: (with the CPU seconds it took, reported apart: metadata reads it too).
_prepared: dict[str, tuple[Any, dict[str, Any], float]] = {}


def webrobot_read(page: DevPage) -> dict[str, Any] | None:
    """:func:`product` as the crawl calls it, on the crawl's tree and structured data."""
    from webrobot.extract.product import product

    tree, structured, _ = _prepared[page.key]
    result: dict[str, Any] | None = product(tree, structured)
    return result


def read(
    all_pages: list[DevPage], rdfa_when_needed: bool = False
) -> dict[str, dict[str, tuple[Any, float]]]:
    """reader -> page key -> (fields, CPU seconds): each reader reads each page once.
    ``structured data`` holds only the CPU of the structured data product is handed.
    ``rdfa_when_needed``: the anchor's answers without its RDFa reading where JSON-LD or
    microdata hold the Product (the same answers; its CPU is then not extruct's whole)."""
    from webrobot.extract.structured import structured_data

    for page in all_pages:
        tree = source_page(page.case.url, page.case.html)
        started = time.process_time()
        structured = structured_data(tree)
        _prepared[page.key] = (tree, structured, time.process_time() - started)
    try:
        if all_pages:
            webrobot_read(all_pages[0])  # imports outside the timing
        return {
            "webrobot": _answers(webrobot_read, all_pages),
            "extruct + price-parser": _answers(
                lambda p: baseline_product(p.case, rdfa_when_needed), all_pages
            ),
            "structured data": {k: (None, v[2]) for k, v in _prepared.items()},
        }
    finally:
        _prepared.clear()


def evaluate(
    chosen: list[DevPage] | None = None, rdfa_when_needed: bool = False
) -> dict[str, dict[str, Scored]]:
    """reader -> split (``tuned``, ``unseen``, ``all``) -> scores; each reader reads each
    page once. ``structured data`` holds only the CPU of the structured data product is
    handed. ``rdfa_when_needed``: see :func:`read` (the tests' gate, which judges F1 only)."""
    all_pages = pages() if chosen is None else chosen
    answers = read(all_pages, rdfa_when_needed)
    structured_cpu = answers.pop("structured data")
    out: dict[str, dict[str, Scored]] = {}
    for name, by_page in answers.items():
        out[name] = {
            split: score(by_page, [p for p in all_pages if split in (p.split, "all")])
            for split in (*SPLITS, "all")
        }
    out["structured data"] = {
        split: score(structured_cpu, [p for p in all_pages if split in (p.split, "all")])
        for split in (*SPLITS, "all")
    }
    return out


READERS = ("webrobot", "extruct + price-parser")


def table(results: dict[str, dict[str, Scored]], all_pages: list[DevPage]) -> str:
    """F1 per field of each reader on each half (and on all pages), and the CPU per page."""
    columns = [(reader, split) for split in (*SPLITS, "all") for reader in READERS]
    header = ["field"]
    for reader, split in columns:
        chosen = [p for p in all_pages if split in (p.split, "all")]
        shops = len({p.shop for p in chosen})
        header.append(f"{reader}, {split} ({shops} shops, {len(chosen)} pages)")
    rows = [
        [name, *(f"{results[r][split].fields[name].f1:.3f}" for r, split in columns)]
        for name in FIELDS
    ]
    rows.append(
        ["CPU ms/page (webrobot: product on the crawl's tree and structured data)"]
        + [f"{results[r][split].ms_per_page:.1f}" for r, split in columns]
    )
    rows.append(
        ["CPU ms/page of the structured data product is handed (webrobot)"]
        + [
            f"{results['structured data'][split].ms_per_page:.1f}" if r == "webrobot" else ""
            for r, split in columns
        ]
    )
    return markdown_table(header, rows)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    add_wrong_option(parser)
    args = parser.parse_args(argv)
    try:
        all_pages = pages()
    except FileNotFoundError as exc:
        sys.exit(str(exc))
    results = evaluate(all_pages)
    print(
        f"Product fields: {len(all_pages)} real product pages of"
        f" {len({p.shop for p in all_pages})} shops, split by shop\n"
    )
    print(table(results, all_pages))
    if args.wrong:
        print_wrong(results, args.wrong)


def add_wrong_option(parser: argparse.ArgumentParser) -> None:
    """``--wrong SPLIT``: list one half's wrong values (see :func:`print_wrong`)."""
    parser.add_argument(
        "--wrong",
        choices=SPLITS,
        help="list every wrong or missing value of one half (develop on 'tuned' only)",
    )


def print_wrong(results: dict[str, dict[str, Any]], split: str) -> None:
    """Every wrong or missing value of one half, a line each, by reader and field."""
    for reader in READERS:
        for name, scored in results[reader][split].fields.items():
            for line in scored.wrong:
                print(f"{reader} {name}: {line}")


if __name__ == "__main__":
    main()
