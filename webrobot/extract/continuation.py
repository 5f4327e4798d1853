"""Articles split into several containers: the parts an extraction left out.

Many layouts cut an article's body into consecutive containers of one kind
(``<div class="article__body">`` … an advertisement … ``<div
class="article__body">``), and an extractor that picks the best container keeps
only the first. Given the page's tree and the text extracted from it, this finds
the container kind (parent tag and class) that holds most of the extracted
paragraphs and adds the paragraphs of the other containers of that kind that
the text lacks, each after the part it follows in the page.

A container is added only when it is truly a continuation: it holds none of the
extracted paragraphs, no heading stands between it and an extracted one outside
the containers (a list of posts or teasers has a title before each item), it is
not inside ``<nav>``, ``<aside>``, ``<header>``,
``<footer>`` or ``<form>``, it shares an ancestor below ``<body>`` with the
extracted part, and what is added is at least :data:`MIN_ADDED` paragraphs (a
lone paragraph of the same kind is more often a caption, a quote or an embed).

Pure: no Scrapy, no I/O.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

#: Paragraphs shorter than this (characters) are not looked at.
MIN_PARAGRAPH = 30
#: Paragraphs the continuations must add together.
MIN_ADDED = 2
#: The container kind must hold at least this share of the extracted text.
MIN_SHARE = 0.5
#: Paragraphs and headings looked at in one page, so that a huge page costs a bounded walk.
MAX_PARAGRAPHS = 5_000
#: Characters searched for paragraphs not found as whole lines of the text, per page.
MAX_SEARCHED = 20_000_000
_OUTSIDE = frozenset({"nav", "aside", "header", "footer", "form"})
_TOP = frozenset({"body", "html"})
_HEADINGS = ("h1", "h2", "h3", "h4", "h5", "h6")
_SPACES = re.compile(r"\s+")


def _collapsed(text: str) -> str:
    """``text`` with its runs of white space made one space and its ends stripped: what
    ``_SPACES.sub(" ", text).strip()`` gives (both split at :meth:`str.isspace`), for a
    third of the CPU (a news page's paragraphs are each collapsed once)."""
    return " ".join(text.split())


@dataclass
class _Container:
    element: Any
    paragraphs: list[str] = field(default_factory=list)
    found: int = 0


def continued(root: Any, text: str) -> str:
    """``text`` with the paragraphs of the article's other containers in ``root``
    added, one a line, each after the line of the paragraph it follows in the page."""
    # the paragraphs in a classed container and the headings, in page order (a heading
    # with no parent); their text is read only when a kind has two containers or more
    seen: list[tuple[Any, Any, str | None]] = []
    containers: dict[tuple[str, str], set[Any]] = {}
    for count, element in enumerate(root.iter("p", *_HEADINGS)):
        if count >= MAX_PARAGRAPHS:
            break
        if element.tag != "p":
            seen.append((element, None, None))
            continue
        parent = element.getparent()
        css = parent.get("class") if parent is not None else None
        if not css or not isinstance(parent.tag, str):
            continue
        seen.append((element, parent, css))
        containers.setdefault((parent.tag, css), set()).add(parent)
    if all(len(kind) < 2 for kind in containers.values()):
        return text  # no kind is split into containers: nothing can continue it
    flat = _SPACES.sub(" ", text)
    lines = {_collapsed(line) for line in text.split("\n")}
    budget = MAX_SEARCHED
    kinds: dict[tuple[str, str], dict[Any, _Container]] = {}
    order: list[tuple[tuple[str, str], _Container, str, bool]] = []
    headings: list[tuple[int, Any]] = []  # (paragraphs seen before it, heading)
    for element, parent, css in seen:
        if parent is None or css is None:
            headings.append((len(order), element))
            continue
        words = _collapsed(element.text_content())
        if len(words) < MIN_PARAGRAPH:
            continue
        kind = (parent.tag, css)
        box = kinds.setdefault(kind, {}).setdefault(parent, _Container(parent))
        found = words in lines
        if not found and budget > 0:  # a paragraph the text splits or joins
            budget -= len(flat)
            found = words in flat
        box.paragraphs.append(words)
        box.found += found
        order.append((kind, box, words, found))
    if not kinds:
        return text
    kind, share = _article_kind(kinds)
    if share < MIN_SHARE * len(flat) or len(kinds[kind]) < 2:
        return text
    additions = _continuations(kind, kinds[kind], order, headings)
    if sum(len(box.paragraphs) for box in additions) < MIN_ADDED:
        return text
    return _insert(text, kind, order, {id(box) for box in additions})


def _continuations(
    kind: tuple[str, str],
    boxes: dict[Any, _Container],
    order: list[tuple[tuple[str, str], _Container, str, bool]],
    headings: list[tuple[int, Any]],
) -> list[_Container]:
    """The containers of ``kind`` without extracted text that have no heading between
    them and an extracted one, outside the containers (the title of another item of a
    list of posts or teasers)."""
    breaks = {
        position
        for position, heading in headings
        if not any(ancestor in boxes for ancestor in heading.iterancestors())
    }
    # the paragraphs of each stretch of the page between two such headings
    stretches: list[list[_Container]] = [[]]
    for position, (paragraph_kind, box, _, _) in enumerate(order):
        if position in breaks:
            stretches.append([])
        if paragraph_kind == kind:
            stretches[-1].append(box)
    first = next(box for box in boxes.values() if box.found)
    added: dict[int, _Container] = {}
    for stretch in stretches:
        if not any(box.found for box in stretch):
            continue
        for box in stretch:
            if not box.found and id(box) not in added and _continues(first.element, box.element):
                added[id(box)] = box
    return list(added.values())


def _article_kind(kinds: dict[tuple[str, str], dict[Any, _Container]]) -> tuple[Any, int]:
    """The container kind holding the most extracted characters, and how many."""
    best, most = next(iter(kinds)), -1
    for kind, boxes in kinds.items():
        chars = sum(len(p) for box in boxes.values() if box.found for p in box.paragraphs)
        if chars > most:
            best, most = kind, chars
    return best, most


def _continues(found: Any, candidate: Any) -> bool:
    if any(a.tag in _OUTSIDE for a in candidate.iterancestors()):
        return False
    ancestors = set(found.iterancestors())
    for shared in candidate.iterancestors():
        if shared in ancestors:
            return shared.tag not in _TOP
    return False


def _insert(
    text: str,
    kind: tuple[str, str],
    order: list[tuple[tuple[str, str], _Container, str, bool]],
    added: set[int],
) -> str:
    lines = text.split("\n")
    flat_lines = [_collapsed(line) for line in lines]
    exact = {line: i for i, line in reversed(list(enumerate(flat_lines)))}
    after: dict[int, list[str]] = {}
    anchor = -1  # the line of the last extracted paragraph seen so far
    budget = MAX_SEARCHED
    for paragraph_kind, box, words, found in order:
        if found:
            where = exact.get(words)
            if where is None and budget > 0:
                budget -= 2 * len(text)
                where = next((i for i, line in enumerate(flat_lines) if words in line), None)
                if where is None and paragraph_kind == kind:
                    where = next((i for i, line in enumerate(flat_lines) if line in words), None)
            if where is not None and where >= anchor:
                anchor = where
        elif id(box) in added:
            after.setdefault(anchor, []).append(words)
    out = list(after.get(-1, []))
    for i, line in enumerate(lines):
        out.append(line)
        out.extend(after.get(i, []))
    return "\n".join(out)
