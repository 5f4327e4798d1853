"""Permalink marks: the ``¶``, ``#``, ``§`` or icon a documentation generator links to
each part of a page, so that a reader can copy a link to it.

Sphinx puts one after every API signature (``class Client(*, route)¶``, Furo shows it
as ``#``), rustdoc a ``§`` before every implementation, mkdocstrings and many themes one
beside each definition; they show a mark, not words, and trafilatura keeps them in the
text (``async close()#``). The marks inside headings are already removed
(:func:`webrobot.extract.pagechrome.unlinked_headings`); :func:`without_permalink_marks`
removes the others: every link to a fragment of the page whose text holds no letter or
digit, its tail kept, on the copy of the tree the main text is read from. A link to a
fragment that says something (a table of contents, "see below") stays.

Pure: no Scrapy, no I/O.
"""

from __future__ import annotations

import re
from typing import Any

import lxml.etree

_FRAGMENT_LINKS = lxml.etree.XPath("//a[starts-with(@href, '#')]")
_WORD = re.compile(r"\w")


def without_permalink_marks(tree: Any) -> int:
    """The links to a fragment of ``tree`` (changed in place) that hold no word removed,
    their tails kept; the number removed."""
    marks = [link for link in _FRAGMENT_LINKS(tree) if not _WORD.search(link.text_content())]
    for link in marks:
        parent = link.getparent()
        if parent is None:
            continue
        if link.tail:
            previous = link.getprevious()
            if previous is None:
                parent.text = (parent.text or "") + link.tail
            else:
                previous.tail = (previous.tail or "") + link.tail
        parent.remove(link)
    return len(marks)
