"""Newsletter sign-up boxes, left out of the text.

Articles carry a box that asks the reader to subscribe: a heading ("PC Gamer
Newsletter", "Abonniere unseren Newsletter", "Subscribe to my free statistics
newsletter"), a line of promises, a field for an e-mail address and a button, set
between the article's paragraphs or after its last one. A reader skips it, and
evaluation sets count it as boilerplate. trafilatura leaves it out only where the box's
class names a newsletter in English.

:func:`without_sign_ups` tells the box by its shape, whatever its language: a
``<form>`` that asks for an e-mail address (an ``<input type="email">``, noted by
:func:`note_email_field` when the reading's copy drops its inputs) and holds at
most :data:`BOX_CHARS` characters of text, with the blocks around it as long as they
still hold no more than that and at most :data:`AROUND_CHARS` characters besides the
form's (the heading and the promises beside the form, not a section's introduction
beside a booking form), is removed
from the tree the readings read. A longer form (a page that wraps its whole content in
one ``<form>``, as ASP.NET pages do) and a form of no e-mail field (a search box) stay.

Pure: no Scrapy, no I/O.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from webrobot.extract.htmltree import delete

#: A sign-up box holds at most this many characters of text, whitespace collapsed.
BOX_CHARS = 600
#: The blocks around the form hold at most this many characters besides the form's: a
#: heading and a line of promises, not a section's introduction.
AROUND_CHARS = 400
#: The attribute :func:`note_email_field` puts on a form whose e-mail field it saw go.
ASKS_EMAIL = "data-webrobot-asks-email"
#: Containers a box never grows into: the page's and the article's own (nor a block that
#: holds an ``<h1>``, the page's headline).
_NEVER = frozenset(("html", "body", "main", "article"))


def without_sign_ups(forms: Iterable[Any]) -> int:
    """Each of ``forms`` (a tree's ``<form>`` elements) that asks for an e-mail address
    removed with the short blocks around it (:func:`sign_up_box`); how many were."""
    removed = 0
    for form in forms:
        box = sign_up_box(form)
        if box is not None and box.getparent() is not None:
            delete(box)
            removed += 1
    return removed


def note_email_field(field: Any) -> None:
    """Mark the form of ``field`` (an ``<input>`` about to be removed from a reading's
    copy of the tree) with :data:`ASKS_EMAIL` when it is an e-mail field, so that
    :func:`sign_up_box` still knows the form asked for one."""
    if (field.get("type") or "").strip().lower() != "email":
        return
    form = next(field.iterancestors("form"), None)
    if form is not None:
        form.set(ASKS_EMAIL, "")


def sign_up_box(form: Any) -> Any:
    """The box ``form`` stands in when it asks for an e-mail address and holds at most
    :data:`BOX_CHARS` characters of text: the form, or its highest ancestor below the
    article (:data:`_NEVER`) that still holds no more, and no more than
    :data:`AROUND_CHARS` besides the form's, and no ``<h1>``; ``None`` for any other form."""
    if form.get(ASKS_EMAIL) is None and not any(
        (field.get("type") or "").strip().lower() == "email" for field in form.iter("input")
    ):
        return None
    own = _chars(form)
    if own > BOX_CHARS:
        return None
    box = form
    parent = box.getparent()
    while parent is not None and parent.tag not in _NEVER:
        if next(parent.iter("h1"), None) is not None:
            break  # the block of the page's headline: a short post, not a box
        chars = _chars(parent)
        if chars > BOX_CHARS or chars - own > AROUND_CHARS:
            break
        box, parent = parent, parent.getparent()
    return box


def _chars(element: Any) -> int:
    """The length of ``element``'s text, whitespace collapsed."""
    return len(" ".join(element.text_content().split()))
