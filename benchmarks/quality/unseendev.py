"""``python -m benchmarks.quality.unseendev``: the dev half of the unseen wcxb sets page by
page, for reading where the main text loses (:mod:`benchmarks.quality.unseen` gives the
sets' figures).

Prints, for every dev page of the chosen page types (``--kinds``, default listing,
collection, documentation; ``trafilatura-eval`` names trafilatura's evaluation pages),
webrobot's and trafilatura's precision, recall and F1 on it (shingles of four tokens, as
the evaluation scores a wcxb page; passages found and wrongly found on a
trafilatura-eval page), worst gap first; ``--show N`` prints page N's lines (its index
in that listing) as extracted and as the ground truth holds them (a trafilatura-eval
page: the passages it must and must not hold), each line marked with whether the other
side has it. ``--structure legacy`` keeps the pages built as before HTML5 (as
:mod:`benchmarks.quality.unseen` judges them). Only pages of the ``dev`` half are ever loaded: the ``held`` half is never
printed, page by page or otherwise. ``--losses`` prints, for each set, where the large
losses are: the mean of the pages' F1, the pages below :data:`LOW_F1`, and the pages on
which one side is :data:`GAP` or more behind the other, webrobot beside trafilatura (or
beside texts saved with ``--save``, given with ``--against``). ``--pooled`` tells
whether webrobot's deficit is text it drops or text it keeps (:func:`pooled`): each
side's mean precision and mean recall (the set's F1 is theirs), and on the pages where
webrobot is behind by any margin, the truth's size there and the shingles webrobot
misses and keeps beyond the other side's. ``--reading`` groups each set's dev pages by
the kind the main text takes them for (:func:`page_kind`: article, product, a page of
cards, or none of these) and gives each group's F1 beside the other side's: whether the
pages a kind's rules do not reach are the ones behind.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from benchmarks.quality.maintext import _shingles, tp_fp_fn
from benchmarks.quality.unseen import (
    STRUCTURES,
    Page,
    _norm,
    default_repos,
    extractor,
    f1_of,
    passage_counts,
    structure,
    trafilatura_eval,
    wcxb,
)

KINDS = ("listing", "collection", "documentation")
#: The kind that names trafilatura's evaluation pages (the others are wcxb page types).
EVAL = "trafilatura-eval"
#: A page scored below this F1 is a large loss (``--losses``).
LOW_F1 = 0.3
#: One side this far behind the other on a page (F1) is a large loss against it.
GAP = 0.2


@dataclass(frozen=True, slots=True)
class Losses:
    """Where the large losses of a set are: the mean of the pages' F1 on each side, how
    many pages are below :data:`LOW_F1` on each side, and the pages (their indices) on
    which ours is :data:`GAP` or more behind the other side, and ahead of it."""

    mean: tuple[float, float]
    low: tuple[int, int]
    behind: tuple[int, ...]
    ahead: tuple[int, ...]


def losses(rows: Sequence[tuple[int, float, float]]) -> Losses:
    """The :class:`Losses` of ``rows``: each a page's index, our F1 and the other side's."""
    ours = [row[1] for row in rows]
    theirs = [row[2] for row in rows]
    return Losses(
        mean=(sum(ours) / len(rows), sum(theirs) / len(rows)) if rows else (0.0, 0.0),
        low=(sum(f < LOW_F1 for f in ours), sum(f < LOW_F1 for f in theirs)),
        behind=tuple(i for i, a, b in rows if b - a >= GAP),
        ahead=tuple(i for i, a, b in rows if a - b >= GAP),
    )


@dataclass(frozen=True, slots=True)
class Deficit:
    """Whether a set's deficit against the other side is recall or precision: each side's
    mean precision and mean recall over the pages (``ours``, ``theirs``), and, pooled
    over the pages on which ours is behind by any margin (``behind`` of them), the
    truth's size there (``truth``: shingles, or passages on a page of passages), how many
    more of it ours misses than the other side (``missed``) and how much more text the
    truth lacks it keeps (``kept``); negative when ours does better."""

    ours: tuple[float, float]
    theirs: tuple[float, float]
    behind: int
    truth: float
    missed: float
    kept: float


Counts = tuple[float, float, float]


def pooled(rows: Sequence[tuple[Counts, Counts]]) -> Deficit:
    """The :class:`Deficit` of ``rows``: each a page's true positives, false positives
    and false negatives, ours and the other side's."""

    def means(side: int) -> tuple[float, float]:
        ratios = [_ratios(*row[side])[:2] for row in rows]
        if not ratios:
            return 0.0, 0.0
        return (
            sum(p for p, _ in ratios) / len(ratios),
            sum(r for _, r in ratios) / len(ratios),
        )

    behind = [(a, b) for a, b in rows if _ratios(*a)[2] < _ratios(*b)[2]]
    return Deficit(
        ours=means(0),
        theirs=means(1),
        behind=len(behind),
        truth=sum(a[0] + a[2] for a, _ in behind),
        missed=sum(a[2] - b[2] for a, b in behind),
        kept=sum(a[1] - b[1] for a, b in behind),
    )


def page_kind(html: str) -> str:
    """The kind the main text takes the page ``html`` for: ``article``, ``product``,
    ``cards`` (a page of cards) or ``none``
    (:func:`webrobot.extract.collectionpage.reading_kinds`)."""
    from parsel import Selector

    from webrobot.extract.collectionpage import reading_kinds

    article, product, cards = reading_kinds(Selector(text=html, type="html").root)
    return "article" if article else "product" if product else "cards" if cards else "none"


def page_counts(page: Page, text: str) -> Counts:
    """``text``'s true positives, false positives and false negatives on ``page`` as its
    set counts them (shingles, or passages)."""
    if page.truth is not None:
        return tp_fp_fn(page.truth, text)
    tp, fp, fn, _ = passage_counts(page, text)
    return tp, fp, fn


def set_name(kind: str) -> str:
    return kind if kind == EVAL else f"wcxb-{kind}"


def dev_pages(kinds: tuple[str, ...], built: str | None = None) -> list[Page]:
    """The ``dev`` pages of the sets of ``kinds`` (wcxb page types, or
    :data:`EVAL`), in the evaluation's order; only those whose
    :func:`~benchmarks.quality.unseen.structure` is ``built`` when it is given."""
    wanted = {set_name(kind) for kind in kinds}
    pages = wcxb(default_repos()) if wanted - {EVAL} else []
    if EVAL in wanted:
        pages += trafilatura_eval(default_repos())
    pages = [p for p in pages if p.set in wanted and p.split == "dev"]
    return [p for p in pages if built is None or structure(p.html) == built]


def page_prf(page: Page, text: str) -> tuple[float, float, float]:
    """``text``'s precision, recall and F1 on ``page`` as its set scores it."""
    if page.truth is not None:
        return prf(page.truth, text)
    tp, fp, fn, _ = passage_counts(page, text)
    return _ratios(tp, fp, fn)


def prf(truth: str, text: str) -> tuple[float, float, float]:
    return _ratios(*tp_fp_fn(truth, text))


def _ratios(tp: float, fp: float, fn: float) -> tuple[float, float, float]:
    p = tp / (tp + fp) if tp + fp else (1.0 if not fn else 0.0)
    r = tp / (tp + fn) if tp + fn else 1.0
    return p, r, (2 * p * r / (p + r) if p + r else 0.0)


def show(page: Page, text: str) -> None:
    """``text``'s lines and the truth's, each marked ``+`` when the other side holds most
    of its shingles, ``-`` when it holds few (on a page of passages, those it must hold
    marked ``-`` when missing, those it must not marked ``!`` when found)."""
    if page.truth is None:
        _show_passages(page, text)
        return
    truth = page.truth
    have, want = _shingles(text), _shingles(truth)
    print(f"== {page.set} {page.url}\n-- extracted (- : not in truth)")
    for line in text.splitlines():
        print(("  " if _held(line, want) else "- ") + line[:160])
    print("-- truth (- : not extracted)")
    for line in truth.splitlines():
        if line.strip():
            print(("  " if _held(line, have) else "- ") + line[:160])


def _show_passages(page: Page, text: str) -> None:
    found = _norm(text)
    print(f"== {page.set} {page.url}\n-- extracted")
    for line in text.splitlines():
        print("  " + line[:160])
    print("-- passages it must hold (- : missing)")
    for passage in page.with_:
        print(("  " if _norm(passage) in found else "- ") + passage[:160])
    print("-- passages it must not hold (! : found)")
    for passage in page.without:
        print(("! " if _norm(passage) in found else "  ") + passage[:160])


def _held(line: str, other: object) -> bool:
    grams = _shingles(line)
    if not grams:
        return True
    return sum(1 for g in grams if g in other) >= 0.5 * len(grams)  # type: ignore[operator]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--kinds", default=",".join(KINDS))
    parser.add_argument("--show", type=int, action="append", default=[])
    parser.add_argument("--trafilatura", action="store_true", help="show trafilatura's text")
    parser.add_argument("--summary", action="store_true", help="each set's dev F1 only")
    parser.add_argument(
        "--losses", action="store_true", help="each set's large losses, beside the other side"
    )
    parser.add_argument(
        "--pooled", action="store_true", help="whether the deficit is text dropped or kept"
    )
    parser.add_argument(
        "--reading", action="store_true", help="each kind of page's F1, beside the other side"
    )
    parser.add_argument("--save", type=Path, help="write webrobot's texts to this JSON file")
    parser.add_argument(
        "--against", type=Path, help="compare with texts saved by --save (instead of trafilatura)"
    )
    parser.add_argument("--structure", choices=STRUCTURES, help="only the pages built this way")
    args = parser.parse_args(argv)
    kinds = tuple(k.strip() for k in args.kinds.split(",") if k.strip())
    pages = dev_pages(kinds, args.structure)
    ours, theirs = extractor("webrobot"), extractor("trafilatura")
    saved = json.loads(args.against.read_text()) if args.against else None
    rows = []
    for i, page in enumerate(pages):
        a = ours(page.html) or ""
        if saved is not None:
            b = saved.get(page.url + f"#{i}", "")
        else:
            quick = (args.show or args.summary) and not args.trafilatura
            b = a if quick else theirs(page.html) or ""
        rows.append((i, page, a, b, page_prf(page, a), page_prf(page, b)))
    if args.show:
        for i, page, a, b, _, _ in rows:
            if i in args.show:
                show(page, b if args.trafilatura else a)
        return 0
    if args.save:
        args.save.write_text(json.dumps({r[1].url + f"#{r[0]}": r[2] for r in rows}))
    if args.losses:
        other = "saved" if saved is not None else "trafilatura"
        for kind in kinds:
            mine = [r for r in rows if r[1].set == set_name(kind)]
            scores = (
                f1_of([r[1] for r in mine], [r[2] for r in mine]),
                f1_of([r[1] for r in mine], [r[3] for r in mine]),
            )
            found = losses([(r[0], r[4][2], r[5][2]) for r in mine])
            print(
                f"{set_name(kind)} dev ({len(mine)} pages), webrobot / {other}: "
                f"F1 {scores[0]:.3f} / {scores[1]:.3f}, "
                f"mean of the pages {found.mean[0]:.3f} / {found.mean[1]:.3f}, "
                f"pages below {LOW_F1} {found.low[0]} / {found.low[1]}; "
                f"webrobot {GAP}+ behind on {list(found.behind)}, ahead on {list(found.ahead)}"
            )
        return 0
    if args.pooled:
        other = "saved" if saved is not None else "trafilatura"
        for kind in kinds:
            mine = [r for r in rows if r[1].set == set_name(kind)]
            d = pooled([(page_counts(r[1], r[2]), page_counts(r[1], r[3])) for r in mine])
            print(
                f"{set_name(kind)} dev ({len(mine)} pages), webrobot / {other}: "
                f"mean precision {d.ours[0]:.3f} / {d.theirs[0]:.3f}, "
                f"mean recall {d.ours[1]:.3f} / {d.theirs[1]:.3f}; "
                f"behind on {d.behind} pages (truth {d.truth:.0f}): "
                f"{d.missed:+.0f} missed, {d.kept:+.0f} kept beyond {other}"
            )
        return 0
    if args.reading:
        other = "saved" if saved is not None else "trafilatura"
        for kind in kinds:
            mine = [r for r in rows if r[1].set == set_name(kind)]
            groups: dict[str, list[tuple[int, Page, str, str, object, object]]] = {}
            for r in mine:
                groups.setdefault(page_kind(r[1].html), []).append(r)
            for name, group in sorted(groups.items()):
                pages_of = [r[1] for r in group]
                print(
                    f"{set_name(kind)} dev, read as {name} ({len(group)} pages), "
                    f"webrobot / {other}: F1 {f1_of(pages_of, [r[2] for r in group]):.3f} / "
                    f"{f1_of(pages_of, [r[3] for r in group]):.3f}; pages {[r[0] for r in group]}"
                )
        return 0
    if args.summary:
        for kind in kinds:
            mine = [(r[1], r[2]) for r in rows if r[1].set == set_name(kind)]
            score = f1_of([p for p, _ in mine], [t for _, t in mine])
            print(f"{set_name(kind)} dev ({len(mine)} pages): webrobot {score:.3f}")
        return 0
    print(
        "i | set | webrobot P R F1 | "
        + ("saved" if saved is not None else "trafilatura")
        + " P R F1 | url"
    )
    for i, page, _, _, w, t in sorted(rows, key=lambda r: r[4][2] - r[5][2]):
        cells = " ".join(f"{x:.2f}" for x in w), " ".join(f"{x:.2f}" for x in t)
        print(f"{i} | {page.set.removeprefix('wcxb-')} | {cells[0]} | {cells[1]} | {page.url[:80]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
