"""``python -m benchmarks.quality.maintext``: main-text extraction scored on the article
extraction benchmark, beside the field's anchors measured in the same run.

The data is scrapinghub/article-extraction-benchmark (MIT): 181 real news pages
(``html/<key>.html.gz``) and the article text of each (``ground-truth.json``,
``articleBody``). It is read in place from ``--data``, else ``$WEBROBOT_BENCHDATA``,
else ``<repo root>/../shared/benchdata`` (the folder holding
``article-extraction-benchmark/``).

The metric is the benchmark's own (its ``evaluate.py``): the text split into
``\\w+`` tokens, shingles of 4 tokens (a shorter text is one shingle), per page
the true/false positives and false negatives of the shingle counts; precision
averaged over the pages where something was extracted or expected, recall over
the pages where the truth has text, F1 of those two means.

The extractors: ``webrobot`` (:func:`webrobot.extract.maintext.main_text` on the
lxml tree Scrapy's selector builds, as the crawl hands it over; the parse is the
crawl's, outside the clock), ``webrobot+parse`` (the same with the selector's
parse inside the clock, to compare with extractors given the HTML), ``webrobot-fast``
(``main_text(page, mode="fast")`` on the HTML: resiliparse, what the full-text index reads
when the mining did not), ``trafilatura`` (``extract(html,
include_comments=False)`` on the HTML, as the benchmark runs it),
``readability-lxml`` (its summary, then html-text, as the benchmark runs it) and
``html-text`` (the whole page's text: the floor). CPU milliseconds per page are
the best of ``--repeat`` passes (the mean page), and the median of each page's best
pass, each pass running every extractor on one page before the next page, so that a
busy machine slows them alike.

Prints a Markdown table and one ``BENCH-RESULT {json}`` line per extractor; with
``--startup``, also each main-text mode's start-up: the CPU a fresh interpreter spends
importing it and reading one small page (what each index process pays once).
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import re
import statistics
import sys
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

PROJECT_ROOT = Path(__file__).resolve().parents[2]
DATA_ENV = "WEBROBOT_BENCHDATA"
BENCHMARK = "article-extraction-benchmark"
RESULT_PREFIX = "BENCH-RESULT "
EXTRACTORS = (
    "webrobot", "webrobot+parse", "webrobot-fast", "trafilatura", "readability-lxml", "html-text",
)  # fmt: skip


def default_data() -> Path:
    """Where the benchmark's folder lives: ``$WEBROBOT_BENCHDATA`` or the shared folder
    beside the repository."""
    env = os.environ.get(DATA_ENV)
    return Path(env) if env else PROJECT_ROOT.parent / "shared" / "benchdata"


@dataclass(frozen=True)
class Page:
    key: str
    url: str
    html: str
    truth: str


def load_pages(data: Path) -> list[Page]:
    """The benchmark's pages in key order; :class:`FileNotFoundError` naming the folder
    when it is not there."""
    folder = data / BENCHMARK
    truth_file = folder / "ground-truth.json"
    if not truth_file.is_file():
        raise FileNotFoundError(f"{truth_file}: not found (give --data or ${DATA_ENV})")
    truth = json.loads(truth_file.read_text("utf-8"))
    pages = []
    for key in sorted(truth):
        with gzip.open(folder / "html" / f"{key}.html.gz", "rt", encoding="utf8") as f:
            html = f.read()
        pages.append(Page(key, truth[key].get("url", ""), html, truth[key].get("articleBody", "")))
    return pages


# -- the benchmark's metric ------------------------------------------------------------
_TOKEN = re.compile(r"\w+", re.UNICODE | re.MULTILINE | re.IGNORECASE | re.DOTALL)


def _shingles(text: str, n: int = 4) -> Counter[tuple[str, ...]]:
    tokens = _TOKEN.findall(text or "")
    grams = (tuple(tokens[i : i + n]) for i in range(max(1, len(tokens) - n + 1)))
    return Counter(g for g in grams if g)


def tp_fp_fn(true: str, pred: str) -> tuple[float, float, float]:
    """Shingle true positives, false positives, false negatives of one page."""
    t, p = _shingles(true), _shingles(pred)
    tp = float(sum((t & p).values()))
    return tp, sum(p.values()) - tp, sum(t.values()) - tp


def precision_recall_f1(counts: list[tuple[float, float, float]]) -> tuple[float, float, float]:
    """Mean precision, mean recall and their F1, as the benchmark's ``evaluate.py``
    computes them."""

    def precision(tp: float, fp: float, fn: float) -> float:
        return 1.0 if fp == fn == 0 else 0.0 if tp == fp == 0 else tp / (tp + fp)

    def recall(tp: float, fp: float, fn: float) -> float:
        return 1.0 if fp == fn == 0 else 0.0 if tp == fn == 0 else tp / (tp + fn)

    p = statistics.mean(precision(*c) for c in counts if c[0] + c[1] > 0)
    r = statistics.mean(recall(*c) for c in counts if c[0] + c[2] > 0)
    return p, r, (2 * p * r / (p + r) if p + r else 0.0)


# -- the extractors ----------------------------------------------------------------------
Extract = Callable[[Any], str | None]


def prepare(name: str, page: Page) -> Any:
    """What the extractor is given, made outside the clock: the crawl's parse for
    webrobot, the HTML for the others."""
    if name != "webrobot":
        return page.html
    from parsel import Selector

    from webrobot.extract.page import SourcePage

    return SourcePage(url=page.url, html=page.html, root=Selector(text=page.html, type="html").root)


def extractor(name: str) -> Extract:
    """The extraction function of ``name``; :class:`ImportError` when its library is
    missing."""
    if name == "webrobot":
        import trafilatura

        from webrobot.extract.maintext import main_text

        del trafilatura  # imported only to say it is missing before the run
        return main_text
    if name == "webrobot+parse":
        import trafilatura
        from parsel import Selector

        from webrobot.extract.maintext import main_text
        from webrobot.extract.page import SourcePage

        del trafilatura
        return lambda html: main_text(
            SourcePage("", html, root=Selector(text=html, type="html").root)
        )
    if name == "webrobot-fast":
        import resiliparse

        from webrobot.extract.maintext import main_text
        from webrobot.extract.page import SourcePage

        del resiliparse
        return lambda html: main_text(SourcePage("", html), mode="fast")
    if name == "trafilatura":
        import trafilatura

        return lambda html: trafilatura.extract(html, include_comments=False)
    if name == "readability-lxml":
        import html_text
        from readability import Document

        return lambda html: html_text.extract_text(Document(html).summary(html_partial=True))
    if name == "html-text":
        import html_text

        return html_text.extract_text
    raise ValueError(f"unknown extractor {name!r}: expected any of {', '.join(EXTRACTORS)}")


@dataclass(frozen=True)
class Score:
    name: str
    f1: float
    precision: float
    recall: float
    cpu_ms: float
    pages: int
    empty: int
    #: The median page's CPU milliseconds (each page's best pass).
    cpu_ms_median: float = 0.0

    def row(self) -> str:
        return (
            f"| {self.name} | {self.f1:.3f} | {self.precision:.3f} | {self.recall:.3f} "
            f"| {self.cpu_ms:.1f} | {self.cpu_ms_median:.1f} | {self.empty} |"
        )


def evaluate(names: list[str], pages: list[Page], repeat: int = 1) -> list[Score]:
    """Every extractor of ``names`` on every page, interleaved page by page."""
    funcs = {name: extractor(name) for name in names}
    inputs = {name: [prepare(name, page) for page in pages] for name in names}
    outputs: dict[str, list[str]] = {name: [""] * len(pages) for name in names}
    best = dict.fromkeys(names, float("inf"))
    page_best = {name: [float("inf")] * len(pages) for name in names}
    for _ in range(max(1, repeat)):
        spent = dict.fromkeys(names, 0.0)
        for i in range(len(pages)):
            for name in names:
                started = time.process_time()
                text = funcs[name](inputs[name][i])
                took = time.process_time() - started
                spent[name] += took
                page_best[name][i] = min(page_best[name][i], took)
                outputs[name][i] = text or ""
        for name in names:
            best[name] = min(best[name], spent[name])
    scores = []
    for name in names:
        counts = [tp_fp_fn(page.truth, out) for page, out in zip(pages, outputs[name], strict=True)]
        p, r, f1 = precision_recall_f1(counts)
        empty = sum(1 for out in outputs[name] if not out.strip())
        median = 1000 * statistics.median(page_best[name])
        mean = 1000 * best[name] / len(pages)
        scores.append(Score(name, f1, p, r, mean, len(pages), empty, median))
    return scores


_STARTUP = """
import time
started = time.process_time()
from webrobot.extract.maintext import main_text
from webrobot.extract.page import SourcePage
main_text(SourcePage("", "<html><body><p>One small page.</p></body></html>"), mode={mode!r})
print(time.process_time() - started)
"""


def startup_cpu(mode: str, repeat: int = 3) -> float:
    """CPU seconds a fresh interpreter spends importing :mod:`webrobot.extract.maintext`
    and reading one small page in ``mode`` (its library's import included): the best
    of ``repeat`` runs."""
    import subprocess

    runs = []
    for _ in range(max(1, repeat)):
        done = subprocess.run(
            [sys.executable, "-c", _STARTUP.format(mode=mode)],
            cwd=PROJECT_ROOT, capture_output=True, text=True, check=True,
        )  # fmt: skip
        runs.append(float(done.stdout.strip().splitlines()[-1]))
    return min(runs)


TABLE_HEAD = (
    "| extractor | F1 | precision | recall | CPU ms per page | median page | pages with no text |\n"
    "| --- | --- | --- | --- | --- | --- | --- |"
)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--data", type=Path, default=None, help=f"the folder holding {BENCHMARK}/")
    parser.add_argument("--extractors", default=",".join(EXTRACTORS))
    parser.add_argument("--repeat", type=int, default=3, help="timing passes (best one counts)")
    parser.add_argument("--startup", action="store_true", help="also time each mode's start-up")
    args = parser.parse_args(argv)
    data = args.data or default_data()
    try:
        pages = load_pages(data)
    except FileNotFoundError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    names = []
    for name in (n.strip() for n in args.extractors.split(",") if n.strip()):
        try:
            extractor(name)
        except ImportError as exc:
            print(f"skipped {name}: not installed ({exc})", file=sys.stderr)
            continue
        names.append(name)
    scores = evaluate(names, pages, args.repeat)
    print(f"{len(pages)} pages of {BENCHMARK}, best of {args.repeat} timing passes\n")
    print(TABLE_HEAD)
    for score in scores:
        print(score.row())
    for score in scores:
        print(RESULT_PREFIX + json.dumps(score.__dict__), flush=True)
    if args.startup:
        print("\n| main-text mode | start-up CPU ms (import and one page) |\n| --- | --- |")
        for mode in ("fast", "full"):
            print(f"| {mode} | {1000 * startup_cpu(mode):.0f} |", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
