"""The pure robots-directive parser: meta content, X-Robots-Tag, the head scan, policy."""

from __future__ import annotations

import pytest

from webrobot.pages.metarobots import (
    RobotsPolicy,
    head_meta_directives,
    head_metas,
    header_directives,
    headers_directives,
    parse_directives,
    policy,
    product_token,
)

AGENT = "webrobot"


# -- meta content ----------------------------------------------------------------


@pytest.mark.parametrize(
    ("content", "expected"),
    [
        ("noindex", ["noindex"]),
        ("noindex, nofollow", ["noindex", "nofollow"]),
        ("noindex,nofollow", ["noindex", "nofollow"]),
        ("noindex nofollow", ["noindex", "nofollow"]),
        ("NoIndex ,  NOFOLLOW", ["noindex", "nofollow"]),
        (" noindex ,, , nofollow\tnoarchive\n", ["noindex", "nofollow", "noarchive"]),
        ("noindex, noindex, NOINDEX", ["noindex"]),
        ("", []),
        (" , ,", []),
        ("::", []),
        ("max-snippet:20, max-image-preview: large", ["max-snippet:20", "max-image-preview:large"]),
        ("unavailable_after: 25 Jun 2010 15:00:00 PST, noarchive",
         ["unavailable_after:25 jun 2010 15:00:00 pst", "noarchive"]),
        ("unavailable_after: Friday, 25-Jun-10 15:00:00 PST, noindex",
         ["unavailable_after:friday, 25-jun-10 15:00:00 pst", "noindex"]),
        ("noindex: nofollow", ["noindex", "nofollow"]),  # a stray colon hides nothing
        ("futurething, foo:bar, noindex", ["futurething", "foo:bar", "noindex"]),
    ],
)  # fmt: skip
def test_parse_directives(content: str, expected: list[str]) -> None:
    assert parse_directives(content) == expected


# -- X-Robots-Tag ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("noindex", ["noindex"]),
        ("noindex, nofollow", ["noindex", "nofollow"]),
        ("webrobot: noindex", ["noindex"]),
        ("WebRobot:NOINDEX, nofollow", ["noindex", "nofollow"]),
        ("otherbot: noindex", []),
        ("otherbot: noindex, nofollow", []),  # the prefix scopes the whole list after it
        ("nofollow, otherbot: noindex", ["nofollow"]),
        ("otherbot: noindex, webrobot: noarchive, nofollow", ["noarchive", "nofollow"]),
        ("webrobot-news: noindex", []),  # another token, not ours
        # a directive with a value is not an agent prefix
        ("unavailable_after: 25 Jun 2010 15:00:00 PST", ["unavailable_after:25 jun 2010 15:00:00 pst"]),
        ("unavailable_after: Friday, 25-Jun-10 15:00:00 PST", ["unavailable_after:friday, 25-jun-10 15:00:00 pst"]),
        ("max-snippet: 3, noindex", ["max-snippet:3", "noindex"]),
        ("max-future: large, noindex", ["max-future:large", "noindex"]),
        ("otherbot: unavailable_after: 25 Jun 2010, noindex", []),
        ("webrobot: unavailable_after: 25 Jun 2010", ["unavailable_after:25 jun 2010"]),
        ("none", ["none"]),
        ("", []),
    ],
)  # fmt: skip
def test_header_directives(value: str, expected: list[str]) -> None:
    assert header_directives(value, AGENT) == expected


def test_several_headers_combine_and_each_has_its_own_agent_scope() -> None:
    values = ["otherbot: noindex, nofollow", "noarchive", "webrobot: nofollow", "noarchive"]
    assert headers_directives(values, AGENT) == ["noarchive", "nofollow"]
    assert headers_directives(values, "otherbot") == ["noindex", "nofollow", "noarchive"]


def test_product_token() -> None:
    assert product_token("webrobot") == "webrobot"
    assert product_token(" WebRobot ") == "webrobot"
    assert product_token(None, "MyBot/1.0 (+http://x)") == "mybot"
    assert product_token("", "") == ""


# -- policy ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("directives", "expected"),
    [
        ([], RobotsPolicy(index=True, follow=True, archive=True)),
        (["index", "follow"], RobotsPolicy(True, True, True)),
        (["all"], RobotsPolicy(True, True, True)),
        (["noindex"], RobotsPolicy(False, True, True)),
        (["nofollow"], RobotsPolicy(True, False, True)),
        (["none"], RobotsPolicy(False, False, True)),
        (["noarchive"], RobotsPolicy(True, True, False)),
        (["index", "noindex"], RobotsPolicy(False, True, True)),  # most restrictive wins
        (["noindex", "index", "all"], RobotsPolicy(False, True, True)),
        (["all", "none"], RobotsPolicy(False, False, True)),
        (["follow", "nofollow"], RobotsPolicy(True, False, True)),
        (["nosnippet", "max-snippet:0", "whatever"], RobotsPolicy(True, True, True)),
    ],
)  # fmt: skip
def test_policy(directives: list[str], expected: RobotsPolicy) -> None:
    assert policy(directives) == expected


# -- the head scan ------------------------------------------------------------------


def doc(head: str, body: str = "<p>text</p>") -> str:
    return f"<!DOCTYPE html><html><head><title>t</title>{head}</head><body>{body}</body></html>"


@pytest.mark.parametrize(
    ("html", "expected"),
    [
        (doc('<meta name="robots" content="noindex">'), ["noindex"]),
        (doc('<meta name="webrobot" content="nofollow">'), ["nofollow"]),
        (doc('<meta name="WebRobot" content="NOFOLLOW">'), ["nofollow"]),
        (doc('<meta name="ROBOTS" content="NoIndex">'), ["noindex"]),
        (doc('<meta name="otherbot" content="noindex, nofollow">'), []),
        (doc('<meta name="googlebot" content="noindex">'), []),
        # several meta elements combine, deduplicated
        (doc('<meta name="robots" content="noindex"><meta name="webrobot" content="nofollow, noindex">'),
         ["noindex", "nofollow"]),
        # only the head counts
        (doc("", '<meta name="robots" content="noindex">'), []),
        (doc('<meta name="robots" content="nofollow">', '<meta name="robots" content="noindex">'), ["nofollow"]),
        # upper-case tags and attributes, unquoted and single-quoted values
        ('<HTML><HEAD><TITLE>t</TITLE><META NAME=ROBOTS CONTENT=NOINDEX></HEAD><BODY>x</BODY></HTML>', ["noindex"]),
        ("<html><head><meta name=robots content='noindex, nofollow'></head></html>", ["noindex", "nofollow"]),
        ("<html><head><meta content=noarchive name=robots/></head></html>", ["noarchive"]),
        ("<html><head><meta\nname = \"robots\"\ncontent = \"noindex\"\n></head></html>", ["noindex"]),
        # character references in content (and in the name's value once matched)
        (doc('<meta name="robots" content="noindex&#44;nofollow">'), ["noindex", "nofollow"]),
        (doc('<meta name="robots" content="&#x6E;oindex &amp; more">'), ["noindex", "&", "more"]),
        (doc('<meta name="robots&#32;" content="noindex">'), ["noindex"]),
        # meta before <html>, no head element at all, an unclosed head
        ('<meta name="robots" content="noindex"><html><head><title>t</title></head><body>x</body></html>', ["noindex"]),
        ('<html><title>t</title><meta name="robots" content="noindex"><p>x</p></html>', ["noindex"]),
        ('<meta name="robots" content="noindex">', ["noindex"]),
        ('<html><head><title>t</title><meta name="robots" content="noindex"><body>x', ["noindex"]),
        (('<html><head><title>t</title><meta name="robots" content="noindex"><p>x</p>'
          '<meta name="robots" content="nofollow">'), ["noindex"]),
        # a body element or text ends the head before its meta
        ('<html><p>x</p><meta name="robots" content="noindex"></html>', []),
        ('<html><head><title>t</title>hello <meta name="robots" content="noindex"></head></html>', []),
        ('<html><head></head><meta name="robots" content="noindex"></html>', []),
        (("<html><head><meta name=robots content=nofollow></head>"
          "<frameset><meta name=robots content=noindex></frameset></html>"), ["nofollow"]),
        # things that look like meta elements but are not
        (doc('<!-- <meta name="robots" content="noindex"> --><meta name="robots" content="nofollow">'), ["nofollow"]),
        (doc('<script>var s = "<meta name=robots content=noindex>";</script>'), []),
        (doc('<style>/* <meta name=robots content=noindex> */</style>'), []),
        ('<html><head><title><meta name=robots content=noindex></title></head></html>', []),
        (doc('<meta name="robots">'), []),  # no content
        (doc('<meta content="noindex">'), []),  # no name
        (doc('<meta http-equiv="robots" content="noindex">'), []),
        # quotes, odd characters and '>' inside values
        (doc('<meta name="robots" content="a>b, noindex">'), ["a>b", "noindex"]),
        (doc('<meta name="robots" name="otherbot" content="noindex">'), ["noindex"]),  # first name wins
        (doc('<meta name="otherbot" name="robots" content="noindex">'), []),
        (doc('<link rel="x" href="/a?b>c"><meta name="robots" content="noindex">'), ["noindex"]),
        (doc('<meta charset="utf-8"/><meta name="robots" content="noindex" />'), ["noindex"]),
        (('\ufeff  \n<?xml version="1.0"?><!DOCTYPE html><html xmlns="http://www.w3.org/1999/xhtml">'
          '<head><meta name="robots" content="noindex"/></head></html>'), ["noindex"]),
        ("<html><head><noscript><meta name=robots content=noindex></noscript></head></html>", ["noindex"]),
        # broken and empty documents: best effort, no exception
        ("", []),
        ("<", []),
        ("<html><head><meta name=robots content=", []),
        ('<html><head><meta name=robots content="noindex', ["noindex"]),
        ("<html><head><!-- never closed <meta name=robots content=noindex>", []),
        ("<html><head><script>never closed <meta name=robots content=noindex>", []),
        ("<html><head><meta name=robots content=noindex", ["noindex"]),
        ("<html><head><meta = = ' name=robots content=noindex>", ["noindex"]),  # strays skipped
        ("just text, no markup: robots noindex", []),
        ("a < b and <3 <meta name=robots content=noindex>", []),
    ],
)  # fmt: skip
def test_head_meta_directives(html: str, expected: list[str]) -> None:
    assert head_meta_directives(html, AGENT) == expected


def test_a_script_in_the_head_that_spells_out_body_does_not_hide_later_meta() -> None:
    html = doc('<script>document.write("<body>")</script><meta name="robots" content="noindex">')
    assert head_meta_directives(html, AGENT) == ["noindex"]


def test_head_metas_reads_every_name_when_not_filtered() -> None:
    html = doc(
        '<meta name="Description" content="A &amp; B"><meta name=" robots " content="noindex">'
    )
    assert head_metas(html) == [("description", "A & B"), ("robots", "noindex")]
    assert head_metas(html, {"robots"}) == [("robots", "noindex")]


def test_agent_token_is_configurable() -> None:
    html = doc('<meta name="mybot" content="noindex"><meta name="webrobot" content="nofollow">')
    assert head_meta_directives(html, "MyBot") == ["noindex"]
    assert head_meta_directives(html, "webrobot") == ["nofollow"]


def test_binary_garbage_does_not_crash() -> None:
    data = bytes(range(256)) * 64
    for text in (
        data.decode("latin-1"),
        data.decode("utf-8", "replace"),
        "\x00<\x00m\x00e\x00t\x00a",
    ):
        assert head_meta_directives(text, AGENT) == []


def test_a_huge_head_is_scanned_in_linear_time() -> None:
    """Unclosed quotes and many tags must not make the scan backtrack."""
    head = '<link href="x>' * 20_001 + "<meta name=robots content=noindex>"
    assert head_meta_directives(f"<html><head>{head}", AGENT) == []
    head = "<link rel=a>" * 20_000 + "<meta name=robots content=noindex>"
    assert head_meta_directives(f"<html><head>{head}</head>", AGENT) == ["noindex"]
