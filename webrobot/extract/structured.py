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
:data:`RDFA_MAX_CHARS`. ``rdfa="always"`` reads it on every page that has any
RDFa attribute, as extruct does; ``rdfa="never"`` not at all.

Pure: no Scrapy, no I/O. A syntax whose reader fails on a page gives ``[]``
and is named in :attr:`Structured.failed`; the page never fails.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

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
_RDFA_IN_BODY = (
    f"boolean(//body//*[{_RDFA_DATA}] | //body[{_RDFA_DATA}] | /html[@vocab or @typeof])"
)
_RDFA_ANYWHERE = f"boolean(//*[{_RDFA_DATA} or @rel or @rev or @role])"


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
    skipped = _rdfa_skipped(page, root, rdfa)
    if skipped is None:
        try:
            data["rdfa"] = _read_rdfa(page.html, base)
        except Exception:  # noqa: BLE001 - pyRdfa and rdflib on hostile markup
            failed.append("rdfa")
    return Structured(data, tuple(failed), skipped)


def _rdfa_skipped(page: SourcePage, root: Any, mode: str) -> str | None:
    if mode == "never":
        return "off"
    try:
        if not root.xpath(_RDFA_ANYWHERE):
            return "none"
        if mode == "auto":
            if not root.xpath(_RDFA_IN_BODY):
                return "head"
            if len(page.html) > RDFA_MAX_CHARS:
                return "large"
    except (AttributeError, ValueError):
        return "none"
    return None


def _read_rdfa(html: str, base: str) -> list[Any]:
    """RDFa as extruct gives it (expanded JSON-LD), from a DOM tree parsed for pyRdfa."""
    from extruct.rdfa import RDFaExtractor
    from extruct.utils import parse_xmldom_html

    tree = parse_xmldom_html(html.replace("\x00", "").encode("utf-8", "replace"), "utf-8")
    items: list[Any] = RDFaExtractor().extract_items(tree, base_url=base)
    return items
