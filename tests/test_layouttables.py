"""Tables that lay a page out (``webrobot/extract/layouttables.py``), and the main text of
a page built with them, read as a page rather than as a table of data."""

from __future__ import annotations

import lxml.html
import pytest

from webrobot.extract.layouttables import is_layout, unlay, unlay_tables


def _table(inner: str, attrs: str = "") -> lxml.html.HtmlElement:
    return lxml.html.fromstring(f"<div><table {attrs}>{inner}</table></div>").find(".//table")


@pytest.mark.parametrize(
    ("inner", "attrs", "layout"),
    [
        ("<tr><td>a</td><td>b</td></tr><tr><td>c</td><td>d</td></tr>", "", False),
        (
            "<tr><td>$1,428<br>a term</td><td>$1,700</td></tr><tr><td>$504</td><td>$600</td></tr>",
            "",
            False,
        ),
        ("<tr><td>menu</td><td><h2>post</h2></td></tr><tr><td>c</td><td>d</td></tr>", "", True),
        (
            "<tr><td>$1,428 a term</td><td><p>$1,700</p><p>a term</p></td></tr><tr><td>c</td><td>d</td></tr>",
            "",
            False,
        ),
        (
            f"<tr><td>menu</td><td>{'long text ' * 20}</td></tr><tr><td>c</td><td>d</td></tr>",
            "",
            True,
        ),
        ("<tr><td>a</td><td>b</td><td>c</td></tr>" * 4, "", False),
        ("<tr><td>a</td><td>b</td></tr>" * 10, "", False),
        ("<tr><td>a</td><td>b</td><td>c</td><td>d</td><td>e</td></tr>" * 2, "", False),
        (
            "<tr><td colspan=3>banner</td></tr><tr><td>menu</td><td><div>post</div></td><td>side</td></tr>",
            "",
            True,
        ),
        (
            "<tr><td colspan=3>banner</td></tr><tr><td>menu</td><td>post</td><td>side</td></tr>",
            "",
            False,
        ),
        ("<tr><td>a</td><td>b</td></tr><tr><td>c</td><td>d</td></tr>", "role=presentation", True),
        (
            "<tr><td>menu</td><td><table><tr><td>x</td></tr></table></td></tr><tr><td>f</td></tr>",
            "",
            True,
        ),
        ("<tr><td>menu</td><td>post</td><td>side</td></tr>", "", True),
        ("<tbody><tr><td>a</td></tr><tr><td>b</td></tr><tr><td>c</td></tr></tbody>", "", True),
        ("<tr><th>name</th><th>price</th></tr><tr><td>a</td><td>1</td></tr>", "", False),
        ("<caption>Prices</caption><tr><td>a</td><td>1</td></tr>", "", False),
        ("<tr><td>a</td><td>1</td></tr><tr><td>b</td><td>2</td></tr>", "summary='prices'", False),
        ("<tr><th>k</th><td><table><tr><td>x</td></tr></table></td></tr>", "", False),
        ("<tr><td><table><tr><th>k</th><td>v</td></tr></table></td></tr>", "", True),
        (
            "<tr><td class=gutter><pre>1\n2</pre></td><td><pre>a = 1\nb = 2</pre></td></tr>",
            "",
            False,
        ),
    ],
)
def test_a_table_is_layout_as_reader_modes_judge_it(inner: str, attrs: str, layout: bool) -> None:
    assert is_layout(_table(inner, attrs)) is layout


def test_layout_tables_give_way_to_their_cells_and_data_tables_stay() -> None:
    tree = lxml.html.fromstring(
        "<div><table><tbody><tr><td><a href='/'>Home</a> | <a href='/a'>Archive</a></td>"
        "<td><b>Title</b><br>First line<br>second line</td><td><p>A block</p></td></tr>"
        "</tbody></table><table><tr><th>k</th><th>v</th></tr><tr><td>a</td><td>1</td></tr>"
        "</table></div>"
    )
    assert unlay_tables(tree.iter("table")) == 1
    assert [child.tag for child in tree] == ["div", "p", "div", "table"], "links alone: a menu"
    assert tree[1].text_content() == "TitleFirst linesecond line"
    assert len(tree.find("table").findall(".//td")) == 2


_POST = "".join(
    f"<b>Part {n}</b><br>The story goes on in a cell of the page's table, line after line, "
    "as pages were written before style sheets laid them out.<br>"
    for n in range(5)
)
PORTAL = f"""<html><head><title>News of the town</title></head><body>
<table width="780" border="0" cellpadding="0"><tr><td colspan="2"><font size="5">
<b>Town Portal</b></font></td></tr><tr>
<td width="150" valign="top"><a href="/">Home</a><br><a href="/news">News</a><br>
<a href="/sport">Sport</a><br><a href="/contact">Contact</a></td>
<td valign="top"><font face="Verdana" size="2">{_POST}</font></td></tr>
<tr><td colspan="2"><center>Copyright 2008 Town Portal</center></td></tr></table>
</body></html>"""


def test_comments_in_a_cell_neither_make_it_a_block_nor_count_as_its_text() -> None:
    tree = lxml.html.fromstring(
        "<div><table><tr><td><!-- begin post --><b>Title</b><br>First line<!-- end --></td>"
        "<td><a href='/'>Home</a><!-- a menu, not a paragraph --></td></tr></table></div>"
    )
    assert unlay_tables(tree.iter("table")) == 1
    assert [child.tag for child in tree] == ["p", "div"]


def test_the_main_text_of_a_table_laid_page_is_read_line_by_line() -> None:
    pytest.importorskip("trafilatura")
    from benchmarks.quality import source_page
    from webrobot.extract.maintext import main_text

    text = main_text(source_page("http://portal.example/news/2008/town.html", PORTAL)) or ""
    lines = text.split("\n")
    assert not [line for line in lines if line.startswith("|")], text
    assert "Part 4" in lines
    assert (
        "The story goes on in a cell of the page's table, line after line, as pages were "
        "written before style sheets laid them out." in lines
    )


def test_unlay_gives_the_paragraphs_of_the_page_and_the_cells_made_paragraphs() -> None:
    tree = lxml.html.fromstring(
        "<html><body><p>Before.</p><table><tr><td><a href='/'>Home</a></td>"
        "<td>A cell of text <i></i>and a <b>mark</b>, long enough to be the page's content"
        f"{' and more words' * 14}.</td></tr></table><p>After.</p></body></html>"
    )
    paragraphs = unlay(tree)
    # the page's paragraphs, then the cells made paragraphs
    assert [p.text_content()[:12] for p in paragraphs] == ["Before.", "After.", "A cell of te"]
    assert all(p.tag == "p" for p in paragraphs)
    assert tree.find(".//table") is None
