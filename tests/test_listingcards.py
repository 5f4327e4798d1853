"""Whole-card links on pages of cards: unwrapped before the reading, and read as text."""

from __future__ import annotations

import lxml.html
from parsel import Selector

from webrobot.extract.listingcards import lists_cards, unwrap_cards
from webrobot.extract.maintext import main_text
from webrobot.extract.page import SourcePage

BLURB = (
    "A twelve-week programme on how teams plan, build and ship their products, "
    "taught by people who have done it for many years."
)


def card_page(cards: str, head: str = "", article: str = "") -> str:
    return (
        f"<html><head><title>Programs</title>{head}</head><body>"
        "<header><a href='/'>Home</a></header><main><h1>Our programs</h1>"
        "<p>Every programme we run this year, for people who lead teams.</p>"
        f"{article}<div class='grid'>{cards}</div></main><footer>Site footer</footer></body></html>"
    )


def linked_cards(n: int = 8) -> str:
    return "".join(
        f"<div class='item'><a href='/p/{i}' class='card-link'>"
        f"<div class='title'>Programme number {i} in leadership</div><p>{BLURB} ({i})</p></a></div>"
        for i in range(n)
    )


def titled_cards(n: int = 8) -> str:
    """Cards whose one link wraps the title heading, the blurb and a detail."""
    return "".join(
        f"<div class='card'><a href='/p/{i}'><h3>Programme number {i} in leadership</h3>"
        f"<p>{BLURB} ({i})</p><span>12 weeks</span></a></div>"
        for i in range(n)
    )


def read(html: str) -> str:
    return main_text(SourcePage("", html, root=Selector(text=html, type="html").root)) or ""


def test_links_wrapping_a_card_become_blocks() -> None:
    tree = lxml.html.fromstring(card_page(linked_cards(4)))
    assert unwrap_cards(tree) == 4
    assert not tree.xpath("//a[@class='card-link']")
    assert len(tree.xpath("//div[@class='grid']/div/div/p")) == 4
    assert tree.xpath("//header/a/@href") == ["/"]  # a link in text stays a link


def test_short_menu_entries_wrapping_a_div_stay_links() -> None:
    menu = "".join(f"<a href='/c/{i}'><div>Category {i}</div></a>" for i in range(20))
    tree = lxml.html.fromstring(f"<html><body><div class='menu'>{menu}</div></body></html>")
    assert unwrap_cards(tree) == 0
    assert len(tree.xpath("//a")) == 20


def test_a_long_card_without_heading_or_paragraph_is_a_card() -> None:
    cards = "".join(f"<a href='/x{i}'><div>{BLURB}</div></a>" for i in range(3))
    tree = lxml.html.fromstring(f"<html><body>{cards}</body></html>")
    assert unwrap_cards(tree) == 3


def test_one_or_two_cards_are_no_page_of_cards() -> None:
    tree = lxml.html.fromstring(f"<html><body>{linked_cards(2)}</body></html>")
    assert unwrap_cards(tree) == 0
    assert len(tree.xpath("//a")) == 2


def test_a_strip_of_cards_beside_a_long_text_stays_links() -> None:
    article = "".join(f"<p>{BLURB} {BLURB} {BLURB} {i}</p>" for i in range(12))
    tree = lxml.html.fromstring(card_page(linked_cards(3), article=article))
    assert unwrap_cards(tree) == 0
    assert len(tree.xpath("//a[@class='card-link']")) == 3


def test_only_pages_declaring_no_single_thing_list_cards() -> None:
    def og(kind: str) -> str:
        return f"<meta property='og:type' content='{kind}'>"

    assert lists_cards(lxml.html.fromstring(card_page("")))
    assert lists_cards(lxml.html.fromstring(card_page("", head=og("website"))))
    assert not lists_cards(lxml.html.fromstring(card_page("", head=og("video"))))
    assert not lists_cards(lxml.html.fromstring(card_page("", head=og("book"))))


def test_a_page_of_linked_cards_reads_their_titles_and_blurbs() -> None:
    text = read(card_page(titled_cards()))
    assert "Every programme we run this year" in text
    for i in range(8):
        assert f"Programme number {i} in leadership\n{BLURB} ({i})" in text
    assert "Site footer" not in text


def test_a_video_page_reads_its_cards_as_links() -> None:
    head = "<meta property='og:type' content='video'>"
    text = read(card_page(titled_cards(), head=head))
    assert "Programme number 0 in leadership" not in text
