"""Each private part of trafilatura that webrobot.extract.trafilaturacompat uses is still
there on the installed version, and what it runs in their place gives what they give:
the walks select the nodes trafilatura's expressions select, and a reading is
``bare_extraction``'s."""

from __future__ import annotations

import gzip
import importlib
import inspect
import json
from copy import copy
from pathlib import Path
from typing import Any

import lxml.html
import pytest
from lxml.etree import XPath, tostring

trafilatura = pytest.importorskip("trafilatura")


from trafilatura.core import trafilatura_sequence
from trafilatura.htmlprocessing import convert_tags, tree_cleaning
from trafilatura.settings import Extractor
from trafilatura.xml import xmltotxt

from benchmarks.quality.maintext import default_data
from webrobot.extract import trafilaturacompat
from webrobot.extract.trafilaturacompat import FAST_PRUNES, Prune, TagWalk, read, stand_in

FIXTURES = Path(__file__).parent / "fixtures" / "maintext"
NS = {"re": "http://exslt.org/regular-expressions"}

#: Pages written to meet each test of each expression: attribute order (``@id|@class`` is
#: the first of the two in the element), absent and empty attributes, an upper-case N in
#: a role, a heading inside an infinite-scroll box, lists named as comments, hidden nodes.
EDGES = """<html><head><title>t</title></head><body>
<div class="infinite-scroll"><h1>kept: holds the headline</h1><p>a</p></div>
<section id="infinite_scroll">dropped</section><aside class="infinitescroll">x</aside>
<div class="mvp-post-add-box"><h1>dropped all the same</h1></div>
<div class="x elementor-share-buttons">share</div><span class="elementor-share-buttons">s</span>
<div id="comments"><p>c</p></div><div id="commentary">kept</div><div class="Comment-list">c</div>
<ul id="comol"><li>c</li></ul><ol class="article-comments"><li>c</li></ol>
<ul id="disqus_thread"><li>kept: a list needs a comment id of its own</li></ul>
<details class="post-comments">d</details><section id="dsq-comments">d</section>
<div role="Navigation">n</div><div role="NAV">kept: only N is lowered</div>
<p data-lp-replacement-content="">p</p><span data-component="MostPopularStories">m</span>
<div class="cookie-bar" id="main">class first: dropped</div>
<div id="main" class="cookie-bar">id first: kept by the cookie test</div>
<div id="cookie" class="main">dropped</div><p class="sidebar">s</p><p id="sidebar">s</p>
<p class="comments-title">t</p><p id="reply-1" class="a">r</p><p class="a" id="reply-1">kept</p>
<p style="color: red" id="hidden-box">kept: style comes first</p>
<p id="hidden-box" style="color: red">dropped</p><b style="display:none">h</b>
<i style="display: none">h</i><em aria-hidden="true">h</em><em aria-hidden="false">k</em>
<div id="akismet-x">a</div><div class="noprint">n</div><div class="x hidden">h</div>
<div class="bottom-bar">b</div><div id="x" class="link">kept: id first</div>
<p class="link">l</p><div style="border: 1px">b</div><div class="">e</div><div id="">e</div>
<p>Body text <a href="#">link</a> that stays.</p></body></html>"""


def _expression(prune: Prune) -> Any:
    holder = getattr(importlib.import_module(prune.module), prune.name)
    current = holder if prune.index is None else holder[prune.index]
    return current.expression if isinstance(current, TagWalk) else current


def _stand_ins() -> list[tuple[str, Any, TagWalk]]:
    found = []
    for prune in FAST_PRUNES:
        label = prune.label
        expression = _expression(prune)
        replacement = stand_in(expression, prune)
        assert replacement is not None, f"trafilatura's {label} is not the one translated"
        found.append((label, expression, replacement))
    return found


def _trees(html: str) -> list[Any]:
    """The page's tree, and the same cleaned and converted as trafilatura reads it (its
    lists and items are ``list`` and ``item`` elements then)."""
    tree = lxml.html.fromstring(html)
    options = Extractor(output_format="python", comments=False, tables=True)
    return [tree, convert_tags(tree_cleaning(copy(tree), options), options)]


def _pages() -> list[str]:
    pages = [EDGES] + [
        (path / "page.html").read_text("utf-8") for path in sorted(FIXTURES.iterdir())
    ]
    truth = default_data() / "article-extraction-benchmark" / "ground-truth.json"
    if truth.is_file():  # a sample of real pages where the public benchmark is at hand
        for key in sorted(json.loads(truth.read_text("utf-8")))[::12]:
            path = truth.parent / "html" / f"{key}.html.gz"
            pages.append(gzip.decompress(path.read_bytes()).decode("utf-8"))
    return pages


def test_the_private_parts_are_there_with_the_signatures_used() -> None:
    assert list(inspect.signature(trafilatura_sequence).parameters)[:3] == [
        "tree",
        "options",
        "url",
    ]
    assert list(inspect.signature(xmltotxt).parameters)[:2] == ["xmloutput", "include_formatting"]
    options = Extractor(output_format="python", comments=False, with_metadata=False)
    for attribute in ("url", "source", "formatting", "max_tree_size"):
        assert hasattr(options, attribute), attribute
    assert isinstance(options.min_output_size, int)
    assert isinstance(options.min_output_comm_size, int)


def test_the_content_block_expressions_are_trafilaturas_and_find_a_block() -> None:
    expressions = trafilaturacompat.body_expressions()
    assert expressions and all(isinstance(e, XPath) for e in expressions)
    page = lxml.html.fromstring("<html><body><article><p>Text</p></article></body></html>")
    assert any(e(page) for e in expressions)


def test_every_expression_translated_is_the_installed_one() -> None:
    assert len(_stand_ins()) == len(FAST_PRUNES)
    assert trafilaturacompat.install() == len(FAST_PRUNES)
    assert isinstance(importlib.import_module("trafilatura.baseline").BASIC_CLEAN_XPATH, TagWalk)
    for prune in FAST_PRUNES:
        holder = getattr(importlib.import_module(prune.module), prune.name)
        assert isinstance(holder if prune.index is None else holder[prune.index], TagWalk)


@pytest.mark.parametrize("page", range(len(_pages())))
def test_each_walk_selects_what_its_expression_selects(page: int) -> None:
    for tree in _trees(_pages()[page]):
        for label, expression, replacement in _stand_ins():
            expected = expression(tree)
            found = replacement.walk(tree)
            assert [id(node) for node in found] == [id(node) for node in expected], label
            for node in tree.iter("div", "p", "section", "list"):  # any context node too
                assert replacement.walk(node) == expression(node), label


def test_the_edge_page_exercises_each_walk() -> None:
    """Each expression selects something on the page written for it, so the comparison
    above is not between two empty lists."""
    trees = _trees(EDGES)
    for label, expression, _ in _stand_ins():
        assert any(expression(tree) for tree in trees), label


def test_a_changed_expression_is_left_as_it_is() -> None:
    prune = FAST_PRUNES[3]
    changed = XPath(
        ".//*[self::div or self::section][re:test(@id, 'x') or re:test(@class, 'y')]",
        namespaces=NS,
    )
    assert stand_in(changed, prune) is None
    assert stand_in(object(), prune) is None
    broken = XPath(
        ".//*[self::div or self::list or self::section or self::details]"
        "[re:test(@id, '(') or re:test(@class, 'x')]",
        namespaces=NS,
    )
    assert stand_in(broken, prune) is None


def test_outside_a_reading_a_stand_in_answers_with_its_expression() -> None:
    _, expression, _ = _stand_ins()[3]
    never = TagWalk(expression, ("div",), lambda element: False)
    tree = lxml.html.fromstring(EDGES)
    assert never(tree) == expression(tree) != []
    assert never.path == expression.path


@pytest.mark.parametrize(
    "options",
    [
        {"fast": True, "precision": True},
        {"fast": False},
        {"fast": True},
    ],
)
def test_a_reading_is_bare_extractions(options: dict[str, bool]) -> None:
    built = Extractor(
        output_format="python", comments=False, tables=True, with_metadata=False, **options
    )
    for html in _pages():
        tree = lxml.html.fromstring(html)
        document = trafilatura.bare_extraction(tree, options=built)
        text, body = read(copy(tree), built)
        if document is None:
            assert (text, body) == (None, None)
            continue
        assert text == document.text
        assert tostring(body) == tostring(document.body)


def test_too_little_text_reads_as_nothing() -> None:
    built = Extractor(output_format="python", comments=False, with_metadata=False)
    assert read(lxml.html.fromstring("<html><body><div></div></body></html>"), built) == (
        None,
        None,
    )


def test_a_reading_that_never_reads_them_makes_no_copies() -> None:
    """The preparation stand-in: in a fast reading without comments no backup, and in
    one that favours precision the given tree itself cleaned; in any other reading, and
    outside a reading, trafilatura's own preparation (a copy and a backup)."""
    from webrobot.extract.trafilaturacopies import PrepareStandIn

    core = importlib.import_module("trafilatura.core")
    trafilaturacompat.install()
    assert isinstance(core._prepare_tree, PrepareStandIn)
    assert list(inspect.signature(core._prepare_tree.prepare).parameters) == [
        "tree",
        "options",
        "url",
    ]

    def options(**chosen: bool) -> Any:
        return Extractor(output_format="python", comments=False, with_metadata=False, **chosen)

    def prepared(active: bool, built: Any) -> tuple[Any, Any, Any]:
        tree = lxml.html.fromstring(EDGES)
        stand_in = PrepareStandIn(core._prepare_tree.prepare, lambda: active)
        return (tree, *stand_in(tree, built, None))

    precise = options(fast=True, precision=True)
    tree, cleaned, backup = prepared(True, precise)
    assert cleaned is tree and backup is None
    tree, cleaned, backup = prepared(True, options(fast=True))
    assert cleaned is not tree and backup is None
    for active, built in ((True, options()), (False, precise)):
        tree, cleaned, backup = prepared(active, built)
        assert cleaned is not tree and backup is not None
    # the same cleaned tree either way
    _, ours, _ = prepared(True, precise)
    _, theirs, _ = prepared(False, precise)
    assert tostring(ours) == tostring(theirs)
