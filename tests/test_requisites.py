"""The requisite rules (webrobot.archive.requisites): what a page and a
stylesheet name, srcset parsing, the embed-hop rule of the scope, the ledger
that says which pages are whole; bad input never raises."""

from __future__ import annotations

import lxml.html
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from webrobot.archive.requisites import (
    ARCHIVED,
    FONT,
    FRAME,
    ICON,
    IMAGE,
    MEDIA,
    NOT_FETCHED,
    OBJECT,
    QUEUED,
    SCRIPT,
    STYLESHEET,
    Requisite,
    RequisiteLedger,
    css_requisites,
    decode_css,
    html_requisites,
    parse_srcset,
    style_attribute_requisites,
)
from webrobot.sites.config import ConfigError, parse_site_config
from webrobot.urls.scope import DENY_PATTERN, NOT_ALLOWED, OFFSITE, requisite_refusal

PAGE = "http://site.test/dir/page.html"


def of(html: str, url: str = PAGE) -> list[Requisite]:
    return html_requisites(lxml.html.fromstring(html), url)


def test_every_kind_of_tag_names_its_requisites() -> None:
    found = of("""<html><head>
      <link rel="stylesheet" href="a.css"><link rel="shortcut icon" href="/favicon.ico">
      <link rel="preload" as="font" href="/f.woff2"><link rel="modulepreload" href="m.js">
      <link rel="next" href="next.html"><script src="s.js"></script><script>var x = 1;</script>
      <style>@import "b.css"; body { background: url('bg.png') }</style></head>
      <body background="body.gif">
      <img src="i.png" srcset="i2.png 2x, i3.png 3x"><picture><source srcset="w.webp 1x">
      <img src="p.png"></picture><img data-src="lazy.png" data-srcset="lazy2.png 2x">
      <video src="v.mp4" poster="poster.jpg"><source src="v.webm"><track src="t.vtt"></video>
      <audio src="a.mp3"></audio><embed src="e.swf"><object data="o.svg"></object>
      <input type="image" src="btn.png"><input type="text" src="no.png">
      <div style="background-image: url(&quot;div.png&quot;)"></div>
      <iframe src="frame.html"></iframe><a href="link.html">a link is no requisite</a>
      </body></html>""")
    base = "http://site.test/dir/"
    expected = [
        ("a.css", STYLESHEET), ("/favicon.ico", ICON), ("/f.woff2", FONT), ("m.js", SCRIPT),
        ("s.js", SCRIPT), ("b.css", STYLESHEET), ("bg.png", IMAGE), ("body.gif", IMAGE),
        ("i.png", IMAGE), ("i2.png", IMAGE), ("i3.png", IMAGE), ("w.webp", IMAGE),
        ("p.png", IMAGE), ("lazy.png", IMAGE), ("lazy2.png", IMAGE), ("v.mp4", MEDIA),
        ("poster.jpg", IMAGE), ("v.webm", MEDIA), ("t.vtt", MEDIA), ("a.mp3", MEDIA),
        ("e.swf", OBJECT), ("o.svg", OBJECT), ("btn.png", IMAGE), ("div.png", IMAGE),
        ("frame.html", FRAME),
    ]  # fmt: skip
    want = [
        Requisite(u if u.startswith("http") else
                  ("http://site.test" + u if u.startswith("/") else base + u), k)
        for u, k in expected
    ]  # fmt: skip
    assert found == want


def test_base_href_data_uris_fragments_and_repeats() -> None:
    found = of(
        '<html><head><base href="http://cdn.test/x/"></head><body>'
        '<img src="a.png#frag"><img src="a.png"><img src="data:image/png;base64,AA==">'
        '<img src="javascript:void(0)"><img src="  "><img src="ftp://h/f.png">'
        '<img src="http://[::1"></body></html>'
    )
    assert found == [Requisite("http://cdn.test/x/a.png", IMAGE)]


def test_a_page_without_a_tree_names_nothing() -> None:
    assert html_requisites(None, PAGE) == []


def test_stylesheets_imports_fonts_images_and_nested_rules() -> None:
    css = """
    @charset "utf-8";
    @import url("print.css") print;
    @import 'base.css';
    /* url(commented.png) @import "commented.css"; */
    @font-face { font-family: X; src: url(f.woff2) format("woff2"), url("f.ttf?v=2"); }
    @media (min-width: 10px) { .a { background: url( wide.png ) } }
    .b { background-image: image-set("one.png" 1x, "two.png" 2x); }
    .c { content: "url(not-a-url.png)"; background: URL(upper.gif) }
    """
    found = css_requisites(css, "http://site.test/css/main.css")
    assert [(r.url.rsplit("/", 1)[1], r.kind) for r in found] == [
        ("print.css", STYLESHEET), ("base.css", STYLESHEET), ("f.woff2", FONT),
        ("f.ttf?v=2", FONT), ("wide.png", IMAGE), ("one.png", IMAGE), ("two.png", IMAGE),
        ("upper.gif", IMAGE),
    ]  # fmt: skip


def test_style_attributes() -> None:
    found = style_attribute_requisites("color: red; background: url(x.png) no-repeat", PAGE)
    assert found == [Requisite("http://site.test/dir/x.png", IMAGE)]


@pytest.mark.parametrize(
    ("srcset", "urls"),
    [
        ("a.png", ["a.png"]),
        ("a.png 1x, b.png 2x", ["a.png", "b.png"]),
        ("a.png 100w,b.png 200w", ["a.png", "b.png"]),
        ("img,1.png 1x, img,2.png 2x", ["img,1.png", "img,2.png"]),
        ("a.png,, b.png", ["a.png", "b.png"]),
        ("a.png (x, y) 1x, b.png", ["a.png", "b.png"]),
        ("  ,  ", []),
        ("", []),
    ],
)
def test_srcset_follows_the_html_standard(srcset: str, urls: list[str]) -> None:
    assert parse_srcset(srcset) == urls


def test_css_text_is_decoded_by_bom_header_then_charset() -> None:
    assert decode_css(b"\xef\xbb\xbfa{}") == "a{}"
    assert decode_css("é".encode("latin-1"), "latin-1") == "é"
    assert decode_css(b'@charset "iso-8859-1"; \xe9') == '@charset "iso-8859-1"; é'
    assert decode_css(b"a{}", "no-such-charset") == "a{}"


#: CSS made of the pieces its parser must get right: broken urls, strings, comments, escapes.
PIECES = (
    "url(", ")", "'", '"', "@import ", ";", "{", "}", "/*", "*/", "\\", " ", "a.png",
    "#x", "\n", "image-set(", "@media x {", "src:", "//", "http://", "@font-face{", ",",
)  # fmt: skip
CSS_PIECES = st.lists(st.sampled_from(PIECES), max_size=40).map("".join)


@settings(max_examples=300, deadline=None)
@given(st.text())
def test_srcset_never_raises_and_returns_no_blank_urls(text: str) -> None:
    urls = parse_srcset(text)
    assert all(url and not any(c in url for c in " \t\n\r\f") for url in urls)
    assert all(not url.endswith(",") for url in urls)


@settings(max_examples=300, deadline=None)
@given(CSS_PIECES | st.text())
def test_css_parser_never_raises_on_bad_input(css: str) -> None:
    for requisite in css_requisites(css, "http://site.test/a.css"):
        assert requisite.url.startswith("http://")
        assert "#" not in requisite.url
    style_attribute_requisites(css, PAGE)


@settings(max_examples=200, deadline=None)
@given(st.binary())
def test_css_bytes_always_decode(body: bytes) -> None:
    assert isinstance(decode_css(body, "utf-8"), str)


@settings(max_examples=100, deadline=None)
@given(st.text())
def test_html_attributes_with_any_text_never_raise(value: str) -> None:
    clean = "".join(c for c in value if c.isprintable() and c not in "\x00")
    root = lxml.html.fromstring("<p>x</p>")
    for tag, attribute in (("img", "srcset"), ("img", "src"), ("div", "style"), ("link", "href")):
        element = root.makeelement(tag, {attribute: clean, "rel": "stylesheet"})
        root.append(element)
    for requisite in html_requisites(root, PAGE):
        assert requisite.url.startswith(("http://", "https://"))


def test_embeds_pass_the_scope_within_the_hop_limit_only() -> None:
    assert requisite_refusal(OFFSITE, 1, 2) is None
    assert requisite_refusal(OFFSITE, 2, 2) is None
    assert requisite_refusal(OFFSITE, 3, 2) == "requisite_hops"
    assert requisite_refusal(OFFSITE, 1, 0) == "requisite_hops"
    assert requisite_refusal(NOT_ALLOWED, 1, 2) is None
    assert requisite_refusal(DENY_PATTERN, 1, 2) == DENY_PATTERN  # deny patterns still refuse
    assert requisite_refusal(None, 5, 0) is None  # on the crawl's own sites


def test_the_ledger_says_which_pages_are_whole_and_why_not() -> None:
    ledger = RequisiteLedger(examples_per_site=10)
    ledger.page("http://a/1", "a", ["http://a/s.css", "http://a/i.png"])
    ledger.page("http://a/2", "a", ["http://a/s.css", "http://cdn/x.png"])
    ledger.page("http://a/3", "a", [])
    ledger.page("http://b/1", "b", ["http://a/s.css"])
    ledger.embeds("http://a/s.css", ["http://a/font.woff2", "http://a/s.css"])  # a cycle
    for url in ("http://a/s.css", "http://a/i.png", "http://a/font.woff2"):
        ledger.outcome(url, ARCHIVED)
    ledger.outcome("http://cdn/x.png", "robots_txt")
    ledger.outcome("http://a/i.png", "robots_txt")  # archived once: a later refusal changes nothing
    sites = ledger.by_site()
    assert (sites["a"].whole, sites["a"].missing) == (2, 1)
    assert sites["a"].reasons == {"robots_txt": 1}
    assert sites["a"].examples == [("http://a/2", "http://cdn/x.png", "robots_txt")]
    assert (sites["b"].whole, sites["b"].missing) == (1, 0)
    # fetched by another worker (or an earlier run): not missing; an outcome of its own wins
    ledger.page("http://a/4", "a", ["http://a/other.png", "http://a/late.png"])
    ledger.seen_before("http://a/other.png")
    ledger.seen_before("http://a/late.png")
    ledger.outcome("http://a/late.png", "blocklist")
    ledger.seen_before("http://a/late.png")
    assert ledger.missing("http://a/4") == [("http://a/late.png", "blocklist")]
    # a stylesheet's own requisite missing makes its pages incomplete
    ledger.embeds("http://a/s.css", ["http://a/gone.png"])
    assert ledger.missing("http://b/1") == [("http://a/gone.png", NOT_FETCHED)]
    # While the crawl runs, a requisite with no answer yet is queued, not missing for good.
    assert ledger.by_site(QUEUED)["b"].reasons == {QUEUED: 1}
    assert ledger.by_site()["b"].reasons == {NOT_FETCHED: 1}


def test_site_config_key_switches_requisites() -> None:
    text = 'start_urls = ["http://a.test/"]\nrequisites = false\n'
    config = parse_site_config(text, "a.toml", "a")
    assert config.scrapy_settings()["WEBROBOT_REQUISITES_ENABLED"] is False
    with pytest.raises(ConfigError, match="a.toml.*requisites.*true or false"):
        parse_site_config('start_urls = ["http://a.test/"]\nrequisites = "no"\n', "a.toml", "a")
