"""A card taken for the page: on a page of cards, the blocks that name a card's content
lose the names that make trafilatura read one card as the whole page.

trafilatura finds a page's content by the first element its body expressions match
(``trafilatura.xpaths.BODY_XPATH``: the first ``<article>``, the first block whose class
says ``entry-content``, ``post-content``, ``content``, ``main``...). On a page of cards
each card often carries such a name (``<article class="post">``,
``<div class="card-content">``), so the first card is taken for the page: trafilatura
reads it, finds it short, and gathers the loose paragraphs of the rest of the page
without their headings, so every card after the first loses its title (a blog's front
page, a news site's home page: recall 0.61 and 0.43 of their truth on the development
half of the unseen sets).

:func:`unframe_cards` looks at each body expression in trafilatura's order. When its
first match lies inside a card (it, or an ancestor up to :data:`DEPTH` levels above it,
has :data:`MIN_CARDS` or more siblings of the same tag and class, counting itself, and
at least that many of them hold an element of the same shape at the same place, the
match holding less than :data:`PAGE_SHARE` of their text), that
element in every card becomes a plain ``<div>`` without its class, id, role or itemprop,
and the expression is tried again; the first match outside the cards ends the walk (it
is the page's content block, which trafilatura then reads whole). An element that is
the page's content appears once, not in :data:`MIN_CARDS` twins, and is never renamed.
Twins have the same tag and the same ``class`` attribute: cards whose classes name
each apart (WordPress's ``post-123 category-news``) are not twins, and keep their names.

It runs on pages of cards only (:mod:`webrobot.extract.listingcards` says which), after
their whole-card links are unwrapped (:func:`read_as_cards` does both).

Pure: no Scrapy, no I/O.
"""

from __future__ import annotations

from typing import Any

from webrobot.extract.linkedcards import unlink_pairs
from webrobot.extract.listingcards import unwrap_cards
from webrobot.extract.pagekind import declares_discussion
from webrobot.extract.trafilaturacompat import body_expressions

#: A card has at least this many twins (itself included) for its blocks to be renamed.
MIN_CARDS = 3
#: How far above the matched element the card may start (a card's content block sits a
#: few levels under the card).
DEPTH = 4
#: Tries of one expression at most (each renames one set of twins).
TRIES = 5
#: A match holding this share of its twins' text (itself counted) is the page's content
#: beside blocks of the same shape (a header and a footer as plain as it), not a card.
PAGE_SHARE = 0.5
#: The attributes that name a block for trafilatura's body expressions.
NAMES = ("class", "id", "role", "itemprop")


def read_as_cards(tree: Any) -> int:
    """``tree`` (an lxml tree) readied as a page of cards, in place: its whole-card links
    unwrapped (:func:`~webrobot.extract.listingcards.unwrap_cards`), its title and blurb
    links made text (:func:`~webrobot.extract.linkedcards.unlink_pairs`) and its cards'
    content blocks unnamed (:func:`unframe_cards`); how many elements changed."""
    unwrapped = unwrap_cards(tree) + unlink_pairs(tree)
    return unwrapped + (0 if declares_discussion(tree) else unframe_cards(tree))


def unframe_cards(tree: Any) -> int:
    """The content blocks of ``tree``'s cards that trafilatura would take for the page
    made plain ``<div>`` blocks without names, in place (see the module doc); how many."""
    renamed = 0
    for expression in body_expressions():
        for _ in range(TRIES):
            match = next(iter(expression(tree)), None)
            if match is None:
                break  # the next expression
            twins = _twins(match)
            if not twins:
                return renamed  # the page's own content block: trafilatura reads it
            for twin in twins:
                twin.tag = "div"
                for name in NAMES:
                    twin.attrib.pop(name, None)
            renamed += len(twins)
    return renamed


def _shape(element: Any) -> tuple[Any, str | None]:
    return element.tag, element.get("class")


def _twins(match: Any) -> list[Any]:
    """``match`` and the elements of the same shape at the same place in its card's
    twins, when it lies in a card (see the module doc); else ``[]``."""
    card = match
    for _ in range(DEPTH + 1):
        parent = card.getparent()
        if parent is None:
            return []
        shape = _shape(card)
        siblings = [s for s in parent if s is not card and _shape(s) == shape]
        if len(siblings) + 1 >= MIN_CARDS:
            steps = _steps(card, match)
            found = [t for t in (_follow(s, steps) for s in siblings) if t is not None]
            if len(found) + 1 >= MIN_CARDS and not _dominates(match, found):
                return [match, *found]
        card = parent
    return []


def _dominates(match: Any, others: list[Any]) -> bool:
    """Whether ``match`` holds :data:`PAGE_SHARE` or more of its twins' text: the page's
    content beside its header and footer, not a card among cards."""
    own = len(match.text_content())
    return own >= PAGE_SHARE * (own + sum(len(other.text_content()) for other in others))


def _steps(card: Any, element: Any) -> list[tuple[Any, str | None]]:
    """The shapes on the way down from ``card`` to ``element``, its descendant."""
    steps = []
    while element is not card:
        steps.append(_shape(element))
        element = element.getparent()
    return steps[::-1]


def _follow(card: Any, steps: list[tuple[Any, str | None]]) -> Any:
    """The element reached from ``card`` by ``steps`` (the first child of each shape),
    or ``None``."""
    for shape in steps:
        card = next((child for child in card if _shape(child) == shape), None)
        if card is None:
            return None
    return card
