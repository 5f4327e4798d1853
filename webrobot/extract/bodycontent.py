"""A page whose text stands in ``<body>`` itself, in no container.

Many documentation pages are written without a content element: a man page, a
manual exported by a help authoring tool (MadCap Flare, RoboHelp), a tutorial written by
hand, an older Javadoc put their headings, paragraphs, lists and tables straight into
``<body>``. trafilatura looks for the page's content in a container (an ``<article>``,
a ``<main>``, an element whose class or id says content, post or entry); finding none,
it gathers the stray paragraphs of the whole page instead, and that gathering keeps
paragraphs, code and tables but no heading and no list: a tutorial comes out without
its section titles and its steps.

:func:`wrap_body_content` gives such a page the container its text is in: the body's
children are moved into one ``<main>``, on the copy of the tree the main text is read
from. It does so only when the body holds its text itself (:data:`MIN_HEADINGS`
headings or more and :data:`MIN_BLOCKS` paragraphs, lists, tables or code blocks or
more among its own children) and the page has no ``<main>`` and no ``<article>`` of its
own: any page built with a container keeps its reading. The chrome is pruned from that
copy before (:func:`webrobot.extract.pagechrome.reading_tree`), and trafilatura still
drops, inside the container, what it drops anywhere.

Pure: no Scrapy, no I/O.
"""

from __future__ import annotations

from typing import Any

#: The body's own children must hold at least this many headings...
MIN_HEADINGS = 1
#: ...and this many paragraphs, lists, tables or code blocks.
MIN_BLOCKS = 3
_HEADINGS = frozenset(("h1", "h2", "h3", "h4", "h5", "h6"))
_BLOCKS = frozenset(("p", "ul", "ol", "dl", "table", "pre", "blockquote"))


def holds_its_text(body: Any) -> bool:
    """Whether ``body``'s own children are the page's headings and paragraphs."""
    headings = blocks = 0
    for child in body:
        tag = child.tag if isinstance(child.tag, str) else ""
        if tag in _HEADINGS:
            headings += 1
        elif tag in _BLOCKS:
            blocks += 1
    return headings >= MIN_HEADINGS and blocks >= MIN_BLOCKS


def wrap_body_content(tree: Any) -> bool:
    """Move the body's children of ``tree`` (changed in place) into one ``<main>`` when
    the body holds the page's text itself and the page has no ``<main>`` or
    ``<article>``; whether it did."""
    body = tree.find("body") if tree.tag != "body" else tree
    if body is None or not holds_its_text(body):
        return False
    if next(tree.iter("main", "article"), None) is not None:
        return False
    main = body.makeelement("main", {})
    main.text, body.text = body.text, None
    for child in list(body):
        main.append(child)  # moves it, its tail with it
    body.append(main)
    return True
