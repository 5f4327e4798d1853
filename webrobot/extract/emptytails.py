"""The text that follows an empty inline element, kept by the precise reading.

Pages put empty inline elements inside their paragraphs: WordPress marks where a post's
teaser ends with ``<span id="more-123"></span>`` at the start of the next paragraph,
editors leave ``<b></b>`` or ``<span style="..."></span>`` behind, and hand-made pages
of the 2000s hold ``<i></i>`` between words. A browser shows nothing for them. When
trafilatura reads a page favouring precision it deletes every empty ``b``, ``em``,
``i``, ``span`` or ``strong`` (and empty blocks) *with the text that follows it* (its
tail), so the paragraph after a WordPress teaser break loses all its text and a
sentence with an empty ``<b></b>`` in it ends there.

:func:`keep_empty_tails` deletes those empty inline elements of a paragraph first, their tails kept in
place (:func:`webrobot.extract.htmltree.delete`), on the tree the precise reading
copies; the default reading, which deletes them keeping their tails, reads the same
text from it. An element holding a space, an element, or an image is no empty element
here, as trafilatura does not delete it either.

Pure: no Scrapy, no I/O.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from webrobot.extract.htmltree import delete

#: The inline elements trafilatura deletes when empty (its ``CUT_EMPTY_ELEMS`` that
#: flow with the text of a paragraph).
INLINE = frozenset(("b", "em", "i", "span", "strong"))


def keep_empty_tails(paragraphs: Iterable[Any]) -> int:
    """The empty inline elements (:data:`INLINE`, no text and no child) that a tail follows
    in ``paragraphs`` (a tree's ``<p>`` elements: ``tree.iter("p")``), removed from their
    tree, the tail kept where it stood; the number removed."""
    empty = [
        child
        for paragraph in paragraphs
        for child in paragraph
        if child.tag in INLINE and child.text is None and len(child) == 0 and child.tail
    ]
    for element in empty:
        delete(element)
    return len(empty)
