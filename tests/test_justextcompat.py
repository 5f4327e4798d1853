"""The paragraphs webrobot.extract.justextcompat makes are jusText's own, attribute for
attribute, and its stand-ins change jusText only inside a main-text reading."""

from __future__ import annotations

from copy import copy
from typing import Any

import lxml.etree
import lxml.html
import pytest

pytest.importorskip("trafilatura")
justext_core = pytest.importorskip("justext.core")

from trafilatura.baseline import basic_cleaning
from trafilatura.external import jt_stoplist_init
from trafilatura.settings import Extractor

from tests.test_trafilaturacompat import EDGES, _pages
from webrobot.extract import justextcompat, trafilaturacompat

#: Pages written for each rule of jusText's walk: a ``<br>`` pair that splits a paragraph,
#: a lone ``<br>`` in a block (a paragraph of white space only, which jusText drops),
#: text in and after links, comments and processing instructions with tails, a
#: namespaced tag, white-space-only text, nested blocks, headings, option lists.
WALKS = [
    """<html><body><div>one<br><br>two<br> <br>three</div>
    <div style="x"><br></div><div><iframe></iframe>
    <div><br/></div></div><p>a <a href="#">link text</a> tail <b>bold</b><!-- c -->after
    comment<?pi x?>after pi</p><fb:like>ns</fb:like><ul><li>item <a>l</a></li><li> </li></ul>
    <h2>heading</h2><select><option>o</option></select><table><tr><td>cell</td></tr></table>
    <p>   </p><center>c</center></body></html>""",
    "<html><body></body></html>",
    "<div>only a fragment <span>with a span</span></div>",
]


def _attributes(paragraph: Any) -> tuple[Any, ...]:
    return (
        paragraph.dom_path,
        paragraph.xpath,
        paragraph.text,
        paragraph.text_nodes,
        paragraph.chars_count_in_links,
        paragraph.tags_count,
        paragraph.is_heading,
        len(paragraph),
        paragraph.words_count,
    )


def _trees() -> list[Any]:
    trees = []
    for html in [*WALKS, EDGES, *_pages()]:
        tree = lxml.html.fromstring(html)
        trees.append(tree)
        trees.append(basic_cleaning(copy(tree)))  # as trafilatura gives it to jusText
    return trees


def test_the_paragraphs_are_justexts() -> None:
    compared = 0
    for tree in _trees():
        expected = [_attributes(p) for p in justext_core.ParagraphMaker.make_paragraphs(tree)]
        made = [_attributes(p) for p in justextcompat.make_paragraphs(tree)]
        assert made == expected
        compared += len(expected)
    assert compared > 100


def test_the_rules_written_for_are_exercised() -> None:
    paragraphs = justext_core.ParagraphMaker.make_paragraphs(lxml.html.fromstring(WALKS[0]))
    texts = [p.text for p in paragraphs]
    assert texts[:3] == ["one", "two", "three"]  # <br><br> splits, "<br> <br>" too
    assert "" not in texts  # the block holding only a <br>
    linked = next(p for p in paragraphs if p.text.startswith("a link"))
    assert linked.chars_count_in_links == len("link text")
    assert any(p.is_heading for p in paragraphs)
    assert any("select" in p.dom_path for p in paragraphs)


def test_a_tree_it_does_not_replay_is_left_to_justext() -> None:
    tree = lxml.html.fromstring("<div><p>a</p></div>")
    tree.append(lxml.etree.Entity("amp"))
    with pytest.raises(justextcompat.UnusualNode):
        justextcompat.make_paragraphs(tree)
    maker = trafilaturacompat.ParagraphMakerStandIn(justext_core.ParagraphMaker)
    token = trafilaturacompat._WALKING.set(True)
    try:  # jusText's walk fails on it (trafilatura then reads no jusText text): so does this
        with pytest.raises(TypeError):
            justext_core.ParagraphMaker.make_paragraphs(tree)
        with pytest.raises(TypeError):
            maker.make_paragraphs(tree)
    finally:
        trafilaturacompat._WALKING.reset(token)


def test_the_stop_list_set_is_made_once_for_the_same_list() -> None:
    made: list[Any] = []

    def define(stoplist: Any) -> frozenset[str]:
        made.append(stoplist)
        return frozenset(w.lower() for w in stoplist)

    cache = justextcompat.StopListCache(define)
    words = ("The", "a", "Und")
    assert cache(words) == frozenset({"the", "a", "und"})
    assert cache(words) is cache(words)
    assert len(made) == 1
    other = ("x",)
    assert cache(other) == frozenset({"x"}) and len(made) == 2
    changing = ["Y"]
    assert cache(changing) == frozenset({"y"})
    changing.append("Z")
    assert cache(changing) == frozenset({"y", "z"})  # a list is made anew each time


def test_the_stand_ins_are_in_place_and_justexts_own_outside_a_reading() -> None:
    import trafilatura.external

    assert trafilaturacompat.install_justext() == 2
    trafilaturacompat.install()
    maker = trafilatura.external.ParagraphMaker
    define = justext_core.define_stoplist
    assert isinstance(maker, trafilaturacompat.ParagraphMakerStandIn)
    assert isinstance(define, trafilaturacompat.StopListStandIn)
    stoplist = jt_stoplist_init()
    calls: list[Any] = []

    def spy(words: Any) -> frozenset[str]:
        calls.append(words)
        return frozenset(words)

    spied = trafilaturacompat.StopListStandIn(spy)
    assert spied(stoplist) == spied(stoplist) == define(stoplist)
    assert len(calls) == 2  # jusText's own, at each call
    token = trafilaturacompat._WALKING.set(True)
    try:
        assert spied(stoplist) is spied(stoplist)
        assert len(calls) == 3  # made once inside a reading
        tree = lxml.html.fromstring(WALKS[0])
        assert type(maker.make_paragraphs(tree)[0]).__name__ == "LazyParagraph"
    finally:
        trafilaturacompat._WALKING.reset(token)
    assert type(maker.make_paragraphs(tree)[0]).__name__ == "Paragraph"


def test_a_reading_with_justext_is_the_same_with_the_stand_ins() -> None:
    """A reading whose jusText fallback runs (a short text: jusText is asked whether it
    finds more) gives what trafilatura gives without the stand-ins."""
    import trafilatura

    html = (
        "<html><body><nav><a href='/'>Home</a></nav><div class='x'><p>Short.</p></div>"
        + "".join(
            f"<div><span>Paragraph {i} of the text of the page that is not in a p element,"
            " long enough for jusText to call it good: the and of to in is was.</span></div>"
            for i in range(8)
        )
        + "</body></html>"
    )
    options = Extractor(output_format="python", comments=False, tables=True, with_metadata=False)
    expected = trafilatura.bare_extraction(lxml.html.fromstring(html), options=options)
    text, _ = trafilaturacompat.read(lxml.html.fromstring(html), options)
    assert expected is not None and text == expected.text
    assert "Paragraph 7" in (text or "")
