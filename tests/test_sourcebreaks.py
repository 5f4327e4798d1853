"""The line breaks of a page's source that a browser shows as spaces
(``webrobot/extract/sourcebreaks.py``), and the main text that no longer cuts a
paragraph where its source did."""

from __future__ import annotations

import lxml.html
import pytest

from webrobot.extract.sourcebreaks import unwrap_source_breaks

SPHINX_PAGE = """<html><head><title>Setup</title></head><body>
<nav class="wy-nav-side"><ul><li><a href="/">Installation</a></li></ul></nav>
<div role="main"><section id="setup"><h1>Setup</h1>
<p>Once the <a href="install.html">Installation</a> of the tool has been completed,
you will find your new working directory within the <code>PATH/TO/tool</code> folder.
Make sure your current working directory is this cloned repository.</p>
<ul><li>The configuration file holds the defaults, and the working directory
must be set in it before the first run.</li></ul>
<pre>$ cd tool
$ make run</pre>
<p>Each module is composed of rules that say how output files are made from input
files, and the workflow decides which rules to run and in which order for you.</p>
</section></div></body></html>"""


def _tree(html: str):
    return lxml.html.fromstring(html)


def test_a_break_inside_a_paragraph_is_a_space() -> None:
    source = "one line\r\n   and the next,\n<a>a link</a>\nand a tail"
    tree = _tree(f"<div><p>{source}</p></div>")
    before = len(tree.find(".//p").text_content())
    assert unwrap_source_breaks(tree) == 2
    text = tree.find(".//p").text_content()
    assert " ".join(text.split()) == "one line and the next, a link and a tail"
    assert "\n" not in text and "\r" not in text
    assert len(text) == before  # as long: trafilatura compares its readings' lengths


def test_preformatted_text_and_kept_white_space_keep_their_breaks() -> None:
    tree = _tree(
        "<div><pre>a\n<span>b\nc</span></pre><p><code>x\ny</code></p><script>f()\ng()</script>"
        "<textarea>m\nn</textarea><div style='white-space: pre-line'>p\n<b>q\nr</b></div></div>"
    )
    assert unwrap_source_breaks(tree) == 0
    assert tree.find(".//pre").text_content() == "a\nb\nc"
    assert tree.find(".//code").text == "x\ny"
    assert tree.find(".//b").text == "q\nr"


def test_white_space_alone_is_left_as_it_is() -> None:
    tree = _tree("<div>\n<p>a</p>\n<p>b</p>\n</div>")
    assert unwrap_source_breaks(tree) == 0


def test_the_main_text_keeps_a_wrapped_paragraph_on_one_line() -> None:
    pytest.importorskip("trafilatura")
    from benchmarks.quality import source_page
    from webrobot.extract.maintext import main_reading

    reading = main_reading(source_page("https://docs.example/setup.html", SPHINX_PAGE))
    lines = (reading.text or "").split("\n")
    assert (
        "Once the Installation of the tool has been completed, you will find your new "
        "working directory within the PATH/TO/tool folder. Make sure your current "
        "working directory is this cloned repository." in lines
    )
    assert any(
        line.endswith("must be set in it before the first run.")
        and line.lstrip("- ").startswith("The configuration")
        for line in lines
    )
    assert "$ cd tool" in lines and "$ make run" in lines
    assert "for you." in (reading.markdown or "")
    assert "input files, and the workflow" in (reading.markdown or "")
