"""``python -m benchmarks.extractors``: main-text extractors compared on the same pages.

Speed (pages per second, one core) and quality (word-level precision, recall
and F1 against the known main text) of resiliparse, trafilatura, jusText and
readability-lxml, with "all visible text" as the floor. The pages are built
here with a known article and realistic boilerplate around it (a menu of 30
links, a cookie banner, a sidebar of related links and ads, a footer of legal
links), half with HTML5 landmarks (``<nav>``, ``<main>``, ``<footer>``) and half
with ``<div class=...>`` only, as older sites do.

Prints one ``BENCH-RESULT`` JSON line per extractor.
"""

from __future__ import annotations

import argparse
import json
import random
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass

import lxml.html

_VOCAB = [
    "the",
    "of",
    "and",
    "to",
    "in",
    "a",
    "is",
    "that",
    "for",
    "it",
    "as",
    "was",
    "with",
    "be",
    "by",
    "on",
    "not",
    "he",
    "this",
    "are",
    "or",
    "his",
    "from",
    "at",
    "which",
    "but",
    "have",
    "an",
    "they",
    "you",
    "were",
    "her",
    "she",
    "there",
    "been",
    "one",
    "all",
    "we",
    "their",
    "has",
    "would",
    "when",
    "if",
    "river",
    "harbour",
    "museum",
    "village",
    "garden",
    "library",
    "station",
    "kitchen",
    "mountain",
    "theatre",
    "orchard",
    "archive",
    "lantern",
    "voyage",
    "compass",
    "meadow",
    "glacier",
    "canyon",
    "festival",
    "bakery",
    "workshop",
    "ledger",
    "harvest",
    "migration",
    "telescope",
    "parliament",
    "cathedral",
    "railway",
    "lighthouse",
    "vineyard",
    "monastery",
    "explained",
    "described",
    "measured",
    "collected",
    "delivered",
    "compared",
    "repaired",
    "painted",
    "recorded",
    "ancient",
    "careful",
    "curious",
    "honest",
    "northern",
    "southern",
    "quiet",
    "rapid",
    "gentle",
    "silver",
    "amber",
]


@dataclass(frozen=True)
class Sample:
    html: str
    main_text: str


def _sentence(rng: random.Random) -> str:
    words = [rng.choice(_VOCAB) for _ in range(rng.randint(8, 22))]
    return " ".join(words).capitalize() + "."


def _paragraph(rng: random.Random) -> str:
    return " ".join(_sentence(rng) for _ in range(rng.randint(3, 7)))


def make_page(rng: random.Random, landmarks: bool) -> Sample:
    title = " ".join(rng.choice(_VOCAB) for _ in range(5)).title()
    paragraphs = [_paragraph(rng) for _ in range(rng.randint(3, 9))]
    menu = "".join(
        f'<li><a href="/section/{i}">Section {rng.choice(_VOCAB)} {i}</a></li>' for i in range(30)
    )
    related = "".join(
        f'<li><a href="/story/{rng.randint(1, 10**6)}">{_sentence(rng)}</a></li>' for _ in range(8)
    )
    legal = " | ".join(
        f'<a href="/legal/{i}">{w}</a>'
        for i, w in enumerate(["Privacy", "Terms", "Cookies", "Imprint", "Contact", "Careers"])
    )
    cookie = (
        "We use cookies to improve your experience. By continuing you accept our cookie policy."
    )
    ads = (
        "Advertisement: subscribe now and save forty percent on your first year of premium access."
    )
    article = f"<h1>{title}</h1>" + "".join(f"<p>{p}</p>" for p in paragraphs)
    if landmarks:
        body = (
            f'<header><div class="logo">The Daily Example</div><nav><ul>{menu}</ul></nav></header>'
            f'<div class="cookie-banner">{cookie}</div>'
            f"<main><article>{article}</article></main>"
            f"<aside><h2>Related stories</h2><ul>{related}</ul><p>{ads}</p></aside>"
            f"<footer><p>{legal}</p><p>Copyright 2026 The Daily Example. All rights reserved.</p></footer>"
        )
    else:
        body = (
            f'<div id="top"><div class="logo">The Daily Example</div><div class="menu"><ul>{menu}</ul></div></div>'
            f'<div class="cookie-banner">{cookie}</div>'
            f'<div id="wrap"><div class="content">{article}</div>'
            f'<div class="sidebar"><h2>Related stories</h2><ul>{related}</ul><p>{ads}</p></div></div>'
            f'<div class="footer"><p>{legal}</p><p>Copyright 2026 The Daily Example. All rights reserved.</p></div>'
        )
    html = (
        f'<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>{title} | The Daily Example</title>'
        f'<script>var tracking = {{"id": 12345}};</script><style>body {{ font-family: serif; }}</style>'
        f"</head><body>{body}<script>loadAds();</script></body></html>"
    )
    return Sample(html, title + " " + " ".join(paragraphs))


def corpus(count: int, seed: int = 20261124) -> list[Sample]:
    rng = random.Random(seed)
    return [make_page(rng, landmarks=i % 2 == 0) for i in range(count)]


# -- the extractors -------------------------------------------------------------
def all_text(html: str) -> str:
    root = lxml.html.document_fromstring(html)
    for bad in root.xpath("//script|//style"):
        bad.drop_tree()
    return root.text_content()


def resiliparse_text(html: str) -> str:
    from resiliparse.extract.html2text import extract_plain_text

    return extract_plain_text(
        html, main_content=True, preserve_formatting=True, list_bullets=False,
        alt_texts=False, links=False, form_fields=False, noscript=False, comments=False,
    )  # fmt: skip


def resiliparse_bytes(html: str) -> str:
    """The same from the page's bytes, as the crawl has them, with no Python
    ``str`` in between (the encode to bytes is inside the clock here, so this
    overstates the cost)."""
    from resiliparse.extract.html2text import extract_plain_text
    from resiliparse.parse.html import HTMLTree

    tree = HTMLTree.parse_from_bytes(html.encode("utf-8"), "utf-8")
    return extract_plain_text(
        tree, main_content=True, preserve_formatting=True, list_bullets=False,
        alt_texts=False, links=False, form_fields=False, noscript=False, comments=False,
    )  # fmt: skip


def trafilatura_text(html: str) -> str:
    import trafilatura

    return trafilatura.extract(html, include_comments=False, include_tables=True) or ""


def trafilatura_fast(html: str) -> str:
    import trafilatura

    return trafilatura.extract(html, include_comments=False, include_tables=True, fast=True) or ""


def justext_text(html: str) -> str:
    import justext

    paragraphs = justext.justext(html.encode("utf-8"), justext.get_stoplist("English"))
    return " ".join(p.text for p in paragraphs if not p.is_boilerplate)


def readability_text(html: str) -> str:
    from readability import Document

    summary = Document(html).summary(html_partial=True)
    return lxml.html.fromstring(summary).text_content()


EXTRACTORS: dict[str, Callable[[str], str]] = {
    "all visible text": all_text,
    "resiliparse": resiliparse_text,
    "resiliparse (from bytes)": resiliparse_bytes,
    "trafilatura": trafilatura_text,
    "trafilatura fast": trafilatura_fast,
    "jusText": justext_text,
    "readability-lxml": readability_text,
}


def words(text: str) -> Counter[str]:
    return Counter(w.strip(".,:;!?|\"'()").lower() for w in text.split() if w.strip(".,:;!?|\"'()"))


def score(found: str, truth: str) -> tuple[float, float]:
    got, want = words(found), words(truth)
    common = sum((got & want).values())
    precision = common / max(1, sum(got.values()))
    recall = common / max(1, sum(want.values()))
    return precision, recall


def measure(
    name: str, extract: Callable[[str], str], samples: list[Sample]
) -> dict[str, float | str]:
    extract(samples[0].html)  # imports and caches outside the clock
    precisions, recalls = [], []
    started = time.perf_counter()
    outputs = [extract(s.html) for s in samples]
    elapsed = time.perf_counter() - started
    for out, sample in zip(outputs, samples, strict=True):
        p, r = score(out, sample.main_text)
        precisions.append(p)
        recalls.append(r)
    precision = sum(precisions) / len(precisions)
    recall = sum(recalls) / len(recalls)
    f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
    return {
        "extractor": name,
        "pages_per_second": round(len(samples) / elapsed, 1),
        "ms_per_page": round(1000 * elapsed / len(samples), 2),
        "precision": round(precision, 3),
        "recall": round(recall, 3),
        "f1": round(f1, 3),
    }


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pages", type=int, default=400)
    args = parser.parse_args(argv)
    samples = corpus(args.pages)
    for name, extract in EXTRACTORS.items():
        try:
            result = measure(name, extract, samples)
        except ImportError as exc:
            result = {"extractor": name, "error": f"not installed: {exc}"}
        print("BENCH-RESULT " + json.dumps(result), flush=True)


if __name__ == "__main__":
    main()
