"""What a product page shows when its structured data says too little: buy buttons,
``itemprop`` attributes outside any item, the heading, the brand, the currency the page
names for itself; the price (:mod:`webrobot.extract.product.shownprices`), the availability
(:mod:`webrobot.extract.product.stock`) and the labelled codes
(:mod:`webrobot.extract.product.codes`) read from the same tree. Whether a page without a
structured product is a product page at all is decided here too.

Pure: no Scrapy, no I/O. :func:`webrobot.extract.product.product` is the entry point.
"""

from __future__ import annotations

import re
from typing import Any

from webrobot.extract.headtags import clean_text, type_names
from webrobot.extract.product.codes import (
    GTIN_KEYS,
    MPN_LABEL,
    SKU_LABEL,
    gtin_digits,
    labelled_code,
    labelled_gtin,
    product_code,
)
from webrobot.extract.product.context import FIELDS, ProductContext
from webrobot.extract.product.details import crumb_code, labelled_codes, labels_one_sku
from webrobot.extract.product.elements import class_words, element_text, in_aside
from webrobot.extract.product.nodes import PRODUCT_TYPES
from webrobot.extract.product.prices import availability
from webrobot.extract.product.shownprices import (
    itemprop_price,
    labelled_price,
    price_near_button,
    shown_price,
)
from webrobot.extract.product.stock import (
    UNBUYABLE,
    button_availability,
    buy_box_line,
    stock_message,
    unbuyable_button,
    variants_in_stock,
    waits_for_a_choice,
)
from webrobot.extract.product.stockwords import BUY_WORDS, nfc
from webrobot.extract.product.walk import PageWalk

#: More buy buttons than this, with no structured product, is a listing.
MAX_BUY_BUTTONS = 3
#: Item types whose ``itemprop`` values are the product's own.
_OWN_ITEM_TYPES = frozenset({
    *PRODUCT_TYPES, "Offer", "AggregateOffer", "Brand", "PriceSpecification",
    "UnitPriceSpecification", "Organization",
})  # fmt: skip

BUY_LABEL = re.compile(
    r"add[\s_-]*to[\s_-]*(?:shopping[\s_-]*)?(?:cart|bag|basket|trolley)|addtocart|buy[\s_-]*(?:it[\s_-]*)?now|"
    r"in\s+den\s+(?:warenkorb|einkaufswagen)|warenkorb|ajouter\s+au\s+panier|añadir\s+al\s+carrito|"
    r"agregar\s+al\s+carrito|adicionar\s+(?:ao|à)\s+(?:carrinho|sacola)|comprar(?:\s+agora)?|"
    r"aggiungi\s+al\s+carrello|in\s+(?:de\s+)?winkel(?:wagen|mand)|lägg\s+i\s+varukorg|"
    r"læg\s+i\s+kurv|legg\s+i\s+handlekurv|do\s+koszyka|カートに入れる|カートに追加|加入购物车|立即购买|"
    r"do\s+ko[šs][íi]ku|do\s+ko[šs][íi]ka|v\s+корзину|в\s+корзину|до\s+кошика|adaug[ăa]\s+[îi]n\s+co[șs]|în\s+co[șs]|kos[áa]rba|"
    r"sepete\s+ekle|ostoskoriin|lisää\s+ostoskoriin|στο\s+καλάθι|הוסף\s+לסל|加入購物車|立即購買|"
    r"カートへ|장바구니|"
    r"pre[\s-]?order\s+now|vorbestellen|précommander|"
    # More of the platforms' own buy buttons (Shopify's Dawn, Magento, Shopware, Sylius, Spree).
    r"aan\s+(?:de\s+)?winkelwagen\s+toevoegen|toevoegen\s+aan\s+(?:de\s+)?winkelwagen|"
    r"læg\s+i\s+indkøbs(?:kurv|vogn)|lägg\s+till\s+i\s+(?:varukorg|kundvagn)|lägg\s+i\s+kundvagn|"
    r"添加到(?:购物车|購物車)|a\s+kosárhoz|"
    r"do\s+nákupního\s+košíku|tilføj\s+til\s+(?:indkøbs)?kurv|a\s+la\s+cesta|nel\s+carrello|"
    r"no\s+carrinho|sepetine\s+ekle|放[进入]购物车|加到(?:购物车|購物車)|lisää\s+koriin|у\s+кошик|"
    # Catalan, with its verb: a header's "Anar a la cistella" is a cart link.
    r"afeg(?:eix|ir|iu)\s+a\s+la\s+cistella|" + BUY_WORDS,
    re.IGNORECASE,
)
_BUY_CLASS = re.compile(
    r"add[-_]?to[-_]?(?:cart|bag|basket)|addtocart|single_add_to_cart|btn[-_]cart|"
    r"product-form__(?:submit|cart)|buy[-_]?button|tocart|add-to-cart|product-add",
    re.IGNORECASE,
)

_BRAND_LABEL = re.compile(
    r"\b(?:Brand|Marke|Marque|Marca|Merk|Märke|Hersteller|Manufacturer|Fabricant|Fabricante)"
    r"[ \t]*(?::[ \t]*\n?|\n)[ \t]*(?P<v>[^\n|:]{1,60})",
    re.IGNORECASE,
)

#: What stands between a page's own title and the shop's name (``Mug | Hollow Oak``).
SEPARATORS = (" | ", " - ", " – ", " — ", " :: ", " » ", " · ")


def title_without_site(title: str) -> str:
    """A document title without a short trailing site part (``Pan 26cm | Kitchen Tokyo``)."""
    for separator in SEPARATORS:
        head, found, tail = title.rpartition(separator)
        if found and head.strip() and len(tail) <= 40 and len(head) >= len(tail):
            return head.strip()
    return title


#: Attributes of a button that opens a drawer, a dialog or a menu.
_PANEL_ATTRIBUTES = ("data-bs-toggle", "data-toggle", "aria-controls", "aria-haspopup")


def _opens_panel(element: Any) -> bool:
    """A button that opens a panel (the cart's drawer on every page of a shop, a menu):
    a cart's class on it names the cart it shows, not a product it buys. A button that
    submits a form adds to the cart, whatever panel it opens after (Shopify's Dawn marks
    its buy button ``aria-haspopup="dialog"`` for the cart's notice)."""
    return any(element.get(name) for name in _PANEL_ATTRIBUTES) and not _submits(element)


def _submits(element: Any) -> bool:
    """A submit button: ``type="submit"``, or a ``<button>`` of no other type in a form."""
    kind = (element.get("type") or "").strip().casefold()
    if kind:
        return kind == "submit"
    return element.tag == "button" and any(a.tag == "form" for a in element.iterancestors())


def _in_carousel(element: Any) -> bool:
    """Inside a carousel: a strip of product tiles, whose buy buttons are other
    products' (a product's own buy button never scrolls away with its tiles)."""
    for ancestor in element.iterancestors():
        if ancestor.tag in ("body", "html"):
            return False
        if "carousel" in class_words(ancestor):
            return True
    return False


class Markup:
    """What the product page shows: price elements, buy buttons, stock messages, labels."""

    def __init__(self, root: Any, ctx: ProductContext) -> None:
        self.root = root
        self.ctx = ctx
        self.walk = PageWalk(root)
        self.buttons = self._buy_buttons()
        #: The availability a stock message on the page states, if any.
        self.stock_message: str | None = None

    def _buy_buttons(self) -> list[Any]:
        found: list[Any] = []
        for element in self.walk.button_candidates[:500]:
            if in_aside(element):
                continue
            label = " ".join(
                filter(None, [element_text(element)[:80], element.get("value"), element.get("title"),
                              element.get("aria-label"), element.get("name")])
            )  # fmt: skip
            classes = " ".join(
                filter(None, [element.get("class"), element.get("id"), element.get("name")])
            )
            if BUY_LABEL.search(nfc(label)) or (
                _BUY_CLASS.search(classes) and not _opens_panel(element)
            ):
                found.append(element)
        if len(found) > MAX_BUY_BUTTONS:  # a listing's, or other products' in a carousel
            found = [b for b in found if not _in_carousel(b)]
        return found

    def has_evidence(self) -> bool:
        """Whether the page may be a product page at all: a buy button (not a listing's
        many), an ``itemprop=price`` or a stock message's element."""
        if len(self.buttons) > MAX_BUY_BUTTONS:
            return self.labels_one_code()
        if self.buttons:
            return True
        # Most pages of the web: read on the attribute values, without the walk.
        if not self.walk.may_mark():
            return False
        return bool(self._itemprop("price") or self.walk.stock_marked)

    def labels_one_code(self) -> bool:
        """More buy buttons than a product page shows (other products', in strips the
        page does not mark as such), yet the text labels exactly one shop's code, as a
        product's details do (a listing labels one for each product): a product page."""
        return bool(self.details().get("sku")) and labels_one_sku(self._text().split("\n"))

    def looks_like_product_page(self, fields: dict[str, Any]) -> bool:
        """A price, and one buy button, an ``itemprop=price`` or a stock message."""
        if fields["price"] is None:
            # A product whose price is shown in a way not read: one buy button, and the
            # breadcrumb's last crumb (the page itself) names it by its code.
            return self.shows_unavailable_product(fields) or bool(
                len(self.buttons) == 1 and fields["sku"] and self.crumb_code() == fields["sku"]
            )
        if len(self.buttons) > MAX_BUY_BUTTONS:
            return self.labels_one_code()
        return bool(self.buttons or self._itemprop("price") or self.stock_message)

    def fields(self, wanted: frozenset[str] | set[str] | None = None) -> dict[str, Any]:
        """The product fields the markup gives (``None`` where it gives none); only
        those of ``wanted`` (all when ``None``) are read: what structured data already
        gave costs nothing."""
        want = set(FIELDS) if wanted is None else set(wanted)
        out: dict[str, Any] = dict.fromkeys(want)
        if want & {"price", "currency"}:
            out["price"], out["currency"] = self._price()
        if "availability" in want:
            out["availability"] = self._availability()
        if "name" in want:
            out["name"] = self._itemprop_text("name")
        if "gtin" in want:
            gtin = None
            for key in GTIN_KEYS:
                gtin = gtin_digits(self._itemprop_text(key))
                if gtin:
                    break
            out["gtin"] = gtin or self.details().get("gtin") or labelled_gtin(self._text())
        if "sku" in want:
            out["sku"] = (
                product_code(self._itemprop_text("sku"))
                or labelled_code(self.walk.coded["sku"], SKU_LABEL, lambda: "")
                or self.details().get("sku")
                or self.crumb_code()
                or labelled_code([], SKU_LABEL, self._text)
            )
        if "mpn" in want:
            out["mpn"] = (
                product_code(self._itemprop_text("mpn"))
                or labelled_code(self.walk.coded["mpn"], MPN_LABEL, lambda: "")
                or self.details().get("mpn")
                or labelled_code([], MPN_LABEL, self._text)
            )
        if "brand" in want:
            out["brand"] = self._itemprop_text("brand") or self._brand()
        return out

    def _price(self) -> tuple[str | None, str | None]:
        price, currency = itemprop_price(self._itemprop("price"), self.ctx)
        if price is None:
            anchor = self.buttons[0] if self.buttons else self._heading_element()
            price, currency = shown_price(self.root, anchor, self.ctx)
        if price is None and 0 < len(self.buttons) <= MAX_BUY_BUTTONS:
            price, currency = price_near_button(self.buttons[0], self.ctx)
        if price is None:
            price, currency = labelled_price(self._text().split("\n"), self.ctx)
        if currency is None:
            currency = self.ctx.currency(self._itemprop_text("priceCurrency") or "")
        return price, currency

    _details: dict[str, str] | None = None

    def details(self) -> dict[str, str]:
        """The codes the page's details or specification block labels (sku, mpn, gtin)."""
        if self._details is None:
            self._details = labelled_codes(self._text().split("\n"), self.ctx.shop_names)
        return self._details

    _crumb: tuple[str | None] | None = None

    def crumb_code(self) -> str | None:
        """The code the breadcrumb trail's last crumb labels (read once)."""
        if self._crumb is None:
            self._crumb = (crumb_code(self.walk.crumbs),)
        return self._crumb[0]

    def _availability(self) -> str | None:
        """Linked from an ``itemprop=availability``, else a stock message, else what
        the buy buttons say."""
        linked = self._itemprop_text("availability")
        found = availability(linked) if linked else None
        if found:
            return found
        self.stock_message = self._stock_message()
        return self.stock_message or button_availability(self.buttons)

    _stock_read = False

    def _stock_message(self) -> str | None:
        """The stock message nearest the buy button (else the heading), else a line of
        the buy box; read once."""
        if not self._stock_read:
            self._stock_read = True
            anchor = self.buttons[0] if self.buttons else self._heading_element()
            self.stock_message = stock_message(self.walk.stock_marked, anchor) or buy_box_line(
                self.walk.buy_boxes
            )
        return self.stock_message

    def denies_stock(self) -> str | None:
        """The availability the page shows when it says the product cannot be had and
        offers no buy button to press (none found, or all disabled): a stock message
        near the heading (``Produkt nicht verfügbar``) or a disabled button labelled
        ``Sold out`` or ``Unavailable``. Structured data that says in stock is often a
        cache's or a feed's, older than the page."""
        if any(
            (b.get("disabled") is None and "disabled" not in (b.get("class") or "").lower())
            or waits_for_a_choice(b)
            for b in self.buttons
        ):
            return None
        said = self._stock_message()
        if said in UNBUYABLE:
            return said
        if said is None:
            return unbuyable_button(self.walk.button_candidates)
        return None

    def variant_in_stock(self) -> bool:
        """Whether the buy form, with a buy button, says one of the product's variants is
        in stock now (its variants' data, which the shopper's choice of size reads)."""
        return bool(self.buttons) and variants_in_stock(self.root) is True

    def unavailable_without_buy_button(self) -> bool:
        """The page says a product cannot be had and shows neither a buy button nor an
        ``itemprop=price``: the prices around it are other products' (sponsored,
        related, other sellers')."""
        return (
            not self.buttons
            and not self._itemprop("price")
            and self._stock_message() in UNBUYABLE
            and not self._price_beside_heading()
        )

    def _price_beside_heading(self) -> bool:
        """Whether the product's heading stands with a shown price: an element whose
        class says price, with a digit, within two levels above the heading (a shop's
        summary block: heading, price, stock line)."""
        heading = self._heading_element()
        box = heading.getparent() if heading is not None else None
        if box is not None and box.getparent() is not None and box.tag not in ("body", "html"):
            box = box.getparent()
        if box is None or box.tag in ("body", "html"):
            return False
        for element in box.iter():
            cls = element.get("class") if isinstance(element.tag, str) else None
            if cls and "price" in cls.lower() and any(c.isdigit() for c in element_text(element)):
                return True
        return False

    def shows_unavailable_product(self, fields: dict[str, Any]) -> bool:
        """A page with no price may still be a product's: one that cannot be had, whose
        stock message says so, and that labels the product's code (sku or gtin) or has
        a buy box."""
        return bool(
            len(self.buttons) <= MAX_BUY_BUTTONS
            and (fields["sku"] or fields["gtin"] or self.walk.buy_boxes)
            and self._stock_message() in UNBUYABLE
        )

    # itemprop outside any item (microdata inside an item is read as structured data)

    def _itemprop(self, name: str) -> list[Any]:
        """Elements with ``itemprop=name`` that belong to no item, or to a product or an
        offer (never a breadcrumb's, an organisation's or a review's)."""
        elements = self.walk.itemprops.get(name, [])[:40]
        kept = []
        for element in elements:
            scope = next(
                (a for a in element.iterancestors() if a.get("itemscope") is not None), None
            )
            if scope is None or _OWN_ITEM_TYPES & set(
                type_names({"@type": (scope.get("itemtype") or "").split()})
            ):
                kept.append(element)
        return kept[:20]

    def _itemprop_text(self, name: str) -> str | None:
        for element in self._itemprop(name):
            if in_aside(element):
                continue
            value = (
                element.get("content") or element.get("href") or element.get("datetime")
                or element.get("value") or ""
            )  # fmt: skip
            if not value:
                inner = element.xpath(".//*[@itemprop='name']")
                value = element_text(inner[0] if inner else element)
            text = clean_text(value)
            if text:
                return text
        return None

    def _heading_element(self) -> Any:
        """The page's first ``<h1>`` outside its header, menus and asides (a theme's
        logo is an ``<h1>`` in its header on some shops)."""
        try:
            found = self.root.xpath("//h1")[:10]
        except (AttributeError, ValueError):
            return None
        for element in found:
            if not in_aside(element) and clean_text(element_text(element)):
                return element
        return None

    def product_box(self) -> Any:
        """The part of the page that holds the product's buy button and a heading (two
        levels above the nearest element around the button that holds an ``<h1>``),
        else the whole page: a page's related products and menus stand outside it."""
        if not self.buttons:
            return self.root
        for ancestor in self.buttons[0].iterancestors():
            if ancestor.tag in ("body", "html"):
                break
            if ancestor.find(".//h1") is not None:
                box = ancestor
                for _ in range(2):
                    parent = box.getparent()
                    if parent is None or parent.tag in ("body", "html"):
                        break
                    box = parent
                return box
        return self.root

    def heading(self) -> str | None:
        """The product's name as the page heads it: its ``<h1>``, else OpenGraph's or
        Twitter's title, else the document's ``<title>``."""
        element = self._heading_element()
        if element is not None:
            text = clean_text(element_text(element))
            if text and len(text) <= 300:
                return text
        try:
            named = self.root.xpath(
                "//*[contains(@class, 'product-name') or contains(@class, 'product_name')"
                " or contains(@class, 'productName') or contains(@class, 'product-title')"
                " or contains(@class, 'product_title') or contains(@class, 'productTitle')"
                " or contains(@class, 'item-name') or contains(@class, 'item_name')"
                " or contains(@class, 'itemName')]"
            )[:10]
        except (AttributeError, ValueError):
            named = []
        for element in named:
            text = clean_text(element_text(element))
            if text and len(text) <= 300 and not in_aside(element):
                return text
        social = self.ctx.tags.first("og:title", "twitter:title")
        if social:
            return title_without_site(social)
        try:
            titles = self.root.xpath("//title/text()")
        except (AttributeError, ValueError):
            return None
        return title_without_site(clean_text(titles[0])) if titles else None

    def _text_near_product(self) -> str:
        """The page's visible text (no scripts, menus, header or footer), one line per
        text node, from a little before the product's heading, at most 30,000 characters."""
        text = "\n".join(self.walk.lines)
        heading = self.heading()
        start = text.find(heading) if heading else -1
        return text[max(0, start - 500) : max(0, start - 500) + 30_000]

    def _brand(self) -> str | None:
        try:
            marked = self.root.xpath(
                "//*[contains(@class, 'brand') or contains(@class, 'vendor')"
                " or contains(@class, 'manufacturer') or @id='bylineInfo']"
            )
        except (AttributeError, ValueError):
            marked = []
        for element in marked[:5]:
            if in_aside(element):
                continue
            text = clean_text(element_text(element))
            if not text:
                logo = element.xpath(".//img/@alt")
                text = clean_text(str(logo[0])) if logo else ""
            text = re.sub(
                r"^(?:Brand|Marke|Marque|Marca|Vendor|by)\s*:?\s+", "", text, flags=re.IGNORECASE
            )
            text = re.sub(r"^Visit the (.+?) Store$", r"\1", text)
            if text and len(text) <= 60:
                return text
        match = _BRAND_LABEL.search(self._text())
        return clean_text(match["v"]) if match else None

    _cached_text: str | None = None
    _visible: str | None = None

    def visible_text(self) -> str:
        """The page's whole visible text (no scripts, menus, header or footer)."""
        if self._visible is None:
            self._visible = "\n".join(self.walk.lines)
        return self._visible

    def _text(self) -> str:
        if self._cached_text is None:
            self._cached_text = self._text_near_product()
        return self._cached_text

    def page_currency(self) -> str | None:
        """A currency the page names for itself: ``data-currency``, a currency ``<select>``,
        a sign next to a price (``$``, ``€``)."""
        try:
            values = self.root.xpath(
                "//@data-currency | //@data-currency-code | //*[@itemprop='priceCurrency']/@content"
            )
        except (AttributeError, ValueError):
            values = []
        for value in values[:10]:
            code = self.ctx.currency(str(value))
            if code:
                return code
        return None
