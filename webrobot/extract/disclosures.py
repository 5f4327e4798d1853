"""Questions and answers in ``<details>``, read as the article's text.

Articles close their questions and answers ("Your questions answered", a FAQ) in
``<details>`` elements: the ``<summary>`` is the question, a reader opens it and reads
the answer, and evaluation sets keep both as the article's text. Sites name the
element for its widget (``expandable``, ``collapse``, ``toggle``), and trafilatura,
which turns a ``<details>`` into a ``<div>`` before it prunes, takes such a class for
boilerplate (its token ``expand``) and drops every answer with it.

:func:`open_answers` takes the class and ``id`` off each ``<details>`` of a tree that
holds a question and its answer in prose: a ``<summary>`` and a ``<p>`` child of at
least :data:`ANSWER_CHARS` characters outside links. A disclosure of links (a menu's
submenu), of a list alone (references) or of form controls (a consent dialog's
categories) keeps its class and is read, or left out, as before; so is whatever its
ancestors are named for (a cookie banner's ``<details>`` still goes with the banner).
Nothing but the element's own names is changed: the words are not looked at.

Pure: no Scrapy, no I/O.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

#: A ``<p>`` child of at least this many characters outside links is an answer.
ANSWER_CHARS = 80


def open_answers(details: Iterable[Any]) -> int:
    """Each of ``details`` (a tree's ``<details>`` elements) that is a question and its
    answer (:func:`is_answered`) without its ``class`` and ``id``; how many were."""
    opened = 0
    for element in details:
        if is_answered(element):
            element.attrib.pop("class", None)
            element.attrib.pop("id", None)
            opened += 1
    return opened


def is_answered(element: Any) -> bool:
    """Whether ``element`` (a ``<details>``) has a ``<summary>`` child and a ``<p>``
    child of :data:`ANSWER_CHARS` characters or more outside links."""
    children = [child for child in element if isinstance(child.tag, str)]
    if not any(child.tag == "summary" for child in children):
        return False
    return any(child.tag == "p" and _prose(child) >= ANSWER_CHARS for child in children)


def _prose(paragraph: Any) -> int:
    """The length of ``paragraph``'s text outside its links, whitespace collapsed."""
    whole = len(" ".join(paragraph.text_content().split()))
    linked = sum(len(" ".join(a.text_content().split())) for a in paragraph.iter("a"))
    return whole - linked
