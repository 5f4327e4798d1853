"""Permalink marks: the ``¶``, ``#``, ``§`` or icon a documentation generator links to
each part of a page, so that a reader can copy a link to it.

Sphinx puts one after every API signature (``class Client(*, route)¶``, Furo shows it
as ``#``), rustdoc a ``§`` before every implementation, mkdocstrings and many themes one
beside each definition; they show a mark, not words, and trafilatura keeps them in the
text (``async close()#``). The marks inside headings are already removed
(:func:`webrobot.extract.pagechrome.unlinked_headings`); :func:`without_permalink_marks`
removes the others: every link to a fragment of the page that shows one of
:data:`MARKS` and nothing else, its tail kept, on the copy of the tree the main text is
read from. A link to a fragment that says something (a table of contents, "see below")
stays, and so does one that shows nothing or a picture: on a product page such links
open galleries and dialogs, and removing them changed which block trafilatura read.

Pure: no Scrapy, no I/O.
"""

from __future__ import annotations

import re
from typing import Any

import lxml.etree

from webrobot.extract.htmltree import delete

_FRAGMENT_LINKS = lxml.etree.XPath("//a[starts-with(@href, '#') and string-length(@href) > 1]")
#: What a permalink shows: one of these marks, and nothing else (spaces and
#: zero-width spaces aside).
MARKS = frozenset("¶#§🔗⚓∞")
_INVISIBLE = re.compile(r"[\s\u200b\u200c\u200d\ufeff]+")


def is_mark(link: Any) -> bool:
    """Whether ``link`` shows a permalink mark alone."""
    shown = _INVISIBLE.sub("", link.text_content())
    return len(shown) == 1 and shown in MARKS


def without_permalink_marks(tree: Any) -> int:
    """The links to a fragment of ``tree`` (changed in place) that show a permalink mark
    alone removed, their tails kept; the number removed."""
    marks = [link for link in _FRAGMENT_LINKS(tree) if is_mark(link)]
    for link in marks:
        delete(link)
    return len(marks)
