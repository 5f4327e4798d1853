"""A page whose text stands in ``<body>`` itself (``webrobot/extract/bodycontent.py``), and
the main text that keeps its headings and steps."""

from __future__ import annotations

import lxml.html
import pytest

from webrobot.extract.bodycontent import holds_its_text, wrap_body_content

TUTORIAL = """<html><head><title>Tutorial: Headphones</title></head><body>
<h1>Tutorial: Headphones</h1>
<p>This tutorial shows how to build surfaces from the profile curves of a model.</p>
<p>You will learn how to:</p>
<ul><li>Loft curves.</li><li>Mirror objects.</li><li>Use layers.</li></ul>
<h2>Create the speaker shell</h2>
<p>The speaker shell is made of a lofted surface, a sweep along one rail and a fillet.</p>
<ol><li>Select the three circular curves with a crossing selection.</li>
<li>On the Surface menu, click Loft.</li></ol>
<h2>Create the headband</h2>
<p>The headband is swept along a curve and its ends are rounded with a revolve.</p>
<p>Copyright 2018 the manual's authors.</p>
</body></html>"""


def test_a_body_that_holds_its_text_gets_one_main() -> None:
    tree = lxml.html.fromstring(TUTORIAL)
    assert wrap_body_content(tree)
    body = tree.find("body")
    assert [child.tag for child in body] == ["main"]
    assert body.find("main")[0].tag == "h1"
    assert "Create the headband" in body.find("main").text_content()


@pytest.mark.parametrize(
    "html",
    [
        "<html><body><main><h1>T</h1><p>a</p><p>b</p><p>c</p></main></body></html>",
        "<html><body><h1>T</h1><p>a</p><p>b</p><p>c</p><article><p>d</p></article></body></html>",
        "<html><body><h1>T</h1><p>a</p><p>b</p></body></html>",  # too few blocks
        "<html><body><div><h1>T</h1><p>a</p><p>b</p><p>c</p></div></body></html>",
        "<html><body><p>a</p><p>b</p><p>c</p><p>d</p></body></html>",  # no heading
    ],
)
def test_a_page_built_otherwise_is_left_as_it_is(html: str) -> None:
    tree = lxml.html.fromstring(html)
    before = lxml.html.tostring(tree)
    assert not wrap_body_content(tree)
    assert lxml.html.tostring(tree) == before


def test_holds_its_text_counts_the_bodys_own_children() -> None:
    body = lxml.html.fromstring(TUTORIAL).find("body")
    assert holds_its_text(body)


def test_the_main_text_keeps_the_tutorials_headings_and_steps() -> None:
    pytest.importorskip("trafilatura")
    from benchmarks.quality import source_page
    from webrobot.extract.maintext import main_text

    lines = [
        line.lstrip("-0123456789. ")
        for line in (main_text(source_page("https://manual.example/t.html", TUTORIAL)) or "").split(
            "\n"
        )
    ]
    for wanted in (
        "Create the speaker shell",
        "Create the headband",
        "Mirror objects.",
        "On the Surface menu, click Loft.",
        "The headband is swept along a curve and its ends are rounded with a revolve.",
    ):
        assert wanted in lines, (wanted, lines)
