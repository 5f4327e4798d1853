"""Per-site fields (webrobot.extract.fields): page-object fixtures, spec checks, processors.

Each folder of ``tests/fixtures/fields/`` is one case, laid out as web-poet's
page-object tests are: ``page.html`` (the input), ``fields.toml`` (the ``[fields]``
table of a site config) and ``expected.json`` (the output). A new page from the
field that reads wrong becomes a new folder, never a special case in code.
"""

from __future__ import annotations

import json
import tomllib
from datetime import UTC, date, datetime
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from parsel import Selector

from webrobot.extract import fields as f
from webrobot.extract.fields import FieldSpecError, apply_processors, compile_fields, extract_fields
from webrobot.extract.page import SourcePage

FIXTURES = Path(__file__).resolve().parent / "fixtures" / "fields"
CASES = sorted(p.name for p in FIXTURES.iterdir() if p.is_dir())


def page_of(html: str, url: str = "http://site.test/page") -> SourcePage:
    """The page as the crawl hands it over: parsed once, by Scrapy's selector library."""
    return SourcePage(url, html, Selector(text=html, type="html").root)


@pytest.mark.parametrize("case", CASES)
def test_fixture(case: str) -> None:
    folder = FIXTURES / case
    html = (folder / "page.html").read_bytes().decode("utf-8", errors="replace")
    specs = compile_fields(tomllib.loads((folder / "fields.toml").read_text("utf-8")))
    expected = json.loads((folder / "expected.json").read_text("utf-8"))
    got = extract_fields(page_of(html), specs)
    assert json.loads(json.dumps(got)) == expected


def test_there_are_fixtures() -> None:
    assert {"blog", "shop", "jsonld_graph", "nothing_found"} <= set(CASES)


def test_a_page_without_a_tree_is_read_from_its_text() -> None:
    html = (FIXTURES / "blog" / "page.html").read_text("utf-8")
    specs = compile_fields({"title": {"css": "h1::text", "processors": ["strip", "first"]}})
    assert extract_fields(SourcePage("http://a/", html, None), specs) == {
        "title": "Why robots read robots.txt"
    }


def test_json_ld_already_parsed_is_used_instead_of_the_page() -> None:
    specs = compile_fields({"sku": {"jsonld": "Product.sku", "processors": ["first"]}})
    given_documents = [{"@type": "Product", "sku": "FROM-STRUCTURED-DATA"}]
    assert extract_fields(page_of("<html></html>"), specs, given_documents) == {
        "sku": "FROM-STRUCTURED-DATA"
    }


@pytest.mark.parametrize(
    ("table", "message"),
    [
        ({"p": {"css": "h1["}}, "field 'p': css: 'h1[' is not a CSS selector"),
        ({"p": {"xpath": "//h1["}}, "field 'p': xpath: not a usable selector"),
        ({"p": {"css": "h1", "processors": ["upper"]}}, "field 'p': unknown processor 'upper'"),
        ({"p": {"css": "h1", "xpath": "//h1"}}, "field 'p': expected exactly one of css"),
        ({"p": {}}, "field 'p': expected exactly one of css"),
        ({"p": {"jsonld": "Product..price"}}, "field 'p': jsonld: 'Product..price' is not a path"),
        ({"p": {"jsonld": "0.price"}}, "is not a path"),
        ({"p": {"css": "h1", "processors": ["regex:("]}}, "bad regular expression"),
        ({"p": {"css": "h1", "processors": ["regex:"]}}, "needs a pattern"),
        ({"p": {"css": "h1", "processors": ["first:2"]}}, "takes no argument"),
        ({"p": {"css": "h1", "selector": "x"}}, "unknown key 'selector'"),
        ({"p": {"css": ""}}, "expected a non-empty string"),
        ({"p": 3}, "expected a table with css, xpath or jsonld"),
        ({"p-q": "h1"}, "field 'p-q': expected a name"),
        ({"p": {"css": "h1", "processors": "strip,first"}}, "unknown processor"),
    ],
)
def test_a_bad_field_is_named_with_what_was_expected(table: dict, message: str) -> None:
    with pytest.raises(FieldSpecError) as caught:
        compile_fields(table)
    assert message in str(caught.value)
    assert "\n" not in str(caught.value)


# -- processors: properties ----------------------------------------------------------

_text = st.text(st.characters(codec="utf-8", exclude_categories=("Cs",)), max_size=60)


@given(_text)
def test_strip_leaves_no_outer_or_doubled_whitespace(value: str) -> None:
    out = f.strip(value)
    assert out is None or (out == out.strip() and "  " not in out and out)
    assert f.strip(out) == out


@given(st.integers(min_value=-(10**15), max_value=10**15))
def test_whole_numbers_read_back_plain_and_grouped(n: int) -> None:
    assert f.number(str(n)) == n
    assert f.number(f"{n:,}") == n
    assert f.number(f"{n:,}".replace(",", " ")) == n
    assert f.number(f"about {n:,} pages") == n


@given(st.integers(min_value=0, max_value=10**9), st.integers(min_value=1, max_value=99))
def test_decimals_read_back_with_either_mark(whole: int, cents: int) -> None:
    value = whole + cents / 100
    english = f"{whole:,}.{cents:02d}"
    european = english.replace(",", "_").replace(".", ",").replace("_", ".")
    assert f.number(english) == pytest.approx(value)
    assert f.number(european) == pytest.approx(value)
    assert f.price(f"€ {european}") == pytest.approx(value)
    assert f.price(f"${english}") == pytest.approx(value)


@given(
    st.datetimes(
        min_value=datetime(1900, 1, 1), max_value=datetime(2200, 1, 1), timezones=st.just(UTC)
    )
)
def test_dates_read_back_from_iso_and_rfc_2822_and_words(moment: datetime) -> None:
    moment = moment.replace(microsecond=0)
    assert datetime.fromisoformat(f.date(moment.isoformat()) or "") == moment
    assert datetime.fromisoformat(f.date(moment.strftime("%Y-%m-%dT%H:%M:%SZ")) or "") == moment
    rfc = moment.strftime("%a, %d %b %Y %H:%M:%S GMT")
    assert datetime.fromisoformat(f.date(rfc) or "") == moment
    day = moment.date()
    assert f.date(day.strftime("%d %B %Y")) == day.isoformat()
    assert f.date(day.strftime("%b %d, %Y")) == day.isoformat()


@given(_text)
def test_every_processor_reads_any_text_without_raising(value: str) -> None:
    for name in ("strip", "number", "price", "date"):
        result = f._MAPPERS[name](value, f.Step(name))
        assert result is None or isinstance(result, str | int | float)
    assert f.date(value) is None or date.fromisoformat(f.date(value)[:10])  # type: ignore[index]


@given(
    st.lists(st.one_of(_text, st.none(), st.integers())), st.sampled_from(["", " ", "\n", " | "])
)
def test_reducers_make_one_value_and_mappers_keep_a_list(values: list, separator: str) -> None:
    joined = apply_processors(values, (f.Step("join", separator),))
    kept = [str(v) for v in values if v not in (None, "")]
    assert joined == (separator.join(kept) or None)
    first = apply_processors(values, (f.Step("first"),))
    assert first == (next((v for v in values if v not in (None, "")), None))
    stripped = apply_processors(values, (f.Step("strip"),))
    assert isinstance(stripped, list) and None not in stripped


@given(_text, st.sampled_from([r"\d+", r"(\w+)@", r"^.", r"x(y)?z"]))
def test_regex_gives_a_match_or_nothing(value: str, pattern: str) -> None:
    (step,) = compile_fields({"p": {"css": "p", "processors": [f"regex:{pattern}"]}})[0].steps
    out = f.regex(value, step)
    assert out is None or out in value


def test_a_field_reads_dates_as_the_metadata_does() -> None:
    from webrobot.extract.dates import iso_date

    for written in ("3. März 2026", "21 novembre 2026", "2026/11/21", "21.11.2026", "1764000000"):
        assert f.date(written) == iso_date(written) is not None, written


def test_a_date_day_or_month_first_is_left_out() -> None:
    assert f.date("01/02/2026") is None
    assert f.date("2026-02-30") is None
    assert f.date(" 2026-02-03 ") == "2026-02-03"
    assert f.date("2026-02-03T10:00:00+01:00") == "2026-02-03T10:00:00+01:00"


def test_price_without_price_parser_is_one_line_naming_the_extra(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import sys

    from webrobot.optional import MissingExtra

    monkeypatch.setitem(sys.modules, "price_parser", None)  # as if not installed
    with pytest.raises(
        MissingExtra, match=r"'price_parser' package.*pip install 'webrobot\[mining\]'"
    ):
        f.price("€ 1.299,00")
    with pytest.raises(
        f.FieldSpecError, match=r"field 'p': processor 'price': .*webrobot\[mining\]"
    ):
        f.compile_fields({"p": {"css": "p::text", "processors": ["price"]}})
    assert f.price(12.5) == 12.5  # a number needs no price reader


@given(
    st.text(max_size=300),
    st.sampled_from(["h1::text", "p", "a::attr(href)", "*", "body > div p::text"]),
    st.sampled_from(["//p/text()", "//@*", "count(//*)", "string(/)", "//*[1]"]),
    st.sampled_from(["Product.name", "*.@type", "Thing.0", "X.y.0.z"]),
)
def test_any_markup_reads_without_raising(html: str, css: str, xpath: str, path: str) -> None:
    table = {"c": {"css": css, "processors": ["strip", "number"]},
             "x": {"xpath": xpath, "processors": ["date", "join"]},
             "j": {"jsonld": path, "processors": ["price", "first"]}}  # fmt: skip
    markup = f"<html><script type='application/ld+json'>{html}</script><body>{html}</body></html>"
    got = extract_fields(page_of(markup), compile_fields(table))
    json.dumps(got, allow_nan=False)
    assert isinstance(got["c"], list) and not isinstance(got["j"], list)


def test_numbers_too_large_for_json_are_no_value() -> None:
    assert f.number("9" * 400 + ".5") is None
    assert f.number("9" * 5000) is None
