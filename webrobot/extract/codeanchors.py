"""The anchors documentation generators put on the lines of a code block.

MkDocs Material (``anchor_linenums``), Sphinx with ``linenos`` anchors and other
generators give every line of a code block an empty link to itself
(``<a id="__codelineno-0-1" href="#__codelineno-0-1"></a>``), so that a reader can link
to one line. The link shows nothing. trafilatura weighs a block's links against its
text, and a short code block, a one-line ``pip install`` above all, whose every line
starts with such a link is dropped whole: an installation page loses every command.

:func:`without_line_anchors` removes the links inside ``<pre>`` that hold no text and
no element, their tails (the code) kept, on the copy of the tree the main text is read
from. A link in code that shows words (a name linked to its documentation) stays.

Pure: no Scrapy, no I/O.
"""

from __future__ import annotations

from typing import Any

from webrobot.extract.htmltree import delete


def without_line_anchors(tree: Any) -> int:
    """The empty links inside the code blocks of ``tree`` (changed in place) removed,
    their tails kept; the number removed."""
    empty = [
        anchor
        for pre in tree.iter("pre")
        for anchor in pre.iter("a")
        if len(anchor) == 0 and not (anchor.text or "").strip()
    ]
    for anchor in empty:
        delete(anchor)
    return len(empty)
