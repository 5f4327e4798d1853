"""Cards written as a title link and a blurb link to the same address: a page of cards.

A news section often writes each card as a heading that is one link and, after it, a
blurb that is one link to the same address::

    <h2 class="title"><a href="/2026/03/06/teen-sleep">Teen sleep is ...</a></h2>
    <p class="teaser"><a href="/2026/03/06/teen-sleep">Teens aren't getting ...</a></p>

trafilatura reads both as link text and drops every card, and such a section often sets
``og:type`` ``article`` as its site's posts do, so it was read as one article: a radio
station's science section read as its pictures' captions (0.11 of its truth).

:func:`linked_pairs` finds such pairs: a heading whose whole text is one link, followed
(among its next :data:`LOOKAHEAD` siblings, at the first block of :data:`BLURB_CHARS`
characters) by a ``<p>`` or ``<div>`` whose whole text is one link to the same address.
A page *lists linked cards* (:func:`lists_linked_cards`) when it holds :data:`MIN_CARDS`
pairs or more and their blurbs hold :data:`BLURB_SHARE` of the text of its paragraphs:
a "related stories" strip under an article holds a few per cent of them (two articles of
trafilatura's evaluation pages, 0.8% and 2.2%), the section above 40%.

- A page that declares an article by its ``og:type`` alone
  (:func:`webrobot.extract.sitepages.calls_itself_a_post` false) and lists linked cards
  is read as a page of cards (:func:`webrobot.extract.collectionpage.reading_kinds`).
- :func:`unlink_pairs` makes the pairs' links plain ``<span>`` text and their headings
  ``<p>`` on a page of cards that lists linked cards (:mod:`webrobot.extract.cardframes`),
  so each card reads as its title over its blurb however trafilatura gathers the page
  (as :mod:`webrobot.extract.cardtitles` does for whole-card links). A menu or a strip
  of titles without blurbs is left as it is.

Pure: no Scrapy, no I/O.
"""

from __future__ import annotations

from typing import Any

#: A page of linked cards holds at least this many title-and-blurb pairs.
MIN_CARDS = 3
#: A blurb is at least this long (characters): a "Read more" link is no blurb.
BLURB_CHARS = 50
#: The blurbs hold at least this share of the text of the page's paragraphs.
BLURB_SHARE = 0.25
#: How many siblings after the heading the blurb may be.
LOOKAHEAD = 3
#: The meta property a post carries.
_HEADINGS = ("h1", "h2", "h3", "h4", "h5", "h6")
_BLURBS = frozenset(("p", "div"))


def linked_pairs(root: Any) -> list[tuple[Any, Any]]:
    """The (title link, blurb link) pairs of the page under ``root`` (an lxml tree)."""
    return [pair for pair in map(_pair, root.iter(*_HEADINGS)) if pair is not None]


def lists_linked_cards(root: Any, pairs: list[tuple[Any, Any]] | None = None) -> bool:
    """Whether the page under ``root`` holds :data:`MIN_CARDS` pairs or more whose blurbs
    hold :data:`BLURB_SHARE` of its paragraphs' text (``pairs``: its pairs, if known)."""
    pairs = linked_pairs(root) if pairs is None else pairs
    if len(pairs) < MIN_CARDS:
        return False
    paragraphs = sum(len(p.text_content()) for p in root.iter("p"))
    blurbs = sum(len(blurb.text_content()) for _, blurb in pairs)
    return blurbs >= BLURB_SHARE * max(paragraphs, 1)


def unlink_pairs(tree: Any) -> int:
    """The links of ``tree``'s title-and-blurb pairs made plain ``<span>`` text and their
    headings ``<p>``, in place, when the page lists linked cards (see the module doc);
    how many links were."""
    pairs = linked_pairs(tree)
    if not lists_linked_cards(tree, pairs):
        return 0
    for title, blurb in pairs:
        heading = next(title.iterancestors(*_HEADINGS), None)
        if heading is not None:
            heading.tag = "p"  # read with its blurb however the page is gathered
        for link in (title, blurb):
            link.tag = "span"
            link.attrib.clear()
    return 2 * len(pairs)


def _whole_link(element: Any) -> Any:
    """The one link that holds all of ``element``'s text, or ``None``."""
    links = list(element.iter("a"))
    if len(links) != 1 or not links[0].get("href"):
        return None
    text = element.text_content().strip()
    return links[0] if text and links[0].text_content().strip() == text else None


def _pair(heading: Any) -> tuple[Any, Any] | None:
    title = _whole_link(heading)
    if title is None:
        return None
    address = title.get("href").strip()
    sibling = heading.getnext()
    for _ in range(LOOKAHEAD):
        if sibling is None:
            return None
        if sibling.tag in _BLURBS and len(sibling.text_content().strip()) >= BLURB_CHARS:
            blurb = _whole_link(sibling)
            if blurb is not None and blurb.get("href").strip() == address:
                return title, blurb
            return None
        sibling = sibling.getnext()
    return None
