"""Every use of a private part of trafilatura, in one place.

The main text (:mod:`webrobot.extract.maintext`) reads a page with trafilatura's own
extraction sequence; this module runs that sequence for less CPU and the same result:

- :func:`read` runs ``trafilatura.core.trafilatura_sequence`` (cleaning, tag conversion,
  main extractor, fallbacks, rescue) on a tree the caller gives away, where the public
  ``bare_extraction`` first copies the tree, and then renders the body as
  ``bare_extraction`` does (``trafilatura.xml.xmltotxt``), with its size check.
- During :func:`read`, eight of the XPath expressions trafilatura prunes the tree with
  (:data:`FAST_PRUNES`: comment sections, infinite-scroll containers, share bars,
  boilerplate by id and class, hidden nodes, precision's "bottom" and "link" blocks, and
  the basic cleaning before its baseline and justext readings) are answered by a walk of
  the elements of the tags they name, testing the same regular expressions in Python.
  Each such expression tests EXSLT regular expressions on every element of the tree
  through a call back into Python; the walk selects the same nodes, in the same order,
  at a fraction of the cost. A stand-in is put in the place of each expression (in
  trafilatura's lists, or in the module that uses it) only when the expression's text is
  the one translated (its regular expressions are read from it), and it answers with the
  original expression outside :func:`read`, so every other caller of trafilatura in the
  process (``trafilatura.extract`` itself) runs exactly as before.
- During :func:`read`, no copies of the tree it never reads (:mod:`.trafilaturacopies`).
- :func:`body_expressions` gives the expressions trafilatura finds a page's content
  block with (``trafilatura.xpaths.BODY_XPATH``), which :mod:`.cardframes` tries.
- A :class:`ReadReport` given to :func:`read` says whether a reading favouring precision
  found no block and fell back on ``recover_wild_text`` (loose paragraphs, no headings).
- During :func:`read`, trafilatura's jusText fallback makes its paragraphs with
  :func:`webrobot.extract.justextcompat.make_paragraphs` (the same paragraphs, for about a
  third of the CPU) and reuses the set of its stop words
  (:class:`webrobot.extract.justextcompat.StopListCache`); outside it, jusText's own.

The private parts used are those of trafilatura 2.3 (hence the dependency range
``trafilatura>=2.3.1,<2.4``): ``tests/test_trafilaturacompat.py`` checks their names,
signatures and the expressions' text on the installed version, and that each walk
selects what its expression selects, so a release that moves one fails a test instead
of changing the text.

Pure: no Scrapy, no I/O.
"""

from __future__ import annotations

import importlib
import logging
import re
from collections.abc import Callable, Iterator
from contextvars import ContextVar
from dataclasses import dataclass
from functools import cache
from typing import Any

from webrobot.extract import justextcompat, trafilaturacopies
from webrobot.optional import require

FEATURE = "Main-text extraction (WEBROBOT_EXTRACT text)"
logger = logging.getLogger(__name__)

#: True while :func:`read` runs, in this thread: the stand-ins walk by tag then.
_WALKING: ContextVar[bool] = ContextVar("webrobot_trafilatura_walking", default=False)


@dataclass
class ReadReport:
    """What one :func:`read` found beyond its text: ``frameless`` when its main pass,
    favouring precision, found no block and it gathered the loose paragraphs instead."""

    frameless: bool = False


#: The report of the :func:`read` running in this thread, if it asked for one.
_REPORT: ContextVar[ReadReport | None] = ContextVar("webrobot_trafilatura_report", default=None)
_LITERAL = re.compile(r"re:test\(([^,()]+), '([^']*)'(, 'i')?\)")


def skeleton(path: str) -> tuple[str, list[str]]:
    """An XPath expression's text with the regular expressions of its ``re:test`` calls
    taken out (and its white space collapsed), and those regular expressions in order."""
    found: list[str] = []

    def take(match: re.Match[str]) -> str:
        found.append(match.group(2))
        return f"re:test({match.group(1)}, {{}}{match.group(3) or ''})"

    return " ".join(_LITERAL.sub(take, path).split()), found


def _first(element: Any, first: str, second: str) -> str:
    """The XPath string value of ``@first|@second`` on ``element``: the value of the one
    of the two that comes first in its attributes, ``""`` when neither is there."""
    a, b = element.get(first), element.get(second)
    if a is None:
        return b or ""
    if b is None:
        return a
    for name in element.keys():  # noqa: SIM118 - an element is no dict
        if name == first:
            return a
        if name == second:
            return b
    return a  # not reached: both were found


Test = Callable[[Any], bool]


def _raw_tree_prune(rx: list[re.Pattern[str]]) -> tuple[tuple[str, ...] | None, Test]:
    scroll_id, scroll_class, added_id, added_class = rx

    def test(e: Any) -> bool:
        i, c = e.get("id") or "", e.get("class") or ""
        if not (scroll_id.search(i) or scroll_class.search(c)):
            return False
        no_h1 = next(e.iterdescendants("h1"), None) is None
        return bool(no_h1 or added_id.search(i) or added_class.search(c))

    return ("div", "section", "aside"), test


def _share_buttons(rx: list[re.Pattern[str]]) -> tuple[tuple[str, ...] | None, Test]:
    tags = ("div", "section", "aside")
    return tags, lambda e: "elementor-share-buttons" in (e.get("class") or "")


def _comments_and_lists(rx: list[re.Pattern[str]]) -> tuple[tuple[str, ...] | None, Test]:
    any_id, any_class, list_id, list_class = rx

    def test(e: Any) -> bool:
        i, c = e.get("id") or "", e.get("class") or ""
        return bool(
            (any_id.search(i) or any_class.search(c))
            and (e.tag not in ("ol", "ul") or list_id.search(i) or list_class.search(c))
        )

    return ("div", "list", "section", "details", "ol", "ul"), test


def _comments(rx: list[re.Pattern[str]]) -> tuple[tuple[str, ...] | None, Test]:
    by_id, by_class = rx
    return ("div", "list", "section", "details"), lambda e: bool(
        by_id.search(e.get("id") or "") or by_class.search(e.get("class") or "")
    )


def _boilerplate(rx: list[re.Pattern[str]]) -> tuple[tuple[str, ...] | None, Test]:
    consent, by_id, by_class = rx

    def test(e: Any) -> bool:
        return bool(
            e.get("data-lp-replacement-content") is not None
            or "nav" in (e.get("role") or "").replace("N", "n")
            or "MostPopularStories" in (e.get("data-component") or "")
            or consent.search(_first(e, "id", "class"))
            or by_id.search(e.get("id") or "")
            or by_class.search(e.get("class") or "")
        )

    return ("div", "item", "list", "p", "section", "span"), test


def _hidden(rx: list[re.Pattern[str]]) -> tuple[tuple[str, ...] | None, Test]:
    hidden, by_id, by_class = rx
    # an element without id, class or style passes only by its aria-hidden, unless one of
    # the expressions matches nothing
    shortcut = not any(expression.search("") for expression in rx)

    def test(e: Any) -> bool:
        i, c, s = e.get("id"), e.get("class"), e.get("style") or ""
        if shortcut and i is None and c is None and not s:
            return e.get("aria-hidden") == "true"
        return bool(
            c == "comments-title"
            or _first(e, "id", "class").startswith("reply-")
            or hidden.search(_first(e, "id", "style"))
            or "display:none" in s
            or "display: none" in s
            or by_id.search(i or "")
            or by_class.search(c or "")
            or e.get("aria-hidden") == "true"
        )

    return None, test


def _bottom_links(rx: list[re.Pattern[str]]) -> tuple[tuple[str, ...] | None, Test]:
    bottom, link = rx

    def test(e: Any) -> bool:
        first = _first(e, "id", "class")
        return bool(
            bottom.search(first) or link.search(first) or "border" in (e.get("style") or "")
        )

    return ("div", "item", "list", "p", "section", "span"), test


def _basic_cleaning(rx: list[re.Pattern[str]]) -> tuple[tuple[str, ...] | None, Test]:
    by_class, by_id = rx
    dropped = frozenset(("aside", "fencedframe", "footer", "script", "style", "svg", "template"))

    def test(e: Any) -> bool:
        tag = e.tag
        return bool(
            tag in dropped
            or (tag == "div" and "footer" in _first(e, "class", "id"))
            or by_class.search(e.get("class") or "")
            or by_id.search(e.get("id") or "")
        )

    return None, test


Walk = Callable[[list[re.Pattern[str]]], tuple[tuple[str, ...] | None, Test]]


@dataclass(frozen=True, slots=True)
class Prune:
    """One of trafilatura's pruning expressions, answered by a walk."""

    #: The name that holds it in ``module``: a list (and its place there, ``index``) or
    #: the expression itself (``index`` is ``None``).
    name: str
    index: int | None
    #: Its text with its regular expressions taken out (:func:`skeleton`)...
    text: str
    #: ...how many they are...
    count: int
    #: ...and the walk, built from them: the tags it walks (``None``: all) and its test.
    walk: Walk
    module: str = "trafilatura.xpaths"

    @property
    def label(self) -> str:
        where = "" if self.index is None else f"[{self.index}]"
        return f"{self.module}.{self.name}{where}"


#: The expressions answered by a walk.
FAST_PRUNES: tuple[Prune, ...] = (
    Prune(
        "RAW_TREE_PRUNE_XPATH", 0,
        (".//*[self::div or self::section or self::aside][ re:test(@id, {}) or"
        " re:test(@class, {})][ not(.//h1) or re:test(@id, {}) or re:test(@class, {})]"),
        4, _raw_tree_prune,
    ),
    Prune(
        "RAW_TREE_PRUNE_XPATH", 1,
        (".//*[self::div or self::section or self::aside]"
        "[contains(@class, 'elementor-share-buttons')]"),
        0, _share_buttons,
    ),
    Prune(
        "REMOVE_COMMENTS_AND_LISTS_XPATH", 0,
        (".//*[self::div or self::list or self::section or self::details or self::ol or"
        " self::ul][ re:test(@id, {}) or re:test(@class, {})][ not(self::ol or self::ul) or"
        " re:test(@id, {}) or re:test(@class, {})]"),
        4, _comments_and_lists,
    ),
    Prune(
        "REMOVE_COMMENTS_XPATH", 0,
        (".//*[self::div or self::list or self::section or self::details][ re:test(@id, {}) or"
        " re:test(@class, {})]"),
        2, _comments,
    ),
    Prune(
        "OVERALL_DISCARD_XPATH", 0,
        (".//*[self::div or self::item or self::list or self::p or self::section or self::span]["
        " @data-lp-replacement-content or contains(translate(@role, 'N', 'n'), 'nav') or"
        " contains(@data-component, 'MostPopularStories') or re:test(@id|@class, {}) or"
        " re:test(@id, {}) or re:test(@class, {})]"),
        3, _boilerplate,
    ),
    Prune(
        "OVERALL_DISCARD_XPATH", 1,
        (".//*[@class='comments-title' or starts-with(@id|@class, 'reply-') or"
        " re:test(@id|@style, {}) or contains(@style, 'display:none') or contains(@style,"
        " 'display: none') or re:test(@id, {}) or re:test(@class, {}) or @aria-hidden='true']"),
        3, _hidden,
    ),
    Prune(
        "PRECISION_DISCARD_XPATH", 1,
        (".//*[self::div or self::item or self::list or self::p or self::section or self::span]["
        " re:test(@id|@class, {}) or re:test(@id|@class, {}) or contains(@style, 'border')]"),
        2, _bottom_links,
    ),
    Prune(
        # the cleaning of the baseline extractor, of justext's input and of the page
        # measure trafilatura compares a short reading with
        "BASIC_CLEAN_XPATH", None,
        (".//aside|.//div[contains(@class|@id, 'footer')]|.//fencedframe|.//footer|.//script"
        "|.//style|.//svg|.//template|.//*[re:test(@class, {}, 'i') or re:test(@id, {}, 'i')]"),
        2, _basic_cleaning, "trafilatura.baseline",
    ),
)  # fmt: skip


class TagWalk:
    """Stands in for one of trafilatura's XPath expressions: inside :func:`read`, the
    elements below the context node (of ``tags``, or all) that pass ``test``, in
    document order; elsewhere, what the expression itself returns. Anything else asked
    of it is the expression's."""

    def __init__(self, expression: Any, tags: tuple[str, ...] | None, test: Test) -> None:
        self.expression = expression
        self.tags = tags
        self.test = test

    def walk(self, tree: Any) -> list[Any]:
        """The nodes the expression selects below ``tree``, found by the walk."""
        from lxml.etree import Element

        elements: Iterator[Any] = (
            tree.iterdescendants(*self.tags) if self.tags else tree.iterdescendants(Element)
        )
        return [element for element in elements if self.test(element)]

    def __call__(self, tree: Any, **variables: Any) -> Any:
        if _WALKING.get() and not variables:
            return self.walk(tree)
        return self.expression(tree, **variables)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.expression, name)


def stand_in(expression: Any, prune: Prune) -> TagWalk | None:
    """A :class:`TagWalk` for ``expression`` when its text is the one ``prune``
    translated once its regular expressions are taken out, else ``None`` (the
    expression has changed: it stays as it is)."""
    path = getattr(expression, "path", None)
    if not isinstance(path, str):
        return None
    shape, literals = skeleton(path)
    if shape != prune.text or len(literals) != prune.count:
        return None
    # lxml's EXSLT re:test compiles its pattern so, case-insensitive with the flag "i"
    flags = re.IGNORECASE if ", 'i')" in shape else 0
    try:
        tags, test = prune.walk([re.compile(literal, flags) for literal in literals])
    except re.error:
        return None
    return TagWalk(expression, tags, test)


class ParagraphMakerStandIn:
    """Stands in for ``justext.core.ParagraphMaker`` where trafilatura's jusText fallback
    uses it: inside :func:`read`, its paragraphs made by
    :func:`webrobot.extract.justextcompat.make_paragraphs`; elsewhere (or on a tree that
    walk does not replay), by jusText. Anything else asked of it is jusText's."""

    def __init__(self, maker: Any) -> None:
        self.maker = maker

    def make_paragraphs(self, root: Any) -> Any:
        if not _WALKING.get():
            return self.maker.make_paragraphs(root)
        try:
            return justextcompat.make_paragraphs(root)
        except justextcompat.UnusualNode:
            # a node the plain walk does not replay (an entity): jusText reads the tree as
            # it would unaided, so its answer (or its error) stays trafilatura's to handle
            return self.maker.make_paragraphs(root)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.maker, name)


class StopListStandIn:
    """Stands in for ``justext.core.define_stoplist``: inside :func:`read`, the set made
    for the same stop list last time (:class:`webrobot.extract.justextcompat.StopListCache`);
    elsewhere, jusText's own."""

    def __init__(self, define: Callable[[Any], frozenset[str]]) -> None:
        self.define = define
        self.cache = justextcompat.StopListCache(define)

    def __call__(self, stoplist: Any) -> frozenset[str]:
        return self.cache(stoplist) if _WALKING.get() else self.define(stoplist)


@cache
def install_justext() -> int:
    """Puts the jusText stand-ins in place, once (where the names they replace are still
    jusText's classes and functions); how many are in place."""
    try:
        external = importlib.import_module("trafilatura.external")
        justext_core = importlib.import_module("justext.core")
    except ImportError:
        return 0
    placed = 0
    maker = getattr(external, "ParagraphMaker", None)
    if maker is justext_core.ParagraphMaker and callable(getattr(maker, "make_paragraphs", None)):
        setattr(external, "ParagraphMaker", ParagraphMakerStandIn(maker))  # noqa: B010
        placed += 1
    elif isinstance(maker, ParagraphMakerStandIn):
        placed += 1
    define = getattr(justext_core, "define_stoplist", None)
    if isinstance(define, StopListStandIn):
        placed += 1
    elif callable(define):
        setattr(justext_core, "define_stoplist", StopListStandIn(define))  # noqa: B010
        placed += 1
    if placed < 2:
        logger.info("justext's paragraph maker or stop list has changed: read as it is")
    return placed


class RecoveryWatch:
    """Stands in for ``trafilatura.main_extractor.recover_wild_text`` and calls it, noting
    in the :class:`ReadReport` of the :func:`read` running, if any, a reading favouring
    precision that comes to it with nothing found by the main pass."""

    def __init__(self, recover: Callable[..., Any]) -> None:
        self.recover = recover

    def __call__(self, tree: Any, result_body: Any, options: Any, *args: Any, **kw: Any) -> Any:
        report = _REPORT.get()
        if report is not None and len(result_body) == 0 and options.focus == "precision":
            report.frameless = True
        return self.recover(tree, result_body, options, *args, **kw)


@cache
def install() -> int:
    """Puts the stand-ins in trafilatura's place, once; how many of the pruning walks
    are in place (:func:`install_justext` puts jusText's in place too; and the
    :class:`RecoveryWatch` and :mod:`~webrobot.extract.trafilaturacopies`)."""
    require("trafilatura", "mining", FEATURE)
    install_justext()
    extractor = importlib.import_module("trafilatura.main_extractor")
    if not isinstance(extractor.recover_wild_text, RecoveryWatch):
        setattr(extractor, "recover_wild_text", RecoveryWatch(extractor.recover_wild_text))  # noqa: B010
    trafilaturacopies.install(_WALKING.get)
    placed = 0
    for prune in FAST_PRUNES:
        try:
            module = importlib.import_module(prune.module)
        except ImportError:
            continue
        holder: Any = getattr(module, prune.name, None)
        if prune.index is None:
            current = holder
        elif isinstance(holder, list) and prune.index < len(holder):
            current = holder[prune.index]
        else:
            continue
        replacement = current if isinstance(current, TagWalk) else stand_in(current, prune)
        if replacement is None:
            logger.info("trafilatura's %s has changed: read as it is", prune.label)
            continue
        if prune.index is None:
            setattr(module, prune.name, replacement)
        else:
            holder[prune.index] = replacement
        placed += 1
    return placed


def read(tree: Any, options: Any, report: ReadReport | None = None) -> tuple[str | None, Any]:
    """trafilatura's reading of ``tree`` (an HTML tree this reading may change: give it a
    copy) with ``options`` (a ``trafilatura.settings.Extractor`` without metadata,
    comments, language or duplicate checks, its output format ``"python"``): the body's
    text as ``bare_extraction`` renders it and the body, or ``(None, None)`` when
    trafilatura finds too little text (``bare_extraction`` returns ``None`` then). What
    the reading found beyond that is noted in ``report`` when one is given."""
    from lxml.etree import strip_tags
    from trafilatura.core import trafilatura_sequence
    from trafilatura.xml import xmltotxt

    install()
    token = _WALKING.set(True)
    watched = _REPORT.set(report)
    try:
        body, text, _, comments = trafilatura_sequence(tree, options, options.url)
    except (TypeError, ValueError):  # what bare_extraction reads as "nothing found"
        logging.getLogger("trafilatura.core").warning("discarding data: %s", options.source)
        return None, None
    finally:
        _REPORT.reset(watched)
        _WALKING.reset(token)
    if options.max_tree_size and len(body) > options.max_tree_size:
        strip_tags(body, "hi")
        if len(body) > options.max_tree_size:
            return None, None
    if len(text) < options.min_output_size and len(comments) < options.min_output_comm_size:
        logging.getLogger("trafilatura.core").warning("discarding data: %s", options.source)
        return None, None
    return xmltotxt(body, options.formatting), body


def render(body: Any, markdown: bool) -> str:
    """trafilatura's text of ``body`` (its ``txt`` output, or its ``markdown`` one)."""
    from trafilatura.xml import xmltotxt

    return str(xmltotxt(body, markdown))


def body_expressions() -> tuple[Any, ...]:
    """The expressions trafilatura finds a page's content block with, in its order."""
    return tuple(importlib.import_module("trafilatura.xpaths").BODY_XPATH)
