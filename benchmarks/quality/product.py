"""``python -m benchmarks.quality.product``: product fields on annotated shop pages.

The pages are ``tests/fixtures/product/<case>/page.html``, each with
``expected.json`` beside it (``{"url": ..., "product": {...} | null}``): shop
pages as Shopify, WooCommerce, Magento, PrestaShop, BigCommerce and custom
themes write them, in JSON-LD, microdata, RDFa, OpenGraph only and markup only,
in several currencies and languages, on sale, out of stock, with variants, and
pages that are no product page (listings, articles, a basket) whose answer is
``null``.

Per field (name, price, currency, availability, sku, gtin, mpn, brand):
precision (of the values given, how many are right), recall (of the values
the page has, how many were given right) and F1, pooled over every page; a
value given for a page that is no product page is a wrong one. Beside
:func:`webrobot.extract.product.product` (as the crawl calls it, on the
crawl's parsel tree) the anchor measured in the same run: extruct and
price-parser on structured data only (the first schema.org Product of JSON-LD,
then microdata, then RDFa, then OpenGraph's product tags).
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent.parent))

from benchmarks.quality import PROJECT_ROOT, markdown_table, source_page

FIXTURES = PROJECT_ROOT / "tests" / "fixtures" / "product"
FIELDS = ("name", "price", "currency", "availability", "sku", "gtin", "mpn", "brand")


@dataclass(frozen=True)
class Case:
    name: str
    url: str
    html: str
    expected: dict[str, Any] | None


def cases() -> list[Case]:
    out = []
    for folder in sorted(p for p in FIXTURES.iterdir() if p.is_dir()):
        answer = json.loads((folder / "expected.json").read_text("utf-8"))
        html = (folder / "page.html").read_text("utf-8")
        out.append(Case(folder.name, answer["url"], html, answer["product"]))
    return out


def same(field_name: str, got: Any, want: Any) -> bool:
    if field_name in ("name", "brand", "sku", "mpn"):
        return " ".join(str(got).split()).casefold() == " ".join(str(want).split()).casefold()
    return bool(got == want)


@dataclass
class FieldScore:
    right: int = 0
    given: int = 0
    expected: int = 0
    wrong: list[str] = field(default_factory=list)

    @property
    def precision(self) -> float:
        return self.right / self.given if self.given else 1.0

    @property
    def recall(self) -> float:
        return self.right / self.expected if self.expected else 1.0

    @property
    def f1(self) -> float:
        p, r = self.precision, self.recall
        return 2 * p * r / (p + r) if p + r else 0.0


@dataclass
class Result:
    fields: dict[str, FieldScore]
    pages_right: int
    pages: int
    ms_per_page: float


def score(prepare: Any, extract: Any, all_cases: list[Case]) -> Result:
    """Scores of one reader; ``prepare`` (not timed) builds its input from a case."""
    fields = {f: FieldScore() for f in FIELDS}
    pages_right = 0
    elapsed = 0.0
    if all_cases:
        extract(prepare(all_cases[0]))  # imports and caches outside the timing
    for case in all_cases:
        given = prepare(case)
        started = time.perf_counter()
        got = extract(given)
        elapsed += time.perf_counter() - started
        pages_right += (got is None) == (case.expected is None)
        for name in FIELDS:
            value = got.get(name) if got else None
            want = case.expected.get(name) if case.expected else None
            s = fields[name]
            s.given += value is not None
            s.expected += want is not None
            if value is not None and want is not None and same(name, value, want):
                s.right += 1
            elif value is not None or want is not None:
                s.wrong.append(f"{case.name}: {value!r} != {want!r}")
    return Result(fields, pages_right, len(all_cases), 1000 * elapsed / max(1, len(all_cases)))


def crawl_page(case: Case) -> Any:
    """The page as the crawl hands it over, its tree already built."""
    return source_page(case.url, case.html)


def webrobot_product(page: Any) -> dict[str, Any] | None:
    from webrobot.extract.product import product

    result: dict[str, Any] | None = product(page)
    if result is None:
        return None
    # The answers name the schema.org term the page gives (``SoldOut``, ``PreOrder``);
    # ``availability`` itself says only whether it can be ordered.
    detail = result.pop("availability_detail")
    return {**result, "availability": detail}


# --- the anchor: extruct + price-parser on structured data only --------------------------


def baseline_product(case: Case, rdfa_when_needed: bool = False) -> dict[str, Any] | None:
    """The first schema.org Product that extruct finds (JSON-LD, microdata, RDFa), else
    OpenGraph's product tags; its price read by price-parser.

    ``rdfa_when_needed``: read RDFa only where JSON-LD and microdata hold no Product (the
    same answer, since those come first; RDFa is most of extruct's CPU on a shop page).
    The benchmark's tables read it always, so that their CPU is extruct's whole reading."""
    from price_parser import Price

    try:
        data = _extruct(case, rdfa_when_needed)
    except Exception:  # noqa: BLE001 - the anchor as a crawl would run it: a failure is nothing found
        data = {}
    node = _first_product(data)
    if node is None:
        og = next(iter(data.get("opengraph") or []), {})
        if str(og.get("@type", "")).lower() not in ("product", "og:product", "product.item"):
            return None
        price = og.get("product:price:amount") or og.get("og:price:amount")
        amount = Price.fromstring(str(price)).amount if price else None
        return {
            "name": og.get("og:title"),
            "price": f"{amount:.2f}" if amount is not None else None,
            "currency": og.get("product:price:currency") or og.get("og:price:currency"),
            "availability": None,
            "sku": og.get("product:retailer_item_id"),
            "gtin": None,
            "mpn": None,
            "brand": og.get("product:brand") or og.get("og:brand"),
        }
    offer = node.get("offers")
    if isinstance(offer, list):
        offer = offer[0] if offer else {}
    offer = offer if isinstance(offer, dict) else {}
    raw = offer.get("price", offer.get("lowPrice"))
    amount = Price.fromstring(str(raw)).amount if raw not in (None, "") else None
    availability = offer.get("availability")
    brand = node.get("brand")
    if isinstance(brand, dict):
        brand = brand.get("name")
    gtin = next(
        (node[k] for k in ("gtin13", "gtin", "gtin12", "gtin14", "gtin8") if node.get(k)), None
    )
    return {
        "name": _plain(node.get("name")),
        "price": f"{amount:.2f}" if amount is not None else None,
        "currency": _plain(offer.get("priceCurrency")),
        "availability": re.split(r"[/#]", availability)[-1]
        if isinstance(availability, str)
        else None,
        "sku": _plain(node.get("sku")),
        "gtin": _plain(gtin),
        "mpn": _plain(node.get("mpn")),
        "brand": _plain(brand),
    }


def _extruct(case: Case, rdfa_when_needed: bool) -> dict[str, Any]:
    """extruct's uniform reading of JSON-LD, microdata, RDFa and OpenGraph, as one
    ``extruct.extract`` call makes it; with ``rdfa_when_needed``, RDFa is read (on the
    same tree, after the others, as that call does) only where no Product came first."""
    import extruct

    syntaxes = ["json-ld", "microdata", "rdfa", "opengraph"]
    if not rdfa_when_needed:
        return extruct.extract(
            case.html, base_url=case.url, syntaxes=syntaxes, uniform=True, errors="ignore"
        )
    from extruct.utils import parse_xmldom_html

    try:  # the parser extruct picks when RDFa is asked for
        tree = parse_xmldom_html(case.html, encoding="UTF-8")
    except Exception:  # noqa: BLE001 - as extract(errors="ignore"): an unparsable page is nothing
        return {}
    first = [s for s in syntaxes if s != "rdfa"]
    data: dict[str, Any] = extruct.extract(
        tree, base_url=case.url, syntaxes=first, uniform=True, errors="ignore"
    )
    if _first_product({"json-ld": data.get("json-ld"), "microdata": data.get("microdata")}):
        return data
    data.update(
        extruct.extract(tree, base_url=case.url, syntaxes=["rdfa"], uniform=True, errors="ignore")
    )
    return data


def _plain(value: Any) -> Any:
    if isinstance(value, list):
        value = value[0] if value else None
    if isinstance(value, dict):
        value = value.get("@value", value.get("name"))
    return str(value) if value not in (None, "") else None


def _first_product(data: dict[str, Any]) -> dict[str, Any] | None:
    for item in data.get("json-ld") or []:
        for node in [item, *(item.get("@graph") or [])] if isinstance(item, dict) else []:
            if isinstance(node, dict) and "Product" in str(node.get("@type", "")):
                return node
    for item in data.get("microdata") or []:
        if "Product" in str(item.get("@type", "")):
            return item
    for item in data.get("rdfa") or []:
        if "Product" in str(item.get("@type", "")):
            return {
                re.split(r"[/#]", k)[-1]: (
                    v[0].get("@value", v[0].get("@id"))
                    if isinstance(v, list) and v and isinstance(v[0], dict)
                    else v
                )
                for k, v in item.items()
            }
    return None


READERS = {
    "webrobot": (crawl_page, webrobot_product),
    "extruct + price-parser": (lambda case: case, baseline_product),
}


def evaluate() -> dict[str, Result]:
    all_cases = cases()
    return {name: score(prep, read, all_cases) for name, (prep, read) in READERS.items()}


def table(results: dict[str, Result]) -> str:
    rows = []
    for name in FIELDS:
        row = [name]
        for result in results.values():
            s = result.fields[name]
            row += [f"{s.precision:.3f}", f"{s.recall:.3f}", f"{s.f1:.3f}"]
        rows.append(row)
    header = ["field"]
    for reader in results:
        header += [f"{reader} P", "R", "F1"]
    pages = ["product page or not"] + [
        f"{r.pages_right}/{r.pages}" if i % 3 == 0 else ""
        for r in results.values()
        for i in range(3)
    ]
    speed = ["ms/page (webrobot: on the crawl's tree)"] + [
        f"{r.ms_per_page:.1f}" if i % 3 == 0 else "" for r in results.values() for i in range(3)
    ]
    return markdown_table(header, [*rows, pages, speed])


def real_pages(limit: int | None = None) -> tuple[int, int, float, float]:
    """On the 181 real news pages of the article extraction benchmark (none is a product
    page): how many :func:`product` calls a product page, and its ms/page median and
    mean given the page's structured data (as the crawl passes it)."""
    import statistics

    from benchmarks.quality.structured import news_pages
    from webrobot.extract.product import product
    from webrobot.extract.structured import structured_data

    found, times = 0, []
    for url, html in news_pages(limit):
        page = source_page(url, html)
        structured = structured_data(page)
        started = time.perf_counter()
        found += product(page, structured) is not None
        times.append(1000 * (time.perf_counter() - started))
    return found, len(times), statistics.median(times), statistics.mean(times)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--wrong", action="store_true", help="list every wrong or missing value")
    parser.add_argument(
        "--real", action="store_true", help="also the 181 real news pages: no product expected"
    )
    args = parser.parse_args(argv)
    results = evaluate()
    print(f"Product fields: {len(cases())} annotated shop pages\n")
    print(table(results))
    if args.real:
        found, pages, median, mean = real_pages()
        print(
            f"\nReal news pages: {found} of {pages} called product pages;"
            f" product() {median:.1f} ms/page median, {mean:.1f} mean (structured data given)"
        )
    if args.wrong:
        for reader, result in results.items():
            for name, s in result.fields.items():
                for line in s.wrong:
                    print(f"{reader} {name}: {line}")


if __name__ == "__main__":
    main()
