"""The working copy of a page's tree (:func:`webrobot.extract.htmltree.plain_copy`), and
an element deleted with its tail kept (:func:`webrobot.extract.htmltree.delete`)."""

from __future__ import annotations

from copy import deepcopy

import lxml.etree
import lxml.html

from webrobot.extract.htmltree import delete, plain_copy

PAGE = (
    "<!DOCTYPE html><html lang='en' class='js' data-x='1'><head><title>T</title></head>"
    " between <body id='b'>Lead <form action='/s'><input name='q' value='v'>"
    "<select name='s'><option>A</option></select><textarea>t</textarea>"
    "<label>L</label></form> tail<!-- note --><p>Text <b>bold</b> more</p></body></html>"
)


def _markup(tree: lxml.etree._Element) -> bytes:
    return lxml.etree.tostring(tree)


def test_the_copy_is_the_same_markup_and_the_tree_is_left_as_it_was() -> None:
    tree = lxml.html.document_fromstring(PAGE)
    before = _markup(tree)
    copy = plain_copy(tree)
    assert copy is not tree
    assert _markup(copy) == _markup(deepcopy(tree)) == before
    assert list(copy.attrib.items()) == [("lang", "en"), ("class", "js"), ("data-x", "1")]
    copy.find(".//p").getparent().remove(copy.find(".//p"))
    assert _markup(tree) == before


def test_every_element_of_the_copy_and_of_its_copies_has_the_plain_class() -> None:
    tree = lxml.html.document_fromstring(PAGE)
    assert type(tree.find(".//form")) is lxml.html.FormElement  # lxml.html's own lookup
    copy = plain_copy(tree)
    for element in (copy, deepcopy(copy)):
        kinds = {type(node) for node in element.iter()}
        assert kinds == {lxml.html.HtmlElement, lxml.html.HtmlComment}
    # the crawl's tree keeps its classes
    assert type(tree.find(".//input")) is lxml.html.InputElement


#: A theme whose head template closes the document (``</head></html>``) before the body:
#: browsers read the body all the same; libxml2's parser stops at the ``</html>``.
EARLY_END = (
    "<!DOCTYPE html><html><head><title>Hello World | Blog</title></head>\n</html>\n"
    "<body><article><h1>Hello World</h1><p>The post's first paragraph.</p></article>"
    "<a href='/next/'>Next</a></body></html>"
)


def test_a_body_after_an_early_end_of_the_document_is_read() -> None:
    from webrobot.pages.wholetree import whole_root

    broken = lxml.html.document_fromstring(EARLY_END)
    whole = whole_root(broken, EARLY_END, "http://blog.test/hello/")
    assert whole is not None and whole.find("body") is not None
    assert [p.text for p in whole.iter("p")] == ["The post's first paragraph."]
    assert whole.findtext(".//title") == "Hello World | Blog"
    assert [a.get("href") for a in whole.iter("a")] == ["/next/"]


def test_a_tree_with_its_body_or_a_page_without_one_is_left_as_it_is() -> None:
    from webrobot.pages.wholetree import whole_root

    tree = lxml.html.document_fromstring(PAGE)
    assert whole_root(tree, PAGE, "http://x.test/") is tree
    bodiless = "<html><head><title>T</title></head></html>"
    alone = lxml.html.document_fromstring(bodiless)
    assert whole_root(alone, bodiless, "http://x.test/") is alone
    assert whole_root(None, PAGE, "http://x.test/") is None


def test_a_deleted_element_leaves_its_tail_where_it_stood() -> None:
    tree = lxml.html.fragment_fromstring(
        "<p>Say <a>¶</a>hello <b>to</b><a>#</a> the <i>world</i></p>"
    )
    first, second = tree.findall("a")
    delete(first)
    delete(second)
    assert lxml.html.tostring(tree, encoding="unicode") == (
        "<p>Say hello <b>to</b> the <i>world</i></p>"
    )
    delete(tree)  # no parent: nothing to do
    assert tree.text == "Say hello "
