"""``python -m benchmarks.quality.maintextsame``: whether the main text reads the same
pages the same way as a saved run: byte for byte, text and Markdown.

A change meant to make the main-text reading cheaper must not change what it reads.
``--save FILE`` writes :func:`webrobot.extract.maintext.main_reading` (text and Markdown)
of each page to ``FILE`` (JSON, outside the repository); ``--compare FILE`` reads the
pages again with the code as it is now and prints each page whose text or Markdown
differs, then how many pages were compared; the exit status is 1 when any differs.

The pages: the 181 of the article benchmark (:mod:`benchmarks.quality.maintext`), the 55
shop pages of ``product-dev`` (:mod:`benchmarks.quality.productdev`) and,
with ``--unseen N``, every N-th page of the development half (``dev`` sites) of the
unseen sets (:mod:`benchmarks.quality.unseen`), each given to the reading as the crawl
gives it (its parse, then the HTML).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterator
from pathlib import Path

from benchmarks.quality import maintext, productdev, unseen


def pages(unseen_every: int, limit: int = 0) -> Iterator[tuple[str, str, str]]:
    """``(key, url, html)`` of every page compared (the first ``limit`` of each set when
    it is not 0), in a fixed order."""
    cut = limit or None
    for page in maintext.load_pages(maintext.default_data())[:cut]:
        yield f"article/{page.key}", page.url, page.html
    for index, shop in enumerate(productdev.pages()[:cut]):
        yield f"product-dev/{index}/{shop.case.url}", shop.case.url, shop.case.html
    if unseen_every <= 0:
        return
    repos = unseen.default_repos()
    for name, load in unseen.SETS.items():
        try:
            loaded = load(repos)
        except (OSError, ValueError) as error:
            print(f"{name}: not read ({error})", file=sys.stderr)
            continue
        dev = [page for page in loaded if page.split == "dev"]
        for index, page in enumerate(dev[::unseen_every][:cut]):
            yield f"{page.set}/{index}/{page.url}", page.url, page.html


def readings(unseen_every: int, limit: int = 0) -> dict[str, list[str | None]]:
    """Each page's text and Markdown as the main text reads them now."""
    from parsel import Selector

    from webrobot.extract.maintext import main_reading
    from webrobot.extract.page import SourcePage

    out: dict[str, list[str | None]] = {}
    for key, url, html in pages(unseen_every, limit):
        page = SourcePage(url, html, root=Selector(text=html, type="html").root)
        reading = main_reading(page)
        out[key] = [reading.text, reading.markdown]
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    action = parser.add_mutually_exclusive_group(required=True)
    action.add_argument("--save", type=Path, help="write this run's readings to FILE")
    action.add_argument("--compare", type=Path, help="compare this run with FILE")
    parser.add_argument(
        "--unseen", type=int, default=0, help="every N-th dev page of the unseen sets"
    )
    parser.add_argument("--limit", type=int, default=0, help="the first N pages of each set")
    args = parser.parse_args(argv)
    now = readings(args.unseen, args.limit)
    if args.save:
        args.save.write_text(json.dumps(now, ensure_ascii=False), "utf-8")
        print(f"{len(now)} pages saved to {args.save}")
        return 0
    saved = json.loads(args.compare.read_text("utf-8"))
    differ = [key for key in saved if now.get(key) != saved[key]]
    missing = [key for key in saved if key not in now]
    for key in differ:
        print(f"differs: {key}")
    print(f"{len(saved)} pages compared: {len(differ)} differ ({len(missing)} not read now)")
    return 1 if differ else 0


if __name__ == "__main__":
    raise SystemExit(main())
