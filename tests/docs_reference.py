"""What the reference pages in docs/reference/ document, read from their Markdown.

A documented name is a code span in the first column of a table row
(``| `NAME` | ... |``), or in a heading (``## `crawl```). A part in angle
brackets (``webrobot/robots/status/<code>``) matches one path segment.
"""

from __future__ import annotations

import re
from pathlib import Path

REFERENCE = Path(__file__).resolve().parent.parent / "docs" / "reference"

_ROW = re.compile(r"^\|([^|]*)\|")
_HEADING = re.compile(r"^#+ .*")
_CODE = re.compile(r"`([^`]+)`")
_PLACEHOLDER = re.compile(r"<[^<>/]+>")


def documented(page: str) -> set[str]:
    """Names in code spans of the first table column, and of headings, of ``page``."""
    names: set[str] = set()
    fence = False
    for line in (REFERENCE / page).read_text("utf-8").splitlines():
        if line.startswith("```"):
            fence = not fence
            continue
        if fence:
            continue
        row = _ROW.match(line)
        if row:
            names.update(_CODE.findall(row.group(1)))
        elif _HEADING.match(line):
            names.update(_CODE.findall(line))
    return names


def pattern(name: str) -> re.Pattern[str]:
    """A documented key as a regular expression: ``<...>`` is one path segment."""
    parts = _PLACEHOLDER.split(name)
    return re.compile("[^/]+".join(re.escape(part) for part in parts) + r"\Z")


class KeyPatterns:
    """The documented keys of a page; ``covers(key)`` says if one of them matches."""

    def __init__(self, names: set[str]) -> None:
        self.exact = {name for name in names if not _PLACEHOLDER.search(name)}
        self.patterns = [pattern(name) for name in names if _PLACEHOLDER.search(name)]

    def covers(self, key: str) -> bool:
        return key in self.exact or any(p.match(key) for p in self.patterns)

    def missing(self, keys: set[str]) -> list[str]:
        return sorted(key for key in keys if not self.covers(key))


#: Stats keys whose namespace webrobot documents (Scrapy's other keys are Scrapy's).
CHECKED_STATS_PREFIXES = ("webrobot/", "robotstxt/", "dupefilter/")


def checked_stats_keys(keys: set[str]) -> set[str]:
    return {key for key in keys if key.startswith(CHECKED_STATS_PREFIXES)}
