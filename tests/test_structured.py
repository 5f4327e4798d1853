"""Structured data: JSON-LD read leniently, microdata, RDFa and OpenGraph as extruct
gives them, on the crawl's tree; never a failure for what a page holds."""

from __future__ import annotations

import json
import sys

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from parsel import Selector

from webrobot.extract.jsonld import jsonld_items, page_jsonld, parse_jsonld
from webrobot.extract.page import SourcePage
from webrobot.extract.structured import (
    RDFA_MAX_CHARS,
    SYNTAXES,
    extract_structured,
    structured_data,
)
from webrobot.optional import MissingExtra

FAST = settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def page(html: str, url: str = "https://shop.example.com/p/1", *, tree: bool = True) -> SourcePage:
    root = Selector(text=html, type="html", base_url=url).root if tree else None
    return SourcePage(url=url, html=html, root=root)


def ld(*blocks: str, body: str = "") -> str:
    scripts = "".join(f'<script type="application/ld+json">{b}</script>' for b in blocks)
    return f"<html><head>{scripts}</head><body>{body}</body></html>"


# --- JSON-LD as pages write it -----------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ('{"@type": "Product", "name": "A"}', [{"@type": "Product", "name": "A"}]),
        ('{"a": 1,}', [{"a": 1}]),
        ('{"a": [1, 2,],}', [{"a": [1, 2]}]),
        ('{"a": "x", // the ERP id\n "b": 2}', [{"a": "x", "b": 2}]),
        ('/* made by a plugin */ {"a": 1}', [{"a": 1}]),
        ('<!-- {"a": 1} -->', [{"a": 1}]),
        ('<!-- John joined. -->\n{"a": 1}', [{"a": 1}]),
        ('//<![CDATA[\n{"a": 1}\n//]]>', [{"a": 1}]),
        ("{&quot;a&quot;: &quot;b&quot;}", [{"a": "b"}]),
        ('{"a": 1}{"b": 2}', [{"a": 1}, {"b": 2}]),
        ('{"a": 1};\n{"b": 2}', [{"a": 1}, {"b": 2}]),
        ('{"a": "line 1\nline 2"}', [{"a": "line 1\nline 2"}]),
        ('{"a": "it\\\'s"}', [{"a": "it's"}]),
        ('{"url": "http://x.example/a//b", "c": "/* no comment */"}',
         [{"url": "http://x.example/a//b", "c": "/* no comment */"}]),
        ('{"a": 1} trailing words', [{"a": 1}]),
        ("", []),
        ("   \n ", []),
        ("not json at all", []),
        ("[" * 5000, []),
    ],
)  # fmt: skip
def test_jsonld_blocks_are_recovered_where_a_reader_would(text: str, expected: list) -> None:
    assert parse_jsonld(text) == expected


def test_a_broken_block_is_skipped_and_the_others_kept() -> None:
    html = ld(
        '{"@type": "Organization", "name": "A"}', "{not: json", '[{"@type": "Product"}, null]'
    )
    assert page_jsonld(page(html).root) == [
        {"@type": "Organization", "name": "A"},
        {"@type": "Product"},
    ]


def test_items_are_listed_as_extruct_lists_them() -> None:
    assert jsonld_items([None, False, {}, [{"a": 1}, None, {}], {"b": 2}]) == [{"a": 1}, {"b": 2}]


@pytest.mark.parametrize(
    ("block", "expected"),
    [
        (
            '{"@type": "Product", "name": "Tent"}\n{"@type": "Organization", "name": "Shop"}',
            [{"@type": "Product", "name": "Tent"}, {"@type": "Organization", "name": "Shop"}],
        ),
        ("{&quot;@type&quot;: &quot;Product&quot;}", [{"@type": "Product"}]),
    ],
)
def test_blocks_extruct_refuses_are_read_and_the_page_keeps_its_other_blocks(
    block: str, expected: list[dict[str, str]]
) -> None:
    import extruct

    html = ld('{"@type": "WebSite", "name": "Shop"}', block)
    with pytest.raises(ValueError):  # one bad block and extruct gives no JSON-LD at all
        extruct.extract(html, syntaxes=["json-ld"])
    assert structured_data(page(html))["json-ld"] == [
        {"@type": "WebSite", "name": "Shop"},
        *expected,
    ]


# --- the four syntaxes --------------------------------------------------------------------

MICRODATA = """<html><head>
<meta property="og:title" content="Anvil"><meta property="og:type" content="product">
</head><body>
<div itemscope itemtype="http://schema.org/Product"><span itemprop="name">Anvil</span>
<a itemprop="url" href="/anvil">link</a>
<div itemprop="offers" itemscope itemtype="http://schema.org/Offer"><span itemprop="price">9.99</span></div>
</div></body></html>"""


def test_microdata_and_opengraph_in_extruct_uniform_form_with_urls_resolved() -> None:
    data = structured_data(page(MICRODATA))
    assert list(data) == list(SYNTAXES)
    assert data["microdata"] == [
        {
            "@type": "Product",
            "@context": "http://schema.org",
            "name": "Anvil",
            "url": "https://shop.example.com/anvil",
            "offers": {"@type": "Offer", "price": "9.99"},
        }
    ]
    assert data["opengraph"] == [
        {"og:title": "Anvil", "@type": "product", "@context": {"og": "http://ogp.me/ns#"}}
    ]
    assert data["rdfa"] == []  # only OpenGraph's head tags: the opengraph list holds them


def test_the_result_is_the_same_with_or_without_the_crawl_tree_and_as_extruct_gives() -> None:
    import extruct

    with_tree = structured_data(page(MICRODATA))
    without = structured_data(page(MICRODATA, tree=False))
    assert with_tree == without
    plain = extruct.extract(
        MICRODATA, base_url="https://shop.example.com/p/1", syntaxes=["microdata"], uniform=True
    )
    assert with_tree["microdata"] == plain["microdata"]


def test_the_crawl_tree_is_left_as_it_was() -> None:
    """Every extractor reads the same tree: none may change it."""
    import lxml.html

    from webrobot.extract.metadata import metadata
    from webrobot.extract.product import product

    html = MICRODATA.replace("</body>", f"{RDFA_BODY}<script>var x = 1;</script></body>")
    source = page(html)
    before = lxml.html.tostring(source.root)
    structured = structured_data(source, rdfa="always")
    metadata(source, structured)
    product(source, structured)
    assert lxml.html.tostring(source.root) == before


def test_a_base_element_moves_relative_urls() -> None:
    html = MICRODATA.replace("<head>", '<head><base href="https://cdn.example.net/store/">')
    html = html.replace('href="/anvil"', 'href="anvil"')
    assert (
        structured_data(page(html))["microdata"][0]["url"] == "https://cdn.example.net/store/anvil"
    )


RDFA_BODY = """<html><head><meta property="og:title" content="T"></head><body>
<div vocab="https://schema.org/" typeof="Product"><span property="name">Lamp</span></div>
</body></html>"""


def test_rdfa_is_read_when_the_body_carries_it() -> None:
    result = extract_structured(page(RDFA_BODY))
    assert result.rdfa_skipped is None
    names = [
        v[0]["@value"]
        for item in result.data["rdfa"]
        for k, v in item.items()
        if k.endswith("name")
    ]
    assert names == ["Lamp"]


@pytest.mark.parametrize(
    ("html", "mode", "reason"),
    [
        ("<html><body><p>plain</p></body></html>", "auto", "none"),
        (
            '<html><head><meta property="og:title" content="T"></head><body></body></html>',
            "auto",
            "head",
        ),
        (RDFA_BODY, "never", "off"),
        (RDFA_BODY + "<!--" + "x" * RDFA_MAX_CHARS + "-->", "auto", "large"),
    ],
)
def test_when_rdfa_is_not_read_it_says_why(html: str, mode: str, reason: str) -> None:
    result = extract_structured(page(html), rdfa=mode)
    assert result.rdfa_skipped == reason and result.data["rdfa"] == []


def test_rdfa_always_reads_head_only_rdfa_as_extruct_does() -> None:
    html = '<html><head><meta property="og:title" content="T"></head><body></body></html>'
    result = extract_structured(page(html), rdfa="always")
    assert result.rdfa_skipped is None
    assert result.data["rdfa"] == [
        {"@id": "https://shop.example.com/p/1", "http://ogp.me/ns#title": [{"@value": "T"}]}
    ]


def test_an_unknown_rdfa_mode_is_refused_in_one_line() -> None:
    with pytest.raises(
        ValueError, match=r"rdfa must be one of auto, always, never, not 'sometimes'"
    ):
        structured_data(page(MICRODATA), rdfa="sometimes")


def test_a_reader_that_fails_gives_nothing_for_its_syntax_and_says_so(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import extruct.w3cmicrodata

    def broken(*args: object, **kwargs: object) -> list[object]:
        raise RuntimeError("hostile markup")

    monkeypatch.setattr(extruct.w3cmicrodata.LxmlMicrodataExtractor, "extract_items", broken)
    result = extract_structured(page(MICRODATA))
    assert result.failed == ("microdata",)
    assert result.data["microdata"] == [] and result.data["opengraph"]


def test_without_extruct_one_error_names_the_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "extruct", None)
    with pytest.raises(MissingExtra, match=r"pip install 'webrobot\[mining\]'"):
        structured_data(page(MICRODATA))


@pytest.mark.parametrize(
    "html",
    [
        "",
        "   ",
        "\x00\x00",
        "<html>",
        "<?xml version='1.0' encoding='utf-8'?><html/>",
        "<<<>>>",
        "\ufeff",
    ],
)
def test_degenerate_pages_give_empty_lists(html: str) -> None:
    data = structured_data(page(html, tree=False))
    assert data == {s: [] for s in SYNTAXES}


# --- properties -----------------------------------------------------------------------------

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=20),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=20,
)


@FAST
@given(st.text(max_size=400))
def test_any_jsonld_text_gives_a_list(text: str) -> None:
    assert isinstance(parse_jsonld(text), list)


@FAST
@given(st.dictionaries(st.text(max_size=8), json_values, min_size=1, max_size=5))
def test_json_round_trips_and_survives_trailing_commas(value: dict) -> None:
    text = json.dumps(value)
    assert parse_jsonld(text) == [value]
    assert parse_jsonld(text[:-1] + ",}") == [value]


@FAST
@given(st.text(max_size=300), st.text(max_size=300))
def test_any_page_gives_the_four_lists(head: str, script: str) -> None:
    html = f'<html><head>{head}<script type="application/ld+json">{script}</script></head><body>{head}</body></html>'
    for tree in (True, False):
        try:
            source = page(html, tree=tree)
        except ValueError:
            continue  # parsel refuses it before an extractor is reached
        data = structured_data(source)
        assert set(data) == set(SYNTAXES) and all(isinstance(v, list) for v in data.values())
        json.dumps(data)  # items go to feeds as JSON


BODY_META = (
    '<html><head><title>T</title></head><body><div role="button">b</div>'
    '<p><meta property="og:title" content="Lamp"></p><meta property="og:type" content="product">'
    "</body></html>"
)


def test_rdfa_of_meta_tags_in_the_body_is_read_from_the_head_and_those_tags() -> None:
    auto = extract_structured(page(BODY_META), rdfa="auto")
    always = extract_structured(page(BODY_META), rdfa="always")
    assert auto.rdfa_skipped is None
    data = [i for i in always.data["rdfa"] if "http://ogp.me/ns#title" in i]
    assert data and auto.data["rdfa"] == data
    # The body's ARIA roles (xhv:role) are left out, as on a page with no RDFa in the body.
    assert any("http://www.w3.org/1999/xhtml/vocab#role" in i for i in always.data["rdfa"])


def test_a_meta_tag_under_a_link_is_read_in_the_whole_page() -> None:
    html = '<html><body><a href="/x"><meta property="og:title" content="Lamp"></a></body></html>'
    auto = extract_structured(page(html), rdfa="auto")
    always = extract_structured(page(html), rdfa="always")
    assert auto.data["rdfa"] == always.data["rdfa"] != []
