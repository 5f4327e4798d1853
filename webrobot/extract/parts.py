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
    "markdown",
)
ALL = "all"
#: Parts only had when named: ``all`` leaves them out (``markdown`` doubles the text an
#: item carries).
OPT_IN = frozenset({"markdown"})


def enabled_parts(values: Iterable[str]) -> frozenset[str]:
    """The parts named by ``values`` (``"all"`` for every one); :class:`ValueError`
    names the first unknown word and what was expected."""
    parts: set[str] = set()
    for value in values:
        word = value.strip().lower()
        if not word:
            continue
        if word == ALL:
            parts.update(part for part in PARTS if part not in OPT_IN)
        elif word in PARTS:
            parts.add(word)
        else:
            raise ValueError(f"unknown part {value!r}: expected {ALL} or any of {', '.join(PARTS)}")
    return frozenset(parts)
