"""Evaluate the monitor's rules on real pages: what changed, and near-copies of protected texts.

Data: the 181 real news articles of ``../shared/benchdata/article-extraction-benchmark``
(their ``articleBody``, paragraphs as lines), read in place.

* **Changes** (a changing site of real pages): each article is a page crawled twice.
  Between the crawls it gets either noise only (a new timestamp, a counter, a CSRF-like
  token, a rotated block, its paragraphs re-ordered) or noise plus one real change (a
  sentence added, a sentence removed, a word of a sentence changed, the price changed).
  A page is *changed* when :func:`~webrobot.monitor.snapshot.changes` says anything;
  precision and recall of *changed*, and the share of changed events that name what
  changed (the right field, the right sentence). The articles are split by key: the
  first half is where the rules were tried while writing them, the second half is
  held out; both are printed, the floors judge the held-out half.
* **Real HTML through an extractor** (``--html``): each benchmark page's HTML, with noise
  put into it (a byline with a new timestamp and view counter, a new CSRF token), is
  extracted twice by trafilatura (standing in for the crawl's main-text extractor);
  the two snapshots must say no change. Then a sentence is added to the article's
  longest paragraph; where the extractor kept it, the change must be found and named.
  This judges the rules together with an extractor's own wobble on real markup.
* **Near copies**: each article is a protected text; a page holding it verbatim inside
  another article, with one word in ten changed, half of it as an excerpt, or its
  paragraphs re-ordered must match; every other article must not.

``python scripts/eval_monitor.py`` prints a table; ``--check`` exits 1 below a floor
(tests/test_monitor_eval.py runs it).
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import random
import re
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from webrobot.monitor.nearcopy import MIN_CONTAINMENT, ProtectedText, containment, page_shingles
from webrobot.monitor.snapshot import changes, sentences, snapshot_of

#: ``$WEBROBOT_BENCHDATA`` (as the quality gates read it) or the shared folder beside the repository.
BENCHDATA = Path(os.environ.get("WEBROBOT_BENCHDATA") or ROOT.parent / "shared" / "benchdata")
DATA = BENCHDATA / "article-extraction-benchmark" / "ground-truth.json"
#: Floors on the held-out half (changes) and on every article (near copies).
FLOORS = {
    "changed precision": 0.95,
    "changed recall": 0.95,
    "changes named": 0.90,
    "copy recall": 0.95,
    "copy false matches": 0.01,  # a ceiling
    "html noise quiet": 0.95,
    "html changed recall": 0.95,
    "html changes named": 0.90,
}


def articles() -> list[tuple[str, str]]:
    data = json.loads(DATA.read_text("utf-8"))
    out = []
    for key in sorted(data):
        body = data[key].get("articleBody") or ""
        lines = [" ".join(line.split()) for line in body.splitlines() if line.strip()]
        if sum(len(s.split()) >= 5 for s in sentences("\n".join(lines))) >= 4:
            out.append((key, "\n".join(lines)))
    return out


def _noise(rng: random.Random, version: int) -> dict[str, str]:
    """The parts of a page that move at every crawl without anything changing."""
    day = 10 + version
    return {
        "stamp": f"Updated {day} November 2026 at {rng.randrange(24):02d}:{rng.randrange(60):02d} UTC.",
        "counter": f"This story has been read {rng.randrange(1000, 99999):,} times.",
        "token": f"Session {''.join(rng.choice('abcdef0123456789') for _ in range(24))}",
        "ago": f"Posted {rng.randrange(2, 59)} minutes ago",
    }


def _page(
    lines: list[str], noise: dict[str, str], price: str, rng: random.Random
) -> dict[str, Any]:
    rotated = ["Subscribe to our newsletter.", "Follow us for more stories.", "Share this article."]
    rng.shuffle(rotated)
    body = [noise["stamp"], noise["ago"], *lines, noise["counter"], *rotated, noise["token"]]
    return {"main_text": "\n".join(body), "product": {"price": price, "currency": "USD"}}


def _change(kind: str, lines: list[str], rng: random.Random) -> tuple[list[str], str, str]:
    """``lines`` with one real change; returns the new lines, the field and the sentence named."""
    lines = list(lines)
    if kind == "added":
        sentence = (
            f"An editor's note was added on review number {rng.randrange(10, 99)} of this story."
        )
        lines.insert(rng.randrange(len(lines) + 1), sentence)
        return lines, "main_text", sentence
    all_sentences = [
        (i, s) for i, line in enumerate(lines) for s in sentences(line) if len(s.split()) >= 5
    ]
    i, sentence = rng.choice(all_sentences)
    if kind == "removed":
        lines[i] = lines[i].replace(sentence, "").strip()
        return lines, "main_text", sentence
    words = sentence.split()
    j = rng.randrange(len(words) - 1)  # the last word keeps the sentence's full stop
    words[j] = "[corrected]" if words[j] != "[corrected]" else "[amended]"
    lines[i] = lines[i].replace(sentence, " ".join(words))
    return lines, "main_text", sentence


def evaluate_changes(pages: list[tuple[str, str]], seed: int = 7) -> dict[str, float]:
    rng = random.Random(seed)
    tp = fp = fn = tn = named = 0
    kinds = ["none", "none", "added", "removed", "edited", "price"]
    for n, (_key, text) in enumerate(pages):
        lines = text.splitlines()
        kind = kinds[n % len(kinds)]
        old = snapshot_of(_page(lines, _noise(rng, 1), "1299.00", rng))
        new_lines, field, sentence = (lines, "", "")
        price = "1299.00" if rng.random() < 0.5 else "1299"  # the same price, written otherwise
        if kind in {"added", "removed", "edited"}:
            new_lines, field, sentence = _change(kind, lines, rng)
        elif kind == "price":
            price, field = "1249.00", "price"
        shuffled = list(new_lines)
        if kind == "none" or rng.random() < 0.5:
            rng.shuffle(shuffled)  # re-ordered blocks are no change
        new = snapshot_of(_page(shuffled, _noise(rng, 2), price, rng))
        found = changes(old, new)
        if kind == "none":
            fp += bool(found)
            tn += not found
            continue
        if not found:
            fn += 1
            continue
        tp += 1
        if _names(found, field, sentence):
            named += 1
    return {
        "changed precision": tp / (tp + fp) if tp + fp else 1.0,
        "changed recall": tp / (tp + fn) if tp + fn else 1.0,
        "changes named": named / tp if tp else 0.0,
        "pages": len(pages),
        "changed pages": tp + fn,
    }


def _names(found: list[dict[str, Any]], field: str, sentence: str) -> bool:
    """Does the event say what changed, and nothing else?"""
    if [c["field"] for c in found] != [field]:
        return False
    if field != "main_text":
        return True
    told = found[0]["added"] + found[0]["removed"]
    return len(told) <= 2 and any(sentence in s or s in sentence for s in told)


HTML = DATA.parent / "html"
ADDED = "The harbour master confirmed the figures on Tuesday."


def _noisy(html: str, version: int, rng: random.Random) -> str:
    stamp = f"<p>Updated {20 + version} November 2026 at 1{version}:0{version} UTC. {1000 + version * 37:,} views</p>"
    html = re.sub(r"(<article[^>]*>|<body[^>]*>)", lambda m: m.group(1) + stamp, html, count=1)
    token = f'<input type="hidden" name="csrf" value="{rng.getrandbits(96):x}">'
    return html.replace("</body>", token + "</body>", 1)


def evaluate_html(limit: int = 0, seed: int = 3) -> dict[str, float]:
    """Noise and one added sentence in real pages' HTML, judged after extraction."""
    import trafilatura

    rng = random.Random(seed)
    files = sorted(HTML.glob("*.html.gz"))
    pages = quiet = changed = found = named = 0
    for path in files[:limit] if limit else files:
        html = gzip.decompress(path.read_bytes()).decode("utf-8", "replace")
        before = trafilatura.extract(_noisy(html, 1, rng)) or ""
        if not before:
            continue
        pages += 1
        after = trafilatura.extract(_noisy(html, 2, rng)) or ""
        quiet += not changes(snapshot_of({"main_text": before}), snapshot_of({"main_text": after}))
        flat = " ".join(before.split())
        kept = [
            p
            for p in re.findall(r"<p[^>]*>([^<]{200,})</p>", html)
            if " ".join(p.split())[:60] in flat
        ]
        if not kept:
            continue
        paragraph = max(kept, key=len)
        edited = (
            trafilatura.extract(_noisy(html.replace(paragraph, f"{paragraph} {ADDED}", 1), 2, rng))
            or ""
        )
        if ADDED not in edited:
            continue  # the extractor took the sentence from elsewhere, or dropped it
        changed += 1
        found_changes = changes(
            snapshot_of({"main_text": before}), snapshot_of({"main_text": edited})
        )
        found += bool(found_changes)
        named += _names(found_changes, "main_text", ADDED)
    return {
        "html pages": pages,
        "html noise quiet": quiet / pages if pages else 0.0,
        "html changed pages": changed,
        "html changed recall": found / changed if changed else 0.0,
        "html changes named": named / found if found else 0.0,
    }


def _edited(text: str, rng: random.Random) -> str:
    words = text.split(" ")
    return " ".join(
        rng.choice(["really", "quite", "often"]) if rng.random() < 0.1 else w for w in words
    )


def _excerpt(text: str, rng: random.Random) -> str:
    words = text.split(" ")
    start = rng.randrange(0, len(words) // 2 + 1)
    return " ".join(words[start : start + (len(words) + 1) // 2])


def _reordered(text: str, rng: random.Random) -> str:
    lines = text.splitlines()
    rng.shuffle(lines)
    return "\n".join(lines)


def evaluate_copies(pages: list[tuple[str, str]], seed: int = 11) -> dict[str, float]:
    rng = random.Random(seed)
    texts = [text for _, text in pages]
    shingled = [page_shingles(t) for t in texts]
    hits = total = false = pairs = 0
    lowest: dict[str, float] = {}
    highest_other = 0.0
    forms: dict[str, Callable[[str, str], str]] = {
        "verbatim": lambda t, host: f"{host}\n{t}",
        "edited": lambda t, host: _edited(t, rng),
        "excerpt": lambda t, host: f"{host}\n{_excerpt(t, rng)}",
        "reordered": lambda t, host: _reordered(t, rng),
    }
    for i, text in enumerate(texts):
        protected = ProtectedText.of("protected", text.replace("\n", "\n\n"))
        host = texts[(i + 1) % len(texts)]
        for name, make in forms.items():
            score = containment(protected.shingles, page_shingles(make(text, host)))
            lowest[name] = min(lowest.get(name, 1.0), score)
            total += 1
            hits += score >= MIN_CONTAINMENT
        for j, other in enumerate(shingled):
            if j == i:
                continue
            score = containment(protected.shingles, other)
            highest_other = max(highest_other, score)
            pairs += 1
            false += score >= MIN_CONTAINMENT
    out: dict[str, float] = {"copy recall": hits / total, "copy false matches": false / pairs}
    out |= {f"lowest {name}": round(score, 3) for name, score in lowest.items()}
    out["highest other"] = round(highest_other, 3)
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="exit 1 below a floor")
    parser.add_argument(
        "--html",
        type=int,
        default=None,
        metavar="N",
        help="also real HTML through trafilatura: the first N pages (0: all)",
    )
    args = parser.parse_args(argv)
    pages = articles()
    half = len(pages) // 2
    tried, held_out = evaluate_changes(pages[:half]), evaluate_changes(pages[half:])
    copies = evaluate_copies(pages)
    print(f"{'measure':<22} {'tried':>8} {'held out':>9} {'floor':>7}")
    for name in ("changed precision", "changed recall", "changes named", "pages", "changed pages"):
        floor = FLOORS.get(name)
        print(f"{name:<22} {tried[name]:>8.3f} {held_out[name]:>9.3f} {floor if floor else '':>7}")
    print(f"\nnear copies ({len(pages)} articles), threshold {MIN_CONTAINMENT}")
    for name, value in copies.items():
        floor = FLOORS.get(name)
        print(f"{name:<22} {value:>8.3f} {floor if floor is not None else '':>7}")
    scores = {**held_out, **copies}
    if args.html is not None:
        html = evaluate_html(args.html)
        scores |= html
        print("\nreal HTML through trafilatura")
        for name, value in html.items():
            floor = FLOORS.get(name)
            print(f"{name:<22} {value:>8.3f} {floor if floor is not None else '':>7}")
    failed = [
        name for name, floor in FLOORS.items() if name in scores
        and (scores[name] > floor if name == "copy false matches" else scores[name] < floor)
    ]  # fmt: skip
    if failed:
        print("below the floor: " + ", ".join(failed))
    return 1 if args.check and failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
