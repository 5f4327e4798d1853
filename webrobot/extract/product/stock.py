"""Whether a product can be bought, as its page's markup says: a stock message (``In
stock``, ``Ausverkauft``, ``Rupture de stock``... in an element whose class or id says
stock or availability), else the state of the buy button (disabled: out of stock; a
pre-order label; there: in stock).

Pure: no Scrapy, no I/O. :func:`webrobot.extract.product.product` is the entry point.
"""

from __future__ import annotations

import re
from typing import Any

from webrobot.extract.product.elements import element_text, in_aside
from webrobot.extract.product.prices import availability_in_text

_STOCK_CLASS = re.compile(r"stock|availab|inventory|lieferbar|verfuegbar|disponib", re.IGNORECASE)


def stock_message(root: Any) -> str | None:
    """The schema.org availability a stock message on the page states, if any."""
    try:
        elements = root.xpath("//*[@class or @id]")[:5000]
    except (AttributeError, ValueError):
        elements = []
    for element in elements:
        marks = f"{element.get('class', '')} {element.get('id', '')}"
        if _STOCK_CLASS.search(marks) and not in_aside(element):
            text = element_text(element)
            if len(text) <= 200:
                found = availability_in_text(text) or _availability_from_class(marks)
                if found:
                    return found
    return None


def button_availability(buttons: list[Any]) -> str | None:
    """The availability the buy buttons say: a label other than in stock, a disabled
    button (out of stock), a pre-order label; in stock when there is a button."""
    for button in buttons:
        label = element_text(button) + " " + (button.get("value") or "")
        said = availability_in_text(label)
        if said and said != "InStock":
            return said
        disabled = (
            button.get("disabled") is not None or "disabled" in (button.get("class") or "").lower()
        )
        if disabled:
            return "OutOfStock"
        if re.search(r"pre[\s-]?order|vorbestell|précommand", label, re.IGNORECASE):
            return "PreOrder"
    if buttons:
        return "InStock"
    return None


def _availability_from_class(marks: str) -> str | None:
    lowered = marks.lower()
    if re.search(r"out[-_]?of[-_]?stock|outofstock|sold[-_]?out|unavailable", lowered):
        return "OutOfStock"
    if re.search(r"\bin[-_]?stock\b|instock|available", lowered):
        return "InStock"
    return None
