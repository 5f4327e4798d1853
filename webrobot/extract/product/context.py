"""What every reader of a product page shares: the page's context (its URL, country,
language, canonical URLs, the variant its URL selects), the text of a schema.org value,
and filling the fields still missing.

Pure: no Scrapy, no I/O. :func:`webrobot.extract.product.product` is the entry point.
"""

from __future__ import annotations

from decimal import Decimal
from typing import TYPE_CHECKING, Any
from urllib.parse import parse_qs, urlsplit

from webrobot.extract.headtags import HeadTags, absolute_url, as_list, clean_text
from webrobot.extract.language import language_tag
from webrobot.extract.product.prices import currency_code, parse_price_text

if TYPE_CHECKING:
    from webrobot.extract.page import SourcePage


#: The product's fields, in the order an item gives them.
FIELDS = ("name", "price", "currency", "availability", "sku", "gtin", "mpn", "brand")
#: The keys of the product a page gives: :data:`FIELDS`, then the schema.org term its
#: ``availability`` (``InStock`` or ``OutOfStock``) was read from.
PRODUCT_KEYS = (*FIELDS, "availability_detail")


def fill(fields: dict[str, Any], found: dict[str, Any]) -> None:
    """Set each field of ``fields`` still ``None`` that ``found`` gives a value."""
    for key, value in found.items():
        if fields.get(key) is None and value not in (None, ""):
            fields[key] = value


class ProductContext:
    """The page a product is read from: what settles its currency signs, which URLs
    are its own, which variant its URL selects."""

    def __init__(self, page: SourcePage, root: Any, base: str, tags: HeadTags) -> None:
        self.url = page.url or ""
        self.base = base
        try:
            host = urlsplit(self.url).hostname or ""
        except ValueError:
            host = ""
        self.tld = host.rsplit(".", 1)[-1] if "." in host else ""
        lang = None
        if root is not None:
            try:
                lang = root.getroottree().getroot().get("lang")
            except (AttributeError, ValueError):
                lang = None
        self.language = (
            language_tag(lang)
            or language_tag(tags.first("og:locale") or "")
            or language_tag(page.header("content-language") or "")
            or ""
        )
        self.page_urls = {comparable(self.url)} | {
            comparable(absolute_url(u, base)) for u in tags.links.get("canonical", [])
        }
        try:
            query = parse_qs(urlsplit(self.url).query)
        except ValueError:
            query = {}
        self.tags = tags
        self.variant = (query.get("variant") or query.get("sku") or query.get("v") or [""])[0]

    @property
    def shop_names(self) -> tuple[str, ...]:
        """The shop's own names, folded: its site name (``og:site_name``) and its host's
        registered name (``www.ifixit.com`` -> ``ifixit``)."""
        names = [clean_text(self.tags.first("og:site_name") or "").casefold()]
        try:
            labels = (urlsplit(self.url).hostname or "").split(".")[:-1]
        except ValueError:
            labels = []
        if len(labels) > 1 and labels[-1] in _SECOND_LEVEL:
            labels.pop()  # amazon.co.uk, shop.com.au
        if labels and labels[-1] != "www":
            names.append(labels[-1])
        return tuple(dict.fromkeys(n for n in names if n))

    def currency(self, value: Any) -> str | None:
        return currency_code(value, tld=self.tld, language=self.language)

    def price_text(self, text: str) -> tuple[Decimal | None, str | None]:
        """The amount and currency sign of price text, read with the page's decimal mark."""
        return parse_price_text(text, language=self.language, tld=self.tld)


#: Second-level labels of country domains that name no shop (``amazon.co.uk``).
_SECOND_LEVEL = frozenset({"co", "com", "org", "net", "ac", "gov", "ne", "or", "gv"})


def comparable(url: str | None) -> str | None:
    """``url`` without fragment, query, trailing slash, ``www.`` and scheme differences."""
    if not url:
        return None
    return (
        url.split("#")[0]
        .split("?")[0]
        .rstrip("/")
        .replace("://www.", "://")
        .replace("https://", "http://")
    )


def node_text(value: Any) -> str | None:
    """The first non-empty text of a value (a string, a number, a ``name``d node, a list)."""
    for member in as_list(value):
        if isinstance(member, dict):
            member = member.get("name", member.get("@value"))
            if isinstance(member, list):
                member = member[0] if member else None
        if isinstance(member, str | int) and not isinstance(member, bool):
            text = clean_text(member)
            if text:
                return text
    return None
