"""On a page of cards, a card's content block is not taken for the page's."""

from __future__ import annotations

import lxml.html
from parsel import Selector

from webrobot.extract.cardframes import read_as_cards, unframe_cards
from webrobot.extract.maintext import main_text
from webrobot.extract.page import SourcePage

BLURB = "what the team learned when it moved its build to a new system, and what it would do again"


def front_page(n: int = 6, card_class: str = "content") -> str:
    """A blog's front page: each post a card whose inner block is named ``content``, a
    name trafilatura takes for the page's content block."""
    cards = "".join(
        f"<div class='post'><div class='{card_class}'><h3><a href='/p/{i}'>Post number {i} "
        f"about our build system</a></h3><p>The story of {BLURB} ({i}).</p></div></div>"
        for i in range(n)
    )
    return (
        "<html><head><title>Blog</title><meta property='og:type' content='website'></head>"
        "<body><header><nav><a href='/'>Home</a></nav></header><main><h1>The blog</h1>"
        f"<div class='list'>{cards}</div></main><footer><p>Copyright</p></footer></body></html>"
    )


def read(html: str) -> str:
    return main_text(SourcePage("", html, root=Selector(text=html, type="html").root)) or ""


def test_every_card_keeps_its_title() -> None:
    text = read(front_page())
    assert text.count("Post number") == 6
    assert text.count("The story of") == 6


def test_the_cards_content_blocks_lose_their_names() -> None:
    tree = lxml.html.fromstring(front_page())
    # each card (``post``, a name of a post's block too) and its ``content`` block
    assert unframe_cards(tree) == 12
    assert not tree.xpath("//*[@class='content' or @class='post']")
    assert len(tree.xpath("//div[@class='list']/div/div/h3")) == 6
    assert tree.xpath("//main")  # the page's own content block is kept as it is


def test_a_single_content_block_is_the_page() -> None:
    page = (
        "<html><body><div class='content'><h1>About</h1><p>One block of text.</p>"
        "<div class='post'><p>a</p></div><div class='post'><p>b</p></div></div></body></html>"
    )
    tree = lxml.html.fromstring(page)
    assert unframe_cards(tree) == 0
    assert tree.xpath("//div[@class='content']")


def test_two_cards_are_no_grid() -> None:
    tree = lxml.html.fromstring(front_page(2))
    assert unframe_cards(tree) == 0
    assert len(tree.xpath("//*[@class='content']")) == 2


def test_read_as_cards_counts_both_changes() -> None:
    tree = lxml.html.fromstring(front_page())
    assert read_as_cards(tree) == 12


def test_a_content_block_beside_its_header_and_footer_is_the_page() -> None:
    """Plain blocks of one shape (a header, the content, a footer told apart by their
    ids) are no cards: the one holding the page's text is its content."""
    story = "<p>" + "The long text of this page, told in many words. " * 20 + "</p>"
    page = (
        "<html><body><div><div id='header'><a href='/'>Home</a></div>"
        f"<div id='content'><h1>A person</h1>{story}</div>"
        "<div id='footer'><p>Imprint</p></div></div></body></html>"
    )
    tree = lxml.html.fromstring(page)
    assert unframe_cards(tree) == 0
    assert tree.xpath("//div[@id='content']")
