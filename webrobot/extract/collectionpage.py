"""A page that says it is a collection: read as a page of cards, not as one article.

WordPress and WooCommerce set ``og:type`` ``article`` on every page, a shop's catalogue
and a section's list of posts too; their JSON-LD says ``CollectionPage`` for such a page.
Read as an article (precisely, without its buttons), a WooCommerce shop page of the
development half of the unseen sets kept its cart line and result count and lost its
grid: 0.01 of its truth (its products' names, colours and prices).

:func:`declares_collection` is true for a page whose JSON-LD names a ``CollectionPage``
and no article or product type (a page that declares both is a post or a product inside
a collection). :func:`reading_kinds` gives the main text's three choices from it: whether
the page is read as an article, as a product, and as a page of cards
(:mod:`webrobot.extract.listingcards`): a collection is neither an article nor a
product, and is a page of cards; a site's page that calls itself an article only by its
``og:type`` (:mod:`webrobot.extract.sitepages`) is no article either.

Open Graph's ``product.group`` (a shop's category) was read as a collection too, and
left out: a category read whole as a product page (:mod:`webrobot.extract.sectionedpage`)
keeps more of its grid than as a page of cards (docs/benchmarks.md has the figures).

Scope: the main text of listing and collection pages. The product fields and the
metadata read their own declarations and are unchanged.

Pure: no Scrapy, no I/O.
"""

from __future__ import annotations

import re
from typing import Any

from webrobot.extract.listingcards import lists_cards
from webrobot.extract.pagekind import (
    ARTICLE_TYPE,
    JSONLD_TYPE,
    MAX_JSONLD_CHARS,
    PRODUCT_TYPE,
    Declarations,
    declarations,
    declares_article,
    declares_product,
)
from webrobot.extract.sitepages import declares_site_page

_COLLECTION_TYPE = re.compile(JSONLD_TYPE + 'CollectionPage"')


def declares_collection(root: Any, found: Declarations | None = None) -> bool:
    """Whether the page under ``root`` (an lxml tree) says it is a collection: its JSON-LD
    names a ``CollectionPage`` and no article or product type (read from ``found``, its
    :func:`~webrobot.extract.pagekind.declarations`, when given)."""
    blocks = (declarations(root) if found is None else found).jsonld
    if any(
        ARTICLE_TYPE.search(text, 0, MAX_JSONLD_CHARS)
        or PRODUCT_TYPE.search(text, 0, MAX_JSONLD_CHARS)
        for text in blocks
    ):
        return False
    return any(_COLLECTION_TYPE.search(text, 0, MAX_JSONLD_CHARS) for text in blocks)


def reading_kinds(root: Any, found: Declarations | None = None) -> tuple[bool, bool, bool]:
    """How the main text reads the page under ``root``: whether as an article, as a
    product (not an article), and as a page of cards (neither; its ``og:type`` absent or
    ``website``, or a collection by :func:`declares_collection`). Every test reads the
    page's declarations (``found`` when given), gathered once."""
    found = declarations(root) if found is None else found
    collection = declares_collection(root, found)
    # a site's page that calls itself an article only by og:type is none (sitepages)
    article = (
        not collection and declares_article(root, found) and not declares_site_page(root, found)
    )
    product = not collection and not article and declares_product(root, found)
    cards = not article and not product and (collection or lists_cards(root, found))
    return article, product, cards
