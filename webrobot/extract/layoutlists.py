"""Lists that are a page's layout, not a list of items.

Some generators lay a whole page out as a list: Javadoc puts each part of a class's page
(the nested classes, the fields, the constructors, the methods, each with its heading and
its summary table, and each member's details) into an item of a ``<ul>``, and other API
references do the same with ``<li><section>``. trafilatura reads a list item as one
line of text, so a whole summary table, its heading with it, comes out as one run of
words ("Method SummaryModifier and Type Method Description java.lang.String call(...)").

:func:`unlist_layout` turns such a list into plain blocks (the ``<ul>`` or ``<ol>`` and
its items become ``<div>``), on the copy of the tree the main text is read from, so the
headings, table rows and paragraphs inside keep their lines. A list is layout when every
one of its items holds a heading and a ``<section>``, a ``<table>`` or a ``<dl>``: a
list item of prose, a card of a listing (a title and a blurb) or a menu is not.

Pure: no Scrapy, no I/O.
"""

from __future__ import annotations

from typing import Any

_HEADINGS = ("h1", "h2", "h3", "h4", "h5", "h6")
_STRUCTURE = ("section", "table", "dl")


def is_layout(element: Any) -> bool:
    """Whether the list ``element`` lays out blocks: it has items, and each holds a heading
    and a section, table or definition list."""
    items = [child for child in element if child.tag == "li"]
    if not items:
        return False
    return all(
        next(item.iter(*_HEADINGS), None) is not None
        and next(item.iter(*_STRUCTURE), None) is not None
        for item in items
    )


def unlist_layout(tree: Any) -> int:
    """The layout lists of ``tree`` (changed in place) made ``<div>`` blocks, their items
    too; the number of lists changed."""
    changed = 0
    for element in list(tree.iter("ul", "ol")):
        if element.tag in ("ul", "ol") and is_layout(element):
            element.tag = "div"
            for child in element:
                if child.tag == "li":
                    child.tag = "div"
            changed += 1
    return changed
