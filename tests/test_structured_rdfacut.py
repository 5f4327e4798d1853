"""RDFa read from the page cut to what RDFa reads in it gives the triples of the whole page."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

pytest.importorskip("extruct")

from extruct.utils import parse_xmldom_html

from webrobot.extract.structured import RDFA_TERMS, _cut_to_rdfa, _read_rdfa

BASE = "https://news.example.com/a/1"
PADDING = (
    "<script>var x = \"<span property='dc:title'>no</span>\";</script><style>.a{}</style>"
    + '<div class="teaser"><p>Text <b>bold</b> <a href="/other">link</a></p></div>' * 20
)
PAGES = {
    "a link deep under a rel is the triple's object": (
        '<div about="/p" rel="dc:relation"><div><span><a href="/q">q</a></span></div></div>'
    ),
    "an image under a rev": '<div about="/p" rev="dc:creator"><p><img src="/me.png"></p></div>',
    "a literal keeps all the text inside": (
        '<p property="dc:title">Jo\'s <b>Barbecue</b> <i>night</i><!-- c --> out</p>'
    ),
    "an XML literal keeps its markup": (
        '<div property="dc:description" datatype="rdf:XMLLiteral"><p>A <em>b</em></p></div>'
    ),
    "a base element in the body moves every URL": (
        '<base href="http://other.example/x/"><span about="y" property="dc:title">T</span>'
    ),
    "the language of an ancestor": (
        '<div lang="de"><div><span property="dc:title">Titel</span></div></div>'
    ),
    "roles make xhv:role triples": '<nav role="navigation" id="menu"><ul><li>a</li></ul></nav>',
    "RDFa Lite with a vocabulary": (
        '<div vocab="http://schema.org/" typeof="Person"><div><span property="name">Ann'
        '</span></div><div property="address" typeof="PostalAddress"><span property='
        '"addressLocality">Oslo</span></div><a property="url" href="/ann">me</a></div>'
    ),
    "prefixes declared on an ancestor": (
        '<section prefix="ex: http://example.org/ns#"><div><p><span property="ex:a">1'
        "</span></p></div></section>"
    ),
    "a list": (
        '<div about="/p"><ol><li><span property="dc:creator" inlist="">A</span></li><li>'
        '<span property="dc:creator" inlist="">B</span></li></ol></div>'
    ),
    "a rel word that names a term": '<a rel="license nofollow" href="/cc">CC</a>',
    "a term's word in capitals": '<a rel="License" href="/cc">CC</a>',
    "a rel word under a vocabulary is a term": (
        '<div vocab="http://schema.org/"><a rel="nofollow" href="/x">x</a></div>'
    ),
    "a bare rel under a hanging rel completes it": (
        '<div about="/p" rel="dc:relation"><a rel="nofollow" href="/q">q</a></div>'
    ),
    "a bare rel around a property": (
        '<a rel="bookmarked" href="/p"><span property="dc:title">Post</span></a>'
    ),
    "a bare rel with a CURIE or an IRI": (
        '<a rel="nofollow dc:source" href="/s">s</a><a rel="http://example.org/r" href="/r">r</a>'
    ),
    "a time element": '<div about="/p"><time property="dc:date" datetime="2024-05-01">May</time></div>',
}


def normal(items: list[Any]) -> Any:
    """Blank node names (drawn at random) made one, every list sorted."""
    text = re.sub(r"_:[A-Za-z0-9_.-]+", "_:b", json.dumps(items, sort_keys=True))

    def sort(value: Any) -> Any:
        if isinstance(value, dict):
            return {k: sort(v) for k, v in value.items()}
        if isinstance(value, list):
            return sorted((sort(v) for v in value), key=lambda v: json.dumps(v, sort_keys=True))
        return value

    return sort(json.loads(text))


def html_of(body: str) -> str:
    return (
        '<!DOCTYPE html><html lang="en"><head><title>T</title><meta property="og:title" '
        'content="News"><link rel="stylesheet" href="/s.css"><script src="/a.js"></script>'
        f"</head><body>{PADDING}{body}{PADDING}</body></html>"
    )


@pytest.mark.parametrize("body", PAGES.values(), ids=PAGES.keys())
def test_the_cut_page_gives_the_whole_pages_triples(body: str) -> None:
    html = html_of(body)
    whole = _read_rdfa(html, BASE, whole=True)
    # The body says something beyond the head's OpenGraph title.
    assert any(k.startswith("http") and "ogp.me" not in k for item in whole for k in item)
    assert normal(_read_rdfa(html, BASE)) == normal(whole)


def test_what_makes_no_triple_is_cut() -> None:
    tree = parse_xmldom_html(
        html_of(PAGES["a link deep under a rel is the triple's object"]).encode(), "utf-8"
    )
    _cut_to_rdfa(tree)
    tags = [e.tag for e in tree.iter() if isinstance(e.tag, str)]
    assert tags == ["html", "head", "meta", "link", "body", "div", "div", "span", "a"]


def test_links_whose_rel_names_no_term_are_cut() -> None:
    body = (
        '<a rel="nofollow noopener" href="/a">a</a><a rel="license" href="/cc">cc</a>'
        '<div about="/p" rel="dc:relation"><a rel="nofollow" href="/q">q</a></div>'
    )
    html = html_of(body).replace("<head>", '<head><link rel="preload" href="/f.woff">')
    tree = parse_xmldom_html(html.encode(), "utf-8")
    _cut_to_rdfa(tree)
    links = [(e.tag, e.get("rel")) for e in tree.iter("a", "link")]
    assert links == [("link", "stylesheet"), ("a", "license"), ("a", "nofollow")]


def test_the_terms_kept_are_every_term_pyrdfa_knows() -> None:
    from pyRdfa.host import predefined_1_0_rel
    from pyRdfa.initialcontext import initial_context

    terms = {t.lower() for c in initial_context.values() for t in c.terms} | {
        t.lower() for t in predefined_1_0_rel
    }
    assert terms <= RDFA_TERMS


def test_the_extruct_samples_read_cut_as_whole() -> None:
    from benchmarks.quality.structured import SAMPLES, read_html

    if not SAMPLES.is_dir():
        pytest.skip(f"the public samples are missing: {SAMPLES}")
    read = 0
    for path in sorted(SAMPLES.rglob("*.html")):
        html = read_html(path)
        if not re.search(r"\b(?:property|typeof|about|vocab|rel|resource)=", html):
            continue
        base = "http://www.example.com/index.html"
        assert normal(_read_rdfa(html, base)) == normal(_read_rdfa(html, base, whole=True)), path
        read += 1
    assert read >= 20
