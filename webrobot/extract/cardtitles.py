"""A card's title read with its blurb: the heading of a whole-card link followed by a
paragraph becomes a paragraph too.

A news section or a blog's front page often writes a card as a link around its title and
a paragraph after it::

    <article><a href="/economy/2026/3/5/cuba"><h2>Cuba's economy on edge</h2></a>
    <p class="excerpt">Havana's streets have changed as ...</p></article>

:mod:`webrobot.extract.listingcards` makes such links plain blocks. When no block of the
page is its content block (its cards hold every name trafilatura looks for, or none),
trafilatura gathers the page's paragraphs loose, and the cards keep their blurbs without
their titles: a news section read that way kept 0.27 of its truth. :func:`blurbed_titles`
makes the headings inside such a card link ``<p>`` when the element right after the link
is a ``<p>`` of :data:`BLURB_CHARS` characters or more: each card then reads as its title
over its blurb, whichever way trafilatura gathers the page. A card without a blurb (a
product grid's title over a price) keeps its heading: made a paragraph there, it changed
which block trafilatura took for a shop's page.

It runs on the whole-card links of a page of cards only (:func:`~webrobot.extract.
listingcards.unwrap_cards`), so an article's headings are never touched.

Pure: no Scrapy, no I/O.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

#: A blurb after a card's title link is a paragraph at least this long (characters).
BLURB_CHARS = 30
_HEADINGS = ("h1", "h2", "h3", "h4", "h5", "h6")


def blurbed_titles(cards: Iterable[Any]) -> int:
    """The headings inside the links of ``cards`` (lxml elements) that a blurb follows,
    made ``<p>`` in place (see the module doc); how many were."""
    renamed = 0
    for card in cards:
        blurb = card.getnext()
        if blurb is None or blurb.tag != "p":
            continue
        if len(blurb.text_content().strip()) < BLURB_CHARS:
            continue
        for heading in card.iter(*_HEADINGS):
            heading.tag = "p"
            renamed += 1
    return renamed
