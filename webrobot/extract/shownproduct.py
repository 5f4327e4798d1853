"""Whether a page that declares no product shows one: the product fields' own test
(:func:`webrobot.extract.product.product`) read on the markup a shopper sees, without the
page's structured data (a product declared in JSON-LD or ``og:type`` is already known,
:mod:`webrobot.extract.pagekind`).

A marketplace's item page (Amazon's, Wayfair's) declares neither a JSON-LD ``Product``
nor an ``og:type``; it shows one buy button beside a price, as every shop does. The
product test says so: one to three buy buttons (in the languages of
:mod:`webrobot.extract.product.markup`, or a buy button's class) and a price shown, an
``itemprop=price`` or a stock message; a listing's many buy buttons are no product. The
main text then reads such a page as a product page (the sectioned reading, the name
kept, long lines once, specification lists) instead of as a page of cards.

Asked by :func:`webrobot.extract.collectionpage.reading_kinds` only of a page that
declares no article, no product and no collection (a news story, which declares itself
an article, is never asked). A page without a buy button and without a price's or a
stock message's mark is let go on the first step of the product test (one walk by tag
name, one read of the attribute values), before its head is read.

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
    price with one to three buy buttons (the product fields' test, structured data
    left out)."""
    try:
        page = SourcePage("", "", root=root)
        # the test's first step: buy buttons, or marks of a price or a stock message
        first = Markup(root, ProductContext(page, root, "", HeadTags()))
        if not first.buttons and not first.walk.may_mark():
            return False
        return product(page, structured={}) is not None
    except (AttributeError, TypeError, ValueError):
        return False
