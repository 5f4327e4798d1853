"""Empty inline elements inside paragraphs (``webrobot/extract/emptytails.py``), and the
main text of a blog post whose paragraph after the teaser break starts with one."""

from __future__ import annotations

import lxml.html
import pytest

from webrobot.extract.emptytails import keep_empty_tails

_STORY = "".join(
    f"<p>Paragraph {n} of the story holds words enough to be read as the text of this "
    "post, and then some more words.</p>"
    for n in range(6)
)
POST = f"""<html><head><title>A post</title><meta property="og:type" content="article">
</head><body><table width="100%"><tr><td class="sidebar"><a href="/">Home</a><br>
<a href="/archive">Archive</a></td><td class="content"><div class="post">
<h2>A post</h2>
<p>The opening paragraph of the post, shown on the front page before the break.</p>
<p><span id="more-5662"></span>The paragraph after the teaser break, which a reader
reads as the rest of the post.</p>
<p>A sentence with an empty <b></b>bold mark in it, read whole by a person.</p>
{_STORY}</div></td></tr></table></body></html>"""


def test_empty_inline_elements_go_and_their_tails_stay() -> None:
    tree = lxml.html.fromstring(
        "<div><p><span id='more-1'></span>After the break.</p><p>An <b></b>empty <i> </i>"
        "mark <em><img src='x.png'></em> here<strong></strong></p><p><span></span></p></div>"
    )
    assert keep_empty_tails(tree.iter("p")) == 2
    paragraphs = [p.text_content() for p in tree.iter("p")]
    assert paragraphs == ["After the break.", "An empty  mark  here", ""]
    assert [e.tag for e in tree.iter("i", "em", "strong", "span")] == ["i", "em", "strong", "span"]


def test_the_precise_reading_keeps_the_paragraph_after_the_break() -> None:
    pytest.importorskip("trafilatura")
    from benchmarks.quality import source_page
    from webrobot.extract.maintext import main_text

    text = main_text(source_page("https://blog.example/2009/05/a-post/", POST)) or ""
    lines = text.split("\n")
    assert (
        "The paragraph after the teaser break, which a reader reads as the rest of the post."
        in lines
    )
    assert "A sentence with an empty bold mark in it, read whole by a person." in lines
    assert (
        "Paragraph 5 of the story holds words enough to be read as the text of this post, and then some more words."
        in lines
    )


#: A hand-made page of the 2000s: the post is a cell of text and ``<br>`` lines in the
#: table that lays the page out, with an empty ``<i></i>`` between two words.
CELL_POST = (
    '<html><head><title>A post</title><meta property="og:type" content="article"></head>'
    '<body><table width="100%"><tr><td class="sidebar"><a href="/">Home</a><br>'
    '<a href="/archive">Archive</a></td><td class="content">'
    "A sentence with an empty <i></i>italic mark in it, read whole by a person.<br>"
    + "".join(
        f"Line {n} of the story in the cell holds words enough to be read as its text.<br>"
        for n in range(8)
    )
    + "</td></tr></table></body></html>"
)


def test_a_layout_cell_read_as_a_paragraph_keeps_the_text_after_an_empty_mark() -> None:
    """A layout table's cell made a paragraph is one of the paragraphs mended."""
    pytest.importorskip("trafilatura")
    from benchmarks.quality import source_page
    from webrobot.extract.maintext import main_text

    text = main_text(source_page("https://home.example/2004/post.html", CELL_POST)) or ""
    lines = text.split("\n")
    assert "A sentence with an empty italic mark in it, read whole by a person." in lines
    assert "Line 7 of the story in the cell holds words enough to be read as its text." in lines
