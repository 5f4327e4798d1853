"""Measure the near-duplicate filter's SimHash on real article text.

Data: the real news articles of ``../shared/benchdata/article-extraction-benchmark``
(their ``articleBody``), read in place; articles under
:data:`~webrobot.seen.simhash.MIN_WORDS` words are left out, as the filter leaves
them out.

* **Copies**: each article republished with what a copy on another page of the site
  changes: its date line (``Published 27 November 2026, 09:14`` -> ``Updated 28
  November 2026, 17:02 GMT``), an advertisement line inside the text that differs,
  a byline added, or both the date line and the ad. A copy must be within
  ``--distance`` bits (the setting's largest value, 3).
* **Different articles**: every pair of two different articles must be further apart.

``python scripts/eval_simhash.py`` prints the table of distances; ``--check`` exits 1
when a copy is further than 3 bits in more than the floor's share of articles, or any
pair of different articles is within 3 bits (tests/test_simhash_eval.py runs it).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from itertools import combinations
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from webrobot.seen.simhash import MAX_DISTANCE, judged, simhash
from webrobot.text import hamming as distance

DATA = ROOT.parent / "shared" / "benchdata" / "article-extraction-benchmark" / "ground-truth.json"
#: Floors: the share of articles whose copies are all within 3 bits, and the share of
#: different-article pairs within 3 bits (a ceiling).
FLOORS = {"copies within 3 bits": 0.95, "different pairs within 3 bits": 0.0}

DATE_1 = "Published 27 November 2026, 09:14"
DATE_2 = "Updated 28 November 2026, 17:02 GMT"
AD_1 = "Advertisement: Buy boots at Harbour Outfitters, now with free delivery."
AD_2 = "Advertisement: Ferry tickets are half price this week only."


def articles() -> list[tuple[str, str]]:
    data = json.loads(DATA.read_text("utf-8"))
    out = []
    for key in sorted(data):
        body = "\n".join(
            " ".join(line.split()) for line in (data[key].get("articleBody") or "").splitlines()
        ).strip()
        if judged(body):
            out.append((key, body))
    return out


def copies(body: str) -> dict[str, tuple[str, str]]:
    """(original as first seen, copy) per kind of copy."""
    lines = body.splitlines()
    middle = len(lines) // 2
    with_ad = lambda ad: "\n".join(lines[:middle] + [ad] + lines[middle:])
    return {
        "date line": (f"{DATE_1}\n{body}", f"{DATE_2}\n{body}"),
        "ad": (with_ad(AD_1), with_ad(AD_2)),
        "date line and ad": (f"{DATE_1}\n{with_ad(AD_1)}", f"{DATE_2}\n{with_ad(AD_2)}"),
        "byline added": (body, f"By the News Desk, staff writer\n{body}"),
        "one word edited": (body, _edited(lines)),
    }


#: Kinds of copy measured but not promised (the floor leaves them out).
MEASURED_ONLY = ("one word edited",)


def _edited(lines: list[str]) -> str:
    """The article with the middle word of its longest line replaced."""
    longest = max(range(len(lines)), key=lambda i: len(lines[i].split()))
    words = lines[longest].split()
    words[len(words) // 2] = "notably"
    return "\n".join(lines[:longest] + [" ".join(words)] + lines[longest + 1 :])


def evaluate(pages: list[tuple[str, str]]) -> tuple[dict[str, Counter[int]], Counter[int]]:
    by_kind: dict[str, Counter[int]] = {}
    for _, body in pages:
        for kind, (first, copy) in copies(body).items():
            by_kind.setdefault(kind, Counter())[distance(simhash(first), simhash(copy))] += 1
    prints = [simhash(body) for _, body in pages]
    different = Counter(distance(a, b) for a, b in combinations(prints, 2))
    return by_kind, different


def scores(
    by_kind: dict[str, Counter[int]], different: Counter[int], pages: int
) -> dict[str, float]:
    within = min(
        sum(n for d, n in c.items() if d <= MAX_DISTANCE)
        for kind, c in by_kind.items()
        if kind not in MEASURED_ONLY
    )
    pairs = sum(different.values())
    close = sum(n for d, n in different.items() if d <= MAX_DISTANCE)
    return {
        "copies within 3 bits": within / pages if pages else 0.0,
        "different pairs within 3 bits": close / pairs if pairs else 0.0,
    }


def _quantiles(counter: Counter[int]) -> str:
    values = sorted(counter.elements())
    if not values:
        return "-"
    pick = lambda q: values[min(len(values) - 1, int(q * len(values)))]
    return f"{values[0]:>3} {pick(0.5):>4} {pick(0.95):>4} {values[-1]:>4}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="exit 1 below a floor")
    args = parser.parse_args(argv)
    pages = articles()
    by_kind, different = evaluate(pages)
    print(f"{len(pages)} articles of at least 50 words; distances in bits (of 64)")
    print(f"{'':28} {'min':>3} {'med':>4} {'p95':>4} {'max':>4}  <=3 bits")
    for kind, counter in by_kind.items():
        within = sum(n for d, n in counter.items() if d <= MAX_DISTANCE)
        print(f"copy, {kind:22} {_quantiles(counter)}  {within}/{len(pages)}")
    close = sum(n for d, n in different.items() if d <= MAX_DISTANCE)
    print(f"{'different articles':28} {_quantiles(different)}  {close}/{sum(different.values())}")
    measured = scores(by_kind, different, len(pages))
    failed = False
    for name, value in measured.items():
        floor = FLOORS[name]
        ok = value <= floor if "different" in name else value >= floor
        failed |= not ok
        print(
            f"{name}: {value:.3f} ({'ceiling' if 'different' in name else 'floor'} {floor}){'' if ok else '  BELOW'}"
        )
    return 1 if args.check and failed else 0


if __name__ == "__main__":
    sys.exit(main())
