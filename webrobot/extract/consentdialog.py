"""Cookie-consent dialogs that no class or id names: told by what they say.

A consent banner whose class and id name neither cookies nor consent (``ensNotifyBanner``,
``ensModalWrapper``) escapes the class rule of :mod:`webrobot.extract.pagechrome`, and
on a shop page its settings (a paragraph for each kind of cookie) can outweigh the
product's own text and be read in its place. Such a banner still says what it is: it
is a dialog (``<dialog>``, ARIA ``dialog`` or ``alertdialog``, or ``aria-modal="true"``)
whose label or text speaks of cookies or consent, or offers to accept them all
("Accept all", "Alle akzeptieren", "Tout accepter"). :func:`consent_dialogs` finds
them; :func:`~webrobot.extract.pagechrome.reading_tree` prunes them as it prunes the
banners named for consent (with the same guards: a node that holds an ``<h1>``,
``<main>`` or ``<article>`` is the page, not a banner). A dialog that says nothing of
cookies (a size guide, a newsletter form, a quick view) stays.

Pure: no Scrapy, no I/O.
"""

from __future__ import annotations

import re
from typing import Any

import lxml.etree

#: Dialogs, found through their attributes (a walk of the attributes, not of every
#: element) and by tag.
_DIALOGS = lxml.etree.XPath(
    "//@role[.='dialog' or .='alertdialog']|//@aria-modal[.='true']|//dialog"
)
#: What a consent dialog says, in its label or its text: cookies, consent, or a button
#: that accepts everything (English, German, French, Spanish, Italian, Dutch).
CONSENT_TALK = re.compile(
    r"\bcookies?\b|\bconsent|\bgdpr\b|accept all|allow all|alle akzeptieren"
    r"|alle zulassen|tout accepter|accepter tout|aceptar todo|accetta tutt"
    r"|alles accepteren|alle cookies",
    re.IGNORECASE,
)
#: Characters of a dialog's text looked at: a banner says what it is early.
LOOKED_AT = 2000


def consent_dialogs(tree: Any) -> list[Any]:
    """The dialogs of ``tree`` that speak of cookies or consent (:data:`CONSENT_TALK`),
    outermost first, none inside another one found."""
    found: list[Any] = []
    for node in _DIALOGS(tree):
        element = node.getparent() if isinstance(node, lxml.etree._ElementUnicodeResult) else node
        if any(element is other for other in found):
            continue
        if says_consent(element):
            found.append(element)
    return [
        element
        for element in found
        if not any(other is not element and _inside(element, other) for other in found)
    ]


def says_consent(element: Any) -> bool:
    """Whether ``element``'s ARIA label or the start of its text speaks of cookies or
    consent (:data:`CONSENT_TALK`)."""
    label = element.get("aria-label") or ""
    if CONSENT_TALK.search(label):
        return True
    return CONSENT_TALK.search(element.text_content()[:LOOKED_AT]) is not None


def _inside(element: Any, other: Any) -> bool:
    return any(ancestor is other for ancestor in element.iterancestors())
