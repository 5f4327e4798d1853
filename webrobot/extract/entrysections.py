"""Whether an article's heading opens a section of its own: the entry of a listicle
("23. Consult a doctor app", "1. AWS Machine Learning") or a review of the year's
stories, whose heading links to the thing it presents.

trafilatura's precise reading drops a heading whose text is mostly a link, so those
entries lose their names. :func:`webrobot.extract.pagechrome.headings` unwraps the
links of such a heading when what follows it shows it is an entry of the article,
not a teaser of a list of links around it, read from the page's structure alone:

- a heading that links to another site is an entry when a paragraph of
  ``long_paragraph`` characters follows it (:func:`first_paragraph`), after the
  pictures between them (a picture block whose caption is shorter than
  :data:`CAPTION_CHARS`, as WordPress's ``wp-block-image`` sets one under the entry's
  heading);
- a heading that links to a page of the same site (a teaser under an article links
  there too, with one short excerpt) is an entry when :data:`SECTION_PARAGRAPHS`
  paragraphs or more of :data:`PARAGRAPH_CHARS` characters each follow it before the
  next heading, together :data:`SECTION_CHARS` or more, each mostly words rather than
  links (:func:`opens_section`).

Pure functions over lxml elements; nothing is changed here.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

from webrobot.extract.seealso import is_see_also

#: A picture block's caption is shorter than this (characters).
CAPTION_CHARS = 80
#: A section opened by a heading that links within the site has this many paragraphs...
SECTION_PARAGRAPHS = 2
#: ...each of this many characters or more...
PARAGRAPH_CHARS = 80
#: ...and together this many: a teaser's excerpt is one paragraph, and shorter.
SECTION_CHARS = 300
#: A paragraph of a section holds less than this share of its text in links.
LINKED_SHARE = 0.5
#: The elements after a heading looked at, at most.
LOOKED_AT = 8

_WORD = re.compile(r"\w")
_HEADINGS = frozenset(("h1", "h2", "h3", "h4", "h5", "h6"))
_PICTURES = ("img", "picture", "video", "iframe")


def _paragraphs(heading: Any) -> Iterator[tuple[int, int]]:
    """The paragraphs after ``heading`` up to the next heading or block of other words:
    each paragraph's length and the length of its links' text (characters); empty
    paragraphs and picture blocks with a short caption are passed over."""
    following = heading.getnext()
    for _ in range(LOOKED_AT):
        if following is None or not isinstance(following.tag, str):
            return
        tag = following.tag
        if tag in _HEADINGS:
            return
        words = following.text_content().strip()
        if tag == "p":
            if words:
                linked = sum(len(link.text_content().strip()) for link in following.iter("a"))
                yield len(words), linked
        elif _WORD.search(words) and not _picture(following, words):
            return
        following = following.getnext()


def _picture(element: Any, words: str) -> bool:
    """Whether ``element`` is a picture block: a picture and a short caption."""
    if len(words) >= CAPTION_CHARS:
        return False
    if element.tag in _PICTURES:
        return True
    return next(element.iter(*_PICTURES), None) is not None


def first_paragraph(heading: Any, long_paragraph: int) -> bool:
    """Whether the first paragraph after ``heading`` (pictures passed over) holds
    ``long_paragraph`` characters or more."""
    for length, _ in _paragraphs(heading):
        return length >= long_paragraph
    return False


def opens_section(heading: Any) -> bool:
    """Whether ``heading`` opens a section of :data:`SECTION_PARAGRAPHS` paragraphs or
    more, each of :data:`PARAGRAPH_CHARS` characters and mostly words, together
    :data:`SECTION_CHARS` or more."""
    total = 0
    for count, (length, linked) in enumerate(_paragraphs(heading), 1):
        if length < PARAGRAPH_CHARS or linked >= LINKED_SHARE * length:
            return False
        total += length
        if count >= SECTION_PARAGRAPHS and total >= SECTION_CHARS:
            return True
    return False


def entry_links(heading: Any, elsewhere: list[Any], long_paragraph: int) -> list[Any]:
    """The links of ``heading`` to unwrap so that the precise reading keeps its line:
    ``elsewhere`` (its links to another site) when a paragraph of ``long_paragraph``
    characters follows it (:func:`first_paragraph`), else all its links when it opens
    a section (:func:`opens_section`) and is no pointer to another article (a label,
    a colon and one headline link: :func:`~webrobot.extract.seealso.is_see_also`);
    none otherwise."""
    if elsewhere and first_paragraph(heading, long_paragraph):
        return elsewhere
    links = list(heading.iter("a"))
    if not links or not opens_section(heading) or is_see_also(heading):
        return []
    return links
