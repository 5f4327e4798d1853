"""A shop page's paragraphs read once: later repeats of a long line left out.

Shop pages repeat their text: the description in a desktop and a mobile copy of the
buy box, in a tab and again in an accordion, a marketplace's "why you're seeing this
ad" note under every sponsored card. A reader reads such a paragraph once; the
reading of the page's markup gives it as many times as the page holds it.
:func:`without_repeats` keeps the first of each line of :data:`MIN_CHARS` characters
or more (spaces made one, case folded) and drops the lines that repeat it; short
lines (a price, "Add to cart", a size) repeat for good reasons and are kept.

Scope: the main text asks on a page that declares a product (and no article). On the
development half of the unseen sets (``python -m benchmarks.quality.unseen``) this
took the product pages from 0.6198 to 0.6208 F1 and the collection pages (some of
them shops' product pages) from 0.5190 to 0.5239; on every page that declares no
article it cost the documentation pages (a guide repeats its code lines) and the
service pages, and it is not asked there.

Pure: no Scrapy, no I/O.
"""

from __future__ import annotations

import re

#: A line this long (characters, spaces made one) is read once.
MIN_CHARS = 60
_SPACES = re.compile(r"\s+")
#: A Markdown line's heading or list mark.
_MARK = re.compile(r"^(?:#{1,6}|[-*+]|\d+\.)\s+")


def without_repeats(text: str | None, markdown: str | None) -> tuple[str | None, str | None]:
    """``text`` and ``markdown`` without the later repeats of their long lines (see the
    module doc); a line's Markdown mark is not part of what is compared."""
    return _once(text, plain=True), _once(markdown, plain=False)


def _once(text: str | None, plain: bool) -> str | None:
    if not text:
        return text
    seen: set[str] = set()
    kept = []
    for line in text.splitlines():
        key = _SPACES.sub(" ", line if plain else _MARK.sub("", line.strip())).strip().casefold()
        if len(key) >= MIN_CHARS:
            if key in seen:
                continue
            seen.add(key)
        kept.append(line)
    return "\n".join(kept)
