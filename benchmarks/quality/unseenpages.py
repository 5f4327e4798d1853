"""``python -m benchmarks.quality.unseenpages``: the main text page by page on the
development half of the unseen sets (:mod:`benchmarks.quality.unseen`), to read where it
loses; never the held half, which is how the rules are judged.

For each dev page of the chosen sets (``--sets wcxb-product,wcxb-service``; a set is
named as the evaluation's table names it) it prints webrobot's and trafilatura's shingle
precision, recall and F1 beside the page's URL, worst against trafilatura first (or worst
outright with ``--order f1``). ``--show N`` (the page's number in that listing, several
comma-separated) prints the lines of the ground truth the text lacks and the lines of
the text the ground truth lacks, so what the reading drops and what it keeps wrongly can
be read.
"""

from __future__ import annotations

import argparse
import sys

from benchmarks.quality.maintext import _shingles, precision_recall_f1, tp_fp_fn
from benchmarks.quality.unseen import Page, default_repos, extractor, load


def dev_pages(wanted: list[str]) -> list[Page]:
    """The dev pages of the sets named in ``wanted`` (``wcxb-product``, ``trafilatura-eval``)."""
    pages = load(default_repos(), wanted)
    return [p for p in pages if p.split == "dev" and p.truth is not None]


def prf(truth: str, text: str) -> tuple[float, float, float]:
    return precision_recall_f1([tp_fp_fn(truth, text)])


def diff(truth: str, text: str) -> tuple[list[str], list[str]]:
    """The ground truth's lines with no shingle in the text (dropped), and the text's
    lines with no shingle in the truth (kept wrongly)."""
    t_sh, x_sh = _shingles(truth), _shingles(text)
    missing = [ln for ln in truth.splitlines() if ln.strip() and not (_shingles(ln) & x_sh)]
    extra = [ln for ln in text.splitlines() if ln.strip() and not (_shingles(ln) & t_sh)]
    return missing, extra


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--sets", default="wcxb-product,wcxb-service")
    parser.add_argument("--order", choices=("gap", "f1"), default="gap")
    parser.add_argument("--show", default="", help="page numbers to print the diff of")
    args = parser.parse_args(argv)
    pages = dev_pages([s.strip() for s in args.sets.split(",") if s.strip()])
    ours, theirs = extractor("webrobot"), extractor("trafilatura")
    rows = []
    for page in pages:
        text, anchor = ours(page.html) or "", theirs(page.html) or ""
        rows.append((page, text, prf(page.truth or "", text), prf(page.truth or "", anchor)))
    if args.order == "gap":
        rows.sort(key=lambda r: r[2][2] - r[3][2])
    else:
        rows.sort(key=lambda r: r[2][2])
    print("n | set | webrobot P/R/F1 | trafilatura P/R/F1 | url")
    for n, (page, _, ours_prf, theirs_prf) in enumerate(rows):
        cells = [" ".join(f"{v:.2f}" for v in s) for s in (ours_prf, theirs_prf)]
        print(f"{n} | {page.set} | {cells[0]} | {cells[1]} | {page.url}")
    for n in (int(s) for s in args.show.split(",") if s.strip()):
        page, text, *_ = rows[n]
        missing, extra = diff(page.truth or "", text)
        print(f"\n## {n} {page.url}\n### dropped ({len(missing)} lines)")
        print("\n".join("- " + ln[:200] for ln in missing))
        print(f"### kept wrongly ({len(extra)} lines)")
        print("\n".join("+ " + ln[:200] for ln in extra))
    return 0


if __name__ == "__main__":
    sys.exit(main())
