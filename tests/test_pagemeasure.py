"""trafilatura's retry of a short reading is decided on the page as it came
(webrobot.extract.pagemeasure): the private part it stands in for is there, the stand-in
measures the page it is given only inside ``measured_on``, and a page whose navigation
outweighs its text keeps the sections trafilatura alone keeps."""

from __future__ import annotations

import inspect

import lxml.html
import pytest

trafilatura = pytest.importorskip("trafilatura")

from parsel import Selector

from webrobot.extract import pagemeasure, readingchoice
from webrobot.extract.maintext import main_text
from webrobot.extract.page import SourcePage
from webrobot.extract.readingchoice import PageSignals

INTRO = (
    "We understand choosing the right plan for you and your family is an important "
    "decision, and we are here to help you find the one that fits. "
) * 4
SERVICE = (
    "Our service number {} helps families choose a plan that fits their needs, with advice "
    "from people who know the local market well, and with answers to the questions "
    "families ask us most often."
)


def _page(head: str = "") -> str:
    """A service page: a navigation bar longer than its text, an opening paragraph and six
    services in blocks that trafilatura's default reading drops as teasers (its retry
    favouring recall keeps them) and readability passes over."""
    nav = "".join(
        f'<li><a href="/section-{i}">Department of things number {i} and more</a></li>'
        for i in range(120)
    )
    services = "".join(
        f'<div class="teaser-block extra-info"><h2>Service {i}</h2><p>{SERVICE.format(i)}</p></div>'
        for i in range(6)
    )
    return (
        f"<html><head><title>Plans</title>{head}</head><body><nav><ul>{nav}</ul></nav>"
        f'<div class="entry-content"><div class="intro"><p>{INTRO}</p></div>{services}</div>'
        "<footer><p>Copyright</p></footer></body></html>"
    )


def _text(html: str) -> str:
    return main_text(SourcePage("", html, root=Selector(text=html, type="html").root)) or ""


def test_the_private_part_is_there_as_it_is_used() -> None:
    from trafilatura.baseline import html2txt
    from trafilatura.core import trafilatura_sequence

    assert list(inspect.signature(html2txt).parameters) == ["content", "clean"]
    assert "html2txt(tree)" in inspect.getsource(trafilatura_sequence)
    assert pagemeasure.install()
    assert isinstance(__import__("trafilatura.core").core.html2txt, pagemeasure.PageMeasure)


def test_the_page_given_is_measured_only_inside_the_block() -> None:
    assert pagemeasure.install()
    core = __import__("trafilatura.core").core
    pruned = lxml.html.fromstring("<html><body><p>short text here</p></body></html>")
    page = lxml.html.fromstring(
        "<html><body><nav>a long menu</nav><p>short text here</p></body></html>"
    )
    assert core.html2txt(pruned) == "short text here"
    with pagemeasure.measured_on(page):
        assert core.html2txt(pruned) == "a long menu short text here"
    with pagemeasure.measured_on(None):
        assert core.html2txt(pruned) == "short text here"
    assert core.html2txt(pruned) == "short text here"
    assert len(page.find("body")) == 2  # the page is measured on a copy


def test_the_plan_asks_for_it_on_pages_that_are_no_article_nor_product() -> None:
    assert readingchoice.plan(PageSignals(article=False, large=False)).page_measure
    assert not readingchoice.plan(
        PageSignals(article=False, large=False, product=True)
    ).page_measure
    assert not readingchoice.plan(PageSignals(article=True, large=False)).page_measure


def test_a_page_whose_navigation_outweighs_its_text_keeps_its_sections() -> None:
    html = _page()
    text = _text(html)
    assert INTRO.strip() in text
    for i in range(6):
        assert SERVICE.format(i) in text, i  # as trafilatura alone reads the page:
    assert SERVICE.format(5) in (trafilatura.extract(html) or "")
    assert "Department of things" not in text  # the navigation is still not read


def test_a_product_page_is_measured_as_the_main_text_prunes_it() -> None:
    text = _text(_page('<meta property="og:type" content="product">'))
    assert INTRO.strip() in text
    assert SERVICE.format(0) not in text  # its retry decided on the pruned page, as before
