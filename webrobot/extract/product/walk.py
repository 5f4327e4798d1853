"""One walk of a product page's tree that gathers what the markup readers look up: the
elements with an ``itemprop`` (by name), the elements whose class names a code
(``sku``, ``mpn``) or stock, and the candidates for a buy button (buttons, submit inputs, links
to a cart); and, only for a page that goes on to be read as a product page, its
visible text (no scripts, styles, menus, header or footer), one line per text node.

lxml walks in C; each reader then looks at a few elements instead of searching the
whole tree with its own XPath. Most pages of a crawl sell nothing and are let go on
their buy buttons and on :meth:`PageWalk.may_mark`, which reads the attribute values
alone (no Python object for each element): the walk of every element is made only
for a page that gets past them.

Pure: no Scrapy, no I/O. :func:`webrobot.extract.product.product` is the entry point.
"""

from __future__ import annotations

import contextlib
import re
from typing import Any

from lxml import etree

#: Class or id words of a stock message's element (``stock``, ``availability``...).
_STOCK_WORDS = ("stock", "availab", "inventory", "lieferbar", "verfuegbar", "disponib")
#: A stock message's element, or the product's buy box (``buy-box``, ``buybox``: its
#: short lines are stock lines).
STOCK_MARKS = re.compile("|".join(_STOCK_WORDS) + r"|(?P<box>buy[-_]?box)", re.IGNORECASE)
#: Every class, id and itemprop value of a tree, as plain strings (no element objects).
_MARK_VALUES = etree.XPath(
    "descendant-or-self::*/@class | descendant-or-self::*/@id | descendant-or-self::*/@itemprop",
    smart_strings=False,
)

#: Elements whose text a shopper does not read as the page's (scripts, menus, frame).
_NOT_TEXT = frozenset({"script", "style", "noscript", "template", "nav", "header", "footer"})
_INPUT_BUTTONS = frozenset({"submit", "button", "image"})


class PageWalk:
    """What one walk of ``root`` found (nothing for a tree that cannot be walked). The
    buy button candidates are found by tag name; the elements with an ``itemprop``, a
    code's or a stock message's class and the visible text are gathered by one walk of
    every element, on the first read of any of them: most pages of a crawl are no
    product page and are let go before."""

    def __init__(self, root: Any) -> None:
        self.root = root
        #: Buttons, submit inputs and links whose class or href say cart or buy.
        self.button_candidates: list[Any] = []
        self._itemprops: dict[str, list[Any]] = {}
        self._coded: dict[str, list[Any]] = {"sku": [], "mpn": []}
        self._stock_marked: list[Any] = []
        self._buy_boxes: list[Any] = []
        self._crumbs: list[Any] = []
        self._walked = root is None
        self._lines: list[str] = []
        with contextlib.suppress(TypeError, ValueError, AttributeError):  # a broken tree
            self._find_buttons(root)

    @property
    def itemprops(self) -> dict[str, list[Any]]:
        """itemprop name -> elements, in document order."""
        self._walk_once()
        return self._itemprops

    @property
    def coded(self) -> dict[str, list[Any]]:
        """Class word (``sku``, ``mpn``) -> elements with that exact class token."""
        self._walk_once()
        return self._coded

    @property
    def stock_marked(self) -> list[Any]:
        """Elements whose class or id says stock or availability."""
        self._walk_once()
        return self._stock_marked

    @property
    def buy_boxes(self) -> list[Any]:
        """Elements whose class or id says buy box."""
        self._walk_once()
        return self._buy_boxes

    @property
    def crumbs(self) -> list[Any]:
        """Breadcrumb trails and crumbs: elements whose class says breadcrumb, menus
        whose ``aria-label`` does."""
        self._walk_once()
        return self._crumbs

    def may_mark(self) -> bool:
        """``False`` when no element can be in :attr:`stock_marked` nor have ``price``
        among its ``itemprop`` names: read on the attribute values alone, without the
        walk of every element. ``True`` may still find neither."""
        if self._walked:
            return bool(self._stock_marked or "price" in self._itemprops)
        try:
            values = _MARK_VALUES(self.root)
        except (TypeError, ValueError, AttributeError):
            return True
        if not isinstance(values, list):
            return True
        joined = "\n".join(set(values))
        if joined.isascii():
            # What STOCK_MARKS finds ignoring case, on ASCII text lowered (faster).
            lowered = joined.lower()
            marked = any(word in lowered for word in _STOCK_WORDS)
        else:
            marked = STOCK_MARKS.search(joined) is not None
        return marked or "price" in joined.split()

    def _walk_once(self) -> None:
        if not self._walked:
            self._walked = True
            with contextlib.suppress(TypeError, ValueError, AttributeError):  # a broken tree
                self._walk(self.root)

    def _find_buttons(self, root: Any) -> None:
        buttons = self.button_candidates
        for element in root.iter("button", "input", "a"):  # document order, by tag in C
            tag = element.tag
            get = element.get
            if tag == "button":
                buttons.append(element)
            elif tag == "input":
                if (get("type") or "").lower() in _INPUT_BUTTONS:
                    buttons.append(element)
            else:
                cls = get("class")
                if (cls and ("cart" in cls or "buy" in cls)) or "cart" in (get("href") or ""):
                    buttons.append(element)

    def _walk(self, root: Any) -> None:
        # One loop for the marked elements and the visible text, its lookups bound to
        # locals: a page that gets this far is read as a product page, text included.
        itemprops, coded, stock = self._itemprops, self._coded, self._stock_marked
        boxes, crumbs = self._buy_boxes, self._crumbs
        lines = self._lines
        stock_search = STOCK_MARKS.search
        hidden = 0
        body_seen = False
        for event, element in etree.iterwalk(root, events=("start", "end", "comment", "pi")):
            tag = element.tag
            if not isinstance(tag, str):  # a comment or processing instruction: its tail
                if hidden == 0 and body_seen:
                    _add(lines, element.tail)
                continue
            if event == "end":
                if tag in _NOT_TEXT:
                    hidden -= 1
                if hidden == 0 and body_seen and tag != "body":
                    _add(lines, element.tail)
                continue
            get = element.get
            prop = get("itemprop")
            if prop:
                for name in prop.split():
                    itemprops.setdefault(name, []).append(element)
            cls = get("class")
            ident = get("id")
            if cls and ("sku" in cls or "mpn" in cls):
                for token in cls.split():
                    if token in coded:
                        coded[token].append(element)
            if cls and "readcrumb" in cls:
                crumbs.append(element)
            marked = (cls and stock_search(cls)) or (ident and stock_search(ident))
            if marked:
                (boxes if marked.group("box") else stock).append(element)
            if tag == "body":
                body_seen = True
            if tag in _NOT_TEXT:
                hidden += 1
                if tag == "nav" and "readcrumb" in (get("aria-label") or ""):
                    crumbs.append(element)
            elif hidden == 0 and body_seen:
                _add(lines, element.text)

    @property
    def lines(self) -> list[str]:
        """The visible text, one line per text node, whitespace collapsed."""
        self._walk_once()
        return self._lines


def _add(lines: list[str], text: str | None) -> None:
    if text and not text.isspace():
        lines.append(" ".join(text.split()))
