"""A post's closing list of references, which the reading cuts.

Many posts end with a heading such as "References", "Sources" or "Further reading" and
a list of links to what they drew on. trafilatura drops such a list as link-heavy
boilerplate, and the heading with it (a heading that ends a text is dropped). They are
the post's own: its author wrote them, and they are what a reader follows next.

:func:`with_references` looks for such a heading that ends its container with one list
after it, every item of which holds a link (the links a third of the list's text at
least), right after the block the text ends with, in the same container: the post's
own Markdown, where the reading stopped. It adds the heading and the items to the text
(one line each, ``-`` before an item) and to the Markdown (``#`` heading of the page's
level, ``-`` or ``1.`` items). A heading of any other words (related posts, "follow
me", tags), a list without links, anything after the list, or a box of links of the
site's template after the post's container ("Weiterführende Links" in a section of its
own) leaves the text as it is.

Pure: no Scrapy, no I/O.
"""

from __future__ import annotations

import re
from typing import Any

from webrobot.extract.bylines import post_scope

#: Headings of a post's closing references, in the languages pages are most written in.
_REFERENCE_HEADING = re.compile(
    r"(?:references?|sources?|further reading|bibliography|citations|see also|notes and references"
    r"|literatur(?:verzeichnis)?|quellen(?:angaben)?|références|bibliographie"
    r"|pour aller plus loin|referencias|fuentes|bibliografía|lecturas? recomendadas?"
    r"|riferimenti|fonti|bibliografia|bronnen|referenties|referências|fontes)\W*",
    re.IGNORECASE,
)
_HEADINGS = frozenset({"h1", "h2", "h3", "h4", "h5", "h6"})
#: A list of references: each item holds a link, and the links hold at least this share
#: of the list's text (an item is often "Author, <a>Title</a> (year)").
LINK_SHARE = 0.3
#: At most this many items: a longer list of links is a directory, not a post's sources.
MAX_ITEMS = 40


def with_references(text: str, markdown: str | None, root: Any) -> tuple[str, str | None]:
    """``text`` and its ``markdown`` with the post's closing references added when the
    reading cut them (see the module doc)."""
    last = _norm(text.rpartition("\n")[2])
    if not last:
        return text, markdown
    scope = post_scope(root)
    found = _closing_section(scope, last)
    if found is None:
        return text, markdown
    heading, items, ordered = found
    title = _norm(heading.text_content())
    lines = [title, *(f"- {item}" for item in items)]
    text = "\n".join([text, *lines])
    if markdown is not None:
        marks = (f"{n}. " if ordered else "- " for n in range(1, len(items) + 1))
        listed = "\n".join(mark + item for mark, item in zip(marks, items, strict=True))
        level = "#" * int(heading.tag[1])
        markdown = f"{markdown.rstrip()}\n\n{level} {title}\n\n{listed}"
    return text, markdown


def _closing_section(scope: Any, last: str) -> tuple[Any, list[str], bool] | None:
    """The references heading, its items' texts and whether they are numbered, when
    they close their container and follow the block the text ends with (``last``)."""
    for heading in scope.iter(*_HEADINGS):
        if not _REFERENCE_HEADING.fullmatch(_norm(heading.text_content())):
            continue
        after = [e for e in heading.itersiblings() if _has_text(e)]
        found = _references(heading, after)
        if found is not None and _follows(heading, last):
            return found
    return None


def _follows(heading: Any, last: str) -> bool:
    """Whether the nearest text before ``heading`` in its container ends with the line
    ``last``."""
    before = next((e for e in heading.itersiblings(preceding=True) if _has_text(e)), None)
    return before is not None and _norm(before.text_content()).endswith(last)


def _references(heading: Any, after: list[Any]) -> tuple[Any, list[str], bool] | None:
    """``heading`` and ``after`` (what follows it in its container) as a references
    heading and its list of links, or ``None``."""
    if len(after) != 1 or after[0].tag not in ("ul", "ol"):
        return None
    listing = after[0]
    items = [li for li in listing if li.tag == "li"]
    if not items or len(items) > MAX_ITEMS:
        return None
    texts, linked = [], 0
    for item in items:
        words = _norm(item.text_content())
        links = sum(len(_norm(a.text_content())) for a in item.iter("a"))
        if not words or not links:
            return None
        texts.append(words)
        linked += links
    if linked < LINK_SHARE * sum(len(t) for t in texts):
        return None
    return heading, texts, listing.tag == "ol"


def _has_text(element: Any) -> bool:
    return isinstance(element.tag, str) and bool(element.text_content().strip())


def _norm(text: str) -> str:
    return " ".join(text.split())
