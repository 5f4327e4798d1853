"""Tables that are a page's layout, not a table of data.

Before CSS layouts, pages were laid out with tables: a table for the page (banner,
side column, content, footer), tables inside its cells for the menu and the article,
and on forums and discussion sites one table a post. Portals, forums, blogs and
hand-made pages of 2000-2013 are built so, and some sites still are. trafilatura reads
a table as data: each row one line, its cells joined by ``|``, a nested table's text run
into its cell's. A post inside a layout table comes out as one row holding the
site's menu, the post and the side column, and the posts of a thread in nested tables
come out as one line, or not at all.

:func:`unlay_tables` turns such tables into plain blocks (the table, its row
groups and rows give way to their cells, each cell a ``<p>`` when it holds text and
inline elements only, a ``<div>`` otherwise), on the copy of the tree the main text is read from, so
their paragraphs, headings and lines are read as a page's, the chrome around them left
out as it is elsewhere. Whether a table lays the page out is judged as browsers' reader
modes judge it (Mozilla's Readability, ``_getReadabilityDataTable``): a table marked
``role="presentation"`` is layout; one with a caption, a summary, a header, footer or
column group or a header cell is data (and one holding code, as a code block's line
numbers beside its lines, is left as it is); one holding another table is layout; one of a
single row or a single column is layout; one of :data:`MANY_ROWS` rows or more or more
than :data:`MANY_COLUMNS` columns is data; any other is layout when it has at most
:data:`MANY_CELLS` cells and one of them holds blocks or a long text (a banner, a side
column and the content, a footer), and data otherwise (a small table of prices).

Pure: no Scrapy, no I/O.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

from webrobot.extract.disclosures import open_answers
from webrobot.extract.signupforms import without_sign_ups

#: What only a table of data has; and code (a code block's line numbers beside its
#: lines, which trafilatura reads as code in a table).
_DATA_PARTS = ("caption", "thead", "tfoot", "colgroup", "col", "th", "pre")
_GROUPS = ("tbody", "thead", "tfoot")
#: A table of this many rows or more, or of more columns than this, holds data...
MANY_ROWS = 10
MANY_COLUMNS = 4
#: ...and so does a smaller one of more cells than this (rows times columns).
MANY_CELLS = 10
#: A cell of this many characters holds a part of the page, not a value.
LONG_CELL = 200
_BLOCKS = ("div", "ul", "ol", "dl", "h1", "h2", "h3", "h4", "h5", "h6", "blockquote",
           "pre", "form", "center", "hr")  # fmt: skip
_WORD = re.compile(r"\w")
_CELLS = ("td", "th")
#: What flows inside a line of text (a cell of only these, and text, is a paragraph).
INLINE = frozenset(
    ("a", "abbr", "b", "big", "br", "cite", "code", "em", "font", "i", "img", "kbd", "nobr",
     "q", "s", "small", "span", "strike", "strong", "sub", "sup", "tt", "u", "wbr")
)  # fmt: skip


def _rows(table: Any) -> list[Any]:
    """The table's own rows (directly, or in its row groups), not a nested table's."""
    rows = []
    for child in table:
        if child.tag == "tr":
            rows.append(child)
        elif child.tag in _GROUPS:
            rows.extend(row for row in child if row.tag == "tr")
    return rows


def _own(table: Any, tags: tuple[str, ...]) -> bool:
    """Whether ``table`` holds an element of ``tags`` that no table inside it holds."""
    for element in table.iterdescendants(*tags):
        owner = next(element.iterancestors("table"), None)
        if owner is table:
            return True
    return False


def _inline(cell: Any) -> bool:
    """Whether ``cell`` holds nothing but inline elements and text, some of it (a letter
    or a digit) outside links (a paragraph's content, its lines broken by ``<br>``; a
    cell of links alone, or of links and separators, is a menu)."""
    if not all(e.tag in INLINE for e in cell.iterdescendants() if isinstance(e.tag, str)):
        return False
    return _WORD.search("".join(_unlinked(cell))) is not None


def _unlinked(element: Any) -> Any:
    """The pieces of ``element``'s text that no link holds."""
    if element.tag == "a":
        return
    if isinstance(element.tag, str):  # a comment's text is no text of the page
        yield element.text or ""
    for child in element:
        yield from _unlinked(child)
        yield child.tail or ""


def is_layout(table: Any) -> bool:
    """Whether ``table`` lays out blocks rather than holding data (see the module doc)."""
    if (table.get("role") or "").strip().lower() == "presentation":
        return True
    if table.get("summary") or _own(table, _DATA_PARTS):
        return False
    if next(table.iterdescendants("table"), None) is not None:
        return True
    rows = _rows(table)
    columns = max((_width(row) for row in rows), default=0)
    if len(rows) <= 1 or columns <= 1:
        return True
    if len(rows) >= MANY_ROWS or columns > MANY_COLUMNS:
        return False
    if len(rows) * columns > MANY_CELLS:
        return False
    return any(_laid_out(cell) for row in rows for cell in row if cell.tag in _CELLS)


def _laid_out(cell: Any) -> bool:
    """Whether ``cell`` holds blocks (divisions, headings, lists, forms...) or a text of
    :data:`LONG_CELL` characters or more: a part of a page, not a value (a short
    paragraph or two pasted into a cell of prices is still a value)."""
    if next(cell.iterdescendants(*_BLOCKS), None) is not None:
        return True
    return len(cell.text_content()) >= LONG_CELL


def _width(row: Any) -> int:
    """The columns ``row`` spans (its cells, each with its ``colspan``)."""
    width = 0
    for cell in row:
        if cell.tag in _CELLS:
            span = (cell.get("colspan") or "1").strip()
            width += int(span) if span.isdigit() and 0 < int(span) < 100 else 1
    return width


def unlay(tree: Any) -> list[Any]:
    """The layout tables of ``tree`` (changed in place) unwrapped
    (:func:`unlay_tables`); the tree's ``<p>`` elements, found by the same walk, and the
    cells made paragraphs, for another mending of the tree that reads them
    (:func:`webrobot.extract.emptytails.keep_empty_tails`). The questions and answers in
    ``<details>`` the same walk finds are opened for the readings
    (:func:`webrobot.extract.disclosures.open_answers`), and its newsletter sign-up
    boxes removed (:func:`webrobot.extract.signupforms.without_sign_ups`)."""
    found = list(tree.iter("table", "p", "details", "form"))
    made: list[Any] = []
    unlay_tables((element for element in found if element.tag == "table"), made)
    open_answers(element for element in found if element.tag == "details")
    without_sign_ups(element for element in found if element.tag == "form")
    return [element for element in found if element.tag == "p"] + made


def unlay_tables(tables: Iterable[Any], made: list[Any] | None = None) -> int:
    """The layout tables among ``tables`` (a tree's, in document order: ``tree.iter("table")``)
    unwrapped in their tree: the table, its row groups and rows give way to their cells, a
    cell of text and inline elements made a ``<p>`` (added to ``made``, if given), any
    other a ``<div>``; the number of tables changed."""
    layout = [(table, _rows(table)) for table in tables if is_layout(table)]
    for table, rows in layout:
        groups = []
        for row in rows:
            for cell in row:
                if cell.tag in _CELLS:
                    cell.tag = "p" if _inline(cell) else "div"
                    if made is not None and cell.tag == "p":
                        made.append(cell)
            group = row.getparent()
            if group is not table and group is not None and group.tag in _GROUPS:
                groups.append(group)
            _unwrap(row)
        for group in dict.fromkeys(groups):
            _unwrap(group)
        _unwrap(table)
    return len(layout)


def _unwrap(element: Any) -> None:
    """``element`` replaced by its content (text, children, tail), where it stood; the
    root of a tree made a ``<div>`` instead."""
    if element.getparent() is None:
        element.tag = "div"
        return
    element.drop_tag()
