"""A page that says it is a collection: read as a page of cards, not as one article or
one product.

Shops and news sites often carry a page kind their software sets on every page, and a
second one that says what this page is. A shop's category page declares ``og:type``
``product.group`` (Open Graph's type for a group of products: its grid, not one of
them), which :func:`webrobot.extract.pagekind.declares_product` reads as a product; a
WordPress or WooCommerce archive (a shop's catalogue, a section's list of posts) declares
``og:type`` ``article`` on every page, and its JSON-LD says ``CollectionPage`` for this
one. Read as a product or as an article, such a page kept its intro or its first card and
lost the grid: on the development half of the unseen sets a shop's category read 0.09 of
its truth (its products' names and prices), a WooCommerce shop page 0.01.

:func:`declares_collection` is true for a page whose ``og:type`` is ``product.group``, or
whose JSON-LD names a ``CollectionPage`` and no article or product type (a page that
declares both is a post or a product inside a collection). :func:`reading_kinds` gives
the main text's three choices from it: whether the page is read as an article, as a
product, and as a page of cards (:mod:`webrobot.extract.listingcards`): a collection is
neither an article nor a product, and is a page of cards.

Scope: the main text of listing and collection pages. The product fields and the
metadata read their own declarations and are unchanged.

Pure: no Scrapy, no I/O.
"""

from __future__ import annotations

import re
from typing import Any

from webrobot.extract.listingcards import lists_cards
from webrobot.extract.pagekind import (
    _ARTICLE_TYPE,
    _PRODUCT_TYPE,
    MAX_JSONLD_CHARS,
    declares_article,
    declares_product,
)

#: ``og:type`` values of a page of several products (Open Graph's ``product.group``).
GROUP_OG_TYPES = frozenset(("product.group",))
_COLLECTION_TYPE = re.compile(
    r'"@type"\s*:\s*(?:\[[^\]]{0,200})?"(?:https?://schema\.org/)?CollectionPage"'
)


def declares_collection(root: Any) -> bool:
    """Whether the page under ``root`` (an lxml tree) says it is a collection: its
    ``og:type`` is ``product.group``, or its JSON-LD names a ``CollectionPage`` and no
    article or product type."""
    try:
        for meta in root.iter("meta"):
            key = (meta.get("property") or meta.get("name") or "").strip().lower()
            if key == "og:type":
                if (meta.get("content") or "").strip().lower() in GROUP_OG_TYPES:
                    return True
                break
        collection = False
        for script in root.iter("script"):
            if "ld+json" not in (script.get("type") or "").lower():
                continue
            text = script.text or ""
            if _ARTICLE_TYPE.search(text, 0, MAX_JSONLD_CHARS) or _PRODUCT_TYPE.search(
                text, 0, MAX_JSONLD_CHARS
            ):
                return False
            collection = collection or bool(_COLLECTION_TYPE.search(text, 0, MAX_JSONLD_CHARS))
        return collection
    except (AttributeError, TypeError, ValueError):
        return False


def reading_kinds(root: Any) -> tuple[bool, bool, bool]:
    """How the main text reads the page under ``root``: whether as an article, as a
    product (not an article), and as a page of cards (neither; its ``og:type`` absent or
    ``website``, or a collection by :func:`declares_collection`)."""
    collection = declares_collection(root)
    article = not collection and declares_article(root)
    product = not collection and not article and declares_product(root)
    cards = not article and not product and (collection or lists_cards(root))
    return article, product, cards
