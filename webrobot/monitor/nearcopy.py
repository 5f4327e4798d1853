"""Near-copy text matching: does a page hold a copy of a protected text?

Pure: no Scrapy, no I/O. Both texts are cut into word shingles (runs of
:data:`SHINGLE_WORDS` words, never across a paragraph), and the score is the
*containment* of the protected text in the page: the share of the protected
text's shingles that the page also has. Containment, not Jaccard similarity,
because a copy is usually a part of a longer page and an excerpt is a part of
the protected text: Jaccard falls with every word the page adds, containment
does not. The sets are exact (a protected text has a few thousand shingles at
most), so there is no estimate to tune; MinHash would only estimate the same
number.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from webrobot.text import shingles as runs
from webrobot.text import words

#: Words per shingle: one changed word in ten leaves about two thirds of them whole.
SHINGLE_WORDS = 4
#: A page matches a protected text when it holds at least this share of its shingles.
#: On 177 real news articles (scripts/eval_monitor.py): an excerpt of half the text
#: scores 0.41 or more, a copy with one word in ten changed 0.48 or more, re-ordered
#: paragraphs 1; another article scores at most 0.29 (those that high quote the same
#: press release), most under 0.05.
MIN_CONTAINMENT = 0.35
_PARAGRAPH_BREAK = re.compile(r"\n\s*\n")


def shingles(paragraphs: Iterable[str], size: int = SHINGLE_WORDS) -> frozenset[str]:
    """Every run of ``size`` words inside one paragraph (a shorter paragraph whole)."""
    return frozenset(
        " ".join(run) for paragraph in paragraphs for run in runs(words(paragraph), size)
    )


def paragraphs(text: str) -> list[str]:
    """A protected text's paragraphs: blank lines part them, wrapped lines are joined."""
    return [p for p in (" ".join(part.split()) for part in _PARAGRAPH_BREAK.split(text)) if p]


@dataclass(frozen=True)
class ProtectedText:
    """A text to watch for, from a file of a watch rule."""

    name: str
    shingles: frozenset[str]

    @classmethod
    def of(cls, name: str, text: str) -> ProtectedText:
        return cls(name, shingles(paragraphs(text)))


@dataclass(frozen=True)
class TextMatch:
    text: str
    score: float
    excerpt: str


def page_shingles(main_text: str) -> frozenset[str]:
    """A page's shingles (its main text: paragraphs as lines)."""
    return shingles(main_text.splitlines())


def containment(protected: frozenset[str], page: frozenset[str]) -> float:
    """The share of ``protected`` found in ``page`` (0 for an empty protected text)."""
    if not protected:
        return 0.0
    return len(protected & page) / len(protected)


def match_text(
    protected: ProtectedText, main_text: str, page: frozenset[str] | None = None,
    threshold: float = MIN_CONTAINMENT,
) -> TextMatch | None:  # fmt: skip
    """A :class:`TextMatch` when the page holds a (near) copy of ``protected``; its
    ``excerpt`` is the page's line sharing the most shingles with it (first 300 characters)."""
    page = page_shingles(main_text) if page is None else page
    score = containment(protected.shingles, page)
    if score < threshold or not score:
        return None
    best, best_shared = "", 0
    for line in main_text.splitlines():
        shared = len(shingles([line]) & protected.shingles)
        if shared > best_shared:
            best, best_shared = line.strip(), shared
    return TextMatch(protected.name, round(score, 3), best[:300])
