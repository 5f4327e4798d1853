"""The lxml tree an extractor reads: the crawl's own, or one parsed here when the
crawl has none; and the page's base URL.

Pure: no Scrapy, no I/O.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any
from urllib.parse import urljoin

import lxml.etree
import lxml.html

if TYPE_CHECKING:
    from webrobot.extract.page import SourcePage


def html_root(page: SourcePage) -> Any:
    """``page.root`` when it is an HTML tree (what Scrapy's selector holds), else
    ``page.html`` parsed with lxml's HTML parser; ``None`` when nothing can be parsed."""
    root = page.root
    if isinstance(root, lxml.html.HtmlElement):
        return root
    text = page.html if isinstance(page.html, str) else ""
    if not text.strip():
        return None
    try:
        return lxml.html.document_fromstring(text.replace("\x00", ""))
    except (lxml.etree.ParserError, ValueError):
        # An XML declaration with an encoding in a str, for one: parse the bytes.
        try:
            return lxml.html.document_fromstring(
                text.replace("\x00", "").encode("utf-8", "replace"),
                parser=lxml.html.HTMLParser(encoding="utf-8"),
            )
        except (lxml.etree.ParserError, ValueError):
            return None


def base_url(page: SourcePage, root: Any) -> str:
    """The URL relative links resolve against: ``<base href>`` joined to the page's URL."""
    url = page.url or ""
    if root is None:
        return url
    try:
        # iter() by tag name walks in C, about half the cost of an XPath on a large page.
        hrefs = [base.get("href") for base in root.iter("base")]
    except (AttributeError, TypeError, ValueError):
        return url
    for href in hrefs:
        href = str(href or "").strip()
        if href:
            try:
                return urljoin(url, href)
            except ValueError:
                return url
    return url
