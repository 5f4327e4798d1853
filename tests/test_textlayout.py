"""Code blocks on lines of their own and the post's date line, on trafilatura's body and
the text rendered from it (webrobot.extract.textlayout)."""

from __future__ import annotations

import pytest
from lxml import etree
from lxml.html import fromstring

from webrobot.extract.textlayout import code_on_own_lines, without_date_line

pytest.importorskip("trafilatura")
from trafilatura.xml import xmltotxt


def body(xml: str) -> etree._Element:
    return etree.fromstring(f"<body>{xml}</body>")


def text(element: etree._Element) -> list[str]:
    return [line.strip() for line in xmltotxt(element, False).split("\n") if line.strip()]


def test_a_block_without_its_last_newline_ends_before_the_heading() -> None:
    tree = body(
        '<p>Build it.</p><code>FROM scratch\nENTRYPOINT ["/k"] </code><head rend="h2">Next</head>'
    )
    assert text(tree)[-1] == 'ENTRYPOINT ["/k"] Next'
    assert code_on_own_lines(tree)
    assert text(tree) == ["Build it.", "FROM scratch", 'ENTRYPOINT ["/k"]', "Next"]


def test_a_block_inside_a_list_item_leaves_the_items_words() -> None:
    tree = body(
        "<list><item>soft <p>Run</p><code>git reset --soft HEAD~1\n</code>"
        "<p>and the changes stay.</p></item><item>Last</item></list>"
    )
    assert code_on_own_lines(tree)
    assert text(tree) == [
        "- soft Run", "git reset --soft HEAD~1", "and the changes stay.", "- Last"
    ]  # fmt: skip
    markdown = xmltotxt(tree, True).split("\n")
    at = markdown.index("git reset --soft HEAD~1")
    assert markdown[at - 1] == markdown[at + 1] == "```"


def test_trafilaturas_pre_code_is_a_block_even_on_one_line() -> None:
    tree = body(
        '<list><item><p>Pin it</p><code style="x"><code>pyenv local 3.12</code></code></item></list>'
    )
    assert code_on_own_lines(tree)
    assert text(tree) == ["- Pin it", "pyenv local 3.12"]


def test_code_inside_a_sentence_stays_in_it() -> None:
    tree = body(
        "<p>Run <code>ls -l</code> here.</p><list><item>Or <code>ls</code> alone</item></list>"
    )
    before = etree.tostring(tree)
    assert not code_on_own_lines(tree)
    assert etree.tostring(tree) == before
    assert text(tree) == ["Run ls -l here.", "- Or ls alone"]


def test_a_block_already_on_its_own_lines_is_left_as_it_is() -> None:
    tree = body("<p>Before.</p><code>a\nb\n</code>")
    assert not code_on_own_lines(tree)


def test_a_block_in_a_table_cell_is_left_to_the_table() -> None:
    tree = body("<table><row><cell>x <code>a\nb</code> y</cell></row></table>")
    assert not code_on_own_lines(tree)


PAGE = """<html><body><div class="post"><h1>Notes on Python classes</h1>
<span class="post-date">{date}</span><p>A few conventions.</p></div></body></html>"""


@pytest.mark.parametrize(
    "line", ["Jul 1, 2019", "Posted on July 1st, 2019", "Monday, 1 July 2019", "2019-07-01 10:30"]
)
def test_the_posts_date_alone_is_dropped_from_text_and_markdown(line: str) -> None:
    root = fromstring(PAGE.format(date=line))
    assert without_date_line(f"{line}\nA few conventions.", f"{line}\nA few conventions.", root) == (
        "A few conventions.", "A few conventions."
    )  # fmt: skip


@pytest.mark.parametrize(
    "text",
    [
        "Jul 1, 2019 · 5 min read\nA few conventions.",  # more than a date
        "Jul 1, 2019",  # nothing follows
        "March 3, 2020\nVersion 2 was released.",  # a date, but not the post's: a changelog's
    ],
)
def test_other_first_lines_stay(text: str) -> None:
    root = fromstring(PAGE.format(date="Jul 1, 2019"))
    assert without_date_line(text, None, root) == (text, None)


def test_a_date_line_on_a_page_stating_no_date_stays() -> None:
    root = fromstring("<html><body><h1>Notes on Python classes</h1><p>Words.</p></body></html>")
    assert without_date_line("Jul 1, 2019\nWords.", None, root)[0] == "Jul 1, 2019\nWords."
