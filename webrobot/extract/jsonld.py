"""JSON-LD blocks as pages really write them, read leniently.

``<script type="application/ld+json">`` is meant to hold one JSON document, but
pages in the wild wrap it in HTML or CDATA comments, annotate it with ``//`` and
``/* */`` comments, leave trailing commas, escape it as HTML (``&quot;``), put
raw line breaks inside strings, or write several objects one after another.
:func:`parse_jsonld` recovers what a reader would (strict JSON first, each
repair only when the one before failed) and gives up on a block, never on the
page, when nothing sensible is left.

:func:`read_jsonld` reads a page's blocks once for every reader of them: the
items as extruct lists them, leniently read (metadata, product, structured
data), and the blocks as written, strictly read (a site config's ``jsonld``
field paths).

Pure: no Scrapy, no I/O.
"""

from __future__ import annotations

import html
import json
import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

#: ``type`` values that mean JSON-LD (compared in lower case, parameters ignored).
JSONLD_TYPES = frozenset({"application/ld+json", "application/json+ld"})
#: The one ``type`` a block read as written must have (ASCII case and spaces around ignored).
STRICT_TYPE = "application/ld+json"
_ASCII_LOWER = str.maketrans("ABCDEFGHIJKLMNOPQRSTUVWXYZ", "abcdefghijklmnopqrstuvwxyz")
_DECODER = json.JSONDecoder(strict=False)
_WRAPPERS = re.compile(
    r"^\s*(?://\s*)?(?:<!\[CDATA\[|<!--)|(?://\s*)?(?:\]\]>|-->)\s*$",
)
_ENTITY = re.compile(r"&(?:#\d+|#x[0-9a-fA-F]+|quot|amp|lt|gt|apos|nbsp);")
_BAD_ESCAPE = re.compile(r"\\([^\"\\/bfnrtu])")
#: Blocks beyond this many characters are skipped (no page needs them; a hostile one could).
MAX_BLOCK = 2_000_000


def parse_jsonld(text: str) -> list[Any]:
    """The JSON values of one JSON-LD block, in order; ``[]`` when none can be read.

    Several values written one after another (with or without commas or
    semicolons between them) come back as several values; a value that cannot
    be read ends the list there, keeping what came before it.
    """
    if not isinstance(text, str) or len(text) > MAX_BLOCK:
        return []
    text = text.strip()
    if not text:
        return []
    best: list[Any] = []
    for candidate in _repairs(text):
        values, whole = _decode_all(candidate)
        if whole and values:
            return values
        if len(values) > len(best):
            best = values
    return best


def jsonld_items(values: list[Any]) -> list[Any]:
    """The items of a block as extruct lists them: a top-level array is spread,
    and empty values (``null``, ``false``, ``{}``) are dropped."""
    items: list[Any] = []
    for value in values:
        if isinstance(value, list):
            items.extend(item for item in value if item)
        elif isinstance(value, dict) and value:
            items.append(value)
    return items


def _blocks(root: Any) -> Iterator[tuple[bool, str | None]]:
    """Every JSON-LD ``<script>`` under ``root`` (an lxml tree), in document order:
    whether its ``type`` is exactly :data:`STRICT_TYPE`, and its text (``None``: empty)."""
    try:
        nodes = root.iter("script")
        for node in nodes:
            declared = node.get("type") or ""
            kind = declared.split(";")[0].strip().lower()
            if kind in JSONLD_TYPES:
                strict = declared.strip(" \t\r\n").translate(_ASCII_LOWER) == STRICT_TYPE
                yield strict, node.text
    except (AttributeError, TypeError, ValueError):
        return


@dataclass(frozen=True, slots=True)
class PageJsonLd:
    """A page's JSON-LD, read once (:func:`read_jsonld`)."""

    #: Every item, block after block, as extruct lists them, read leniently.
    items: list[Any]
    #: Each block typed :data:`STRICT_TYPE` that is strict JSON, as written (one value
    #: per block, top-level arrays kept): what a field's JSON-LD path runs over.
    documents: list[Any]


def read_jsonld(root: Any, *, documents: bool = True) -> PageJsonLd:
    """The JSON-LD of the page whose lxml tree is ``root`` (``None``: no tree, none),
    each block parsed once for both readings.

    A block that is strict JSON is decoded once and serves both; only the others
    go through :func:`parse_jsonld`'s repairs. ``documents=False`` (items only)
    spares decoding a block larger than :data:`MAX_BLOCK`, which items leave out.
    """
    items: list[Any] = []
    written: list[Any] = []
    for strict, text in _blocks(root):
        if text is None:
            continue
        values: list[Any] | None = None
        if strict and (documents or len(text) <= MAX_BLOCK):
            try:
                value = json.loads(text)
            except (ValueError, RecursionError):
                pass
            else:
                written.append(value)
                # parse_jsonld gives exactly this for a block strict JSON reads whole.
                values = [value] if len(text) <= MAX_BLOCK else []
        if values is None:
            values = parse_jsonld(text)
        items.extend(jsonld_items(values))
    return PageJsonLd(items, written if documents else [])


def page_jsonld(root: Any) -> list[Any]:
    """Every JSON-LD item of a page, block after block."""
    return read_jsonld(root, documents=False).items


def _repairs(text: str) -> Iterator[str]:
    """``text`` as written, then with each repair added to the ones before: comments
    and trailing commas, a CDATA or HTML comment wrapper, escapes JSON does not know
    (``\\'``), HTML entities."""
    yield text
    seen = {text}
    for base in (text, html.unescape(text) if _ENTITY.search(text) else text):
        for candidate in (
            base,
            cleaned := _strip_commas(_strip_comments(base)),
            unwrapped := _strip_commas(_strip_comments(_WRAPPERS.sub("", base).strip())),
            _BAD_ESCAPE.sub(r"\1", cleaned),
            _BAD_ESCAPE.sub(r"\1", unwrapped),
        ):
            if candidate not in seen:
                seen.add(candidate)
                yield candidate


def _decode_all(text: str) -> tuple[list[Any], bool]:
    """Every JSON value in ``text``, one after another, up to the first that cannot
    be read; and whether that was all of ``text``."""
    values: list[Any] = []
    position, end = 0, len(text)
    while True:
        while position < end and (text[position].isspace() or text[position] in ",;"):
            position += 1
        if position >= end:
            return values, True
        try:
            value, position = _DECODER.raw_decode(text, position)
        except (ValueError, RecursionError):
            return values, False
        values.append(value)


#: A JSON string (possibly unterminated) or a comment, whichever starts first.
_TOKEN = re.compile(r'"(?:[^"\\]|\\.)*"?|//[^\n]*|/\*.*?(?:\*/|$)|<!--.*?(?:-->|$)', re.DOTALL)
_TRAILING_COMMA = re.compile(r",(\s*[}\]])")


def _strip_comments(text: str) -> str:
    """``text`` without ``//``, ``/* */`` and ``<!-- -->`` comments outside strings."""
    return _TOKEN.sub(lambda m: m.group() if m.group().startswith('"') else "", text)


def _strip_commas(text: str) -> str:
    """``text`` without commas that close no value (before ``}`` or ``]``), outside strings."""
    parts: list[str] = []
    position = 0
    for match in _TOKEN.finditer(text):
        parts.append(_TRAILING_COMMA.sub(r"\1", text[position : match.start()]))
        parts.append(match.group())
        position = match.end()
    parts.append(_TRAILING_COMMA.sub(r"\1", text[position:]))
    return "".join(parts)
