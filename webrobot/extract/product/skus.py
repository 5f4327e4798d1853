"""Which code is the product's sku when a page holds several: its structured data's, the
one the page shows (an element whose class, id or test hook names it: ``<span
data-qa-qualifier="product-reference">1002/710</span>``, ``<p class="product__sku">``),
its analytics tags' (:mod:`~webrobot.extract.product.datalayer`), the buy form's
``data-product-sku``, its URL's.

A code the product's URL carries (``/lamp-1589482272.html``, ``/itm/302474151804``,
``/dp/B07PXGQC1Q``) is the shop's own name for the product and wins: structured data's
sku is often a variant's or the EAN. Else what a shopper reads wins: a structured sku the
page nowhere shows (a variant's database code, ``84518927-040-35``) gives way to the code
the page shows in an element of the product's box (:meth:`~webrobot.extract.product.markup.Markup.product_box`: its
heading and buy button, never a carousel) marked as the product's code, or labelled in
its details.
A structured sku with a variant's suffix (``MKI6IKW1N4-1``) is cut to the product's code
when the URL or the analytics tags name the product by it. Where nothing gives a code,
the URL's code, then a marked element's, then the buy form's ``data-product-sku``, then
the maker's code the details show (``Model``) stand for it. The analytics tags' code
never stands alone: on shops nobody tuned on, it gave codes the annotators did not see
on the page.

Pure: no Scrapy, no I/O. :func:`webrobot.extract.product.product` is the entry point.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import cache
from typing import TYPE_CHECKING, Any

from webrobot.extract.headtags import clean_text
from webrobot.extract.product.codes import SKU_LABEL, url_code
from webrobot.extract.product.datalayer import data_layer_code, inline_scripts, script_code
from webrobot.extract.product.details import code_value, is_label, unlabelled
from webrobot.extract.product.elements import element_text, in_aside

if TYPE_CHECKING:
    from webrobot.extract.product.context import ProductContext
    from webrobot.extract.product.markup import Markup

#: The words of a class, id or test hook that name the product's own code
#: (``product-reference``, ``product__sku``, ``productCode``, ``item-number``).
_CODE_MARK = re.compile(
    r"(?:^|[-_\s])(?:sku|product[-_]?(?:reference|ref|code|number|no)|reference|"
    r"item[-_]?(?:number|no|code)|article[-_]?(?:number|no|code)|style[-_]?(?:number|no|code))"
    r"(?:$|[-_\s])|(?:product|item|article|style)(?:Reference|Ref|Code|Number|Sku)\b|Sku\b",
    re.IGNORECASE,
)
#: Elements whose class, id or test hook may name a code (one search of the tree, run
#: only when the page's code is in question).
_MARKED = (
    "descendant-or-self::*[contains(@class, 'sku') or contains(@class, 'Sku') or contains(@class, 'SKU')"
    " or contains(@class, 'eference') or contains(@class, 'roduct-code')"
    " or contains(@class, 'roductCode') or contains(@class, 'roduct_code')"
    " or contains(@class, 'tem-number') or contains(@class, 'rticle-number')"
    " or contains(@class, 'tyle-number')"
    " or contains(@id, 'sku') or contains(@id, 'eference') or contains(@id, 'roductCode')"
    " or @data-qa-qualifier or @data-qa or @data-testid or @data-test or @data-auto]"
)
_MARK_ATTRIBUTES = (
    "class",
    "id",
    "data-qa-qualifier",
    "data-qa",
    "data-testid",
    "data-test",
    "data-auto",
)
#: Marked elements looked at, at most (the product's own come first on a product page).
_MAX_MARKED = 400


def shown_code(root: Any) -> str | None:
    """The code an element of ``root`` (the product's box: a page's related products
    are outside it) marked as the product's code shows (outside related products,
    menus, header and footer), or ``None``."""
    try:
        elements = root.xpath(_MARKED)[:_MAX_MARKED]
    except (AttributeError, ValueError):
        return None
    for element in elements:
        marks = " ".join(filter(None, (element.get(a) for a in _MARK_ATTRIBUTES)))
        if not _CODE_MARK.search(marks) or len(element) > 6 or in_aside(element):
            continue
        text = clean_text(element_text(element))
        if not text or len(text) > 60:
            continue
        match = SKU_LABEL.search(text)
        value = code_value("sku", match["v"] if match else unlabelled(text))
        if value and not is_label(value) and script_code(value):
            return value
    return None


def page_sku(sku: str | None, ctx: ProductContext, markup: Markup | None) -> str | None:
    """The product's sku, from the ``sku`` structured data and the markup readers gave
    (see the module's doc)."""
    root = markup.root if markup is not None else None
    # The tree is searched for marked codes once, and only when a code is in question.
    shown = cache(lambda: shown_code(markup.product_box()) if markup is not None else None)
    own = _url_code(ctx)
    if sku and own and own.casefold() != sku.casefold() and not _labelled(sku, markup, shown):
        return own
    if sku:
        sku = _product_code_of_page(sku, ctx, root)
        if markup is not None and not _shown(sku, ctx, markup):
            other = shown() or markup.details().get("sku")
            if other and other != sku:
                return other
        elif markup is not None and sku.casefold() not in markup.visible_text().casefold():
            # Only the URL carries it: the code the page labels as its own is the one a
            # shopper reads (a marketplace's listing number beside its catalogue's).
            other = markup.details().get("sku") or markup.crumb_code()
            if other and other.casefold() != sku.casefold():
                return other
        return sku
    return (
        own
        or shown()
        or (_form_sku(markup) if markup is not None else None)
        # A shop that shows no code of its own names the product by the maker's
        # (``Model``, ``Part Number`` in its details).
        or (markup.details().get("mpn") if markup is not None else None)
    )


def _labelled(sku: str, markup: Markup | None, shown: Callable[[], str | None]) -> bool:
    """Whether the page labels ``sku`` as its code (``SKU: LMP-1`` in its details) or
    shows it in an element marked as the product's code."""
    if markup is None:
        return False
    return markup.details().get("sku") == sku or shown() == sku


def _shown(sku: str, ctx: ProductContext, markup: Markup) -> bool:
    """Whether the page shows ``sku`` (in its visible text) or its URL's path carries it
    (a query's ``?v1=84518927`` names a variant, not the product)."""
    folded = sku.casefold()
    urls = " ".join(u for u in ctx.page_urls if u).casefold()
    return folded in urls or folded in markup.visible_text().casefold()


_VARIANT = re.compile(r"(?P<head>[A-Za-z0-9]{5,}(?:[-_][A-Za-z0-9]+)*?)[-_.][A-Za-z0-9]{1,3}")


def _product_code_of_page(sku: str, ctx: ProductContext, root: Any) -> str:
    """The product's own code where structured data gives a variant's: ``MKI6IKW1N4-1``
    -> ``MKI6IKW1N4`` when the page's URL, or its analytics tags, name the product by
    the shorter code."""
    match = _VARIANT.fullmatch(sku)
    if match is None:
        return sku
    urls = " ".join(u for u in (ctx.url, *ctx.page_urls) if u).casefold()
    head = match["head"].casefold()
    if head in urls and sku.casefold() not in urls:
        return match["head"]
    if root is not None:
        tagged = data_layer_code(inline_scripts(root))
        if (
            tagged
            and tagged.casefold() != sku.casefold()
            and sku.casefold().startswith(tagged.casefold())
        ):
            return tagged
    return sku


def _form_sku(markup: Markup) -> str | None:
    """The ``data-product-sku`` (or ``data-sku``) the buy button's form or box carries:
    Magento's and BigCommerce's add-to-cart forms name the product so."""
    for button in markup.buttons[:1]:
        for node in [button, *list(button.iterancestors())[:6]]:
            for attribute in ("data-product-sku", "data-sku"):
                value = script_code(node.get(attribute) or "")
                if value and code_value("sku", value):
                    return value
    return None


def _url_code(ctx: ProductContext) -> str | None:
    """The code the page's canonical URL (else its own) ends with: where a shop prints
    no code, its product URLs still carry one (``/lamp-1589482272.html``)."""
    canonical = ctx.tags.links.get("canonical", [])
    return url_code(canonical[0] if canonical else ctx.url)
