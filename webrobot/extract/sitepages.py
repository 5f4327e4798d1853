"""Whether a page that says it is an article is a site's page rather than a post.

WordPress's SEO plugins (Yoast, Rank Math, All in One SEO) set ``og:type`` ``article`` on
every page of a site, its service, pricing and landing pages as well as its posts, so
:func:`webrobot.extract.pagekind.declares_article` holds for them all. The same plugins
tell the two apart in what else they write: a post gets a JSON-LD ``Article`` (or
``BlogPosting``, ``NewsArticle``) and an ``article:published_time``; a page gets a JSON-LD
``WebPage`` (or a kind of one: ``AboutPage``, ``ContactPage``, ``FAQPage``...) with no
article type, and only an ``article:modified_time``. :func:`declares_site_page` is true of
such a page: it names itself a web page in its JSON-LD, names no article type there, and
gives no publication time. The main text then reads it as a page that is no article
(:func:`webrobot.extract.collectionpage.reading_kinds`, :mod:`webrobot.extract.readingchoice`): broadly, its sections, cards and FAQ kept, where
an article's precise reading keeps one block and drops the short headings and blurbs
between them.

On the development half of the unseen sets (``python -m benchmarks.quality.unseendev``)
28 of the pages that declare an article are such pages; the service set went from 0.791
to 0.795 F1, listing 0.612 to 0.629, product 0.626 to 0.627, forum 0.715 to 0.716,
article, collection and documentation unchanged, and no page of trafilatura's evaluation
set nor of the article benchmark changed its score (docs/benchmarks.md).

Pure: no Scrapy, no I/O.
"""

from __future__ import annotations

import re
from typing import Any

from webrobot.extract.pagekind import (
    ARTICLE_TYPE,
    JSONLD_TYPE,
    MAX_JSONLD_CHARS,
    Declarations,
    declarations,
)

#: JSON-LD types of a web page that is no article (schema.org's ``WebPage`` and the kinds
#: of it a site's own pages use).
PAGE_TYPES: tuple[str, ...] = ("WebPage", "AboutPage", "ContactPage", "FAQPage", "ItemPage")
PAGE_TYPES += ("ProfilePage", "MedicalWebPage")
_PAGE_TYPE = re.compile(JSONLD_TYPE + "(?:" + "|".join(PAGE_TYPES) + ')"')
#: The meta property a post carries and a site's page does not.
PUBLISHED = "article:published_time"


def declares_site_page(root: Any, found: Declarations | None = None) -> bool:
    """Whether the page under ``root`` (an lxml tree) names itself a web page in its
    JSON-LD (:data:`PAGE_TYPES`), names no article type there and gives no
    :data:`PUBLISHED` time: a site's page, not a post (see the module doc). Read from
    ``found``, its :func:`~webrobot.extract.pagekind.declarations`, when given."""
    found = declarations(root) if found is None else found
    if calls_itself_a_post(root, found):
        return False
    return any(_PAGE_TYPE.search(text, 0, MAX_JSONLD_CHARS) for text in found.jsonld)


def calls_itself_a_post(root: Any, found: Declarations | None = None) -> bool:
    """Whether the page under ``root`` gives a :data:`PUBLISHED` time or names an article
    type in its JSON-LD (beyond an ``og:type``). Read from ``found``, its
    :func:`~webrobot.extract.pagekind.declarations`, when given."""
    found = declarations(root) if found is None else found
    return any(key == PUBLISHED for key, _ in found.metas) or any(
        ARTICLE_TYPE.search(text, 0, MAX_JSONLD_CHARS) for text in found.jsonld
    )
