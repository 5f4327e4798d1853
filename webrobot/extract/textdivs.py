"""The posts of a page built as before HTML5 whose text stands in a ``<div>`` itself,
read as paragraphs.

Forum software and blogs of the 2000s (Simple Machines, phpBB, hand-made templates)
write a post's text straight into a ``<div>``, its lines broken by ``<br>``, with no
``<p>``. trafilatura reads paragraphs: it drops a ``<div>``'s own text, and the first
line of a ``<div>`` of ``<br>`` lines, in both its readings, so such a thread is read
without its posts.

:func:`text_divs` makes such a ``<div>`` a ``<p>``: one that holds text and inline
elements only, at least :data:`MIN_CHARS` characters of it outside links, and shares
its ``class`` with another such ``<div>`` of the page (the posts of a thread, built
alike). :mod:`webrobot.extract.maintext` calls it only on a page with no HTML5
sectioning element and no JSON-LD (:func:`built_before_html5`). On other pages, and
for a ``<div>`` of its kind alone, the same change read as text every card's blurb on
pages of cards, a callout beside an article and a lone box of a blog's side column.

Pure: no Scrapy, no I/O.
"""

from __future__ import annotations

from typing import Any

from webrobot.extract.layouttables import INLINE, unlinked

#: A ``<div>`` of at least this many characters outside links is a paragraph.
MIN_CHARS = 100
#: HTML5's sectioning elements: a page holding one is built as after HTML5.
SECTIONING = ("article", "main", "header", "footer", "nav", "section")


def built_before_html5(tree: Any) -> bool:
    """Whether ``tree`` holds no HTML5 sectioning element (:data:`SECTIONING`) and no
    JSON-LD script."""
    if next(tree.iter(*SECTIONING), None) is not None:
        return False
    return not any(
        "ld+json" in (script.get("type") or "").lower() for script in tree.iter("script")
    )


def text_divs(tree: Any) -> list[Any]:
    """The ``<div>`` elements of ``tree`` that hold text and inline elements only,
    :data:`MIN_CHARS` characters or more outside links, two or more of one ``class``,
    made ``<p>`` (changed in place); the elements changed."""
    found = [div for div in tree.iter("div") if div.get("class") and _holds_text(div)]
    classes: dict[str, int] = {}
    for div in found:
        classes[div.get("class")] = classes.get(div.get("class"), 0) + 1
    made = [div for div in found if classes[div.get("class")] >= 2]
    for div in made:
        div.tag = "p"
    return made


def _holds_text(div: Any) -> bool:
    """Whether ``div`` holds inline elements and text only, :data:`MIN_CHARS` characters
    or more of it outside links."""
    if not all(e.tag in INLINE for e in div.iterdescendants() if isinstance(e.tag, str)):
        return False
    return len("".join(unlinked(div)).strip()) >= MIN_CHARS
