"""Cards written as a title link and a blurb link to one address: a news section that
declares an article by its og:type alone is read as a page of cards, its cards as text."""

from __future__ import annotations

import lxml.html
from parsel import Selector

from webrobot.extract.collectionpage import reading_kinds
from webrobot.extract.linkedcards import (
    linked_pairs,
    lists_linked_cards,
    unlink_pairs,
)
from webrobot.extract.maintext import main_text
from webrobot.extract.page import SourcePage
from webrobot.extract.sitepages import calls_itself_a_post

TEASER = (
    "Teens are not getting enough sleep, and a two-decade study suggests it is getting "
    "worse across most groups of students."
)
STORY = (
    "The study followed students over twenty years and found that sleep fell in every "
    "group, whatever the school, the town or the year of study. "
)


def card(i: int) -> str:
    return (
        f"<div class='item'><div class='info'><h2 class='title'><a href='/s/{i}'>"
        f"Story number {i} of the science section</a></h2>"
        f"<p class='summary'><a href='/s/{i}'>{TEASER} ({i})</a></p></div>"
        f"<div class='caption'><p>A picture of story {i}.</p></div></div>"
    )


def section(n: int = 8, head: str = "<meta property='og:type' content='article'>") -> str:
    cards = "".join(card(i) for i in range(n))
    return (
        f"<html><head><title>Science</title>{head}</head><body><header><a href='/'>Home</a>"
        f"</header><h1>Science</h1><section class='list'>{cards}</section>"
        "<footer>Site footer</footer></body></html>"
    )


def article_with_strip() -> str:
    body = "".join(f"<p>{STORY}({i})</p>" for i in range(12))
    strip = "".join(card(i) for i in range(4))
    return (
        "<html><head><title>A story</title><meta property='og:type' content='article'>"
        "</head><body><article><h1>A long story</h1>"
        f"{body}</article><aside>{strip}</aside></body></html>"
    )


def tree(html: str) -> lxml.html.HtmlElement:
    return lxml.html.fromstring(html)


def read(html: str) -> str:
    return main_text(SourcePage("", html, root=Selector(text=html, type="html").root)) or ""


def test_a_title_link_and_a_blurb_link_to_one_address_are_a_pair() -> None:
    assert len(linked_pairs(tree(section(3)))) == 3
    other = section(3).replace("<p class='summary'><a href='/s/1'>", "<p><a href='/t/1'>")
    assert len(linked_pairs(tree(other))) == 2  # the blurb links elsewhere
    short = section(3).replace(f"{TEASER} (2)", "Read more")
    assert len(linked_pairs(tree(short))) == 2  # a "read more" is no blurb


def test_a_strip_of_pairs_under_a_long_article_is_no_page_of_cards() -> None:
    page = tree(article_with_strip())
    assert len(linked_pairs(page)) == 4
    assert not lists_linked_cards(page)
    assert unlink_pairs(page) == 0
    assert lists_linked_cards(tree(section(3)))
    assert not lists_linked_cards(tree(section(2)))


def test_pairs_become_text() -> None:
    page = tree(section(3))
    assert unlink_pairs(page) == 6
    assert not page.xpath("//h2/a | //p[@class='summary']/a")
    assert len(page.xpath("//p[@class='title']")) == 3  # each title a paragraph over its blurb


def test_a_page_calls_itself_a_post_by_its_time_or_its_json_ld() -> None:
    assert not calls_itself_a_post(tree(section()))
    timed = section(head="<meta property='article:published_time' content='2026-03-06'>")
    assert calls_itself_a_post(tree(timed))
    typed = section(head='<script type=\'application/ld+json\'>{"@type": "NewsArticle"}</script>')
    assert calls_itself_a_post(tree(typed))


def test_a_section_declaring_an_article_by_og_type_alone_is_read_as_cards() -> None:
    assert reading_kinds(tree(section())) == (False, False, True)
    timed = section(
        head="<meta property='og:type' content='article'>"
        "<meta property='article:published_time' content='2026-03-06'>"
    )
    assert reading_kinds(tree(timed)) == (True, False, False)
    assert reading_kinds(tree(article_with_strip())) == (True, False, False)


def test_a_news_section_reads_its_cards_titles_and_teasers() -> None:
    text = read(section())
    for i in range(8):
        assert f"Story number {i} of the science section" in text
        assert f"{TEASER} ({i})" in text


def test_an_article_with_a_strip_of_cards_reads_as_before() -> None:
    text = read(article_with_strip())
    assert f"{STORY}(11)" in text
    assert "Story number 2 of the science section" not in text
