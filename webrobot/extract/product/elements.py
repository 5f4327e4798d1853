"""The elements of a product page as a shopper sees them: an element's shown text
(no scripts, no crossed-out prices), the words of its class and id, whether it stands
in a header, menu or related-products strip, and how far apart two elements are.

Pure: no Scrapy, no I/O. :func:`webrobot.extract.product.product` is the entry point.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Any

#: Class words of what is not the product's own (related products, mini cart, menus).
_ASIDE_WORDS = frozenset({
    "header", "footer", "nav", "navbar", "navigation", "menu", "breadcrumb", "breadcrumbs",
    "newsletter", "sidebar", "related", "upsell", "upsells", "crosssell", "crosssells",
    "recommendations", "recommended", "recommendation", "recently", "minicart", "drawer",
    "similar", "also",
})  # fmt: skip
#: Class words of the product's own part of the page (they outweigh the words above).
_MAIN_WORDS = frozenset({"product", "main", "page", "pdp", "detail", "details", "info"})
#: Elements whose text a shopper does not read: scripts, styles, crossed-out prices.
HIDDEN_TEXT = frozenset({"script", "style", "noscript", "del", "s", "strike", "template"})


def element_text(element: Any) -> str:
    """The text of an element as shown, without scripts and crossed-out prices."""
    try:
        parts = []
        for text in element.xpath(".//text()"):
            owner = text.getparent()
            if owner is not None and text.is_tail:
                owner = owner.getparent()
            if owner is not None and owner is not element and _hidden(owner, element):
                continue
            parts.append(str(text))
        return " ".join(" ".join(parts).split())
    except (AttributeError, ValueError, TypeError):
        return ""


def _hidden(node: Any, top: Any) -> bool:
    """Inside a script, a style, or a crossed-out price (``<del>``, ``line-through``)."""
    while node is not None and node is not top:
        if node.tag in HIDDEN_TEXT:
            return True
        if "line-through" in (node.get("style") or "").replace(" ", "").lower():
            return True
        node = node.getparent()
    return False


def class_words(element: Any) -> frozenset[str]:
    """The words of an element's class and id (``price-item--sale`` -> price, item, sale;
    ``oldPrice`` -> oldprice, old, price)."""
    get = element.get
    marks = f"{get('class') or ''} {get('id') or ''} {get('data-price-type') or ''}"
    return _words(marks) if not marks.isspace() else _NO_WORDS


_NO_WORDS: frozenset[str] = frozenset()


@lru_cache(maxsize=4096)
def _words(marks: str) -> frozenset[str]:
    # Pages repeat their class names: each string is split once per process.
    words: set[str] = set()
    for token in marks.split():
        words.add(token.lower().replace("-", "").replace("_", ""))
        spaced = re.sub(r"([a-z])([A-Z])", r"\1 \2", token)
        words.update(w.lower() for w in re.split(r"[\s_-]+", spaced) if w)
    return frozenset(words)


def in_aside(element: Any) -> bool:
    """Inside related products, a mini cart, the header, footer or navigation."""
    for ancestor in element.iterancestors():
        tag = ancestor.tag if isinstance(ancestor.tag, str) else ""
        if tag in ("nav", "footer", "header", "aside"):
            return True
        if tag in ("body", "html"):
            return False  # a theme's page-wide classes (``js-wide-navigation``) say nothing
        words = class_words(ancestor)
        if words & _ASIDE_WORDS and not words & _MAIN_WORDS:
            return True
    return False


def distance(a: Any, b: Any) -> int:
    """Steps between two elements through their nearest common ancestor."""
    ancestors_a = [a, *a.iterancestors()]
    depth_a = {id(node): i for i, node in enumerate(ancestors_a)}
    for steps_b, node in enumerate([b, *b.iterancestors()]):
        if id(node) in depth_a:
            return depth_a[id(node)] + steps_b
    return 100
