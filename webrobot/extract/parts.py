"""What ``WEBROBOT_EXTRACT`` (site-config key ``extract``) can ask for.

Pure: no Scrapy, no I/O.
"""

from __future__ import annotations

from collections.abc import Iterable

#: Every part of a page that can be extracted, in the order the item lists them.
PARTS = (
    "text",
    "metadata",
    "structured_data",
    "product",
    "fields",
    "documents",
    "images",
)
ALL = "all"


def enabled_parts(values: Iterable[str]) -> frozenset[str]:
    """The parts named by ``values`` (``"all"`` for every one); :class:`ValueError`
    names the first unknown word and what was expected."""
    parts: set[str] = set()
    for value in values:
        word = value.strip().lower()
        if not word:
            continue
        if word == ALL:
            parts.update(PARTS)
        elif word in PARTS:
            parts.add(word)
        else:
            raise ValueError(f"unknown part {value!r}: expected {ALL} or any of {', '.join(PARTS)}")
    return frozenset(parts)
