"""Structured data: JSON-LD, microdata, RDFa and OpenGraph, in extruct's uniform form.

extruct (the ``mining`` extra) reads microdata, OpenGraph and RDFa, on the
crawl's own tree where its API takes a tree (microdata, OpenGraph); JSON-LD is
read by :mod:`webrobot.extract.jsonld`, which recovers the blocks strict JSON
refuses (comments, trailing commas, HTML entities, several objects).

RDFa costs more than all the rest together (pyRdfa needs a DOM tree of its own,
so a second parse, then builds an RDF graph: about 30 ms on a typical 100 kB
news page, against about 2 ms for the other three). Most pages' only RDFa is
OpenGraph's ``<meta property>`` in the head, which the ``opengraph`` list
already holds; so by default (``rdfa="auto"``) RDFa is read only when the
page's body carries RDFa attributes, and never on pages larger than
:data:`RDFA_MAX_CHARS`. When the body's only RDFa is ``<meta property content>`` tags
(OpenGraph written into the body, as many shops do), pyRdfa reads the ``<html>``
element, the head and those tags alone: the same triples for them, in a few
milliseconds instead of 0.1-0.5 s on a large shop page; the body's ARIA roles
(``xhv:role``) are then left out, as on a page without RDFa in its body.
A page whose body carries more RDFa is read by pyRdfa on its own copy cut to what
RDFa reads (the elements with RDFa attributes, their ancestors, the literals' text,
the links a ``rel`` completes): the same triples as the whole page, pyRdfa walking a
few elements instead of every one. ``rdfa="always"`` reads every page that has any
RDFa attribute whole, as extruct does; ``rdfa="never"`` not at all.

Pure: no Scrapy, no I/O. A syntax whose reader fails on a page gives ``[]``
and is named in :attr:`Structured.failed`; the page never fails.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from html import escape
from typing import TYPE_CHECKING, Any

import lxml.html
from lxml import etree

from webrobot.extract.htmltree import base_url, html_root
from webrobot.extract.jsonld import page_jsonld
from webrobot.optional import require

if TYPE_CHECKING:
    from webrobot.extract.page import SourcePage

#: The syntaxes, in the order the result lists them.
SYNTAXES = ("json-ld", "microdata", "rdfa", "opengraph")
#: What ``rdfa`` may be.
RDFA_MODES = ("auto", "always", "never")
#: Larger pages (characters of HTML) are not read for RDFa in ``"auto"`` mode.
RDFA_MAX_CHARS = 1_000_000
FEATURE = "Structured data (WEBROBOT_EXTRACT structured_data)"

#: Attributes that make RDFa triples (``role`` and ``rel`` only make xhv: links).
_RDFA_DATA = "@property or @typeof or @vocab or @about or @resource or @prefix"
_RDFA_IN_BODY = etree.XPath(
    f"/html/body/descendant-or-self::*[{_RDFA_DATA}] | /html[@vocab or @typeof]"
)
#: The values of the same attributes (half the cost: no element objects made).
_RDFA_VALUES_IN_BODY = etree.XPath(
    " | ".join(
        f"/html/body//@{a}" for a in ("property", "typeof", "vocab", "about", "resource", "prefix")
    )
    + " | /html/@vocab | /html/@typeof",
    smart_strings=False,
)
_RDFA_ANYWHERE = f"boolean(//*[{_RDFA_DATA} or @rel or @rev or @role])"
_RDFA_IN_HEAD = (
    f"boolean(/html[@rel or @rev or @role] | /html/head//*[{_RDFA_DATA} or @rel or @rev or @role])"
)
#: Every attribute pyRdfa reads on an element (RDFa 1.1 and 1.0, HTML's ``role``).
_RDFA_READ = (
    "about", "resource", "typeof", "vocab", "prefix", "property", "rel", "rev", "role",
    "datatype", "inlist", "content",
)  # fmt: skip
#: The elements pyRdfa makes triples of: an RDFa attribute, or a link under a ``rel`` or
#: ``rev`` that it may complete; and where it reads the base URL.
_RDFA_KEPT = etree.XPath(
    "//*[" + " or ".join(f"@{a}" for a in _RDFA_READ) + "]"
    " | //*[@rel or @rev]//*[@href or @src] | //base"
)
#: The terms a ``rel`` or ``rev`` word may name without ``@vocab``: RDFa 1.1's initial
#: contexts (HTML's and XHTML's) and HTML+RDFa 1.0's reserved words, in lower case.
RDFA_TERMS = frozenset({
    "alternate", "appendix", "bookmark", "chapter", "cite", "contents", "copyright",
    "describedby", "first", "glossary", "help", "icon", "index", "last", "license", "meta",
    "next", "p3pv1", "prev", "previous", "role", "section", "start", "stylesheet",
    "subsection", "top", "up",
})  # fmt: skip
#: A word that can only be a term (no prefix, no IRI, no safe CURIE).
_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_.-]*")
#: Attributes on an ancestor of a body ``<meta property>`` that would change its subject.
_SUBJECT_ATTRS = ("about", "resource", "typeof", "href", "src", "rel", "rev", "property")


@dataclass(frozen=True, slots=True)
class Structured:
    """What :func:`extract_structured` read from one page."""

    #: ``{"json-ld": [...], "microdata": [...], "rdfa": [...], "opengraph": [...]}``.
    data: dict[str, list[Any]]
    #: Syntaxes whose reader failed on this page (their list is empty).
    failed: tuple[str, ...] = ()
    #: Why RDFa was not read, or ``None`` when it was: ``"none"`` (no RDFa on the
    #: page), ``"head"`` (only in the head: OpenGraph holds it), ``"large"``, ``"off"``.
    rdfa_skipped: str | None = None


def structured_data(
    page: SourcePage, *, rdfa: str = "auto", jsonld: list[Any] | None = None
) -> dict[str, list[Any]]:
    """The page's structured data by syntax, in extruct's uniform form."""
    return extract_structured(page, rdfa=rdfa, jsonld=jsonld).data


def extract_structured(
    page: SourcePage, *, rdfa: str = "auto", jsonld: list[Any] | None = None
) -> Structured:
    """The page's structured data, with what failed and whether RDFa was read.

    ``jsonld``: the page's JSON-LD items when already read
    (:func:`~webrobot.extract.jsonld.read_jsonld`), else read here. Raises :class:`~webrobot.optional.MissingExtra` when extruct is not installed
    and :class:`ValueError` for an unknown ``rdfa`` mode; nothing else.
    """
    if rdfa not in RDFA_MODES:
        raise ValueError(f"rdfa must be one of {', '.join(RDFA_MODES)}, not {rdfa!r}")
    extruct = require("extruct", "mining", FEATURE)
    data: dict[str, list[Any]] = {syntax: [] for syntax in SYNTAXES}
    root = html_root(page)
    if root is None:
        return Structured(data, rdfa_skipped="none")
    base = base_url(page, root)
    failed: list[str] = []
    data["json-ld"] = page_jsonld(root) if jsonld is None else jsonld
    for syntax in ("microdata", "opengraph"):
        try:
            data[syntax] = extruct.extract(root, base_url=base, syntaxes=[syntax], uniform=True)[
                syntax
            ]
        except Exception:  # noqa: BLE001 - a third-party reader on hostile markup
            failed.append(syntax)
    skipped, html = _rdfa_source(page, root, rdfa)
    if skipped is None:
        try:
            data["rdfa"] = _read_rdfa(html, base, whole=rdfa == "always")
        except Exception:  # noqa: BLE001 - pyRdfa and rdflib on hostile markup
            failed.append("rdfa")
    return Structured(data, tuple(failed), skipped)


def _rdfa_source(page: SourcePage, root: Any, mode: str) -> tuple[str | None, str]:
    """Why RDFa is not read (``None`` when it is), and the HTML pyRdfa reads."""
    if mode == "never":
        return "off", ""
    try:
        if mode == "always":
            return (None, page.html) if root.xpath(_RDFA_ANYWHERE) else ("none", "")
        # The attributes' values alone first (no element objects): most pages have none.
        in_body = _RDFA_IN_BODY(root) if _RDFA_VALUES_IN_BODY(root) else []
        if not in_body:
            return ("head" if root.xpath(_RDFA_IN_HEAD) else "none"), ""
        if len(page.html) > RDFA_MAX_CHARS:
            return "large", ""
        if all(_lone_meta(element) for element in in_body):
            return None, _head_and_metas(root, in_body)
    except (AttributeError, ValueError, TypeError):
        return "none", ""
    return None, page.html


def _lone_meta(element: Any) -> bool:
    """Whether ``element`` is a ``<meta property content>`` whose subject is the page's:
    no other RDFa attribute on it, none on its ancestors in the body that could make
    another subject."""
    if element.tag != "meta" or element.get("content") is None:
        return False
    if any(element.get(a) is not None for a in ("about", "resource", "typeof", "vocab", "prefix")):
        return False
    for ancestor in element.iterancestors():
        if ancestor.tag == "body":
            return True
        if any(ancestor.get(a) is not None for a in _SUBJECT_ATTRS):
            return False
    return False


def _head_and_metas(root: Any, metas: list[Any]) -> str:
    """The page cut to what its RDFa reads when the body's only RDFa is ``<meta
    property>`` tags (OpenGraph written into the body): the ``<html>`` element's
    attributes, the head, and those tags, so pyRdfa walks tens of elements, not
    the whole body."""
    head = root.find("head")
    body = root.find("body")
    doctype = root.getroottree().docinfo.doctype or ""
    parts = [doctype, f"<html{_attributes(root)}>"]
    if head is not None:
        parts.append(lxml.html.tostring(head, encoding="unicode", with_tail=False))
    parts.append(f"<body{_attributes(body)}>")
    parts.extend(lxml.html.tostring(m, encoding="unicode", with_tail=False) for m in metas)
    parts.append("</body></html>")
    return "".join(parts)


def _attributes(element: Any) -> str:
    if element is None:
        return ""
    return "".join(f' {k}="{escape(str(v), quote=True)}"' for k, v in element.attrib.items())


def _read_rdfa(html: str, base: str, *, whole: bool = False) -> list[Any]:
    """RDFa as extruct gives it (expanded JSON-LD), from a DOM tree parsed for pyRdfa;
    the tree's body cut to what RDFa reads in it unless ``whole``."""
    from extruct.rdfa import RDFaExtractor
    from extruct.utils import parse_xmldom_html

    tree = parse_xmldom_html(html.replace("\x00", "").encode("utf-8", "replace"), "utf-8")
    if not whole:
        _cut_to_rdfa(tree)
    items: list[Any] = RDFaExtractor().extract_items(tree, base_url=base)
    return items


def _cut_to_rdfa(tree: Any) -> None:
    """Take out of ``tree`` (pyRdfa's own copy of the page) every subtree that cannot
    make a triple, so that pyRdfa walks the few elements that can.

    pyRdfa passes through an element without RDFa attributes (:data:`_RDFA_READ`),
    making nothing of it; it makes a triple of an ``href`` or ``src`` only under an
    element with ``rel`` or ``rev`` (which it completes), and of text only under
    ``property`` (its literal); it reads the base URL from any ``<base>``. So every
    element is kept that has an RDFa attribute, or an ``href`` or ``src`` under a
    ``rel`` or ``rev``, and every ``<base>``, with its ancestors (their language,
    prefixes and subjects) and, under ``property``, all that is inside; ``<head>`` and
    ``<body>`` are kept; the rest goes (scripts, styles, the text and markup around).
    The triples are the ones the whole page gives."""
    root = tree.getroottree().getroot()
    kept: set[Any] = {root, *root.iterchildren("head", "body")}
    found = _RDFA_KEPT(tree)
    # With no @vocab, a rel word that is no term of RDFa's initial contexts names nothing.
    bare_links = not any(element.get("vocab") is not None for element in found)
    found_set = set(found) if bare_links else set()
    for element in found:
        if element in kept or (bare_links and _bare_link(element, found_set)):
            continue
        kept.add(element)
        kept.update(element.iterancestors())
        if element.get("property") is not None:
            kept.update(element.iterdescendants())
    cut = [e for e in root.iterdescendants() if e not in kept and e.getparent() in kept]
    for element in cut:
        parent = element.getparent()
        if parent is not None:
            parent.remove(element)


def _bare_link(element: Any, found: set[Any]) -> bool:
    """Whether ``element`` makes no triple and changes nothing around it: its only RDFa
    attributes are ``rel`` and ``rev`` whose words are no term (``nofollow``,
    ``preload``: pyRdfa only warns of them), no ancestor has a ``rel`` or ``rev`` it could
    complete, and nothing inside it is kept. (No ``@vocab`` on the page: the caller checks.)"""
    if any(element.get(a) is not None for a in _RDFA_READ if a not in ("rel", "rev")):
        return False
    words = f"{element.get('rel') or ''} {element.get('rev') or ''}".split()
    if not all(_WORD.fullmatch(w) and w.lower() not in RDFA_TERMS for w in words):
        return False
    if any(a.get("rel") is not None or a.get("rev") is not None for a in element.iterancestors()):
        return False
    return not any(d in found for d in element.iterdescendants())
