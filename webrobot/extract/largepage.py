"""Whether a page is large: a tree with more nodes than :data:`LARGE_PAGE_ELEMENTS`
(a link flood, a huge listing), which the main text reads under a bound
(:mod:`webrobot.extract.maintext`) and the glue counts
(``webrobot/extract/text/large_page``).

Pure: no Scrapy, no I/O.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import lxml.etree

from webrobot.extract.htmltree import html_root

if TYPE_CHECKING:
    from webrobot.extract.inputs import PageInputs

#: A tree with more nodes (elements, comments) than this is a large page. The largest of
#: the 238 real pages of the evaluation sets has 4,901; reading the main text of a tree
#: this size without the bound costs about 1 s of CPU, and the cost grows with the tree.
LARGE_PAGE_ELEMENTS = 25_000


#: The nodes ``tree.iter()`` would give (``tree`` and what is under it), counted inside libxml2 (no Python object made
#: for each: a fraction of the cost of iterating), kind by kind (a union would sort them).
_NODES = lxml.etree.XPath(
    "count(descendant-or-self::*) + count(descendant::comment())"
    " + count(descendant::processing-instruction())"
)


def is_large(tree: Any) -> bool:
    """Whether ``tree`` has more than :data:`LARGE_PAGE_ELEMENTS` nodes."""
    try:
        return float(_NODES(tree)) > LARGE_PAGE_ELEMENTS
    except (lxml.etree.XPathError, TypeError, ValueError):
        return False


def large_page_notes(inputs: PageInputs, text: Any) -> list[str]:
    """``["large_page"]`` when the main text of ``inputs``' page was read under the
    bound (its tree is large), to be counted; else nothing."""
    if text is None:
        return []
    root = html_root(inputs.page)
    return ["large_page"] if root is not None and is_large(root) else []
