"""Line breaks of a page's source that a browser does not show.

Outside preformatted text a browser shows a run of white space, line breaks included,
as one space: a paragraph wraps where the window ends, and only ``<br>`` or a new
block starts a line. Many generators write the line breaks of their source into the
HTML: Sphinx keeps the reStructuredText's lines inside every paragraph and list item
(``has been completed,\\nyou will find``), Javadoc the comment's, hand-written pages the
editor's. trafilatura keeps those breaks in the text it returns, so one paragraph
comes out as several lines, and a heading, list item or table row as two.

:func:`unwrap_source_breaks` makes each such break one space in the copy of the tree
the main text is read from, as the browser shows it. Left as they are: the text of
``<pre>``, ``<textarea>``, ``<code>``, ``<samp>``, ``<kbd>``, ``<listing>``,
``<xmp>`` and ``<plaintext>``, of what is not shown (scripts, styles, ``<noscript>``,
``<template>``), and of any element whose ``style`` asks for its white
space kept (``white-space: pre``, ``pre-wrap``, ``pre-line``, ``break-spaces``), where
a break is the author's; and white space alone (between blocks it shows nothing).

Pure: no Scrapy, no I/O.
"""

from __future__ import annotations

from functools import cache
from typing import Any

import lxml.etree

#: Elements whose white space is shown as written.
PREFORMATTED = ("pre", "textarea", "code", "samp", "kbd", "listing", "xmp", "plaintext")
#: Elements whose text is not shown: left as they are.
UNSHOWN = ("script", "style", "noscript", "template")
_KEPT_STYLE = ("pre", "break-spaces")
#: Each break one space, so that the text keeps its length (trafilatura compares the
#: lengths of its readings, white space included).
_BREAKS = str.maketrans("\r\n", "  ")
#: Text nodes with something shown and a line break: the candidates. White space alone
#: (most text nodes of an indented source) fails the first test and is not tested again;
#: ``normalize-space()`` reads the node itself, without the one-node set that
#: ``normalize-space(.)`` builds first (a quarter cheaper on shop pages).
_CANDIDATES = "//text()[normalize-space()][contains(., '\n')]"
#: Text nodes with a line break outside every element kept as written, for each set of
#: those elements' tags a tree holds: one named ancestor axis a tag the tree has (libxml2
#: filters each by name as it climbs, a third cheaper than one ``ancestor::*`` whose every
#: element is tested against the tags), and none for the tags it lacks, whose axes would
#: climb from every candidate to find nothing.
_KEPT_TAGS = (*PREFORMATTED, *UNSHOWN)
#: The inline styles that name white space (one walk of the attributes, in C).
_WHITE_SPACE_STYLES = lxml.etree.XPath("//@style[contains(., 'white-space')]")


@cache
def _texts(tags: frozenset[str]) -> lxml.etree.XPath:
    """The expression that finds the candidates outside elements of ``tags``."""
    present = [tag for tag in _KEPT_TAGS if tag in tags]  # always in one order
    if not present:
        return lxml.etree.XPath(_CANDIDATES)
    return lxml.etree.XPath(
        _CANDIDATES + "[not(" + " or ".join(f"ancestor::{tag}" for tag in present) + ")]"
    )


def unwrap_source_breaks(tree: Any) -> int:
    """Each line break in the text of ``tree`` (changed in place) that a browser shows as
    a space made a space (a ``\\r\\n`` two); the number of text nodes changed."""
    changed = 0
    # the expression reads the whole document ``tree`` is in
    document = tree.getroottree().getroot()
    kept = frozenset(element.tag for element in document.iter(*_KEPT_TAGS))
    # a page whose styles never name white space keeps none: no ancestors climbed
    styled = bool(_WHITE_SPACE_STYLES(document))
    for text in _texts(kept)(tree):
        element = text.getparent()
        if element is None:
            continue
        holder = element.getparent() if text.is_tail else element
        if styled and holder is not None and _keeps_white_space(holder):
            continue
        if text.is_tail:
            element.tail = (element.tail or "").translate(_BREAKS)
        else:
            element.text = (element.text or "").translate(_BREAKS)
        changed += 1
    return changed


def _keeps_white_space(element: Any) -> bool:
    """Whether ``element`` or an element around it asks for its white space kept."""
    for node in (element, *element.iterancestors()):
        style = node.get("style") if isinstance(node.tag, str) else None
        if style and "white-space" in style and any(k in style for k in _KEPT_STYLE):
            return True
    return False
