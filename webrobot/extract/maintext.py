"""The main text of a page: its article or main content as plain text.

:func:`main_text` returns the text without navigation, site footers, ads,
comments, cookie banners, share bars, related posts, donation pleas or script, one
paragraph, heading, list item, table row or code line a line, in whatever language
the page is in, or ``None`` when the page has none; :func:`main_reading` gives the
same text and its Markdown (``#`` headings, ``-`` lists, fenced code, tables) from
one reading. It reads the crawl's own lxml tree
(:attr:`SourcePage.root <webrobot.extract.page.SourcePage.root>`), so the page
is not parsed again; only when the crawl has no tree is ``SourcePage.html`` parsed.

How: trafilatura (a maintained extractor made for this, measured on public
benchmarks) reads one copy of the tree, its chrome pruned first and its headings'
self-links unwrapped (:func:`webrobot.extract.pagechrome.reading_tree`), the line
breaks of the page's source inside its paragraphs made spaces as a browser shows them
(:mod:`webrobot.extract.sourcebreaks`), a body that holds its text itself given the
``<main>`` trafilatura looks for (:mod:`webrobot.extract.bodycontent`), and lists that
lay the page out, as Javadoc's, made plain blocks (:mod:`webrobot.extract.layoutlists`),
the empty anchors on a code block's lines removed (:mod:`webrobot.extract.codeanchors`),
the permalink marks beside signatures (:mod:`webrobot.extract.permalinks`), tables that lay the page
out (a banner, a side column and the content; one table a post) unwrapped into blocks, a cell of
text a paragraph (:mod:`webrobot.extract.layouttables`), a paragraph that only links to another
article of the site left out (:mod:`webrobot.extract.seealso`), and a documentation theme's skip
links, tables of contents, breadcrumbs and version badges (:mod:`webrobot.extract.docchrome`),
with its options built once, and its extraction sequence run with the pruning walks of
:mod:`webrobot.extract.trafilaturacompat` (the same nodes pruned as trafilatura's own
XPath expressions prune, for less CPU). What the page declares itself chooses the reading
(:mod:`webrobot.extract.readingchoice`, from :mod:`webrobot.extract.pagekind`; a site's page that
calls itself an article and a web page is none: :mod:`webrobot.extract.sitepages`): a page that is
no article (a product, listing, service, documentation or forum page, whose content is spread over
several blocks) gets trafilatura's default (broad) reading, a product's on a tree without the nodes
trafilatura deletes unread (buttons, option lists), any other's with them, as trafilatura's
fallbacks would see it unaided (its retry of a short reading judged on the page as it came:
:mod:`webrobot.extract.pagemeasure`), on a page of cards (a listing, collection or documentation
page that declares no single thing) with the links that wrap whole cards made plain blocks, so
their titles and blurbs are not read as link lists (:mod:`webrobot.extract.listingcards`). An
article, on the tree without those nodes (and its headings readied:
:func:`webrobot.extract.pagechrome.headings`), is read favouring precision, without
trafilatura's fallback extractors, the empty inline elements of its paragraphs
removed first so that the text after them stays (:mod:`webrobot.extract.emptytails`);
a forum thread that calls itself an article and a discussion both is read as a
discussion, broadly. When that reading finds no block to read
the article from (a page builder's numbered wrappers) and gathers the page's loose
paragraphs without the headings and lists between them, the article is read again with the
block of its paragraphs named (:mod:`webrobot.extract.articleframe`); the lead the
precise reading drops with the article's header (the page's description, shown under the
headline) opens its text (:mod:`webrobot.extract.articlelead`). That precise reading drops the headline, teasers
and link lists around an article that trafilatura's default reading keeps, but on
some layouts it loses much of the article. A precise text of :data:`TRUSTED_LENGTH`
characters or more is kept as it is; a shorter one is checked against the default (broad) reading, and kept only when
it holds at least half of the broad text's word shingles (:mod:`webrobot.extract.shingles`); the
broad text takes its place otherwise. The paragraphs of an article cut into several containers
of one kind that the text lacks are added (:mod:`webrobot.extract.continuation`),
a first line repeating the page's title is dropped
(:mod:`webrobot.extract.headline`; not on a page that declares a product: the
product's name opens its text), and closing lines asking the reader for money
too. A reading that is the whole text of the page's ``<article>`` in one line
(trafilatura's last resort on a short page) is read again from that article one
block a line (:func:`webrobot.extract.sectionedpage.element_lines`). A page that is no article and whose text keeps only some of its many short
sections (a service or product landing page) is read whole from its main region
instead (:mod:`webrobot.extract.sectionedpage`). The text of a page that declares a product
(and no article) ends with the label and value lists of its specification it lacks
(:mod:`webrobot.extract.speclists`), and reads each of its long lines once
(:mod:`webrobot.extract.repeatedlines`). A forum thread whose posts are marked
as schema.org items (``Comment``, ``DiscussionForumPosting``, ``Answer``...) with their
writers is read as those posts, each after its writer's name, when the reading kept less
of them (:mod:`webrobot.extract.threadposts`). When the markup yields much less than the
``articleBody`` the page declares in its JSON-LD (pages built by JavaScript,
teasers of a paywall), and the two agree, the declared text is returned instead
(:mod:`webrobot.extract.articlebody`).

A large page (more than :data:`~webrobot.extract.largepage.LARGE_PAGE_ELEMENTS`
nodes in its tree: a link flood, a huge listing; a product page with more than
:data:`~webrobot.extract.largepage.LARGE_PRODUCT_ELEMENTS`, made large by its menus,
filters and recommendations, which trafilatura's fallbacks read in place of the
product's text) is read under a bound: an article's
precise reading is kept whatever its length, and the broad reading (read only when the
precise one finds nothing, or on a page that is no article) runs without trafilatura's fallback extractors (justext, readability,
a second recall pass), whose cost grows with the tree: 10 s of CPU on a 5 MB page of
180,000 nodes without the bound, under 2 s with it. All this costs less CPU than one
default trafilatura call on the page's HTML (``python -m benchmarks.quality.maintext``
measures both).

trafilatura logs a warning for a page it finds no text in (``discarding data``,
logger ``trafilatura``); the glue decides how loud that logger is.

``main_text(page, mode="fast")`` is the cheap reading the full-text index uses when
the mining's text part has not already read the page: resiliparse's main-content
extraction (a maintained C++ extractor made for web-archive text) on ``page.html``,
the same boilerplate dropped (menus, headers, footers, sidebars, cookie banners,
forms, link-only lists, reader comments, alt texts, ``<noscript>``), none of the
checks above. On the 181 pages of the article-extraction benchmark it costs about
1 ms of CPU a page against 16 ms, and 20 ms to start against 0.5 s for trafilatura's
import, for an F1 of 0.93 against 0.97 (``python -m benchmarks.quality.maintext``;
docs/search.md has the numbers and the reasons).

The full reading needs trafilatura, in the ``mining`` extra (``pip install
'webrobot[mining]'``); the fast one needs resiliparse, in the ``search`` extra.
Without its library :func:`main_text` raises :class:`webrobot.optional.MissingExtra`, an
:class:`ImportError` whose message names the extra: the glue reports it as "not
installed". Any page (broken markup, huge, empty, odd JSON-LD) gives a text or
``None``, never an exception.

Pure: no Scrapy, no I/O.
"""

from __future__ import annotations

import logging
import re
import unicodedata
from copy import copy
from dataclasses import dataclass
from functools import cache
from types import ModuleType
from typing import Any, Literal

from webrobot.extract import (
    articleframe,
    articlelead,
    pagemeasure,
    readingchoice,
    threadposts,
    trafilaturacompat,
)
from webrobot.extract.articlebody import declared_article_body
from webrobot.extract.bodycontent import wrap_body_content
from webrobot.extract.cardframes import read_as_cards
from webrobot.extract.codeanchors import without_line_anchors
from webrobot.extract.collectionpage import reading_kinds
from webrobot.extract.continuation import continued
from webrobot.extract.docchrome import without_doc_chrome
from webrobot.extract.emptytails import keep_empty_tails
from webrobot.extract.headline import without_headline
from webrobot.extract.largepage import is_large
from webrobot.extract.layoutlists import unlist_layout
from webrobot.extract.layouttables import unlay
from webrobot.extract.page import SourcePage
from webrobot.extract.pagechrome import reading_tree, without_pleas
from webrobot.extract.pagekind import declarations, declares_discussion
from webrobot.extract.permalinks import without_permalink_marks
from webrobot.extract.readingchoice import PageSignals, ReadingPlan
from webrobot.extract.references import with_references
from webrobot.extract.repeatedlines import without_repeats
from webrobot.extract.sectionedpage import element_lines, whole_reading
from webrobot.extract.seealso import without_see_also
from webrobot.extract.shingles import share_kept
from webrobot.extract.sourcebreaks import unwrap_source_breaks
from webrobot.extract.speclists import with_specifications
from webrobot.extract.textlayout import code_on_own_lines, without_date_line
from webrobot.optional import require
from webrobot.pages.wholetree import whole_root

FEATURE = "Main-text extraction (WEBROBOT_EXTRACT text)"
FAST_FEATURE = "Fast main-text extraction (the full-text index)"
#: ``"full"``: trafilatura with the checks of this module (the mining's ``text``
#: part); ``"fast"``: resiliparse alone (the full-text index). See the module doc.
Mode = Literal["full", "fast"]
MODES: tuple[Mode, ...] = ("full", "fast")
#: The precise reading is kept when it holds at least this share of the broad one.
KEEP_SHARE = 0.5
#: A precise reading shorter than this (characters) is checked against the broad one
#: (:mod:`webrobot.extract.readingchoice`).
TRUSTED_LENGTH = readingchoice.TRUSTED_LENGTH
#: The declared articleBody replaces a text from the markup shorter than this share of it...
DECLARED_SHARE = 0.5
#: ...when it holds at least this share of that text (they tell the same article).
DECLARED_AGREEMENT = 0.5
#: ...or when the markup's text is the declared one in a single line (trafilatura's own
#: rescue reads the JSON-LD and joins its paragraphs): the share of it the text holds.
SAME_TEXT = 0.9
_SPACES = re.compile(r"[^\S\n]+")
_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]+")
_BLANK_RUNS = re.compile(r"\n{3,}")
_HEADING_MARK = re.compile(r"^#{1,6} +")

logger = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class Reading:
    """One reading of a page's main content: as plain text (one paragraph, heading, list
    item, table row or code line a line) and as Markdown (``#`` headings, ``-`` lists,
    fenced code, tables). Either is ``None`` when nothing was found; true when there is
    Markdown."""

    text: str | None
    markdown: str | None

    def __bool__(self) -> bool:
        return bool(self.markdown)


def main_text(page: SourcePage, mode: Mode = "full") -> str | None:
    """The page's main content as plain text, one paragraph a line; ``None`` when
    nothing could be found. ``mode`` is ``"full"`` (trafilatura, the mining's reading)
    or ``"fast"`` (resiliparse, the index's; see the module doc). Raises
    :class:`~webrobot.optional.MissingExtra` when the mode's library is not installed,
    :class:`ValueError` for an unknown mode, and nothing else."""
    if mode == "fast":
        return fast_text(page)
    if mode != "full":
        raise ValueError(f"unknown main-text mode {mode!r}: expected one of {', '.join(MODES)}")
    return main_reading(page, markdown=False).text


def fast_text(page: SourcePage) -> str | None:
    """resiliparse's main content of ``page.html``, tidied like the full reading;
    ``None`` when there is none. Raises :class:`~webrobot.optional.MissingExtra`
    when resiliparse is not installed, and nothing else."""
    html2text = require("resiliparse.extract.html2text", "search", FAST_FEATURE)
    if not page.html or not page.html.strip():
        return None
    try:
        text = html2text.extract_plain_text(
            page.html, main_content=True, preserve_formatting=True, list_bullets=False,
            alt_texts=False, links=False, form_fields=False, noscript=False, comments=False,
        )  # fmt: skip
    except Exception:  # a page must never break the crawl
        logger.debug("resiliparse failed on %s", page.url, exc_info=True)
        return None
    return tidy(unicodedata.normalize("NFC", text))


def main_reading(page: SourcePage, markdown: bool = True) -> Reading:
    """The page's main content as plain text and as Markdown (unless ``markdown`` is
    false: then :attr:`Reading.markdown` is ``None``), from one reading. Raises
    :class:`~webrobot.optional.MissingExtra` when trafilatura is not installed, and
    nothing else."""
    trafilatura = require("trafilatura", "mining", FEATURE)
    tree = _tree(page, trafilatura)
    if tree is None:
        return Reading(None, None)
    found = declarations(tree)  # its meta tags and JSON-LD, read by the tests of its kind
    article, product, cards = reading_kinds(tree, found)  # a collection: cards, neither
    signals = PageSignals(
        article=article,
        large=is_large(tree, product),
        product=product,
        discussion=article and declares_discussion(tree, found=found),
    )
    reading = readingchoice.plan(signals)
    text, body = _markup_text(trafilatura, _prepared(tree, reading, cards), reading, tree)
    if text is None and page.html and _CONTROL.search(page.html):
        # lxml keeps control characters in an HTML tree but refuses to serialise
        # them, and trafilatura then discards the whole page: read it without them.
        cleaned = _tree(page, trafilatura, clean=True)
        if cleaned is not None:
            tree = cleaned
            prepared = _prepared(tree, reading, cards)
            text, body = _markup_text(trafilatura, prepared, reading, tree)
    rendered = _render(body, markdown=True) if markdown and body is not None else None
    lined = _article_lines(tree, reading, cards, text, body)
    if lined is not None:
        text, rendered = lined[0], (lined[1] if markdown else None)
    if text:
        try:
            # a product's name opens its text (wcxb's product pages and real shops' hold it)
            headless = text if signals.product else without_headline(text, tree)
            if headless != text and rendered:
                rendered = _without_first_heading(rendered)
            headless, rendered = without_date_line(headless, rendered, tree)
            text, rendered = with_references(continued(tree, headless), rendered, tree)
        except Exception:  # a page must never break the crawl
            logger.debug("continuations or headline of %s not read", page.url, exc_info=True)
        text = without_pleas(text)
        rendered = without_pleas(rendered) if rendered else rendered
        if reading.precise_first:
            text, rendered = articlelead.with_lead(tree, text, rendered)
    whole = None
    if not article and not signals.large:
        try:
            whole = whole_reading(tree, text, signals.product)
        except Exception:  # a page must never break the crawl
            logger.debug("main region of %s not read", page.url, exc_info=True)
    if whole is not None:
        text, rendered = whole
    if not reading.precise_first and not signals.product:
        text, rendered = threadposts.in_place(tree, text, rendered, signals.discussion)
    if signals.product:
        try:
            text, rendered = with_specifications(text, rendered, tree)
        except Exception:  # a page must never break the crawl
            logger.debug("specification lists of %s not read", page.url, exc_info=True)
        text, rendered = without_repeats(text, rendered)
    try:
        declared = declared_article_body(tree)
    except Exception:  # a page must never break the crawl
        logger.debug("JSON-LD of %s not read", page.url, exc_info=True)
        declared = None
    final = tidy(chosen := prefer_declared(text, declared))
    if markdown and final is not None and chosen is not text and final != tidy(text):
        rendered = final  # the declared articleBody: its paragraphs are all there is
    return Reading(final, _tidy_markdown(rendered) if final is not None else None)


def _markup_text(
    trafilatura: ModuleType, tree: Any, reading: ReadingPlan, page: Any = None
) -> tuple[str | None, Any]:
    """An article's precise reading when it suffices
    (:func:`~webrobot.extract.readingchoice.precise_suffices`), else the choice between
    it and the broad one; any other page's broad reading alone (both without fallbacks
    on a large page). With the body trafilatura read it from."""
    fast = not reading.fallbacks
    try:  # tables that lay the page out read as blocks; the paragraphs of the same walk
        paragraphs = without_see_also(unlay(tree), page) if tree is not None else []
    except Exception:  # a page must never break the crawl
        logger.debug("layout tables not read", exc_info=True)
        paragraphs = []
    if not reading.precise_first:
        with pagemeasure.measured_on(page if reading.page_measure else None):
            return _read(trafilatura, tree, fast=fast)
    keep_empty_tails(paragraphs)
    # a copy for the precise reading: the broad one may read the tree after it
    report = trafilaturacompat.ReadReport()
    precise, precise_body = _read(
        trafilatura, copy(tree), fast=True, favor_precision=True, report=report
    )
    if report.frameless and precise:
        precise, precise_body = articleframe.framed_reading(
            lambda framed: _read(trafilatura, framed, fast=True, favor_precision=True),
            tree,
            precise,
            precise_body,
        )
    if readingchoice.precise_suffices(precise, reading):
        return precise, precise_body
    broad, broad_body = _read(trafilatura, tree, fast=fast)
    chosen = choose(precise, broad)
    return chosen, precise_body if chosen is precise else broad_body


def _article_lines(
    tree: Any, reading: ReadingPlan, cards: bool, text: str | None, body: Any
) -> tuple[str, str] | None:
    """The text and Markdown of the page's ``<article>`` one block a line, when ``text``
    is that article's whole text in one line (:data:`SAME_TEXT` of it, icons and
    symbols aside): trafilatura's last resort when its reading
    is short (a documentation page of a few lines), which runs headings, paragraphs and
    list items together. ``None`` otherwise."""
    if not text or "\n" in text or body is None or len(body) != 1 or len(body[0]):
        return None
    flat = " ".join(text.split())
    try:
        prepared = _prepared(tree, reading, cards)
        for article in prepared.iter("article") if prepared is not None else ():
            whole = " ".join(article.text_content().split())
            if flat in whole and len(flat) >= SAME_TEXT * len(whole):
                return element_lines(article)
    except Exception:  # a page must never break the crawl
        logger.debug("article lines not read", exc_info=True)
    return None


def choose(precise: str | None, broad: str | None) -> str | None:
    """The precise reading when it keeps at least :data:`KEEP_SHARE` of the broad
    one (it only trimmed boilerplate), else the broad one (it lost the article)."""
    if not precise:
        return broad
    if not broad or precise == broad:
        return precise
    return precise if share_kept(broad, precise) >= KEEP_SHARE else broad


def prefer_declared(text: str | None, declared: str | None) -> str | None:
    """The JSON-LD ``articleBody`` instead of the markup's text when the markup gave
    nothing, or less than :data:`DECLARED_SHARE` of it and the two agree, or the
    same text with its paragraphs joined into one line."""
    if not declared:
        return text
    if not text:
        return declared
    if len(text) < DECLARED_SHARE * len(declared) and (
        share_kept(text, declared) >= DECLARED_AGREEMENT
    ):
        return declared
    if "\n" not in text and "\n" in declared and share_kept(declared, text) >= SAME_TEXT:
        return declared  # the same text, read from the JSON-LD with its paragraphs lost
    return text


def tidy(text: str | None) -> str | None:
    """Control characters dropped, runs of spaces made one, lines stripped, empty
    lines dropped; ``None`` if nothing is left."""
    if not text:
        return None
    if _CONTROL.search(text) is None:  # split and joined: the same lines for half the CPU
        return "\n".join(filter(None, map(" ".join, map(str.split, text.splitlines())))) or None
    lines = (_SPACES.sub(" ", _CONTROL.sub("", line)).strip() for line in text.splitlines())
    return "\n".join(line for line in lines if line) or None


def _tree(page: SourcePage, trafilatura: ModuleType, clean: bool = False) -> Any:
    """The crawl's tree when it is an HTML tree, else a parse of ``page.html`` (without
    its control characters when ``clean``); ``None`` when there is nothing to read."""
    from lxml.html import HtmlElement

    if isinstance(page.root, HtmlElement) and not clean:
        return page.root
    html = _CONTROL.sub("", page.html or "") if clean else page.html
    if not html or not html.strip():
        return None
    try:
        tree = whole_root(trafilatura.load_html(html), html, page.url)
    except Exception:  # a page must never break the crawl
        logger.debug("%s not parsed", page.url, exc_info=True)
        return None
    return tree if isinstance(tree, HtmlElement) else None


def _prepared(tree: Any, reading: ReadingPlan, cards: bool = False) -> Any:
    """The copy of ``tree`` trafilatura reads (see
    :func:`~webrobot.extract.pagechrome.reading_tree`), its whole-card links unwrapped if
    ``cards`` (:func:`~webrobot.extract.cardframes.read_as_cards`), then the source's
    line breaks, a body's loose content, layout lists, code-line anchors, permalink
    marks and documentation chrome mended (the modules the module doc names), or a
    copy of ``tree`` as it is if that fails (``None`` if that fails too): a copy the
    readings may change."""
    try:
        prepared = reading_tree(tree, unread=reading.prune_unread, entries=reading.precise_first)
        if cards:
            read_as_cards(prepared)
        unwrap_source_breaks(prepared)
        wrap_body_content(prepared)
        unlist_layout(prepared)
        without_line_anchors(prepared)
        without_permalink_marks(prepared)
        without_doc_chrome(prepared)
        return prepared
    except Exception:  # a page must never break the crawl
        logger.debug("tree not pruned", exc_info=True)
    try:
        return copy(tree)
    except Exception:  # a page must never break the crawl
        logger.debug("tree not copied", exc_info=True)
        return None


@cache
def _options(fast: bool = False, favor_precision: bool = False) -> Any:
    """trafilatura's options for one kind of reading, built once (reading its
    configuration costs a tenth of a millisecond a reading): no comments, tables kept,
    no metadata, no formatting (the Markdown is rendered from the body it reads)."""
    from trafilatura.settings import Extractor

    return Extractor(
        output_format="python",
        fast=fast,
        precision=favor_precision,
        comments=False,
        tables=True,
        with_metadata=False,
    )


def _read(
    trafilatura: ModuleType,
    tree: Any,
    report: trafilaturacompat.ReadReport | None = None,
    **options: bool,
) -> tuple[str | None, Any]:
    """One trafilatura reading of ``tree``, which the reading changes (give it a copy
    of the crawl's tree, and a copy of its own to any reading but the last of a tree):
    its text and the body it read (what else it found noted in ``report``)."""
    from lxml.html import HtmlElement

    if not isinstance(tree, HtmlElement):
        return None, None
    try:
        text, body = trafilaturacompat.read(tree, _options(**options), report)
        if body is None:
            return None, None
        if code_on_own_lines(body):
            text = trafilaturacompat.render(body, False)
        # the body's plain text, which trafilatura has just rendered
        return tidy(unicodedata.normalize("NFC", text or "")), body
    except Exception:  # a page must never break the crawl
        logger.debug("trafilatura failed", exc_info=True)
        return None, None


def _render(body: Any, markdown: bool) -> str:
    """trafilatura's text of ``body`` (as its ``txt`` or ``markdown`` output), NFC."""
    return unicodedata.normalize("NFC", trafilaturacompat.render(body, markdown))


def _without_first_heading(markdown: str) -> str:
    """``markdown`` without its first line when that line is a heading (the headline the
    text dropped too)."""
    first, _, rest = markdown.lstrip("\n").partition("\n")
    return rest if _HEADING_MARK.match(first) else markdown


def _tidy_markdown(markdown: str | None) -> str | None:
    """Control characters dropped, trailing spaces stripped, at most one empty line in a
    row; ``None`` if nothing is left. Indentation (code, nested lists) is kept."""
    if not markdown:
        return None
    lines = (_CONTROL.sub("", line).rstrip() for line in markdown.splitlines())
    return _BLANK_RUNS.sub("\n\n", "\n".join(lines)).strip("\n") or None
