"""Posts whose text stands in a ``<div>`` itself, on pages built as before HTML5
(``webrobot/extract/textdivs.py``), and the main text of such a forum thread."""

from __future__ import annotations

import lxml.html
import pytest

from webrobot.extract.textdivs import built_before_html5, text_divs

_WORDS = "words enough to be read as a post of the thread, and then some more of them"


def test_divs_of_text_that_repeat_a_class_become_paragraphs() -> None:
    tree = lxml.html.fromstring(
        "<html><body>"
        f'<div class="inner">First post, {_WORDS}.<br><br>A second line.</div>'
        f'<div class="inner">Second post with <b>bold</b> and <a href="/x">a link</a>, {_WORDS}.</div>'
        f'<div class="lone">A box of its own, {_WORDS}.</div>'
        '<div class="inner">Short.</div>'
        f'<div class="inner"><div>A block inside, {_WORDS}.</div></div>'
        f'<div class="menu"><a href="/a">{_WORDS}</a></div><div class="menu"><a href="/b">{_WORDS}</a></div>'
        "</body></html>"
    )
    made = text_divs(tree)
    assert [e.text_content()[:12] for e in made] == ["First post, ", "Second post "]
    assert all(e.tag == "p" for e in made)
    assert sorted(e.get("class") or "" for e in tree.iter("div")) == [
        "",
        "inner",
        "inner",
        "lone",
        "menu",
        "menu",
    ]


@pytest.mark.parametrize(
    ("html", "legacy"),
    [
        ("<html><body><table><tr><td>x</td></tr></table></body></html>", True),
        ("<html><body><article><p>x</p></article></body></html>", False),
        ("<html><body><nav>x</nav><div>y</div></body></html>", False),
        (
            '<html><head><script type="application/ld+json">{}</script></head><body></body></html>',
            False,
        ),
    ],
)
def test_a_page_is_built_before_html5_without_sectioning_or_json_ld(
    html: str, legacy: bool
) -> None:
    assert built_before_html5(lxml.html.fromstring(html)) is legacy


def _thread() -> str:
    posts = "".join(
        f'<div class="post_wrapper"><div class="poster"><h4><a href="/u/{n}">member{n}</a></h4>'
        f'</div><div class="postarea"><div class="inner">Reply {n} says what its writer '
        f"thinks of the question, {_WORDS}.<br><br>And a second line of reply {n}.</div>"
        "</div></div>"
        for n in range(5)
    )
    return (
        "<html><head><title>How do you use it? - A forum</title></head><body>"
        '<div id="menu"><a href="/">Home</a> <a href="/help">Help</a></div>'
        f"<h1>How do you use it?</h1>{posts}</body></html>"
    )


def test_the_thread_is_read_with_its_posts() -> None:
    pytest.importorskip("trafilatura")
    from benchmarks.quality import source_page
    from webrobot.extract.maintext import main_text

    text = main_text(source_page("https://forum.example/index.php?topic=1", _thread()))
    lines = (text or "").split("\n")
    for n in range(5):
        assert any(line.startswith(f"Reply {n} says what its writer") for line in lines), n
    # read as paragraphs, the posts are the text; trafilatura's last resort, which read
    # the page whole, kept the menu with them
    assert "Home" not in lines


def test_the_page_facts_say_the_site_and_the_build() -> None:
    from webrobot.extract.pagefacts import PageFacts, page_facts

    tree = lxml.html.fromstring(_thread())
    assert page_facts(tree, "https://www.forum.example/t/1") == PageFacts("forum.example", True)
    tree = lxml.html.fromstring("<html><body><main><p>x</p></main></body></html>")
    assert page_facts(tree, None) == PageFacts(None, False)
