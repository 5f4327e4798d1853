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
from dataclasses import dataclass
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


@dataclass(frozen=True, slots=True)
class Declarations:
    """What a page says of itself in its ``<meta>`` tags and JSON-LD blocks, gathered in
    one walk of each (:func:`declarations`), so that the tests of its kind (here, in
    :mod:`~webrobot.extract.sitepages`, :mod:`~webrobot.extract.collectionpage` and
    :mod:`~webrobot.extract.listingcards`) share them instead of each walking the tree."""

    #: Each ``<meta>``'s ``property`` (else ``name``) and ``content``, stripped and lower
    #: case, in document order.
    metas: tuple[tuple[str, str], ...]
    #: The text of each JSON-LD ``<script>``, in document order.
    jsonld: tuple[str, ...]

    def og_types(self) -> list[str]:
        """The ``og:type`` values, in document order."""
        return [content for key, content in self.metas if key == "og:type"]

    def declares(self, og_types: tuple[str, ...], jsonld_type: re.Pattern[str]) -> bool:
        """Whether an ``og:type`` starts with one of ``og_types`` or a JSON-LD block
        matches ``jsonld_type`` (looked at up to :data:`MAX_JSONLD_CHARS`)."""
        if og_types and any(value.startswith(og_types) for value in self.og_types()):
            return True
        return any(jsonld_type.search(text, 0, MAX_JSONLD_CHARS) for text in self.jsonld)


#: A page whose declarations cannot be read: it declares nothing.
NOTHING = Declarations((), ())


def declarations(root: Any) -> Declarations:
    """The :class:`Declarations` of the page under ``root`` (an lxml tree);
    :data:`NOTHING` when they cannot be read."""
    try:
        metas = tuple(
            (
                (meta.get("property") or meta.get("name") or "").strip().lower(),
                (meta.get("content") or "").strip().lower(),
            )
            for meta in root.iter("meta")
        )
        return Declarations(metas, _jsonld(root))
    except (AttributeError, TypeError, ValueError):
        return NOTHING


def _jsonld(root: Any) -> tuple[str, ...]:
    """The text of each JSON-LD ``<script>`` under ``root``, in document order."""
    return tuple(
        script.text or ""
        for script in root.iter("script")
        if "ld+json" in (script.get("type") or "").lower()
    )


def declares_article(root: Any, found: Declarations | None = None) -> bool:
    """Whether the page under ``root`` (an lxml tree) declares itself an article (read
    from ``found``, its :func:`declarations`, when given)."""
    return (declarations(root) if found is None else found).declares(("article",), ARTICLE_TYPE)


def declares_product(root: Any, found: Declarations | None = None) -> bool:
    """Whether the page under ``root`` (an lxml tree) declares itself a product (read
    from ``found``, its :func:`declarations`, when given)."""
    return (declarations(root) if found is None else found).declares(
        ("product", "og:product"), PRODUCT_TYPE
    )


def declares_discussion(
    root: Any, types: tuple[str, ...] = DISCUSSION_TYPES, found: Declarations | None = None
) -> bool:
    """Whether the page under ``root`` (an lxml tree) declares itself a discussion in its
    JSON-LD (read from ``found``, its :func:`declarations`, when given): one of ``types``
    (by default a ``DiscussionForumPosting``, a forum thread, or a ``QAPage``, a question
    and its answers)."""
    if found is None:
        try:
            found = Declarations((), _jsonld(root))  # no Open Graph type to look for
        except (AttributeError, TypeError, ValueError):
            return False
    return found.declares((), _jsonld_type(types))


@cache
def _jsonld_type(types: tuple[str, ...]) -> re.Pattern[str]:
    """A JSON-LD ``@type`` (alone or in a list) that is one of ``types``."""
    names = "|".join(map(re.escape, types))
    return re.compile(
        r'"@type"\s*:\s*(?:\[[^\]]{0,200})?"(?:https?://schema\.org/)?(?:' + names + ')"'
    )
