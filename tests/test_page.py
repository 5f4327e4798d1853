from __future__ import annotations

from collections.abc import Callable

import lxml.html

from webrobot.pages.page import Link, summarise_html


def summarise(html: str, url: str = "http://site.test/dir/page.html"):
    return summarise_html(lxml.html.document_fromstring(html), url)


def test_title_and_relative_links() -> None:
    page = summarise(
        "<html><head><title> A  page\n</title></head><body>"
        "<a href='b.html'>b</a><a href='/root'>r</a><a href='http://other.test/x#f'>o</a>"
        "</body></html>"
    )
    assert page.title == "A page"
    assert [link.url for link in page.links] == [
        "http://site.test/dir/b.html",
        "http://site.test/root",
        "http://other.test/x",
    ]


def test_base_href_is_used_even_after_links() -> None:
    page = summarise(
        "<html><head><base href='http://cdn.test/base/'></head><body><a href='x'>x</a></body></html>"
    )
    assert page.base_url == "http://cdn.test/base/"
    assert page.links == [Link("http://cdn.test/base/x")]


def test_relative_base_href() -> None:
    page = summarise(
        "<html><head><base href='/other/'></head><body><a href='x'>x</a></body></html>"
    )
    assert page.links == [Link("http://site.test/other/x")]


def test_non_http_schemes_and_empty_hrefs_are_skipped() -> None:
    page = summarise(
        "<a href='mailto:a@b'>m</a><a href='javascript:void(0)'>j</a><a href=''>e</a>"
        "<a href='tel:1'>t</a><a>no href</a><a href='#top'>frag</a><a href='ftp://x/'>f</a>"
    )
    assert page.links == [Link("http://site.test/dir/page.html")]


def test_frames_areas_and_link_rels() -> None:
    page = summarise(
        "<html><head><link rel='next' href='p2'><link rel='stylesheet' href='s.css'>"
        "<link rel='Canonical' href='/c'></head><body><map><area href='area'></map>"
        "<iframe src='frame'></iframe><link rel='index' href='/genindex.html'>"
        "<link rel='search' href='/search.html'></body></html>"
    )
    assert [link.url for link in page.links] == [
        "http://site.test/dir/p2",
        "http://site.test/c",
        "http://site.test/dir/area",
        "http://site.test/dir/frame",
        "http://site.test/genindex.html",
    ]


def test_duplicates_listed_once_nofollow_only_if_every_occurrence_is() -> None:
    page = summarise(
        "<a href='a' rel='nofollow'>1</a><a href='a'>2</a>"
        "<a href='b' rel='NoFollow sponsored'>3</a><a href='b#x' rel='nofollow'>4</a>"
    )
    assert page.links == [
        Link("http://site.test/dir/a", False),
        Link("http://site.test/dir/b", True),
    ]


def test_empty_document() -> None:
    page = summarise_html(None, "http://site.test/")
    assert page.title is None and page.links == []


def test_a_link_that_cannot_be_resolved_is_skipped_and_counted() -> None:
    """One bad href (an unclosed IPv6 bracket) must not cost the page its other
    links or its title. (A bad port is left to ``scrapy.Request`` to judge.)"""
    page = summarise(
        "<title>T</title><a href='http://[::1/x'>v6</a><a href='//[bad/'>v6</a><a href='ok'>ok</a>"
    )
    assert page.title == "T"
    assert page.links == [Link("http://site.test/dir/ok")]
    assert page.bad_links == 2


def test_a_base_href_that_cannot_be_resolved_is_ignored() -> None:
    page = summarise(
        "<html><head><base href='http://[x/'></head><body><a href='ok'>ok</a></body></html>"
    )
    assert page.base_url == "http://site.test/dir/page.html"
    assert page.links == [Link("http://site.test/dir/ok")]


def test_url_joiner_agrees_with_urljoin() -> None:
    """The fast joiner (link extraction's hot path) must give urljoin's answers."""
    import random
    from urllib.parse import urljoin

    from webrobot.pages.page import url_joiner

    bases = [
        "http://site.test/dir/page.html", "https://site.test:8443/a/b/", "http://site.test",
        "http://site.test/dir/page.html?q=1#f", "http://[::1]:8080/x/y", "http://u:p@site.test/a;p/b;q",
        "http://site.test/a/../b/c", "ftp://site.test/dir/", "http://site.test/caf\u00e9/", "HTTP://Site.Test/A/",
        "http://site.test//x/y", "http://site.test/x//y/", "http://site.test?x", "http://site.test/;x",
    ]  # fmt: skip
    pieces = ["a", "b.html", "/", "//", ".", "..", "?", "#", ":", "%2e", ";p", "x y", "\t", "\u00e9", " ",
              "http:", "https://other.test/", "mailto:", "HTTP://", "\\", "=", "&", "\x00", "\n", "[", "]",
              "\u00a0", "@"]  # fmt: skip
    rng = random.Random(7)
    hrefs = ["", "/", ".", "..", "./", "../a", "?x", "#f", "//other.test/p", "/a/./b", "/a/../b",
             "a/b/../c", "/.well-known/x", "a:b", "a/b:c", "/x?y/../z#w/./v"]  # fmt: skip
    hrefs += ["".join(rng.choice(pieces) for _ in range(rng.randint(1, 6))) for _ in range(3000)]

    def outcome(join: Callable[[str], str], href: str) -> str:
        try:
            return join(href)
        except ValueError:
            return "ValueError"

    for base in bases:
        fast = url_joiner(base)
        for href in hrefs:
            assert outcome(fast, href) == outcome(lambda h, base=base: urljoin(base, h), href), (
                base,
                href,
            )


def test_hrefs_urljoin_refuses_are_skipped() -> None:
    page = summarise("<a href='//[bad'>x</a><a href='http://[::1'>y</a><a href='ok.html'>ok</a>")
    assert page.links == [Link("http://site.test/dir/ok.html")]
