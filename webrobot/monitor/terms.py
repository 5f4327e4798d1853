"""Term matching for watch rules: whole words, whatever the case, spacing or line breaks.

Pure: no Scrapy, no I/O.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass

#: Characters of context kept either side of a term found.
CONTEXT = 60


def term_pattern(term: str) -> re.Pattern[str] | None:
    """The pattern of ``term``: its words in order with any whitespace between, not
    inside a longer word; None for a term with no word."""
    parts = unicodedata.normalize("NFKC", term).split()
    if not parts:
        return None
    body = r"\s+".join(re.escape(p) for p in parts)
    return re.compile(rf"(?<!\w){body}(?!\w)", re.IGNORECASE)


@dataclass(frozen=True)
class TermMatch:
    term: str
    count: int
    context: str


def find_terms(patterns: Iterable[tuple[str, re.Pattern[str]]], text: str) -> list[TermMatch]:
    """Each term found in ``text``, with how often and the words around its first place."""
    text = unicodedata.normalize("NFKC", text)
    out = []
    for term, pattern in patterns:
        found = list(pattern.finditer(text))
        if not found:
            continue
        first = found[0]
        start, end = max(0, first.start() - CONTEXT), min(len(text), first.end() + CONTEXT)
        out.append(TermMatch(term, len(found), " ".join(text[start:end].split())))
    return out
