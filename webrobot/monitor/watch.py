"""Watch rules and what a page matches: terms, protected texts, protected pictures.

Pure: no Scrapy, no I/O. The rules are loaded from ``WEBROBOT_WATCH`` by
:mod:`.rules`; :func:`page_matches` judges one page.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from webrobot.monitor import events
from webrobot.monitor.images import MAX_DISTANCE, parse_hash, similarity
from webrobot.monitor.nearcopy import ProtectedText, match_text, page_shingles
from webrobot.monitor.terms import find_terms, term_pattern
from webrobot.text import hamming


@dataclass(frozen=True)
class ProtectedImage:
    name: str
    phash: int


@dataclass(frozen=True)
class WatchRule:
    name: str
    terms: tuple[tuple[str, re.Pattern[str]], ...] = ()
    texts: tuple[ProtectedText, ...] = ()
    images: tuple[ProtectedImage, ...] = ()

    @classmethod
    def of(
        cls, name: str, terms: Iterable[str] = (), texts: Iterable[ProtectedText] = (),
        images: Iterable[ProtectedImage] = (),
    ) -> WatchRule:  # fmt: skip
        compiled = tuple((t, p) for t in terms if (p := term_pattern(t)) is not None)
        return cls(name, compiled, tuple(texts), tuple(images))


def searchable_text(item: Mapping[str, Any]) -> str:
    """What terms are looked for in: the title, description, product name and main text."""
    parts = []
    metadata = item.get("metadata")
    if isinstance(metadata, Mapping):
        parts += [metadata.get("title"), metadata.get("description")]
    parts.append(item.get("title"))
    product = item.get("product")
    if isinstance(product, Mapping):
        parts.append(product.get("name"))
    parts.append(item.get("main_text"))
    return "\n".join(p for p in parts if isinstance(p, str) and p)


def page_matches(
    rules: Iterable[WatchRule], url: str, time: str, item: Mapping[str, Any]
) -> list[dict[str, Any]]:
    """One ``match`` event per rule part the page matches (a term, a text, a picture)."""
    rules = list(rules)
    if not rules:
        return []
    out = []
    text = searchable_text(item)
    raw = item.get("main_text")
    main_text = raw if isinstance(raw, str) else ""
    shingled = page_shingles(main_text) if any(r.texts for r in rules) else frozenset()
    images = [i for i in item.get("images") or [] if isinstance(i, Mapping)]
    hashes = [(i, h) for i in images if (h := parse_hash(i.get("phash"))) is not None]
    for rule in rules:
        for found in find_terms(rule.terms, text):
            evidence = {"term": found.term, "count": found.count, "context": found.context}
            out.append(events.match(url, time, rule.name, "term", 1.0, evidence))
        for protected in rule.texts:
            hit = match_text(protected, main_text, shingled)
            if hit:
                evidence = {"text": hit.text, "containment": hit.score, "excerpt": hit.excerpt}
                out.append(events.match(url, time, rule.name, "text", hit.score, evidence))
        for picture in rule.images:
            near = [(hamming(picture.phash, h), i) for i, h in hashes]
            near = [(d, i) for d, i in near if d <= MAX_DISTANCE]
            if near:
                d, image = min(near, key=lambda pair: pair[0])
                evidence = {"image": picture.name, "src": image.get("url"), "distance": d}
                out.append(events.match(url, time, rule.name, "image", similarity(d), evidence))
    return out
