"""Whether a product can be bought, as its page's markup says: a stock message (``In
stock``, ``Ausverkauft``, ``Rupture de stock``... in an element whose class or id says
stock or availability), else the state of the buy button (disabled: out of stock; a
pre-order label; there: in stock).

Pure: no Scrapy, no I/O. :func:`webrobot.extract.product.product` is the entry point.
"""

from __future__ import annotations

import json
import re
from itertools import islice
from typing import Any

from webrobot.extract.product.elements import class_words, distance, element_text, in_aside
from webrobot.extract.product.prices import availability_in_text
from webrobot.extract.product.stockwords import DELIVERY_WORDS, NOTIFY_WORDS

#: A promise to tell the shopper later: said of a size or variant that is gone, not of
#: the product (``35 - We'll let you know when it's in stock``).
_NOTIFY = re.compile(
    r"let\s+you\s+know\s+when|notify\s+me|e-?mail\s+me\s+when|back\s+in\s+stock(?!\s+soon)|"
    r"benachrichtig|m['’]avertir|m['’]alerter|av[íi]same|avise-me|avvisami|powiadom|"
    + NOTIFY_WORDS,
    re.IGNORECASE,
)
#: A delivery time (``Ships in 3 days``, ``Na objednanie do 20 prac. dní``): it can be ordered.
_DELIVERY = re.compile(
    r"\b(?:ships?|dispatch(?:ed|es)?|deliver(?:y|ed)|lieferzeit|lieferbar\s+in|versandfertig|"
    r"exp[ée]di|livr[ée]|env[íi]o|entrega|consegna|dodanie|wysyłka|dod[áa]n[íi]|doru[čc]en|"
    r"na\s+objedn[áa]n|na\s+zam[óo]wienie|на\s+заказ|доставк|"
    # Shopware's delivery lines ("Verzendklaar, verwachte levertijd: 1-3 werkdagen").
    r"dostaw[ay]|levertijd|verzend|leveringstid|leveranstid|dodac[íi]\s+lh[ůu]t|teslim|toimitusaika)|"
    + DELIVERY_WORDS,
    re.IGNORECASE,
)
#: Class words of a size or variant picker: its stock words are the variant's.
_VARIANT_WORDS = frozenset({
    "size", "sizes", "swatch", "swatches", "variant", "variants", "variation", "variations",
    "option", "options", "sizeselector", "sizelist", "selector", "picker", "dropdown",
})  # fmt: skip


def stock_message(marked: list[Any], anchor: Any) -> str | None:
    """The schema.org availability the stock message nearest ``anchor`` (the buy button
    or the product's heading; ``None``: the first) states, among the ``marked`` elements
    (those whose class or id says stock), leaving out those of related products and of a
    size or variant picker."""
    best: tuple[int, int, str] | None = None
    for order, element in enumerate(marked[:300]):
        if in_aside(element) or _in_variant(element):
            continue
        text = element_text(element)
        if len(text) > 200:
            continue
        found = stock_line(text)
        if found is None and not re.search(r"\w{3}", text):
            marks = f"{element.get('class', '')} {element.get('id', '')}"
            found = _availability_from_class(marks)  # an icon or a badge: its class
        if found is None:
            continue
        steps = distance(anchor, element) if anchor is not None else 0
        if best is None or (steps, order) < best[:2]:
            best = (steps, order, found)
        if anchor is None:
            break
    return best[2] if best else None


def buy_box_line(boxes: list[Any]) -> str | None:
    """The availability a short line of the product's buy box states (``Out of stock``
    in a flag of ``<div class="product-buy-box">``): the box is the product's own, so
    its stock words are, outside a size or variant picker."""
    for box in boxes[:5]:
        if in_aside(box):
            continue
        for element in islice(box.iter(), 300):
            if (
                not isinstance(element.tag, str)
                or element.tag in ("script", "style", "option")
                or len(element) > 2  # a line, not a block of them
            ):
                continue
            text = element_text(element)
            if not text or len(text) > 80:
                continue
            found = stock_line(text)
            if found is not None and not _in_variant(element):
                return found
    return None


#: The availabilities that say the product cannot be had now.
UNBUYABLE = frozenset({"OutOfStock", "SoldOut", "Discontinued"})


def can_be_ordered(term: str | None) -> str | None:
    """A schema.org availability (``LimitedAvailability``, ``PreOrder``, ``SoldOut``...)
    as the shopper's question, can it be ordered: ``InStock`` or ``OutOfStock``, the two
    values product feeds and extraction services give."""
    if term is None:
        return None
    return "OutOfStock" if term in UNBUYABLE else "InStock"


def unbuyable_button(candidates: list[Any]) -> str | None:
    """The availability a disabled button labelled with stock words says (``Sold out``,
    ``Unavailable`` on a greyed-out button), when it says the product cannot be had;
    a size's or variant's button (in a picker) says nothing of the product."""
    for button in candidates[:300]:
        if button.get("disabled") is None and button.get("aria-disabled") != "true":
            continue
        label = element_text(button) or (button.get("value") or "")
        if len(label) > 40:
            continue
        found = stock_line(label)
        if found in UNBUYABLE and not in_aside(button) and not _in_variant(button):
            return found
    return None


def stock_line(text: str) -> str | None:
    """The availability a stock line says (``In stock``, ``Only 3 left``, ``Sold out``,
    ``Ships in 2 days``), ``None`` for a promise to notify or a line that says none. A
    count of none (``0 in stock``, ``재고 0개``) is out of stock, whatever the words (a
    delivery time of none, ``Ships in 0 days``, is no count)."""
    if _NOTIFY.search(text):
        return None
    found = availability_in_text(text)
    if (
        found in ("InStock", "LimitedAvailability")
        and _counts_none(text)
        and not _DELIVERY.search(text)
    ):
        return "OutOfStock"
    if found is None and _DELIVERY.search(text) and re.search(r"\d", text):
        return "InStock"
    return found


#: The numbers of a line, a decimal or grouped one (``0.00``, ``1,000``) as one.
_NUMBER = re.compile(r"\d+(?:[.,:]\d+)*")


def _counts_none(text: str) -> bool:
    """Whether the only numbers ``text`` holds are whole zeros (``0 in stock``, ``Còn 0
    hàng``): a count of none, where a price (``0.00``) or a range (``0-2 days``) is not."""
    numbers = _NUMBER.findall(text)
    return bool(numbers) and all(n.isdigit() and int(n) == 0 for n in numbers)


def _in_variant(element: Any) -> bool:
    """Inside a size or variant picker (a ``<select>``, an ``<option>``, a swatch list)."""
    for level, node in enumerate([element, *element.iterancestors()]):
        if level > 5 or node.tag in ("body", "form"):
            return False
        if node.tag in ("option", "select") or class_words(node) & _VARIANT_WORDS:
            return True
    return False


def button_availability(buttons: list[Any]) -> str | None:
    """The availability the buy buttons say: a label other than in stock, a disabled
    button (out of stock, unless it waits for a size or variant to be chosen), a
    pre-order label; in stock when there is a button."""
    for button in buttons:
        label = element_text(button) + " " + (button.get("value") or "")
        said = availability_in_text(label)
        if said and said != "InStock":
            return said
        disabled = (
            button.get("disabled") is not None or "disabled" in (button.get("class") or "").lower()
        )
        if disabled and not waits_for_a_choice(button):
            return "OutOfStock"
        if re.search(r"pre[\s-]?order|vorbestell|précommand", label, re.IGNORECASE):
            return "PreOrder"
    if buttons:
        return "InStock"
    return None


def waits_for_a_choice(button: Any) -> bool:
    """Whether a disabled buy button waits for a size or variant to be chosen: a
    ``<select>`` or a picker (size, swatch, variant, option) in its form or buy box."""
    region = button
    for level in range(5):
        parent = region.getparent()
        if parent is None:
            break
        region = parent
        if region.tag == "form" or level == 4:
            break
    for element in islice(region.iter(), 400):
        if not isinstance(element.tag, str) or element is button:
            continue
        if element.tag == "select" or class_words(element) & _VARIANT_WORDS:
            return True
    return False


def _availability_from_class(marks: str) -> str | None:
    lowered = marks.lower()
    if re.search(r"out[-_]?of[-_]?stock|outofstock|sold[-_]?out|unavailable", lowered):
        return "OutOfStock"
    if re.search(r"\bin[-_]?stock\b|instock|available", lowered):
        return "InStock"
    return None


def variants_in_stock(root: Any) -> bool | None:
    """Whether one of the product's variants can be bought now, as its buy form's data
    says (WooCommerce's ``data-product_variations``: each variant's ``is_in_stock`` and
    ``backorders_allowed``); ``None`` where no buy form carries such data."""
    try:
        forms = root.xpath("//form[@data-product_variations]")[:2]
    except (AttributeError, ValueError):
        return None
    for form in forms:
        if in_aside(form):
            continue
        try:
            variants = json.loads(form.get("data-product_variations") or "")
        except ValueError:
            continue
        if not isinstance(variants, list) or not variants:
            continue
        return any(
            isinstance(v, dict) and v.get("is_in_stock") is True and not v.get("backorders_allowed")
            for v in variants
        )
    return None
