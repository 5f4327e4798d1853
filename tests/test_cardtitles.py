"""A card's title over its blurb: the heading of a whole-card link that a paragraph
follows is read as a paragraph, so the title is kept with the blurb."""

from __future__ import annotations

import lxml.html
from parsel import Selector

from webrobot.extract.cardtitles import blurbed_titles
from webrobot.extract.maintext import main_text
from webrobot.extract.page import SourcePage

BLURB = "Havana's streets have changed as a fuel blockade restricts the movement of people."


def news_section(n: int = 8) -> str:
    """A news section as such sites write it: a featured card first (a class of its
    own), then a feed of cards, each a link around its title and a blurb after it."""
    featured = (
        "<article class='card card--featured'><a href='/f'><h2>The featured story of the "
        "day</h2></a><p>One featured line.</p></article>"
    )
    feed = "".join(
        f"<article class='card card--feed'><a href='/s/{i}'><h2>Story number {i} of the "
        f"economy section</h2></a><p class='excerpt'>{BLURB} ({i})</p>"
        f"<footer>5 Mar 2026</footer></article>"
        for i in range(n)
    )
    return (
        "<html><head><title>Economy</title></head><body><header><a href='/'>Home</a>"
        "</header><h1>Economy</h1><div class='top'>"
        f"{featured}</div><div class='feed'>{feed}</div><footer>Site footer</footer>"
        "</body></html>"
    )


def read(html: str) -> str:
    return main_text(SourcePage("", html, root=Selector(text=html, type="html").root)) or ""


def test_a_card_title_that_a_blurb_follows_becomes_a_paragraph() -> None:
    tree = lxml.html.fromstring(news_section(3))
    cards = [link for link in tree.iter("a") if link.get("href", "").startswith("/s/")]
    assert blurbed_titles(cards) == 3
    assert not tree.xpath("//a[starts-with(@href, '/s/')]/h2")
    assert len(tree.xpath("//a[starts-with(@href, '/s/')]/p")) == 3


def test_a_card_without_a_blurb_keeps_its_heading() -> None:
    grid = "".join(
        f"<div class='item'><a href='/p/{i}'><h3>Wireless headphones model {i}</h3></a>"
        f"<span class='price'>$19.99</span><p>Short</p></div>"
        for i in range(4)
    )
    tree = lxml.html.fromstring(f"<html><body>{grid}</body></html>")
    assert blurbed_titles(list(tree.iter("a"))) == 0
    assert len(tree.xpath("//h3")) == 4


def test_a_news_section_reads_each_card_title_with_its_blurb() -> None:
    text = read(news_section())
    for i in range(8):
        assert f"Story number {i} of the economy section" in text
        assert f"{BLURB} ({i})" in text
    assert "Site footer" not in text
