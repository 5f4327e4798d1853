"""Whether a page says it is an article: its Open Graph type (``og:type`` ``article``) or
a JSON-LD ``@type`` of the schema.org article family (``Article``, ``NewsArticle``,
``BlogPosting``, ``Report``, ...); or a product: ``og:type`` ``product`` (``product.item``,
``og:product``) or a JSON-LD ``Product`` or ``ProductGroup``; or a discussion: a JSON-LD
``DiscussionForumPosting`` (a forum thread) or ``QAPage`` (a question and its answers),
which the main text looks for only on a page that says it is an article too (forum
software that sets ``og:type`` ``article`` on its threads).

The main text (:mod:`webrobot.extract.readingchoice`) reads an article favouring precision (an article's text is one block,
with teasers and link lists around it to leave out) and any other page (a product,
service, listing, documentation or forum page, whose content is spread over several
blocks) with trafilatura's default (broad) reading. On every fourth page of two public
evaluation sets of other sites (498 pages, ``python -m benchmarks.quality.unseen``) this
took the mean F1 of the sets from 0.683 (every page read precisely first) to 0.696, the
article benchmark's staying at 0.973.

Pure: no Scrapy, no I/O.
"""

from __future__ import annotations

import re
from functools import cache
from typing import Any

#: The start of a JSON-LD ``@type`` (one or a list) up to a type's name, with or
#: without schema.org's address: the type patterns here and in other page-kind modules.
JSONLD_TYPE = r'"@type"\s*:\s*(?:\[[^\]]{0,200})?"(?:https?://schema\.org/)?'
ARTICLE_TYPE = re.compile(JSONLD_TYPE + r'(?:\w{0,30}Article|BlogPosting|LiveBlogPosting|Report)"')
PRODUCT_TYPE = re.compile(JSONLD_TYPE + r'(?:Product|ProductGroup)"')
#: JSON-LD types of a discussion: a forum thread, a question and its answers.
DISCUSSION_TYPES = ("DiscussionForumPosting", "QAPage")
#: JSON-LD blocks longer than this are looked at only this far (a catalogue's worth of
#: JSON must not cost a regular-expression search over megabytes).
MAX_JSONLD_CHARS = 200_000


def declares_article(root: Any) -> bool:
    """Whether the page under ``root`` (an lxml tree) declares itself an article."""
    return _declares(root, ("article",), ARTICLE_TYPE)


def declares_product(root: Any) -> bool:
    """Whether the page under ``root`` (an lxml tree) declares itself a product."""
    return _declares(root, ("product", "og:product"), PRODUCT_TYPE)


def declares_discussion(root: Any, types: tuple[str, ...] = DISCUSSION_TYPES) -> bool:
    """Whether the page under ``root`` (an lxml tree) declares itself a discussion in its
    JSON-LD: one of ``types`` (by default a ``DiscussionForumPosting``, a forum thread, or
    a ``QAPage``, a question and its answers)."""
    return _declares(root, (), _jsonld_type(types))


@cache
def _jsonld_type(types: tuple[str, ...]) -> re.Pattern[str]:
    """A JSON-LD ``@type`` (alone or in a list) that is one of ``types``."""
    names = "|".join(map(re.escape, types))
    return re.compile(
        r'"@type"\s*:\s*(?:\[[^\]]{0,200})?"(?:https?://schema\.org/)?(?:' + names + ')"'
    )


def _declares(root: Any, og_types: tuple[str, ...], jsonld_type: re.Pattern[str]) -> bool:
    """Whether ``root``'s ``og:type`` starts with one of ``og_types`` or a JSON-LD block
    matches ``jsonld_type``."""
    try:
        for meta in root.iter("meta"):
            key = (meta.get("property") or meta.get("name") or "").strip().lower()
            if key == "og:type" and (meta.get("content") or "").strip().lower().startswith(
                og_types
            ):
                return True
        for script in root.iter("script"):
            kind = (script.get("type") or "").lower()
            if "ld+json" in kind and jsonld_type.search(script.text or "", 0, MAX_JSONLD_CHARS):
                return True
    except (AttributeError, TypeError, ValueError):
        return False
    return False
