"""The name a product page gives itself, first in its main text.

A shop's product page heads its buy box with the product's name in an ``<h1>``, and a
reader reads the text below it as that product's: "Sealy Soybean Nature Couture Crib
Mattress", then the description and the specification. Readings lose it: trafilatura
looks for the block of text and finds the description, which the name stands above in
another block (a buy box's header, a gallery's column), and the page's own ``<title>``
repeats it, so the headline rule (:mod:`webrobot.extract.headline`, for articles and
posts) drops it. :func:`with_name` puts the name back as the first line of the text;
the main text asks for it on a page that declares a product and no article
(:mod:`webrobot.extract.pagekind`): a post that declares nothing keeps its headline out.

Which ``<h1>`` is the name: one that is shown (not hidden, not in navigation, not all
one link) whose text the page's ``<title>``, ``og:title`` or ``twitter:title`` states
too (whole, one of its parts between separators, or holding one such part: "Boots |
Shop" and the ``<h1>`` "Boots"). A logo in an ``<h1>`` ("Call Acme") or a menu's
heading is not in the title, and a logo that links home is all one link: neither is
taken; a page whose title names no ``<h1>`` gets nothing.

On the real shop pages of ``python -m benchmarks.quality.realshops`` the name was
missing from 12 of 22 texts, and the rule took their F1 from 0.814 to 0.845; on the
development half of the unseen product pages (wcxb, where the name stands in the
ground truth of 25 of the 38 pages that declare a product) it is even (0.6156 to
0.6154).

Pure: no Scrapy, no I/O.
"""

from __future__ import annotations

import re
from typing import Any

from webrobot.extract.sitetitle import title_parts

_SPACES = re.compile(r"\s+")
_TITLE_META = frozenset({"og:title", "twitter:title"})
#: A name is at most this long (characters): a longer ``<h1>`` is a paragraph set big.
MAX_NAME = 200
#: A title's part this short (characters) is not matched inside an ``<h1>`` (a site's
#: "Shop" is in many headings).
MIN_PART = 8
#: Ancestors an ``<h1>`` is never the page's name inside.
_NOT_NAME = frozenset(("nav", "footer", "aside", "dialog", "template", "a", "button", "label"))


def page_name(root: Any) -> str | None:
    """The page's name: the first shown ``<h1>`` whose text its title states (see the
    module doc), its spaces made one; ``None`` when there is none."""
    titles = _titles(root)
    if not titles:
        return None
    parts = {p for t in titles for part in title_parts(t) if len(p := _norm(part)) >= MIN_PART}
    whole = {_norm(t) for t in titles}
    for h1 in root.iter("h1"):
        name = _SPACES.sub(" ", h1.text_content()).strip()
        key = name.lower()
        if not key or len(name) > MAX_NAME or _hidden(h1) or _linked(h1, name):
            continue
        if any(key in title for title in whole) or any(part in key for part in parts):
            return name
    return None


def with_name(text: str | None, markdown: str | None, root: Any) -> tuple[str | None, str | None]:
    """``text`` and ``markdown`` with the page's name (:func:`page_name`) as their first
    line (a ``#`` heading in the Markdown) when the text does not hold it already; as
    they are when it does, when the page has no name, or when there is no text."""
    if not text:
        return text, markdown
    name = page_name(root)
    if name is None or name.lower() in _SPACES.sub(" ", text).lower():
        return text, markdown
    return f"{name}\n{text}", (f"# {name}\n\n{markdown}" if markdown else markdown)


def _titles(root: Any) -> list[str]:
    """The page's ``<title>``, ``og:title`` and ``twitter:title``."""
    found = []
    for element in root.iter("title", "meta"):
        if element.tag == "meta":
            key = (element.get("property") or element.get("name") or "").strip().lower()
            value = element.get("content") if key in _TITLE_META else None
        else:
            value = element.text_content()
        if value and value.strip():
            found.append(value)
    return found


def _hidden(element: Any) -> bool:
    """Whether ``element`` is hidden or inside what is never a page's name."""
    node = element
    while node is not None:
        if (
            node.tag in _NOT_NAME
            or node.get("hidden") is not None
            or node.get("aria-hidden") == "true"
            or (node.get("role") or "") == "navigation"
        ):
            return True
        node = node.getparent()
    return False


def _linked(h1: Any, name: str) -> bool:
    """Whether ``h1``'s text is all in a link (a logo that links home, a teaser)."""
    linked = " ".join(a.text_content() for a in h1.iter("a"))
    return bool(linked) and len(_SPACES.sub(" ", linked).strip()) >= len(name)


def _norm(text: str) -> str:
    return _SPACES.sub(" ", text).strip().lower()
