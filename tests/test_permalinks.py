"""Permalink marks (``webrobot/extract/permalinks.py``), and the main text of an API
reference whose signatures no longer end in ``#``."""

from __future__ import annotations

import lxml.html
import pytest

from webrobot.extract.permalinks import without_permalink_marks

API = """<html><head><title>API Documentation - pybakalari</title></head><body>
<aside class="sidebar-drawer"><a href="/">pybakalari</a></aside>
<article role="main"><h1>API Documentation<a class="headerlink" href="#api">#</a></h1>
<p>The following page outlines the API of the client and of the data it returns.</p>
<dl class="py class"><dt class="sig sig-object py" id="Client"><em>class</em>
<span class="sig-name">Client</span>(<em>*</em>, <em>route</em>)<a class="headerlink"
href="#Client" title="Link to this definition">#</a></dt>
<dd><p>A class that is used to interact with the school's server and its timetable.</p>
<dl class="py method"><dt class="sig sig-object py" id="Client.close"><em>async</em>
<span class="sig-name">close</span>()<a class="headerlink" href="#Client.close">¶</a></dt>
<dd><p>Closes the client's HTTP session, and every request it still has open.</p></dd></dl>
</dd></dl>
<p>See <a href="#Client">the client</a> for the ways to log in, and the errors.</p>
</article></body></html>"""


def test_links_to_a_fragment_showing_a_mark_go_their_tails_stay() -> None:
    tree = lxml.html.fromstring(
        "<div><dt>close()<a href='#close'>¶</a> tail</dt><p><a href='#a'>see A</a>"
        "<a href='#impl'>\u200b§ </a><a href='#b'><i class='icon-link'></i></a>"
        "<a href='#'>#</a><a href='/x'>#</a><a href='#n'>1</a></p></div>"
    )
    assert without_permalink_marks(tree) == 2
    assert tree.find(".//dt").text_content() == "close() tail"
    # words, a picture or an icon (a gallery's, a dialog's), "#" alone, another page
    assert [a.get("href") for a in tree.iter("a")] == ["#a", "#b", "#", "/x", "#n"]


def test_the_main_text_reads_signatures_without_their_marks() -> None:
    pytest.importorskip("trafilatura")
    from benchmarks.quality import source_page
    from webrobot.extract.maintext import main_text

    text = main_text(source_page("https://docs.example/api.html", API)) or ""
    lines = [line.lstrip("- ") for line in text.split("\n")]
    assert "class Client(*, route)" in lines, lines
    assert "async close()" in lines, lines
    assert "See the client for the ways to log in, and the errors." in lines
    assert "#" not in text and "¶" not in text
