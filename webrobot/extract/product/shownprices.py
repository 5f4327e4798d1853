"""The price a product page shows in its markup: an ``itemprop=price`` outside any item,
the sale price nearest the buy button (never the crossed-out, was, compare-at or unit
price beside it), a price with its currency sign standing alone next to the button.

Pure: no Scrapy, no I/O. :func:`webrobot.extract.product.product` is the entry point.
"""

from __future__ import annotations

import re
from itertools import islice
from typing import TYPE_CHECKING, Any

from webrobot.extract.product.elements import (
    HIDDEN_TEXT,
    class_words,
    distance,
    element_text,
    in_aside,
)
from webrobot.extract.product.prices import price_amount

if TYPE_CHECKING:
    from webrobot.extract.product.context import ProductContext

_PRICE_CLASS = re.compile(
    r"price|preis|prix|precio|preco|prezzo|prijs|pris|cena|amount", re.IGNORECASE
)
#: Class words of a price that is not the one to pay: always, or (weak) only when a
#: sale price stands beside it (Shopify's ``price-item--regular`` is the price when
#: nothing is on sale).
_OLD_WORDS = frozenset({
    "old", "was", "compare", "compareat", "strike", "strikethrough", "crossed", "rrp", "msrp",
    "uvp", "before", "previous", "oldprice", "saving", "savings", "save", "discount", "percent",
    "unit", "perunit", "installment", "installments", "monthly", "shipping", "rating", "tax",
    "vat", "label", "excl", "excluding",
})  # fmt: skip
_WEAK_OLD_WORDS = frozenset(
    {"regular", "list", "listprice", "original", "retail", "regularprice", "reference"}
)
_SALE_WORDS = frozenset({
    "sale", "special", "final", "current", "now", "promo", "new", "offer", "actual", "finalprice",
    "saleprice", "specialprice", "pricenew", "ourprice", "last",
})  # fmt: skip

_PRICE_TEXT_MAX = 80

#: Words around an amount that make it something else than the price to pay.
_NOT_THE_PRICE = re.compile(
    r"tax|excl|inkl|incl|shipping|delivery|versand|livraison|envío|save|was\b|rrp|msrp|uvp|%|"
    r"item\(s\)|items?\b|total|/\s*(?:month|mo|kg|l|m)\b",
    re.IGNORECASE,
)


def itemprop_price(elements: list[Any], ctx: ProductContext) -> tuple[str | None, str | None]:
    """The price of the first ``itemprop=price`` element (of ``elements``) that is not
    an old price, and its currency."""
    for element in elements:
        if in_aside(element) or _is_old_price(element):
            continue
        raw = element.get("content") or element.get("value")
        if raw:
            price = price_amount(raw)
            sign = ctx.price_text(element_text(element))[1] if not raw[:1].isdigit() else None
        else:
            text = element_text(element)[:_PRICE_TEXT_MAX]
            amount, sign = ctx.price_text(text)
            price = price_amount(amount) if amount is not None else None
        if price is not None:
            return price, ctx.currency(sign or "")
    return None, None


def shown_price(root: Any, anchor: Any, ctx: ProductContext) -> tuple[str | None, str | None]:
    """The sale price shown nearest the buy button: Magento's ``data-price-amount``
    of the final price, an element whose class says price, not an old one; nearest
    ``anchor`` (the buy button, else the heading) when there is one."""
    try:
        elements = root.xpath(
            "//*[@data-price-type='finalPrice'][@data-price-amount]"
            " | //*[@data-product-price] | //*[@data-price]"
            " | //*[contains(translate(@class, 'PRICE', 'price'), 'price')"
            " or contains(translate(@id, 'PRICE', 'price'), 'price')"
            " or contains(@class, 'preis') or contains(@class, 'prix') or contains(@class, 'precio')"
            " or contains(@class, 'preco') or contains(@class, 'preço') or contains(@class, 'prezzo')"
            " or contains(@class, 'prijs') or contains(@class, 'pris') or contains(@class, 'cena')"
            " or contains(@class, 'fiyat') or contains(@class, 'hinta')"
            " or contains(@class, 'amount') or contains(@class, 'money')]"
        )[:300]
    except (AttributeError, ValueError):
        return None, None
    best: tuple[float, int] | None = None
    chosen: tuple[str | None, str | None] = (None, None)
    for order, element in enumerate(elements):
        if in_aside(element) or _is_old_price(element):
            continue
        data = (
            element.get("data-price-amount")
            or element.get("data-product-price")
            or element.get("data-price")
        )
        sign = None
        if data and re.fullmatch(r"\s*\d+(?:\.\d+)?\s*", data):
            price = price_amount(data)
            text = element_text(element)[:_PRICE_TEXT_MAX]
            sign = ctx.price_text(text)[1]
        else:
            text = _own_price_text(element)
            if not text or len(text) > _PRICE_TEXT_MAX or not re.search(r"\d", text):
                continue
            amount, sign = ctx.price_text(text)
            if amount is None or amount == 0:
                continue
            price = price_amount(amount)
        if price is None:
            continue
        score = 0.0
        parent = element.getparent()
        near = class_words(element) | (class_words(parent) if parent is not None else set())
        if (
            near & _SALE_WORDS
            or element.tag == "ins"
            or (parent is not None and parent.tag == "ins")
        ):
            score += 2
        if sign:
            score += 1
        if anchor is not None:
            score -= distance(anchor, element) / 4
        if best is None or (score, -order) > best:
            best = (score, -order)
            chosen = (price, ctx.currency(sign or ""))
    return chosen


def price_near_button(anchor: Any, ctx: ProductContext) -> tuple[str | None, str | None]:
    """A price with its currency standing alone in an element without a price class
    (``<h2>$110.00</h2>``), the nearest to the buy button (``anchor``), looking a little
    further out one level at a time."""
    region = anchor
    for _ in range(4):
        region = region.getparent()
        if region is None:
            return None, None
        best: tuple[int, str, str | None] | None = None
        for element in islice(region.iter(), 400):
            if not isinstance(element.tag, str) or element.tag in HIDDEN_TEXT:
                continue
            text = element_text(element)
            if not 1 < len(text) <= 30 or not re.search(r"\d", text) or _NOT_THE_PRICE.search(text):
                continue
            amount, sign = ctx.price_text(text)
            if amount is None or amount <= 0 or sign is None or _is_old_price(element):
                continue
            price = price_amount(amount)
            if price is None:
                continue
            steps = distance(anchor, element)
            if best is None or steps < best[0]:
                best = (steps, price, ctx.currency(sign))
        if best is not None:
            return best[1], best[2]
    return None, None


#: A price's label at the start of a line (``Price:``, ``Preis``, ``最低價``); never a
#: list, was or original price's (those start with their own word).
_PRICE_LABEL = re.compile(
    r"^(?:(?:our|your|sale|special|now|today'?s|unit)\s+)?(?:price|preis|unser\s+preis|prix|precio|"
    r"preço|prezzo|prijs|pris|cena|цена|ціна|fiyat|hinta|ár|preț|τιμή|מחיר|價格|售價|特價|優惠價|"
    r"最低價|价格|售价|特价|価格|販売価格|税込価格|가격|판매가)\s*[:：]?\s*(?P<rest>.*)$",
    re.IGNORECASE,
)


def labelled_price(lines: list[str], ctx: ProductContext) -> tuple[str | None, str | None]:
    """The amount after the first price label in ``lines`` (the page's text near the
    product, one line per text node), on its line or the next two (``最低價$`` ``99``)."""
    for i, line in enumerate(lines):
        if len(line) > 60:
            continue
        match = _PRICE_LABEL.match(line)
        if match is None:
            continue
        text = " ".join([match["rest"], *lines[i + 1 : i + 3]])[:_PRICE_TEXT_MAX]
        head = text[: max(1, text.find(next((c for c in text if c.isdigit()), "")) + 12)]
        if not re.search(r"\d", head) or _NOT_THE_PRICE.search(head):
            continue
        amount, sign = ctx.price_text(head)
        if amount is None or amount <= 0:
            continue
        return price_amount(amount), ctx.currency(sign or "")
    return None, None


def _own_price_text(element: Any) -> str:
    """The price text of an element; for a WooCommerce-style ``<del>old</del><ins>new</ins>``
    the new one."""
    try:
        ins = element.xpath(".//ins")
    except (AttributeError, ValueError):
        ins = []
    if ins:
        return element_text(ins[0])
    try:
        children_with_price = [
            c for c in element.iterchildren()
            if isinstance(c.tag, str) and _PRICE_CLASS.search(c.get("class") or "")
        ]  # fmt: skip
    except (AttributeError, ValueError):
        children_with_price = []
    if children_with_price:
        return ""  # its children are read on their own
    return element_text(element)


def _is_old_price(element: Any) -> bool:
    """A crossed-out, was or compare-at price (or a saving, a unit price, a label); a
    regular or list price only when a sale price stands beside it."""
    node = element
    for level in range(3):
        if node is None or not isinstance(node.tag, str):
            return False
        if node.tag in ("del", "s", "strike"):
            return True
        words = class_words(node)
        if words & _SALE_WORDS:
            return False
        if words & _OLD_WORDS:
            return True
        if words & _WEAK_OLD_WORDS and _has_sale_beside(node):
            return True
        if "line-through" in (node.get("style") or "").replace(" ", "").lower():
            return True
        if level == 0 and node.tag in ("body", "html"):
            return False
        node = node.getparent()
    return False


def _has_sale_beside(node: Any) -> bool:
    container = node.getparent()
    for _ in range(2):
        if container is None:
            return False
        for other in islice(container.iter(), 80):
            if (
                other is not node
                and isinstance(other.tag, str)
                and (other.tag == "ins" or class_words(other) & _SALE_WORDS)
            ):
                return True
        container = container.getparent()
    return False
