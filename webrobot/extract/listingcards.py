"""The cards of a listing, collection or documentation page: read as text, not as links.

A page of cards (courses, events, posts, a shop's category) often wraps each whole card
in one link: ``<a href="/course/1"><h3>Title</h3><p>What it teaches...</p></a>``.
trafilatura counts every word of such a card as link text and drops it as a link list,
so the page reads as its intro alone (or as nothing). :func:`unwrap_cards` makes such
links plain blocks before trafilatura reads the page, where:

- the link wraps a block element (:data:`BLOCKS`: a ``<div>``, heading, paragraph,
  list...) and holds a heading or a paragraph, or :data:`CARD_CHARS` characters or more
  (a menu entry wrapped in a ``<div>`` holds a few words: it stays a link);
- there are at least :data:`MIN_CARDS` of them and they hold at least :data:`CARD_SHARE`
  of the page's text (scripts and styles not counted): the cards are the page, not a
  banner or a "more like this" strip beside an article.

The headings of such cards that a paragraph follows are read as paragraphs
(:mod:`webrobot.extract.cardtitles`), so a card keeps its title beside its blurb.

It runs only on pages of the kinds this module is for (:func:`lists_cards`): a page that
declares itself no article and no product (:mod:`webrobot.extract.pagekind`) and no other
single thing either (its ``og:type``, when it has one, is ``website``): a video, a book
or a profile page with a grid of recommendations keeps them as links. Product and article
pages are read as before.

Scope: this module's rules are for listing, collection and documentation pages. A
service or forum page that declares nothing gets them too (no declaration tells it from
a listing); product and article pages never do, and their rules live elsewhere
(:mod:`webrobot.extract.readingchoice`, :mod:`webrobot.extract.product`).

On the development half of the unseen sets (``python -m benchmarks.quality.unseendev``,
``python -m benchmarks.quality.unseen``) this took the listing set from 0.518 to 0.573
F1 and the service set from 0.736 to 0.740, the others unchanged; on all pages, listing
0.535 to 0.602 with the consent rule of :mod:`webrobot.extract.pagechrome`.

Pure: no Scrapy, no I/O.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from webrobot.extract.pagekind import Declarations

from webrobot.extract.cardtitles import blurbed_titles

#: Block elements: a link wrapping one of these is a card, not a link in running text.
BLOCKS = frozenset(
    ("div", "p", "h1", "h2", "h3", "h4", "h5", "h6", "article", "section", "ul", "ol", "li")
    + ("figure", "header", "table", "blockquote", "dl")
)
#: What makes a block-wrapping link a card whatever its length: a title or a blurb.
TELLING = ("p", "h1", "h2", "h3", "h4", "h5", "h6")
#: A block-wrapping link this long (characters) is a card without a heading or paragraph.
CARD_CHARS = 80
#: A page of cards has at least this many (one or two are a teaser or a banner).
MIN_CARDS = 3
#: The cards must hold this share of the page's text to be read as its content.
CARD_SHARE = 0.15
#: ``og:type`` values of a page that may be a listing (none declared counts too).
LISTING_OG_TYPES = frozenset(("", "website"))
_UNCOUNTED = ("script", "style", "noscript", "template")


def lists_cards(root: Any, found: Declarations | None = None) -> bool:
    """Whether the page under ``root`` (an lxml tree) may be a page of cards: its
    ``og:type`` is absent or ``website`` (read from ``found``, its
    :func:`~webrobot.extract.pagekind.declarations`, when given). (Articles and products
    are told apart before.)"""
    if found is None:
        for meta in root.iter("meta"):
            if (meta.get("property") or meta.get("name") or "").strip().lower() == "og:type":
                return (meta.get("content") or "").strip().lower() in LISTING_OG_TYPES
        return True
    og_types = found.og_types()
    return og_types[0] in LISTING_OG_TYPES if og_types else True


def unwrap_cards(tree: Any) -> int:
    """The links of ``tree`` that wrap a whole card made plain ``<div>`` blocks, in place,
    when the cards hold :data:`CARD_SHARE` of the page's text (see the module doc); how
    many were."""
    cards = [link for link in tree.iter("a") if _is_card(link)]
    if len(cards) < MIN_CARDS:
        return 0
    body = tree.find("body")
    top = body if body is not None else tree
    page = len(top.text_content()) - sum(len(node.text or "") for node in top.iter(*_UNCOUNTED))
    if sum(len(link.text_content()) for link in cards) < CARD_SHARE * page:
        return 0
    blurbed_titles(cards)
    for link in cards:
        link.tag = "div"
        link.attrib.clear()
    return len(cards)


def _is_card(link: Any) -> bool:
    if not any(child.tag in BLOCKS for child in link):
        return False
    if next(link.iter(*TELLING), None) is not None:
        return True
    return len(link.text_content()) >= CARD_CHARS
