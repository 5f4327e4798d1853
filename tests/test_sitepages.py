"""A site's page that calls itself an article (WordPress's ``og:type``) but a web page in
its JSON-LD is read as a page, not as a post."""

from __future__ import annotations

from pathlib import Path

import lxml.html
import pytest
from parsel import Selector

from webrobot.extract import collectionpage
from webrobot.extract.maintext import main_text
from webrobot.extract.page import SourcePage
from webrobot.extract.sitepages import declares_site_page

SERVICE = (Path(__file__).parent / "fixtures" / "sectionedpage" / "service.html").read_text()
#: Lines of the service page's sections that an article's precise reading drops.
SECTIONS = (
    "Payslips, filings and transfers on the same day every month.",
    "Most firms switch within two pay periods.",
)
WEBSITE = '<meta property="og:type" content="website">'
#: What an SEO plugin writes on a site's page: og:type article, a WebPage, a modified time.
PAGE_HEAD = (
    '<meta property="og:type" content="article">'
    '<meta property="article:modified_time" content="2024-11-14T08:08:21+00:00">'
    '<script type="application/ld+json">{"@context": "https://schema.org", "@graph": ['
    '{"@type": "WebPage", "name": "Payroll"}, {"@type": "BreadcrumbList"}]}</script>'
)


def _root(head: str) -> lxml.html.HtmlElement:
    return lxml.html.document_fromstring(f"<html><head>{head}</head><body><p>x</p></body></html>")


def _page(html: str) -> SourcePage:
    return SourcePage("https://advisors.example/payroll", html, root=Selector(text=html).root)


def test_a_web_page_without_an_article_type_or_publication_time_is_a_site_page() -> None:
    assert declares_site_page(_root(PAGE_HEAD))
    about = '<script type="application/ld+json">{"@type": ["AboutPage"]}</script>'
    assert declares_site_page(_root(about))


@pytest.mark.parametrize(
    "head",
    [
        # a post: an article type beside the web page, or a publication time
        PAGE_HEAD.replace('{"@type": "BreadcrumbList"}', '{"@type": "BlogPosting"}'),
        PAGE_HEAD + '<script type="application/ld+json">{"@type": "NewsArticle"}</script>',
        PAGE_HEAD + '<meta property="article:published_time" content="2024-11-14">',
        # nothing said of the page in JSON-LD
        '<meta property="og:type" content="article">',
        '<script type="application/ld+json">{"@type": "Organization"}</script>',
        '<script type="application/ld+json">not json {"@type": "Web"}</script>',
    ],
)
def test_a_post_or_a_page_that_names_no_web_page_is_not(head: str) -> None:
    assert not declares_site_page(_root(head))


def test_a_site_page_is_read_with_its_sections() -> None:
    page = SERVICE.replace(WEBSITE, PAGE_HEAD)
    text = main_text(_page(page)) or ""
    for line in SECTIONS:
        assert line in text


def test_without_the_rule_the_page_is_read_as_a_post(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(collectionpage, "declares_site_page", lambda root, found=None: False)
    text = main_text(_page(SERVICE.replace(WEBSITE, PAGE_HEAD))) or ""
    assert SECTIONS[0] not in text


def test_a_post_with_the_same_markup_keeps_the_articles_reading() -> None:
    post = PAGE_HEAD + '<meta property="article:published_time" content="2024-11-14">'
    text = main_text(_page(SERVICE.replace(WEBSITE, post))) or ""
    assert SECTIONS[0] not in text
