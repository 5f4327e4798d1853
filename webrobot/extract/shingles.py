"""How much of one text another holds, counted in word shingles.

A shingle is a run of four consecutive words (:func:`webrobot.text.words`: any
script, case folded; a run of CJK characters counts as one word). Comparing the shingles of two texts says
whether one is a trimmed copy of the other, which no length comparison can.

Pure: no Scrapy, no I/O.
"""

from __future__ import annotations

from collections import Counter

from webrobot.text import shingles as runs
from webrobot.text import words

#: Words in a shingle.
SIZE = 4


def shingles(text: str, size: int = SIZE) -> Counter[tuple[str, ...]]:
    """The text's shingles with their counts; a text shorter than ``size`` words is one
    shingle of all its words, an empty text none."""
    return Counter(runs(words(text), size))


def share_kept(whole: str, part: str) -> float:
    """The share of ``whole``'s shingles that ``part`` holds too (1.0 when ``whole``
    has none): how much of ``whole`` survives in ``part``."""
    of_whole = shingles(whole)
    total = sum(of_whole.values())
    if not total:
        return 1.0
    return sum((of_whole & shingles(part)).values()) / total
