"""Whether a page is large: a tree with more nodes than :data:`LARGE_PAGE_ELEMENTS`
(a link flood, a huge listing), or a product page with more than
:data:`LARGE_PRODUCT_ELEMENTS`, which the main text reads under a bound
(:mod:`webrobot.extract.maintext`: without trafilatura's fallback extractors) and the
glue counts (``webrobot/extract/text/large_page``).

A product page's own text (its description, its specification table) is a small part
of it: a product page of thousands of nodes is made so by its mega-menu, its filters and
its recommended products. Given such a tree, trafilatura's fallbacks (readability,
jusText, the baseline), which look for the largest block of text, read that chrome: on
the shop pages of ``product-dev`` they gave one page's whole mega-menu (275,000
characters) and another's returns policy in place of the product's description and
table, which the reading without them finds; and on those pages they cost most of the
main text's CPU.

Pure: no Scrapy, no I/O.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import lxml.etree

from webrobot.extract.collectionpage import reading_kinds
from webrobot.extract.htmltree import html_root

if TYPE_CHECKING:
    from webrobot.extract.inputs import PageInputs

#: A tree with more nodes (elements, comments) than this is a large page. The largest of
#: the 238 real pages of the evaluation sets has 4,901; reading the main text of a tree
#: this size without the bound costs about 1 s of CPU, and the cost grows with the tree.
LARGE_PAGE_ELEMENTS = 25_000
#: A product page (read as one: :func:`webrobot.extract.collectionpage.reading_kinds`) with
#: more nodes than this is large. Of the 100 product pages of the unseen sets (wcxb), 95
#: have at most 5,000 nodes and 2 more than 8,000; of the 55 shop pages of
#: ``product-dev``, 6 have 8,300-17,800.
LARGE_PRODUCT_ELEMENTS = 8_000


#: The nodes ``tree.iter()`` would give (``tree`` and what is under it), counted inside libxml2 (no Python object made
#: for each: a fraction of the cost of iterating), kind by kind (a union would sort them).
_NODES = lxml.etree.XPath(
    "count(descendant-or-self::*) + count(descendant::comment())"
    " + count(descendant::processing-instruction())"
)


def node_count(tree: Any) -> int:
    """The nodes of ``tree`` (elements, comments, processing instructions), 0 when they
    cannot be counted."""
    try:
        return int(float(_NODES(tree)))
    except (lxml.etree.XPathError, TypeError, ValueError):
        return 0


def is_large(tree: Any, product: bool = False) -> bool:
    """Whether ``tree`` has more than :data:`LARGE_PAGE_ELEMENTS` nodes, or, when it is a
    ``product`` page's, more than :data:`LARGE_PRODUCT_ELEMENTS`."""
    return node_count(tree) > (LARGE_PRODUCT_ELEMENTS if product else LARGE_PAGE_ELEMENTS)


def large_page_notes(inputs: PageInputs, text: Any) -> list[str]:
    """``["large_page"]`` when the main text of ``inputs``' page was read under the
    bound (its tree is large), to be counted; else nothing."""
    if text is None:
        return []
    root = html_root(inputs.page)
    if root is None:
        return []
    count = node_count(root)
    if count > LARGE_PAGE_ELEMENTS:
        return ["large_page"]
    # a product as the main text reads it (a site's page or a collection decide too)
    product = count > LARGE_PRODUCT_ELEMENTS and reading_kinds(root)[1]
    return ["large_page"] if product else []
