"""Whether an element is shown to a reader, as far as its own markup says.

A page's markup holds text a browser never shows: a lock screen an app keeps under
``style="display:none"`` until it is needed, and the "Skip to product information"
links and "Regular price" or "Variant sold out" captions written for screen readers
only (``visually-hidden``, ``sr-only``, ``screen-reader-text``). The reading of a
page's region whole (:mod:`webrobot.extract.sectionedpage`) leaves them out, with the
``hidden`` and ``aria-hidden`` attributes it already heeded, and so do a product page's
specification lists (:mod:`webrobot.extract.speclists`).

Utility classes that hide a block for now (``hidden``, ``d-none``, ``is-hidden``) are
not counted: a page hides its closed tabs and accordion panels with them, and a reader
opens those (on the development half of the unseen service pages, leaving them out lost
a consultancy page's tabs: 0.7823 to 0.7816 F1). For the same reason a closed tab panel
(ARIA ``tabpanel``, which pages close with ``hidden`` or ``aria-hidden``) and a block
hidden ``until-found`` (which the browser's find in page opens) count as shown: on the
development half of the unseen service pages this took a messaging product's page from
0.66 to 0.96 F1 (the set from 0.7823 to 0.7869), a cloud product's from 0.76 to 0.73; the
product pages 0.6261 to 0.6264.

Pure: no Scrapy, no I/O.
"""

from __future__ import annotations

import re
from typing import Any

#: Classes that keep an element for screen readers only (the names of common frameworks
#: and themes: Shopify, Bootstrap, WordPress, HTML5 Boilerplate).
SCREEN_READER_CLASSES = frozenset(
    ("visually-hidden", "visuallyhidden", "sr-only", "screen-reader-text", "screen-reader-only")
)
_HIDING_STYLE = re.compile(r"display\s*:\s*none|visibility\s*:\s*hidden", re.IGNORECASE)
#: A class that shows an element from some screen width on: ``md:not-sr-only``, ``sm:block``.
_RESPONSIVE = re.compile(r":")


def hidden_by_markup(element: Any) -> bool:
    """Whether ``element``'s own attributes hide it: ``hidden``, ``aria-hidden="true"``,
    an inline ``display: none`` or ``visibility: hidden``, or a screen-reader-only class
    not undone at some screen width (Tailwind's ``sr-only md:not-sr-only``). A tab panel
    (ARIA ``tabpanel``) and a block hidden ``until-found`` are not hidden, whatever else
    their attributes say: a reader opens them."""
    if element.get("role") == "tabpanel" or element.get("hidden") == "until-found":
        return False  # a closed tab, or a block the browser's find opens: a reader opens it
    if element.get("hidden") is not None or element.get("aria-hidden") == "true":
        return True
    style = element.get("style")
    if style and _HIDING_STYLE.search(style):
        return True
    classes = (element.get("class") or "").split()
    return any(c in SCREEN_READER_CLASSES for c in classes) and not any(
        _RESPONSIVE.search(c) for c in classes
    )
