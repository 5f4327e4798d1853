"""``python -m benchmarks.quality.miningcpu``: CPU a page of each mining part beside trafilatura.

On the same real pages in one process (the 181 news pages of the article extraction
benchmark, the 55 shop pages of ``product-dev``), each page is read:

- by one default ``trafilatura.extract(html)``, the anchor (it parses the page itself);
- by each of webrobot's ``text``, ``metadata``, ``structured_data`` and ``product``
  parts alone, on a fresh :class:`~webrobot.extract.inputs.PageInputs` of the crawl's
  tree (Scrapy's parse, timed apart as ``parse``);
- by the four together as the mining middleware runs them: one page, one
  ``PageInputs``, structured data first so the others share it.

CPU is process time (other processes on the machine do not count), in ms a page, the
best of ``--repeat`` passes; each pass reads a freshly parsed tree. Pure measurement:
nothing is written.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent.parent))

from benchmarks.quality import markdown_table, source_page

#: The parts timed, in the middleware's order (structured data first: it is an input).
PARTS = ("text", "metadata", "structured_data", "product")
#: The four together, as the middleware runs them.
ALL = "all four"
COLUMNS = ("parse", *PARTS, ALL, "trafilatura")


def article_pages() -> list[tuple[str, str]]:
    """``(url, html)`` of the article extraction benchmark."""
    from benchmarks.quality.maintext import default_data, load_pages

    return [(p.url, p.html) for p in load_pages(default_data())]


def product_pages() -> list[tuple[str, str]]:
    """``(url, html)`` of the product-dev shop pages."""
    from benchmarks.quality.productdev import pages

    return [(p.case.url, p.case.html) for p in pages()]


SETS: dict[str, Callable[[], list[tuple[str, str]]]] = {
    "article-extraction-benchmark": article_pages,
    "product-dev": product_pages,
}


def run_parts(page: Any, names: tuple[str, ...]) -> dict[str, Any]:
    """The named parts on one page, as the mining middleware runs them."""
    from webrobot.extract.inputs import STRUCTURED, PageInputs
    from webrobot.extract.parts import BY_NAME

    parts = sorted((BY_NAME[n] for n in names), key=lambda part: part.provides is None)
    inputs = PageInputs(page, full_structured=any(p.provides == STRUCTURED for p in parts))
    out = {}
    for part in parts:
        try:
            out[part.name] = part.run(inputs)
        except Exception as exc:  # noqa: BLE001 - counted by the middleware; measured here
            out[part.name] = exc
    return out


def measure(pages: list[tuple[str, str]], repeat: int = 2) -> dict[str, float]:
    """Column -> CPU ms a page (best pass)."""
    import trafilatura

    if pages:  # imports and first-use caches outside the clock
        trafilatura.extract(pages[0][1])
        run_parts(source_page(*pages[0]), PARTS)
    best: dict[str, float] = {}
    for _ in range(repeat):
        spent = dict.fromkeys(COLUMNS, 0.0)
        for url, html in pages:
            started = time.process_time()
            trafilatura.extract(html)
            spent["trafilatura"] += time.process_time() - started
            for column, names in [*((p, (p,)) for p in PARTS), (ALL, PARTS)]:
                started = time.process_time()
                page = source_page(url, html)
                parsed = time.process_time()
                run_parts(page, names)
                spent[column] += time.process_time() - parsed
                if column == ALL:
                    spent["parse"] += parsed - started
        for column, seconds in spent.items():
            ms = 1000 * seconds / max(1, len(pages))
            best[column] = min(best.get(column, ms), ms)
    return best


def table(results: dict[str, dict[str, float]]) -> str:
    rows = []
    for name, cpu in results.items():
        anchor = cpu["trafilatura"] or 1.0
        rows.append(
            [name, *(f"{cpu[c]:.1f}" + ("" if c in ("parse", "trafilatura") else
                     f" ({cpu[c] / anchor:.2f}x)") for c in COLUMNS)]
        )  # fmt: skip
    return markdown_table(["pages", *COLUMNS], rows)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--set", choices=sorted(SETS), action="append", help="default: both")
    parser.add_argument("--limit", type=int, default=0, help="first N pages of each set")
    parser.add_argument("--repeat", type=int, default=2)
    args = parser.parse_args(argv)
    results = {}
    for name in args.set or list(SETS):
        pages = SETS[name]()
        if args.limit:
            pages = pages[: args.limit]
        results[f"{name} ({len(pages)})"] = measure(pages, args.repeat)
    print("CPU ms a page (x one default trafilatura.extract on the same page)")
    print(table(results))


if __name__ == "__main__":
    main()
