"""The whole tree of a page that ends its document before its body (pure)."""

from __future__ import annotations

import lxml.html

from webrobot.pages.wholetree import lacks_body, whole_root

#: As Hexo's "yilia" theme writes its pages: the head template closes the document.
YILIA = (
    "<!DOCTYPE html><html><head><meta charset='utf-8'><title>Post | Blog</title>"
    "<meta name='robots' content='noindex,nofollow'></head></html>\n"
    "<body><div id='container'><article><p>First paragraph.</p>"
    "<a href='/2026/12/next/'>Next</a></article></div></body></html>"
)


def test_libxml2_stops_at_the_early_end_and_the_whole_tree_has_the_body() -> None:
    broken = lxml.html.document_fromstring(YILIA)
    assert lacks_body(broken)  # the parse the crawl gets: the head alone
    whole = whole_root(broken, YILIA, "http://blog.test/post/")
    assert whole is not broken and not lacks_body(whole)
    assert [a.get("href") for a in whole.iter("a")] == ["/2026/12/next/"]
    assert whole.findtext(".//title") == "Post | Blog"
    assert [m.get("content") for m in whole.iter("meta") if m.get("name") == "robots"] == [
        "noindex,nofollow"
    ]
    assert whole.getroottree().docinfo.URL == "http://blog.test/post/"


def test_a_page_with_a_body_is_its_own_tree() -> None:
    page = "<html><head><title>t</title></head><body><a href='/x'>x</a></body></html>"
    tree = lxml.html.document_fromstring(page)
    assert not lacks_body(tree)
    assert whole_root(tree, page) is tree


def test_nothing_to_mend_leaves_the_tree_as_it_is() -> None:
    head_only = "<html><head><title>t</title></head></html>"
    tree = lxml.html.document_fromstring(head_only)
    assert whole_root(tree, head_only) is tree  # no <body> anywhere
    no_end = "<html><head><title>t</title></head><body></body></html>"
    tree = lxml.html.document_fromstring(no_end)
    assert whole_root(tree, no_end) is tree
    assert whole_root(None, YILIA) is None
    assert not lacks_body(None)


def test_an_early_end_of_the_body_is_mended_too_and_case_does_not_matter() -> None:
    page = "<HTML><HEAD><TITLE>t</TITLE></HEAD></BODY></HTML><BODY><a href='/y'>y</a></BODY>"
    broken = lxml.html.document_fromstring(page)
    assert lacks_body(broken)
    whole = whole_root(broken, page)
    assert [a.get("href") for a in whole.iter("a")] == ["/y"]
