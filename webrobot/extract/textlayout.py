"""Lines of the main text that the reading runs together or keeps from the post's header.

Code blocks. trafilatura's body turns a ``<pre>`` (and its ``<code>``) into one
``<code>`` element, which its text rendering treats as inline: a block whose last line
does not end in a newline (Hugo's highlighter writes none before ``</code></pre>``)
runs into the heading or paragraph after it, and a block inside a list item runs into
the item's words ("- Install the version manager brew install pyenv"). In Markdown the
fence then opens in the middle of a line. :func:`code_on_own_lines` gives each code
block of the body a line break before it (when words precede it on its line) and after
it (when anything follows it), so its lines stand alone in the text and its fence
stands alone in the Markdown. A code block is a ``<code>`` whose text holds a line
break, or one wrapping another (trafilatura's ``<pre><code>``); a ``<code>`` inside a
sentence stays where it is.

The date line. Many themes print the post's date alone under its headline ("Jul 1,
2019"); once the headline is dropped (:mod:`webrobot.extract.headline`), that date is
the text's first line. It is the post's metadata (``published`` reads it), not its
text: :func:`without_date_line` drops a first line that is only a date (a label such
as "Posted on" or a weekday before it, a time after it, allowed) when it is the day
the page states under its headline or after a "published" label
(:mod:`webrobot.extract.pagedates`) and text follows it; so does it a first line that
is the post's meta line, its dates among its category, views and reading time
(:mod:`webrobot.extract.metaline`).

Pure: no Scrapy, no I/O.
"""

from __future__ import annotations

import re
from typing import Any

from webrobot.extract.dates import iso_date
from webrobot.extract.metaline import MAX_META_LINE, is_meta_line
from webrobot.extract.pagedates import headline_date, labelled_date

#: Elements after which trafilatura's text rendering starts a new line anyway (outside a
#: list item or a table cell, where it flattens them).
_LINE_ENDERS = frozenset({"p", "head", "list", "quote", "table", "lb"})
#: A line that is a date alone: a label ("Posted on", "Published:") and a weekday
#: allowed before it, a time after it; "·" or "|" and a reading time are not.
_DATE_LINE = re.compile(
    r"(?:(?:posted|published|updated|written|date)(?:\s+on)?\s*:?\s*)?"
    r"(?:[^\W\d_]+,?\s+)?"
    r"(?P<date>\d{1,2}(?:st|nd|rd|th|\.)?\s+[^\W\d_]+\.?,?\s+\d{4}"
    r"|[^\W\d_]+\.?\s+\d{1,2}(?:st|nd|rd|th)?,?\s+\d{4}"
    r"|\d{1,2}\.\s?\d{1,2}\.\s?\d{4}|\d{4}-\d{2}-\d{2}|\d{4}/\d{1,2}/\d{1,2})"
    r"(?:,?\s+(?:at\s+)?\d{1,2}:\d{2}(?::\d{2})?(?:\s*[ap]\.?m\.?)?)?",
    re.IGNORECASE,
)
_ORDINAL = re.compile(r"(\d)(?:st|nd|rd|th)\b")
#: Longer than this, a first line is text, not a date line.
MAX_DATE_LINE = 60


def code_on_own_lines(body: Any) -> bool:
    """Give each code block of trafilatura's ``body`` a line of its own (see the module
    doc), in place; true when something changed."""
    from lxml import etree

    changed = False
    for code in list(body.iter("code")):
        if not _is_block(code) or _outer(code, ("code", "cell")):
            continue
        parent = code.getparent()
        if parent is None:
            continue
        in_item = _outer(code, ("item",))
        if _words_before(code, in_item):
            parent.insert(parent.index(code), etree.Element("lb"))
            changed = True
        if _anything_after(code, parent):
            lb = etree.Element("lb")
            lb.tail, code.tail = code.tail, None
            code.addnext(lb)
            changed = True
    return changed


def without_date_line(text: str, markdown: str | None, root: Any) -> tuple[str, str | None]:
    """``text`` and its ``markdown`` without their first line when that line is the
    post's date alone (see the module doc) and more lines follow."""
    first, newline, rest = text.partition("\n")
    if not newline or not rest.strip():
        return text, markdown
    line = " ".join(first.split())
    match = _DATE_LINE.fullmatch(line) if len(first) <= MAX_DATE_LINE else None
    day = iso_date(_ORDINAL.sub(r"\1", match["date"])) if match else None
    if day:
        if day[:10] not in (headline_date(root, None), labelled_date(root, None)):
            return text, markdown
    elif len(first) > MAX_META_LINE or not is_meta_line(line, root):
        return text, markdown
    if markdown:
        head, _, tail = markdown.lstrip("\n").partition("\n")
        if " ".join(head.split()) == line:
            markdown = tail
    return rest, markdown


def _is_block(code: Any) -> bool:
    """A code block: a line break in its text, or a ``<code>`` wrapping another."""
    return any(child.tag == "code" for child in code) or any(
        "\n" in part for part in code.itertext()
    )


def _outer(element: Any, tags: tuple[str, ...]) -> bool:
    """Whether an ancestor of ``element`` is one of ``tags``."""
    return any(ancestor.tag in tags for ancestor in element.iterancestors())


def _words_before(code: Any, in_item: bool) -> bool:
    """Whether the rendering puts words before ``code`` on its line."""
    previous = code.getprevious()
    if previous is None:
        parent = code.getparent()
        return bool((parent.text or "").strip()) or (in_item and parent.tag != "item")
    if (previous.tail or "").strip():
        return True
    return in_item or previous.tag not in _LINE_ENDERS


def _anything_after(code: Any, parent: Any) -> bool:
    """Whether anything follows ``code`` that the rendering would put on its last line:
    its tail's words, a next element, or (outside a list item, whose end is a line's)
    what follows its parent."""
    if (code.tail or "").strip() or code.getnext() is not None:
        return True
    return parent.tag not in ("item", "body") and not _outer(code, ("item",))
