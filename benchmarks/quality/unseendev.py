"""``python -m benchmarks.quality.unseendev``: the main text page by page on the ``dev``
half of the unseen sets (:mod:`benchmarks.quality.unseen`), beside trafilatura's default
reading, to read where the extractor loses. Only ``dev`` pages are ever scored or printed:
the ``held`` half stays unread.

For each page: webrobot's precision, recall and F1 (the article benchmark's shingles of
four tokens), trafilatura's F1, and the URL, the pages where webrobot loses most first.
``--show N`` prints, for the N worst pages, the truth's lines the text lacks (``-``) and
the text's lines the truth lacks (``+``). ``--sets wcxb-forum,wcxb-article`` picks the
page types; on ``trafilatura-eval`` (passages, no whole truth) a page's score is the share
of its passages read right (wanted ones found, unwanted ones left out), and the diff lists
the wanted passages missed (``-``) and the unwanted ones kept (``+``).
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

from benchmarks.quality.maintext import tp_fp_fn
from benchmarks.quality.unseen import (
    Page,
    default_repos,
    extractor,
    passage_counts,
    trafilatura_eval,
    wcxb,
)

_SPACE = re.compile(r"\s+")


def _prf(page: Page, text: str) -> tuple[float, float, float]:
    if page.truth is None:  # passages: precision, recall, and the share read right
        tp, fp, fn, tn = passage_counts(page, text)
        p = tp / (tp + fp) if tp + fp else 1.0
        r = tp / (tp + fn) if tp + fn else 1.0
        return p, r, (tp + tn) / max(1, tp + fp + fn + tn)
    tp, fp, fn = tp_fp_fn(page.truth, text)
    p = 1.0 if fp == fn == 0 else 0.0 if tp == fp == 0 else tp / (tp + fp)
    r = 1.0 if fp == fn == 0 else 0.0 if tp == fn == 0 else tp / (tp + fn)
    return p, r, (2 * p * r / (p + r) if p + r else 0.0)


def _lines(text: str) -> list[str]:
    return [n for n in (_SPACE.sub(" ", line).strip() for line in text.splitlines()) if n]


def diff(page: Page, text: str, width: int = 160) -> list[str]:
    """The truth's lines missing from the text (``-``), the text's lines missing from the
    truth (``+``), each cut to ``width`` characters."""
    if page.truth is None:
        found = _SPACE.sub(" ", text)
        missed = [w for w in page.with_ if _SPACE.sub(" ", w).strip() not in found]
        kept = [w for w in page.without if _SPACE.sub(" ", w).strip() in found]
        return [f"  - {w[:width]}" for w in missed] + [f"  + {w[:width]}" for w in kept]
    truth = page.truth
    flat_truth, flat_text = _SPACE.sub(" ", truth), _SPACE.sub(" ", text)
    out = [f"  - {line[:width]}" for line in _lines(truth) if line not in flat_text]
    out += [f"  + {line[:width]}" for line in _lines(text) if line not in flat_truth]
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--repos", type=Path, default=None)
    parser.add_argument("--sets", default="wcxb-article,wcxb-forum")
    parser.add_argument("--show", type=int, default=0, help="diffs of the N worst pages")
    parser.add_argument("--every", type=int, default=1)
    parser.add_argument("--url", default="", help="only pages whose URL holds this")
    parser.add_argument(
        "--in-order", action="store_true", help="pages in the set's order (to compare runs)"
    )
    args = parser.parse_args(argv)
    wanted = {s.strip() for s in args.sets.split(",") if s.strip()}
    repos = args.repos or default_repos()
    every = (trafilatura_eval(repos) if "trafilatura-eval" in wanted else []) + (
        wcxb(repos) if any(name.startswith("wcxb-") for name in wanted) else []
    )
    pages = [
        p
        for p in every
        if p.set in wanted and p.split == "dev" and args.url in p.url
    ][:: max(1, args.every)]
    ours, theirs = extractor("webrobot"), extractor("trafilatura")
    rows = []
    for page in pages:
        text = ours(page.html) or ""
        other = theirs(page.html) or ""
        rows.append((page, text, _prf(page, text), _prf(page, other)[2]))
    if not args.in_order:
        rows.sort(key=lambda row: row[2][2] - row[3])
    for page, _, (p, r, f), tf in rows:
        print(f"{page.set:14} P {p:.2f} R {r:.2f} F {f:.2f}  traf {tf:.2f}  {page.url}")
    for page, text, (p, r, f), tf in rows[: args.show]:
        print(f"\n== {page.url}  P {p:.2f} R {r:.2f} F {f:.2f} traf {tf:.2f}")
        print("\n".join(diff(page, text)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
