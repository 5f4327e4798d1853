"""One walk of a product page's tree that gathers what the markup readers look up: the
elements with an ``itemprop`` (by name), the elements whose class names a code
(``sku``, ``mpn``) or stock, and the candidates for a buy button (buttons, submit inputs, links
to a cart); and, only for a page that goes on to be read as a product page, its
visible text (no scripts, styles, menus, header or footer), one line per text node.

lxml walks in C; each reader then looks at a few elements instead of searching the
whole tree with its own XPath.

Pure: no Scrapy, no I/O. :func:`webrobot.extract.product.product` is the entry point.
"""

from __future__ import annotations

import contextlib
import re
from typing import Any

from lxml import etree

#: Class or id words of a stock message's element (``stock``, ``availability``...), or
#: of the product's buy box (``buy-box``, ``buybox``: its short lines are stock lines).
STOCK_MARKS = re.compile(
    r"stock|availab|inventory|lieferbar|verfuegbar|disponib|(?P<box>buy[-_]?box)", re.IGNORECASE
)

#: Elements whose text a shopper does not read as the page's (scripts, menus, frame).
_NOT_TEXT = frozenset({"script", "style", "noscript", "template", "nav", "header", "footer"})
_INPUT_BUTTONS = frozenset({"submit", "button", "image"})
#: Elements only (no comments or processing instructions).
_ELEMENTS = etree.Element


class PageWalk:
    """What one walk of ``root`` found (nothing for a tree that cannot be walked). The
    visible text is gathered by a second walk, on the first read of :attr:`lines`: most
    pages of a crawl are no product page and are let go before their text is read."""

    def __init__(self, root: Any) -> None:
        self.root = root
        #: itemprop name -> elements, in document order.
        self.itemprops: dict[str, list[Any]] = {}
        #: class word (``sku``, ``mpn``) -> elements with that exact class token.
        self.coded: dict[str, list[Any]] = {"sku": [], "mpn": []}
        #: Buttons, submit inputs and links whose class or href say cart or buy.
        self.button_candidates: list[Any] = []
        #: Elements whose class or id says stock or availability.
        self.stock_marked: list[Any] = []
        #: Elements whose class or id says buy box.
        self.buy_boxes: list[Any] = []
        self._lines: list[str] | None = None
        with contextlib.suppress(
            TypeError, ValueError, AttributeError
        ):  # a broken tree: what was read
            self._walk(root)

    def _walk(self, root: Any) -> None:
        # One loop, its lookups bound to locals: it runs on every page of a crawl.
        itemprops, coded = self.itemprops, self.coded
        buttons, stock, boxes = self.button_candidates, self.stock_marked, self.buy_boxes
        stock_search = STOCK_MARKS.search
        for element in root.iter(_ELEMENTS):
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
            marked = (cls and stock_search(cls)) or (ident and stock_search(ident))
            if marked:
                (boxes if marked.group("box") else stock).append(element)
            tag = element.tag
            if tag == "button":
                buttons.append(element)
            elif tag == "input":
                if (get("type") or "").lower() in _INPUT_BUTTONS:
                    buttons.append(element)
            elif tag == "a" and (
                (cls and ("cart" in cls or "buy" in cls)) or "cart" in (get("href") or "")
            ):
                buttons.append(element)

    @property
    def lines(self) -> list[str]:
        """The visible text, one line per text node, whitespace collapsed."""
        if self._lines is None:
            self._lines = []
            with contextlib.suppress(TypeError, ValueError, AttributeError):
                self._walk_text(self.root, self._lines)
        return self._lines

    @staticmethod
    def _walk_text(root: Any, lines: list[str]) -> None:
        hidden = 0
        body_seen = False
        for event, element in etree.iterwalk(root, events=("start", "end", "comment", "pi")):
            tag = element.tag
            if not isinstance(tag, str):  # a comment or processing instruction: its tail
                if hidden == 0 and body_seen:
                    _add(lines, element.tail)
                continue
            if event == "start":
                if tag == "body":
                    body_seen = True
                if tag in _NOT_TEXT:
                    hidden += 1
                elif hidden == 0 and body_seen:
                    _add(lines, element.text)
            else:
                if tag in _NOT_TEXT:
                    hidden -= 1
                if hidden == 0 and body_seen and tag != "body":
                    _add(lines, element.tail)


def _add(lines: list[str], text: str | None) -> None:
    if text and not text.isspace():
        lines.append(" ".join(text.split()))
