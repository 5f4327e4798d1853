"""A service or product page whose content is many short sections, read whole when
trafilatura's reading keeps only some of them.

A service page (a firm's "HR consulting" page, a cloud product's home page, a clinic's
"dental care" page) and many product pages are a hero line, then section after section:
a heading over a few lines, a grid of feature cards, a specification, an FAQ, a few
quotes. trafilatura looks for the block that is the text and keeps that, and drops
sections whose classes look like chrome to it (page builders name every section a
"widget", a hero a "banner"): often a third of the page or less. :func:`whole_reading`
reads the page's main region instead (its longest shown ``<main>`` or ARIA ``main``;
a page without one is not read so), one heading, paragraph, list item or table row a line, without
what is never content there: navigation, the site's header and footer, asides, forms,
buttons, option lists, groups of form controls (a variant picker's ``<fieldset>``),
scripts, drawings, dialogs and hidden nodes (attributes, inline styles and
screen-reader-only classes: :mod:`webrobot.extract.shown`) (a ``<header>``
inside ``<main>`` that holds a heading and no ``<nav>`` is a section's header, and is
read).

When: trafilatura's text holds under :data:`COVERED_SHARE` of the region's text, the
region has :data:`MIN_HEADINGS` ``<h2>`` headings or more (sections; one on a page that
declares a product, :data:`PRODUCT_MIN_HEADINGS`, below), under
:data:`MAX_LINKED` of its text is in links, and trafilatura's text is no prose (its
median line is shorter than :data:`PROSE_LINE` characters: an article that declares
nothing keeps its reading).

Scope: the page kinds this rule is for are service and product pages. A page that
declares itself an article (:mod:`webrobot.extract.pagekind`) is never read so (the
caller does not ask); a listing or a collection is left alone by the link share (its
cards are links), and their own rules live elsewhere; a forum's page too, when it
declares a discussion (``QAPage``, ``DiscussionForumPosting``, ``SocialMediaPosting``
in its microdata or JSON-LD; not an FAQ's ``Answer``) or heads its posts with dates
(such headings are not counted as sections). A page without a ``<main>`` is left
alone: on a shop's product page the body holds its recommendations and basket, and the
pages of older sites without one that declare nothing are mostly articles and news (on
trafilatura's evaluation pages, reading their bodies whole found 5 more passages and 7
more unwanted ones). On the development half of the unseen sets (``python -m
benchmarks.quality.unseen``, read page by page with ``python -m
benchmarks.quality.unseendev``) this took the service pages from 0.740 to 0.782 F1
and the product pages from 0.592 to 0.616 (held halves: 0.711 to 0.728, and 0.590 to
0.572); the article benchmark is unchanged (no page of it is read so).

A page that declares a product (and no article) needs one ``<h2>`` section, not three:
its region is the product's, a name and a buy box over a description or a
specification, and trafilatura's block is often the one paragraph among them. On the
development half this read a camera's page whole (0.25 to 0.51 F1) and a bedding
shop's collection page that declares its products (0.38 to 0.59), and no page lower
(product dev 0.6264 to 0.6303, collection dev 0.526 to 0.539); on the real shop pages
(:mod:`benchmarks.quality.realshops`) it kept two fashion pages' product names and a
line about store pickup (0.864 to 0.867). Without a section at all, a mug's page read
its region whole and lost (0.80 to 0.79).

Cost: the region's length is first taken from lxml's text (C, no Python walk), and the
region is walked only when trafilatura's text is short beside it.

Pure: no Scrapy, no I/O.
"""

from __future__ import annotations

import re
from typing import Any

import lxml.etree

from webrobot.extract.pagekind import DISCUSSION_TYPES as DISCUSSION_TYPES_OF_ARTICLES
from webrobot.extract.pagekind import declares_discussion
from webrobot.extract.shown import hidden_by_markup

#: trafilatura's text is kept when it holds at least this share of the region's text.
COVERED_SHARE = 0.7
#: The region is not read whole when more than this share of its text is in links.
MAX_LINKED = 0.5
#: Regions with less text than this (characters) are not read whole.
MIN_REGION_CHARS = 200
#: A region with fewer ``<h2>`` headings than this is no sectioned page.
MIN_HEADINGS = 3
#: The same bound on a page that declares a product: its region is the product's (the
#: name, the buy box, then a description or a specification under a heading), so one
#: section is enough.
PRODUCT_MIN_HEADINGS = 1
#: A text whose median line is this long (characters) is prose, an article's: it stands.
PROSE_LINE = 120
#: Elements left out with all they hold: never content.
SKIPPED = frozenset(
    (
        "nav", "header", "footer", "aside", "form", "button", "select", "option", "script",
        "style", "noscript", "svg", "template", "iframe", "input", "textarea", "dialog",
        "fieldset",
        "head", "title", "meta", "link",
    )
)  # fmt: skip
#: ARIA roles left out likewise.
SKIPPED_ROLES = frozenset(("navigation", "contentinfo", "banner", "dialog", "complementary"))
#: Elements that begin and end a line.
BLOCKS = frozenset(
    (
        "address", "article", "blockquote", "br", "dd", "details", "div", "dl", "dt",
        "figcaption", "figure", "h1", "h2", "h3", "h4", "h5", "h6", "hr", "li", "main",
        "ol", "p", "pre", "section", "summary", "table", "tr", "ul",
    )
)  # fmt: skip
_CELLS = frozenset(("td", "th"))
_HEADINGS = {f"h{n}": "#" * n for n in range(1, 7)}
#: The ARIA ``main`` role, found through the attributes (a walk of attributes, not of
#: every element).
_MAIN_ROLE = lxml.etree.XPath("//@role[.='main']")
_SPACES = re.compile(r"\s+")
_WORD = re.compile(r"\w")
#: A date in a heading: ``2025-11-01``, ``1.11.2025``, ``11/01/25``.
_DATED = re.compile(r"\d{4}-\d\d-\d\d|\b\d{1,2}[./]\d{1,2}[./]\d{2,4}\b")
#: Types only a discussion declares (an FAQ's ``Question`` and ``Answer`` are a service
#: page's as often).
DISCUSSION_TYPES = (*DISCUSSION_TYPES_OF_ARTICLES, "SocialMediaPosting")
_DISCUSSION_TYPE = re.compile(r"schema\.org/(?:" + "|".join(DISCUSSION_TYPES) + r")\b")
#: Microdata types, found through the attributes.
_ITEMTYPES = lxml.etree.XPath("//@itemtype")


def region(root: Any) -> Any:
    """The page's main region: its longest ``<main>`` or ARIA ``main`` that is shown (a
    slide-out panel or a hidden copy is no region); ``None`` when it has none."""
    candidates = [*root.iter("main"), *(role.getparent() for role in _MAIN_ROLE(root))]
    shown = [element for element in candidates if not _hidden(element)]
    if len(shown) == 1:
        return shown[0]
    if shown:
        return max(shown, key=lambda element: len(element.text_content()))
    return None


def _hidden(element: Any) -> bool:
    """Whether ``element`` or one of its ancestors is hidden or left out."""
    node = element
    while node is not None:
        if _left_out(node):
            return True
        node = node.getparent()
    return False


def _left_out(element: Any, in_main: bool = False) -> bool:
    """Whether ``element`` is never content: a skipped tag or role, or hidden. Inside a
    ``<main>`` (``in_main``), a ``<header>`` that holds a heading and no ``<nav>`` is a
    section's header (a hero line over a landing page), and is read."""
    if in_main and element.tag == "header" and _section_header(element):
        return False
    return (
        element.tag in SKIPPED
        or (element.get("role") or "") in SKIPPED_ROLES
        or hidden_by_markup(element)
    )


def whole_reading(root: Any, text: str | None, product: bool = False) -> tuple[str, str] | None:
    """The main region's text and Markdown when ``text`` (trafilatura's) holds under
    :data:`COVERED_SHARE` of it on a page in scope (see the module doc); ``None`` when
    ``text`` stands. On a page that declares a ``product``, a region of one section
    (:data:`PRODUCT_MIN_HEADINGS`) is read so."""
    if _prose(text):
        return None
    main = region(root)
    if main is None:
        return None
    # lxml's text of the region (scripts and styles included) bounds the walk's text
    bound = len(main.text_content())
    have = len(text or "")
    if bound < MIN_REGION_CHARS or have >= COVERED_SHARE * bound:
        return None
    sections = PRODUCT_MIN_HEADINGS if product else MIN_HEADINGS
    if _sections(main) < sections or _discussion(root):
        return None
    lines, linked = _lines(main)
    chars = sum(len(line) for _, line in lines)
    if chars < MIN_REGION_CHARS or have >= COVERED_SHARE * chars or linked > MAX_LINKED * chars:
        return None
    return _joined(lines)


def element_lines(element: Any) -> tuple[str, str] | None:
    """``element``'s text and Markdown read as a region is (one heading, paragraph, list
    item or table row a line, without what is never content, nor lines without a word:
    an icon font's glyph); ``None`` when it holds no text. For a reading that gave the
    element's text as one line."""
    lines = [(mark, line) for mark, line in _lines(element)[0] if _WORD.search(line)]
    return _joined(lines) if lines else None


def _joined(lines: list[tuple[str, str]]) -> tuple[str, str]:
    """The plain text and the Markdown of marked ``lines``."""
    plain = "\n".join(f"- {line}" if mark == "-" else line for mark, line in lines)
    markdown = "\n\n".join(f"{mark} {line}" if mark else line for mark, line in lines)
    return plain, markdown


def _sections(main: Any) -> int:
    """The region's ``<h2>`` headings that head a section: not a post's date line (a
    forum thread heads each post with its number and date)."""
    return sum(1 for heading in main.iter("h2") if not _DATED.search(heading.text_content()))


def _discussion(root: Any) -> bool:
    """Whether the page declares a discussion (a question and its answers, a forum
    thread, comments) in its microdata or its JSON-LD: a forum's page, read by rules
    of its own."""
    if any(_DISCUSSION_TYPE.search(value) for value in _ITEMTYPES(root)):
        return True
    return declares_discussion(root, DISCUSSION_TYPES)


def _prose(text: str | None) -> bool:
    """Whether ``text`` reads as prose: its median line is :data:`PROSE_LINE` characters
    or longer (an article's paragraphs, not a landing page's short lines)."""
    lengths = sorted(len(line) for line in (text or "").splitlines() if line.strip())
    return bool(lengths) and lengths[len(lengths) // 2] >= PROSE_LINE


def _section_header(header: Any) -> bool:
    """Whether ``header`` holds a heading and no navigation."""
    return next(header.iter("h1", "h2", "h3"), None) is not None and (
        next(header.iter("nav"), None) is None
    )


def _lines(main: Any) -> tuple[list[tuple[str, str]], int]:
    """The region's lines of text, each with its Markdown mark (``#`` for a heading,
    ``-`` for a list item, ``""`` otherwise), and how many of their characters are in
    links."""
    lines: list[tuple[str, str]] = []
    parts: list[str] = []
    marks = [""]
    linked = [0]

    def flush() -> None:
        line = _SPACES.sub(" ", "".join(parts)).strip()
        parts.clear()
        if line:
            lines.append((marks[0], line))
        marks[0] = ""

    def walk(element: Any, in_link: bool) -> None:
        tag = element.tag
        if not isinstance(tag, str) or _left_out(element, in_main=True):  # no content
            return
        block = tag in BLOCKS
        if block:
            flush()
            marks[0] = _HEADINGS.get(tag, "-" if tag == "li" else "")
        if tag in _CELLS:
            parts.append(" ")  # a table row is a line, its cells apart
        in_link = in_link or tag == "a"
        if element.text:
            parts.append(element.text)
            if in_link:
                linked[0] += len(element.text.strip())
        for child in element:
            walk(child, in_link)
            if child.tail:
                parts.append(child.tail)
                if in_link:
                    linked[0] += len(child.tail.strip())
        if block:
            flush()

    walk(main, False)
    flush()
    return lines, linked[0]
