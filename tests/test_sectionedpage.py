"""A service or product page of many short sections read whole from its main region."""

from __future__ import annotations

from pathlib import Path

import lxml.html
import pytest
from parsel import Selector

from webrobot.extract import maintext, sectionedpage
from webrobot.extract.maintext import main_reading, main_text
from webrobot.extract.page import SourcePage
from webrobot.extract.sectionedpage import region, whole_reading

pytest.importorskip("trafilatura")

FIXTURES = Path(__file__).parent / "fixtures" / "sectionedpage"
SERVICE = (FIXTURES / "service.html").read_text("utf-8")
#: One line of each section of the service page, which a person reads as its content.
SECTIONS = (
    "Payroll consulting for growing firms",
    "Payslips, filings and transfers on the same day every month.",
    "A plan with dates and a fixed fee.",
    "Most firms switch within two pay periods.",
    "They took payroll off my desk in a month and it has run without a hitch since.",
)
#: What is never its content: the menu, the site's footer, a form, a hidden message.
CHROME = ("About us", "All rights reserved", "Talk to an advisor", "Your email", "Thank you")


def _page(html: str) -> SourcePage:
    return SourcePage("https://advisors.example/payroll", html, root=Selector(text=html).root)


def _root(html: str) -> lxml.html.HtmlElement:
    return lxml.html.document_fromstring(html)


def _section(n: int) -> str:
    return f"<section><h2>Section {n}</h2><p>Line {n} of a short section, which says what this part offers.</p></section>"


def _landing(sections: int = 4, *, main: bool = True, extra: str = "") -> str:
    body = "".join(_section(n) for n in range(sections)) + extra
    inner = f"<main>{body}</main>" if main else body
    return (
        f"<html><body><nav><a href='/'>Home</a></nav>{inner}<footer>Footer</footer></body></html>"
    )


def test_a_service_page_is_read_with_all_its_sections_and_none_of_its_chrome() -> None:
    text = main_text(_page(SERVICE))
    assert text is not None
    for line in SECTIONS:
        assert line in text
    for chrome in CHROME:
        assert chrome not in text


def test_without_the_rule_the_page_builders_sections_are_lost(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # the fixture is one the rule matters on: trafilatura drops the "widget" sections
    monkeypatch.setattr(maintext, "whole_reading", lambda *args, **kwargs: None)
    text = main_text(_page(SERVICE)) or ""
    assert SECTIONS[1] not in text
    assert SECTIONS[3] not in text


def test_the_markdown_keeps_the_sections_headings() -> None:
    markdown = main_reading(_page(SERVICE)).markdown or ""
    assert "## What we do" in markdown
    assert "### Monthly payroll runs" in markdown
    assert "- A plan with dates and a fixed fee." in markdown


def test_a_page_declaring_an_article_keeps_its_reading() -> None:
    article = SERVICE.replace(
        '<meta property="og:type" content="website">',
        '<script type="application/ld+json">{"@type": "BlogPosting"}</script>',
    )
    text = main_text(_page(article)) or ""
    assert SECTIONS[1] not in text


def test_a_covered_region_keeps_trafilaturas_text() -> None:
    root = _root(_landing())
    full = (
        "\n".join(
            f"Section {n}\nLine {n} of a short section, which says what this part offers."
            for n in range(4)
        )
        * 2
    )
    assert whole_reading(root, full) is None
    read = whole_reading(
        root, "Section 0\nLine 0 of a short section, which says what this part offers."
    )
    assert read is not None
    plain, markdown = read
    assert plain.splitlines() == [
        line
        for n in range(4)
        for line in (
            f"Section {n}",
            f"Line {n} of a short section, which says what this part offers.",
        )
    ]
    assert markdown.startswith(
        "## Section 0\n\nLine 0 of a short section, which says what this part offers."
    )
    assert "Home" not in plain and "Footer" not in plain


def test_too_few_sections_are_no_sectioned_page() -> None:
    assert whole_reading(_root(_landing(sectionedpage.MIN_HEADINGS - 1)), "x") is None
    assert whole_reading(_root(_landing(sectionedpage.MIN_HEADINGS)), "x") is not None


def test_prose_keeps_its_reading() -> None:
    # an article that declares nothing: its reading is paragraphs, long lines
    root = _root(_landing(extra="<p>" + "word " * 200 + "</p>" * 1))
    prose = "\n".join(["A paragraph of an article. " * 6] * 3)
    assert len(prose) < sectionedpage.COVERED_SHARE * len(region(root).text_content())
    assert whole_reading(root, prose) is None
    assert (
        whole_reading(
            root, "Section 0\nLine 0 of a short section, which says what this part offers."
        )
        is not None
    )


def test_a_region_mostly_of_links_is_a_listing_left_alone() -> None:
    cards = "".join(
        f"<section><h2><a href='/p/{n}'>Product card number {n}</a></h2>"
        f"<a href='/p/{n}'>See the details of product {n}</a></section>"
        for n in range(6)
    )
    root = _root(f"<html><body><main>{cards}</main></body></html>")
    assert whole_reading(root, "x") is None


def test_a_page_without_a_main_is_left_alone() -> None:
    # a shop's body holds its basket; an old site's body, its article and sidebars
    assert whole_reading(_root(_landing(main=False)), "x") is None
    assert whole_reading(_root(_landing(main=True)), "x") is not None


def test_the_region_is_the_longest_shown_main() -> None:
    html = (
        "<html><body><div aria-hidden='true'><main>A slide-out basket</main></div>"
        "<div role='main'>" + "".join(_section(n) for n in range(4)) + "</div>"
        "<main hidden>" + "A hidden copy " * 100 + "</main></body></html>"
    )
    found = region(_root(html))
    assert found.get("role") == "main"
    read = whole_reading(_root(html), "x")
    assert read is not None and "slide-out" not in read[0] and "hidden copy" not in read[0]


def test_a_header_inside_main_is_read_when_it_heads_a_section_not_a_site() -> None:
    hero = "<header><h1>The hero line</h1><p>What the firm does.</p></header>"
    bar = "<header><a href='/'>Logo</a><nav><a href='/x'>Menu link</a></nav><h2>Site</h2></header>"
    read = whole_reading(_root(_landing(extra=hero + bar)), "x")
    assert read is not None
    assert "The hero line" in read[0] and "What the firm does." in read[0]
    assert "Menu link" not in read[0]


def test_a_table_row_is_a_line() -> None:
    table = (
        "<table><tr><th>Weight</th><td>311 g</td></tr><tr><th>Size</th><td>19 cm</td></tr></table>"
    )
    read = whole_reading(_root(_landing(extra=table)), "x")
    assert read is not None
    assert "Weight 311 g" in read[0].splitlines() and "Size 19 cm" in read[0].splitlines()


@pytest.mark.parametrize(
    "html",
    ["<html></html>", "<html><body></body></html>", "<html><body><main></main></body></html>"],
)
def test_an_empty_page_is_left_alone(html: str) -> None:
    assert whole_reading(_root(html), None) is None


@pytest.mark.parametrize(
    "declared",
    [
        '<div itemscope itemtype="https://schema.org/QAPage"></div>',
        '<script type="application/ld+json">{"@type": "DiscussionForumPosting"}</script>',
        '<script type="application/ld+json">{"@type": ["WebPage", "SocialMediaPosting"]}</script>',
    ],
)
def test_a_page_declaring_a_discussion_is_a_forums_left_alone(declared: str) -> None:
    assert whole_reading(_root(_landing(extra=declared)), "x") is None


def test_a_service_pages_faq_is_no_discussion() -> None:
    faq = (
        '<script type="application/ld+json">{"@type": "FAQPage", "mainEntity": [{"@type":'
        ' "Question", "acceptedAnswer": {"@type": "Answer", "text": "Yes."}}]}</script>'
    )
    assert whole_reading(_root(_landing(extra=faq)), "x") is not None


def test_headings_that_date_a_forums_posts_are_no_sections() -> None:
    posts = "".join(
        f"<div class='post'><h2>#{n} 2025-11-0{n} 15:14:37</h2><p>Reply {n}: it works for me "
        "after the update, try clearing the cache first.</p></div>"
        for n in range(1, 6)
    )
    root = _root(f"<html><body><main>{posts}</main></body></html>")
    assert whole_reading(root, "x") is None
    dated = posts.replace("2025-11-0", "3.11.202")
    assert whole_reading(_root(f"<html><body><main>{dated}</main></body></html>"), "x") is None


def test_what_a_browser_never_shows_is_left_out_of_the_whole_reading() -> None:
    hidden = (
        "<div style='display: none'><p>Access denied: enter the store's password</p></div>"
        "<p><span class='visually-hidden'>Regular price</span>$19.99</p>"
        "<fieldset><legend>Size</legend><label>1 lb<input type=radio></label></fieldset>"
        "<div class='hidden md:block'><p>Shown on wide screens</p></div>"
    )
    read = whole_reading(_root(_landing(extra=hidden)), "x")
    assert read is not None
    plain = read[0]
    assert "Section 3" in plain and "$19.99" in plain
    assert "Shown on wide screens" in plain
    for never in ("Access denied", "Regular price", "Size", "1 lb"):
        assert never not in plain


PRODUCT = (FIXTURES / "product.html").read_text("utf-8")
#: Lines of the product page a person reads as its content, which trafilatura's block
#: (the overview and the specification) leaves out.
PRODUCT_LINES = (
    "Trail camera TC-40",
    "Wakes in a tenth of a second on motion",
    "In the box: the camera, a strap, a tree mount, eight batteries and a 32 GB card.",
)


def _product_page(html: str) -> SourcePage:
    return SourcePage("https://optics.example/tc-40", html, root=Selector(text=html).root)


def test_a_product_page_of_one_section_is_read_whole() -> None:
    text = main_text(_product_page(PRODUCT)) or ""
    for line in (*PRODUCT_LINES, "The TC-40 watches a trail for months on its own."):
        assert line in text
    for chrome in ("Lenses", "All rights reserved"):
        assert chrome not in text


def test_a_product_page_needs_three_sections_without_the_product_bound(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # the fixture is one the bound matters on: with a service page's three sections
    # trafilatura's block stands and the name and the highlights are lost
    monkeypatch.setattr(sectionedpage, "PRODUCT_MIN_HEADINGS", sectionedpage.MIN_HEADINGS)
    text = main_text(_product_page(PRODUCT)) or ""
    assert PRODUCT_LINES[1] not in text
    assert "The TC-40 watches a trail for months on its own." in text


def test_the_product_bound_holds_only_on_pages_that_declare_a_product() -> None:
    undeclared = PRODUCT.replace('"@type": "Product"', '"@type": "Thing"')
    text = main_text(_product_page(undeclared)) or ""
    assert PRODUCT_LINES[1] not in text


def test_one_section_is_enough_on_a_product_page_none_is_not() -> None:
    lines = "".join(f"<p>Line {n} of the product's buy box and its notes.</p>" for n in range(6))
    one = _root(_landing(1, extra=lines))
    assert whole_reading(one, "x") is None
    assert whole_reading(one, "x", product=True) is not None
    assert whole_reading(_root(_landing(0, extra=lines)), "x", product=True) is None
