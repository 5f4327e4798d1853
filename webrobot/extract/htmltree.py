"""The lxml tree an extractor reads: the crawl's own, or one parsed here when the
crawl has none; a working copy of it (:func:`plain_copy`); an element deleted with its tail kept
(:func:`delete`); and the page's base URL.

A page whose markup ends the document before its body (``</head></html><body>...``, as
some blog themes' head templates do) is shown whole by browsers, which read on after a
stray ``</html>``; libxml2's HTML parser (2.14 and later) stops there, and the tree is
the head alone: no text, no links. :func:`whole_root` parses such a page again without
the early end tags (:mod:`webrobot.pages.wholetree`, shared with the crawl's links), so
every extractor reads the body a browser shows.

Pure: no Scrapy, no I/O.
"""

from __future__ import annotations

from copy import deepcopy
from typing import TYPE_CHECKING, Any
from urllib.parse import urljoin

import lxml.etree
import lxml.html

from webrobot.pages.wholetree import whole_root

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
        parsed = lxml.html.document_fromstring(text.replace("\x00", ""))
        return whole_root(parsed, text, page.url)
    except (lxml.etree.ParserError, ValueError):
        # An XML declaration with an encoding in a str, for one: parse the bytes.
        try:
            return lxml.html.document_fromstring(
                text.replace("\x00", "").encode("utf-8", "replace"),
                parser=lxml.html.HTMLParser(encoding="utf-8"),
            )
        except (lxml.etree.ParserError, ValueError):
            return None


#: A parser whose documents give each element lxml.html's plain classes, chosen inside
#: lxml. lxml.html's own parser asks a Python function for the class of every element
#: Python touches (to make a ``<form>`` a ``FormElement``, an ``<input>`` an
#: ``InputElement``): a reading of the main text touches each element of its copy many
#: times over, and those calls were about a tenth of its CPU on shop pages. Nothing that
#: reads such a copy uses the form classes' own methods.
_PLAIN = lxml.html.HTMLParser()
_PLAIN.set_element_class_lookup(
    lxml.etree.ElementDefaultClassLookup(
        element=lxml.html.HtmlElement,
        comment=lxml.html.HtmlComment,
        pi=lxml.html.HtmlProcessingInstruction,
        entity=lxml.html.HtmlEntity,
    )
)


def plain_copy(tree: Any) -> Any:
    """A deep copy of ``tree`` (an element and what is under it, not its tail) in a
    document of its own whose elements all have lxml.html's plain classes
    (``HtmlElement``, ``HtmlComment``...), looked up without a call into Python; copies
    of it stay so. The same markup, and ``tree`` left as it was."""
    root = _PLAIN.makeelement(tree.tag, dict(tree.attrib))
    root.text = tree.text
    root.extend(deepcopy(child) for child in tree)
    return root


def delete(element: Any) -> None:
    """``element`` out of its tree, its tail kept in place (joined to the element before
    it or to its parent's text, as trafilatura and lxml's ``drop_tree`` delete); nothing
    when it has no parent."""
    parent = element.getparent()
    if parent is None:
        return
    if element.tail:
        previous = element.getprevious()
        if previous is None:
            parent.text = (parent.text or "") + element.tail
        else:
            previous.tail = (previous.tail or "") + element.tail
    parent.remove(element)


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
