"""Dates a page's ``<time>`` elements and schema.org date properties
(``itemprop=datePublished``, ``dateModified``) state, for its metadata.

A ``<time>`` in an update's line is the modification date, never the publication
date: its element or a near ancestor says so by its class (Docusaurus'
``theme-last-updated``, ``last-modified``), or the words just before it do ("Last
updated on", "Zuletzt aktualisiert:", "mis à jour le"). GitHub's ``<relative-time datetime=...>``, which Hugo and Jekyll
themes in GitHub's style print ("Created <relative-time>", "Modified
<relative-time>"), is read as a ``<time>``.

Pure: no Scrapy, no I/O. :func:`webrobot.extract.metadata.metadata` is the entry point.
"""

from __future__ import annotations

import re
from typing import Any

from lxml import etree

from webrobot.extract.bylines import elsewhere, post_scope
from webrobot.extract.pagedates import dated_scope

#: Elements that may state a date: ``<time>`` and schema.org's date properties.
_TIMES = etree.XPath(
    "//time | //relative-time | //*[@itemprop='datePublished' or @itemprop='dateModified']"
)
#: Elements that print a moment with its ``datetime``: ``<time>``, and GitHub's
#: ``<relative-time>`` (its web component, which themes in GitHub's style print).
TIME_TAGS = ("time", "relative-time")
#: Every ``itemprop`` value, as plain strings: most pages name no date property.
_ITEMPROPS = etree.XPath("//@itemprop", smart_strings=False)
_PUBLISHED = ("datePublished", "published", "dt-published")
_MODIFIED = ("dateModified", "updated", "dt-updated")
#: Marked elements read for the publication date, at most (a listing marks every post).
MAX_MARKED = 60
#: A class or id that marks an update's line.
_UPDATE_MARK = re.compile(r"updat|modif", re.IGNORECASE)
#: Words just before a time that make it an update's.
_UPDATE_WORDS = re.compile(
    r"updat|modif|aktualisiert|geändert|mis à jour|actualiza|aggiornat|bijgewerkt|"
    r"last edited|zuletzt|更新|修改|수정",
    re.IGNORECASE,
)
#: Characters before a time searched for :data:`_UPDATE_WORDS`.
UPDATE_WINDOW = 24
#: Ancestors of a time whose class or id is searched for :data:`_UPDATE_MARK`.
UPDATE_DEPTH = 3


def _marked(element: Any, marks: tuple[str, ...]) -> bool:
    """Whether ``element`` says it holds the date ``marks`` names: by ``itemprop``,
    by a class word, or (publication) by the old ``pubdate`` attribute."""
    if element.get("itemprop") == marks[0]:
        return element.tag != "meta" or marks is _MODIFIED
    if element.tag not in TIME_TAGS:
        return False
    classes = (element.get("class") or "").split()
    return any(m in classes for m in marks[1:]) or (
        marks is _PUBLISHED and element.get("pubdate") is not None
    )


def updated_time(element: Any) -> bool:
    """Whether the ``<time>`` ``element`` is in an update's line ("Last updated on",
    ``class="theme-last-updated"``)."""
    node = element
    for _ in range(UPDATE_DEPTH + 1):
        if node is None or node.tag in ("article", "main", "body"):
            break
        marks = f"{node.get('class') or ''} {node.get('id') or ''}"
        if marks.strip() and _UPDATE_MARK.search(marks):
            return True
        node = node.getparent()
    return _UPDATE_WORDS.search(_text_before(element)) is not None


def _text_before(element: Any) -> str:
    """The last :data:`UPDATE_WINDOW` characters of text before ``element``, read
    back through its previous siblings and up its ancestors (at most
    :data:`UPDATE_DEPTH` of them)."""
    out = ""
    node = element
    for _ in range(UPDATE_DEPTH + 1):
        previous = node.getprevious()
        while previous is not None and len(out) < UPDATE_WINDOW:
            text = previous.text_content() if isinstance(previous.tag, str) else ""
            out = text + (previous.tail or "") + out
            previous = previous.getprevious()
        parent = node.getparent()
        if parent is None or len(out) >= UPDATE_WINDOW:
            break
        out = (parent.text or "") + out
        node = parent
    return out[-UPDATE_WINDOW:]


def _when(element: Any) -> str | None:
    value = element.get("datetime") or element.get("content")
    return str(value) if value else None


class TimeElements:
    """The page's :data:`_TIMES` elements, found on the first call, for both dates."""

    def __init__(self, root: Any) -> None:
        self.root = root
        self._found: list[Any] | None = None

    def __call__(self) -> list[Any]:
        if self._found is None:
            self._found = []
            if self.root is not None:
                try:
                    values = _ITEMPROPS(self.root)
                    # Without a date property, the same elements by a walk in C (faster).
                    if "datePublished" in values or "dateModified" in values:
                        self._found = list(_TIMES(self.root))
                    else:
                        self._found = list(self.root.iter(*TIME_TAGS))
                except (AttributeError, ValueError, TypeError):
                    self._found = []
        return self._found

    def post(self) -> Any:
        """Where the page's post is: the ``<article>`` that holds its headline
        (:func:`~webrobot.extract.pagedates.dated_scope`), else its first ``<article>``
        (:func:`~webrobot.extract.bylines.post_scope`)."""
        if self.root is None:
            return None
        try:
            scope = dated_scope(self.root)
            return scope if scope.tag == "article" else post_scope(self.root)
        except (AttributeError, ValueError, TypeError):
            return None


def _within(element: Any, post: Any) -> bool:
    """Whether ``element`` is in ``post`` (an ``<article>``); anything is, without one."""
    if post is None or post.tag != "article":
        return True
    return any(node is post for node in element.iterancestors("article"))


def _another_post(element: Any, post: Any) -> bool:
    """Whether ``element`` is in an ``<article>`` other than ``post`` (an
    ``<article>``) and not in ``post``: a teaser of another post."""
    if post is None or post.tag != "article":
        return False
    articles = list(element.iterancestors("article"))
    return bool(articles) and not any(node is post for node in articles)


def time_elements(elements: list[Any], *, published: bool, post: Any = None) -> list[str]:
    """``<time datetime>`` values: for the publication date the ones marked ``pubdate``
    or ``itemprop=datePublished``, else the first not in an update's line; for the
    modification date one marked ``itemprop=dateModified``, then one in an update's
    line (:func:`updated_time`). Marked ones that sit in comments, a sidebar
    or a list of other posts (:func:`~webrobot.extract.bylines.elsewhere`) come after
    the post's own first ``<time>``; those in another ``<article>`` than ``post`` (the
    page's post, when it is an ``<article>``: a teaser's or a related post's) are
    left out. They date other posts."""
    try:
        if not published:
            marked = [v for e in elements if _marked(e, _MODIFIED) and (v := _when(e))]
            return marked + [
                str(e.get("datetime"))
                for e in elements[:30]
                if e.tag in TIME_TAGS
                and e.get("datetime")
                and not _marked(e, _MODIFIED)
                and not elsewhere(e)
                and updated_time(e)
            ]
        marked = [e for e in elements[:MAX_MARKED] if _marked(e, _PUBLISHED) and _when(e)]
        own = [v for e in marked if _within(e, post) and not elsewhere(e) and (v := _when(e))]
        if own:
            return own
        away = [v for e in marked if not _another_post(e, post) and (v := _when(e))]
        for element in elements[:30]:
            if (
                element.tag in TIME_TAGS
                and element.get("datetime")
                and _within(element, post)
                and not elsewhere(element)
                and not updated_time(element)
            ):
                return [str(element.get("datetime")), *away]
        return away
    except (AttributeError, ValueError):
        return []
