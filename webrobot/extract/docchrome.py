"""A documentation theme's chrome inside or beside its content: skip links, tables of
contents, breadcrumbs and version badges, which are never a page's main text.

Documentation generators draw the same furniture around every page, and mark it the same
way whatever the site: a link that lets a keyboard user jump past the menus ("Skip to
main content", "跳到主要内容"), the page's own table of contents ("On this page", a
list of its headings, on small screens a button that opens it), the trail of parent
pages, and a badge or banner naming the version of the docs ("Version: Next", "This is
unreleased documentation"). On a short page trafilatura's broad reading keeps them,
since they stand in the same columns as the text: a Docusaurus page of two headings
came out as skip link, version badge, the table of contents' button, the text and then
the table of contents again. :func:`without_doc_chrome` removes them from the copy of
the tree the main text is read from, found by how the themes mark them:

- **skip links**: one of the body's :data:`FIRST_LINKS` first links and buttons, to a
  fragment of the page (a button: its class naming a skip), showing at most
  :data:`SHORT_TEXT` characters, outside the page's ``<main>`` and ``<article>``, whose
  class names a skip (Docusaurus' ``skipToContent``, MkDocs Material's ``md-skip``,
  VitePress' ``VPSkipLink``, Furo's ``skip-to-content``, Just the Docs' ``skip-to-main``,
  WordPress' ``skip-link``) or whose target is the main content (``#main``,
  ``#content``, ``#main-content``, ``#maincontent``, or an id naming a skip);
- **tables of contents and breadcrumbs**: an element whose class holds ``toc`` or
  ``breadcrumb`` and whose class or id has the word ``toc``, "table of contents" or
  ``breadcrumb`` in it (split at ``-``, ``_`` and camel case, so
  ``theme-doc-toc-mobile``, ``ez-toc-container``, ``breadcrumbs`` count and Sphinx's
  ``toctree-wrapper``, the list of a section's pages that is an index page's content,
  does not), or whose ``aria-label`` says "table of contents", "on this page" or
  "breadcrumb"; not a heading or a paragraph; and which reads as one: most of its text
  in links (:data:`LINKED_SHARE`), or at most :data:`SHORT_TEXT` characters (the button
  that opens it);
- **version badges and pickers**: an element whose class has the word ``version``
  beside ``badge``, ``banner``, ``picker``, ``selector``, ``switcher``, ``dropdown``,
  ``menu`` or ``flyout`` (Docusaurus' ``theme-doc-version-badge`` and
  ``theme-doc-version-banner``, the Read the Docs theme's ``rst-versions``, which says
  ``versions``), of at most :data:`BANNER_TEXT` characters.

The page's ``<body>``, ``<main>``, ``<article>``, its ``<h1>`` and anything holding
them or more than one heading are never removed, whatever their class says. A table of contents inside the content that is
its text (a long reference's "Contents" list with prose between its links) fails the
links test and stays.

Pure: no Scrapy, no I/O.
"""

from __future__ import annotations

import re
from typing import Any

import lxml.etree

from webrobot.extract.htmltree import delete

#: A skip link, a table of contents' button: at most this many characters.
SHORT_TEXT = 40
#: A version banner ("This is unreleased documentation for X. For up-to-date
#: documentation, see the latest version."): at most this many characters.
BANNER_TEXT = 300
#: A table of contents or a trail of links: at least this share of its text in links.
LINKED_SHARE = 0.6
#: The fragments a skip link jumps to (its target lower-cased, ``-`` and ``_`` dropped).
MAIN_TARGETS = frozenset(("main", "content", "maincontent", "primary", "sitecontent"))
_VERSION_KINDS = frozenset(
    ("badge", "banner", "picker", "selector", "switcher", "dropdown", "menu", "flyout")
)
_KEPT = frozenset(("html", "body", "main", "article"))
_HEADINGS = ("h2", "h3", "h4", "h5", "h6")
#: Never a table of contents itself, whatever its class: a heading or a paragraph
#: (WordPress marks each heading that goes into the table of contents ``toc``).
_NOT_CONTENTS = frozenset(("h1", *_HEADINGS, "p"))
_CONTENTS_LABEL = re.compile(r"table of contents|on this page|breadcrumb", re.IGNORECASE)
#: The classes that may mark a table of contents, breadcrumbs or a version badge, found
#: in one walk of the tree's class attributes (each test more on every class, or a walk
#: of ids, labels or links besides, costs a tenth of a millisecond on a large page):
#: their owners are the candidates.
_MARKED = lxml.etree.XPath(
    "//@class[contains(., 'toc') or contains(., 'readcrumb') or contains(., 'ersion')]"
)
#: Skip links come first: only so many of the body's first links are looked at.
FIRST_LINKS = 20
_WORD_PARTS = re.compile(r"[A-Z]+(?![a-z])|[A-Z]?[a-z]+|\d+")
_TOC_WORDS = ("table", "of", "contents")


def words(name: str) -> list[str]:
    """The lower-cased words of a class or id: split at spaces, ``-``, ``_`` and camel
    case (``tableOfContents_cNA8`` is table, of, contents, c, na, 8)."""
    return [part.lower() for part in _WORD_PARTS.findall(name)]


def names_contents(name: str) -> bool:
    """Whether a class or id names a table of contents or breadcrumbs: the word ``toc``,
    the words "table of contents" in a row, ``tableofcontents``, ``breadcrumb(s)``."""
    found = words(name)
    if any(word in ("toc", "tableofcontents", "breadcrumb", "breadcrumbs") for word in found):
        return True
    return any(tuple(found[i : i + 3]) == _TOC_WORDS for i in range(len(found) - 2))


def names_version_picker(name: str) -> bool:
    """Whether a class names a version badge, banner or picker: ``version`` beside one
    of the kinds of :data:`_VERSION_KINDS` in one class, or ``versions`` alone."""
    for token in name.split():
        found = words(token)
        if "versions" in found:
            return True
        if "version" in found and _VERSION_KINDS.intersection(found):
            return True
    return False


def is_skip_link(link: Any) -> bool:
    """Whether ``link`` (an ``<a>``, or a ``<button>`` whose class names a skip) is a
    skip link (see the module doc)."""
    named = "skip" in (link.get("class") or "").lower()
    if link.tag == "button":
        target = ""
    else:
        href = link.get("href") or ""
        if link.tag != "a" or not href.startswith("#"):
            return False
        target = href[1:].lower().replace("-", "").replace("_", "")
        named = named or "skip" in target
    if not named and target not in MAIN_TARGETS:
        return False
    if len(" ".join(link.text_content().split())) > SHORT_TEXT:
        return False
    return not any(ancestor.tag in ("main", "article") for ancestor in link.iterancestors())


def _text_length(element: Any) -> int:
    return len("".join(element.text_content().split()))


def _linked_share(element: Any, length: int) -> float:
    linked = sum(_text_length(link) for link in element.iter("a"))
    return linked / length if length else 0.0


def is_contents(element: Any) -> bool:
    """Whether ``element`` is a table of contents or a trail of breadcrumbs (see the
    module doc)."""
    if element.tag in _NOT_CONTENTS:
        return False
    label = element.get("aria-label") or ""
    if not (
        names_contents(element.get("class") or "")
        or names_contents(element.get("id") or "")
        or _CONTENTS_LABEL.search(label)
    ):
        return False
    length = _text_length(element)
    return length <= SHORT_TEXT or _linked_share(element, length) >= LINKED_SHARE


def is_version_badge(element: Any) -> bool:
    """Whether ``element`` is a version badge, banner or picker (see the module doc)."""
    if not names_version_picker(element.get("class") or ""):
        return False
    return _text_length(element) <= BANNER_TEXT


def _holds_content(element: Any) -> bool:
    """Whether ``element`` is or holds the page's content: the body, a ``<main>``, an
    ``<article>``, the headline, or more than one heading (a table of contents has at
    most its own title)."""
    if element.tag in _KEPT:
        return True
    inner = element.iterdescendants("main", "article", "body", "h1", *_HEADINGS)
    for count, found in enumerate(inner, 1):
        if found.tag in _KEPT or found.tag == "h1" or count > 1:
            return True
    return False


def without_doc_chrome(tree: Any) -> int:
    """The skip links, tables of contents, breadcrumbs and version badges of ``tree``
    (changed in place) removed, their tails kept; the number removed."""
    found: list[Any] = []
    for attribute in _MARKED(tree):
        element = attribute.getparent()
        if (
            element is not None
            and (is_contents(element) or is_version_badge(element))
            and not _holds_content(element)
        ):
            found.append(element)
    body = tree.find("body") if tree.tag == "html" else tree
    for count, link in enumerate(body.iter("a", "button") if body is not None else ()):
        if count >= FIRST_LINKS:
            break
        if is_skip_link(link):
            found.append(link)
    chosen = set(found)
    removed = 0
    for element in found:
        if element.getparent() is not None and not any(
            ancestor in chosen for ancestor in element.iterancestors()
        ):
            delete(element)
            removed += 1
    return removed
