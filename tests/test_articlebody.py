"""The article text a page declares in its JSON-LD."""

from __future__ import annotations

import json

import lxml.html
import pytest

from webrobot.extract.articlebody import declared_article_body, plain_text


def tree(*blocks: str, kind: str = "application/ld+json") -> lxml.html.HtmlElement:
    scripts = "".join(f'<script type="{kind}">{b}</script>' for b in blocks)
    return lxml.html.document_fromstring(f"<html><head>{scripts}</head><body>x</body></html>")


def test_the_longest_body_anywhere_in_the_blocks() -> None:
    short = {"@type": "NewsArticle", "articleBody": "Short teaser."}
    graph = {"@graph": [{"@type": "WebPage"}, {"mainEntity": {"articleBody": "The long body."}}]}
    assert declared_article_body(tree(json.dumps(short), json.dumps([graph]))) == "The long body."


def test_html_inside_the_body_becomes_lines() -> None:
    body = "<p>First &amp; foremost.</p><p>Second<br>line.</p>  <div>Third</div>"
    block = json.dumps({"articleBody": body})
    assert declared_article_body(tree(block)) == "First & foremost.\nSecond\nline.\nThird"


def test_wrapped_in_html_comments_or_cdata() -> None:
    for wrapped in (
        '<!--{"articleBody": "Body."}-->',
        '//<![CDATA[\n{"articleBody": "Body."}\n//]]>',
    ):
        assert declared_article_body(tree(wrapped)) == "Body."


def test_control_characters_inside_strings_are_accepted() -> None:
    assert declared_article_body(tree('{"articleBody": "One\ttab\nand a line."}')) == (
        "One tab\nand a line."
    )


@pytest.mark.parametrize(
    "block",
    ["", "not json", "[" * 50_000 + "]" * 50_000, '{"articleBody": ["a list"]}', "null", "42",
     '{"articleBody": "   "}', '{"body": "not the key"}'],
)  # fmt: skip
def test_nothing_usable_is_none(block: str) -> None:
    assert declared_article_body(tree(block)) is None


def test_a_key_written_with_an_escape_is_read() -> None:
    assert declared_article_body(tree('{"\\u0061rticleBody": "Escaped key."}')) == "Escaped key."


def test_a_block_that_cannot_hold_the_key_is_not_parsed(monkeypatch: pytest.MonkeyPatch) -> None:
    parsed: list[str] = []
    loads = json.loads
    monkeypatch.setattr(json, "loads", lambda s, **kw: parsed.append(s) or loads(s, **kw))
    news = json.dumps({"@type": "NewsArticle", "headline": "No body here", "about": ["x"] * 50})
    assert declared_article_body(tree(news, '{"articleBody": "Body."}')) == "Body."
    assert parsed == ['{"articleBody": "Body."}']


def test_other_scripts_are_not_json_ld() -> None:
    assert declared_article_body(tree('{"articleBody": "x"}', kind="text/javascript")) is None
    assert declared_article_body(tree('{"articleBody": "x"}', kind="Application/LD+JSON")) == "x"


def test_a_very_wide_block_is_walked_within_bounds() -> None:
    """MAX_VALUES values at most: the walk goes from the end, so a body past the
    bound is not reached."""
    filler = [{"n": i} for i in range(50_000)]
    assert declared_article_body(tree(json.dumps([*filler, {"articleBody": "seen"}]))) == "seen"
    assert declared_article_body(tree(json.dumps([{"articleBody": "past"}, *filler]))) is None


def test_plain_text() -> None:
    assert plain_text("  a \u00a0 b \n\n c &lt;d&gt; ") == "a b\nc <d>"
