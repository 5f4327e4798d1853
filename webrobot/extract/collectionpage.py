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
``og:type`` (:mod:`webrobot.extract.sitepages`) is no article either, nor is a page that
declares an article by its ``og:type`` alone (no publication time, no JSON-LD article)
and lists cards as title and blurb links (:mod:`webrobot.extract.linkedcards`): a news
section.

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

from webrobot.extract.linkedcards import lists_linked_cards
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
from webrobot.extract.shownproduct import shows_product
from webrobot.extract.sitepages import calls_itself_a_post, declares_site_page

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
    product (not an article: it declares a product, or shows one by its markup,
    :mod:`webrobot.extract.shownproduct`), and as a page of cards (neither; its
    ``og:type`` absent or ``website``, or a collection by :func:`declares_collection`).
    Every test reads the page's declarations (``found`` when given), gathered once."""
    found = declarations(root) if found is None else found
    collection = declares_collection(root, found)
    # a site's page that calls itself an article only by og:type is none (sitepages)
    article = (
        not collection and declares_article(root, found) and not declares_site_page(root, found)
    )
    if article and _section_of_linked_cards(root, found):
        article, collection = False, True
    product = (
        not collection and not article and (declares_product(root, found) or shows_product(root))
    )
    cards = not article and not product and (collection or lists_cards(root, found))
    return article, product, cards


def _section_of_linked_cards(root: Any, found: Declarations) -> bool:
    """Whether the page under ``root``, which declares an article, does so by its
    ``og:type`` alone and lists linked cards (:mod:`webrobot.extract.linkedcards`): a
    news section."""
    return not calls_itself_a_post(root, found) and lists_linked_cards(root)
