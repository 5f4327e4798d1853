"""Whether a page that declares no product shows one: the product fields' own test
(:func:`webrobot.extract.product.product`) read on the markup a shopper sees, without the
page's structured data (a product declared in JSON-LD or ``og:type`` is already known,
:mod:`webrobot.extract.pagekind`).

A marketplace's item page (Amazon's, Wayfair's) declares neither a JSON-LD ``Product``
nor an ``og:type``; it shows a buy button beside a price, as every shop does. A page is
taken for a product here when it has a buy button (in the languages of
:mod:`webrobot.extract.product.markup`, or a buy button's class; one found by a walk
by tag name) and the product test then says so: one to three buy buttons and a price
shown, or an ``itemprop=price`` or a stock message; a listing's many buy buttons are
no product. The main text then reads such a page as a product page (the sectioned
reading, the name kept, long lines once, specification lists) instead of as a page of
cards.

A page that shows a price or a stock message and no buy button is not asked further
(the product test alone would take some): on the article benchmark a news page whose
classes name a price or stock costs a walk of its whole tree, and on the dev pages one
marketplace page (an item without its buy button) was the only one it would have added.

Asked by :func:`webrobot.extract.collectionpage.reading_kinds` only of a page that
declares no article, no product and no collection (a news story, which declares itself
an article, is never asked).

Pure: no Scrapy, no I/O.
"""

from __future__ import annotations

from typing import Any

from webrobot.extract.headtags import HeadTags
from webrobot.extract.page import SourcePage
from webrobot.extract.product import product
from webrobot.extract.product.context import ProductContext
from webrobot.extract.product.markup import Markup


def shows_product(root: Any) -> bool:
    """Whether the page under ``root`` (an lxml tree) shows a product by its markup: a
    buy button, and the product fields' test (structured data left out) says it is a
    product page."""
    try:
        page = SourcePage("", "", root=root)
        # a buy button first (one walk by tag name): most pages have none
        if not Markup(root, ProductContext(page, root, "", HeadTags())).buttons:
            return False
        return product(page, structured={}) is not None
    except (AttributeError, TypeError, ValueError):
        return False
