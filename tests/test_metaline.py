"""A post's meta line is told by what it holds (webrobot.extract.metaline), and the main
text drops it when it opens the text (webrobot.extract.textlayout.without_date_line)."""

from __future__ import annotations

import pytest
from lxml.html import fromstring

from webrobot.extract.metaline import is_meta_line
from webrobot.extract.textlayout import without_date_line

PAGE = """<html><body><article><h1>Resetting a stuck USB hub</h1>
<div class="{cls}">{meta}</div><p>When the hub stops answering, unbind its driver.</p>
<p>Then bind it again.</p></article></body></html>"""

NEXT = (
    '<span><span class="label">Posted on</span> <time datetime="2020-01-02">2020-01-02</time>'
    "</span> <span>Edited on <time>2021-03-04</time></span> <span>In <a>Linux</a></span>"
    " <span>Views: <span>312</span></span>"
)


def line_of(meta: str) -> str:
    return " ".join(fromstring(f"<div>{meta}</div>").text_content().split())


@pytest.mark.parametrize(
    "meta",
    [
        NEXT,
        NEXT.replace("</span> <span>", '</span> <span class="divider">|</span> <span>'),
        (
            "<span>发表于 <time>2020-01-02</time></span><span>更新于 2021-03-04</span>"
            "<span>分类于 <a>Linux</a></span><span>阅读次数: 312</span>"
        ),
        "<time>Jan 2, 2020</time> · <span>5 min read</span>",
        "<time>Jan 2, 2020</time> · <span>Reading time ≈ 1 mins.</span>",
        "Publié le <b>2 janvier 2020</b> dans <a>Linux</a> · 3 commentaires",
    ],
)
def test_a_line_of_meta_items_holding_the_posts_day_is_dropped(meta: str) -> None:
    root = fromstring(PAGE.format(cls="meta", meta=meta))
    line = line_of(meta)
    assert is_meta_line(line, root)
    text = f"{line}\nWhen the hub stops answering, unbind its driver.\nThen bind it again."
    assert without_date_line(text, text.replace("\n", "\n\n"), root) == (
        "When the hub stops answering, unbind its driver.\nThen bind it again.",
        "\nWhen the hub stops answering, unbind its driver.\n\nThen bind it again.",
    )


def test_the_class_does_not_decide() -> None:
    """The same items in an element of any class, or none, are the meta line."""
    root = fromstring(PAGE.format(cls="x1f3", meta=NEXT))
    assert is_meta_line(line_of(NEXT), root)


@pytest.mark.parametrize(
    "meta",
    [
        # a sentence of the post that starts with its day
        "On <time>2020-01-02</time> the hub stopped answering after a suspend, twice in a row.",
        # a short sentence of the post, its pieces short because of its inline markup
        "On <time>2020-01-02</time> we reset <a>the USB hub</a> of the lab.",
        "Did <time>2020-01-02</time> break <a>the USB hub</a>?",
        # a paragraph inside: text, not items
        "<p>Posted on 2020-01-02</p><p>Linux</p>",
    ],
)
def test_a_sentence_or_a_block_holding_the_day_is_text(meta: str) -> None:
    root = fromstring(PAGE.format(cls="meta", meta=meta))
    assert not is_meta_line(line_of(meta), root)


def test_items_holding_another_day_than_the_posts_stay() -> None:
    """A changelog's "Version 2 | 2021-03-04 | 12 files" is not the post's meta line."""
    root = fromstring(
        PAGE.format(cls="meta", meta="<time>2020-01-02</time>").replace(
            "<p>When", "<div><b>Version 2</b> | <time>2021-03-04</time> | 12 files</div><p>When"
        )
    )
    assert not is_meta_line("Version 2 | 2021-03-04 | 12 files", root)


def test_a_line_no_element_holds_whole_stays() -> None:
    """Words of two elements run together by the reading are not one meta line."""
    root = fromstring(PAGE.format(cls="meta", meta="<time>2020-01-02</time>"))
    assert not is_meta_line("2020-01-02 When the hub stops answering", root)
