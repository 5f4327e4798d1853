"""The anchors on a code block's lines (``webrobot/extract/codeanchors.py``), and the main
text of an installation page that keeps its one-line commands."""

from __future__ import annotations

import lxml.html
import pytest

from webrobot.extract.codeanchors import without_line_anchors


def _line(n: int, code: str) -> str:
    return (
        f'<span id="__span-{n}-1"><a id="__codelineno-{n}-1" name="__codelineno-{n}-1" '
        f'href="#__codelineno-{n}-1"></a>{code}\n</span>'
    )


INSTALL = f"""<html><head><title>Installation - InjectQ</title></head><body>
<header class="md-header"><nav>InjectQ Home Getting Started</nav></header>
<div class="md-content"><article class="md-content__inner md-typeset">
<h1>Installation</h1>
<p>This guide will help you install the library and get it running on your system.</p>
<h2 id="basic">Basic installation</h2><p>Install the library using pip:</p>
<div class="language-bash highlight"><pre><span></span><code>{_line(0, "pip install injectq")}</code></pre></div>
<h2 id="optional">Optional dependencies</h2>
<p>The library supports optional integrations with popular frameworks, as needed:</p>
<div class="language-bash highlight"><pre><span></span><code>{_line(1, "pip install injectq[fastapi]")}</code></pre></div>
<p>This includes the tools the integration needs, and nothing else of the framework.</p>
</article></div></body></html>"""


def test_empty_links_in_code_go_and_the_code_stays() -> None:
    tree = lxml.html.fromstring(
        "<div><pre><code><span><a href='#l1'></a>first\n</span><span><a href='#l2'>"
        "</a>second</span> <a href='/api/f'>f</a>()</code></pre><p><a href='#x'></a>p</p></div>"
    )
    assert without_line_anchors(tree) == 2
    assert tree.find(".//pre").text_content() == "first\nsecond f()"
    assert [a.get("href") for a in tree.iter("a")] == ["/api/f", "#x"]


def test_the_main_text_keeps_one_line_commands() -> None:
    pytest.importorskip("trafilatura")
    from benchmarks.quality import source_page
    from webrobot.extract.maintext import main_text

    text = main_text(source_page("https://docs.example/install/", INSTALL)) or ""
    lines = text.split("\n")
    assert "pip install injectq" in lines
    assert "pip install injectq[fastapi]" in lines
