"""Paragraphs that point to the site's other articles (``webrobot/extract/seealso.py``),
and the main text of a news article with such paragraphs between its own."""

from __future__ import annotations

import lxml.html
import pytest

from webrobot.extract.seealso import is_see_also, own_host, without_see_also


def _p(html: str) -> object:
    return lxml.html.fragment_fromstring(html)


@pytest.mark.parametrize(
    "html",
    [
        '<p><em>Read more</em>: <a href="/en/a-36043532">Recognizing Germany colonial crimes</a></p>',
        '<p><b>LE PUEDE INTERESAR: <a href="https://news.example/x">La ficha de Juan en Nueva York</a></b></p>',
        '<p><em>Czytaj też: <a href="/swiat/1">Wyścig zbrojeń ruszył z kopyta</a></em></p>',
        '<p>[Read more: <a href="/guide">A Guide to Small Business Accounting</a>]</p>',
        '<p><b>Auch lesen:</b> <a href="/a">Die Sterne im neuen Jahr</a><br><span> </span></p>',
    ],
)
def test_a_label_a_colon_and_a_headline_is_a_see_also(html: str) -> None:
    assert is_see_also(_p(html))


@pytest.mark.parametrize(
    "html",
    [
        # a sentence that ends with a link
        '<p>The ministry published its figures in <a href="/r">the yearly report on debt</a></p>',
        # a label of a link that is no headline
        '<p>Website: <a href="https://acme.example">acme.example</a></p>',
        # two links
        '<p>See also: <a href="/a">One story about things</a> and <a href="/b">another one here</a></p>',
        # text after the link
        '<p>Read: <a href="/a">One story about things</a>, which explains how it began.</p>',
        '<p>Read: <em><a href="/a">One story about things</a></em><b> and its end</b></p>',
        # a long label
        '<p>This is what the minister said about it: <a href="/a">One story about things</a></p>',
        # no link
        "<p>Note: nothing links from here at all.</p>",
    ],
)
def test_other_paragraphs_are_no_see_also(html: str) -> None:
    assert not is_see_also(_p(html))


ARTICLE_HEAD = (
    '<html><head><link rel="canonical" href="https://www.news.example/world/story-1">'
    "</head><body><div>"
)


def test_see_also_paragraphs_go_and_a_cited_source_elsewhere_stays() -> None:
    tree = lxml.html.fromstring(
        ARTICLE_HEAD + "<p>First paragraph.</p>"
        '<p>Read more: <a href="https://news.example/world/2">Another story of the day</a></p>'
        '<p>Lea también: <a href="/x">Impiden ingreso a reportero estadounidense</a></p>'
        '<p>Source: <a href="https://arxiv.org/abs/1">A Survey on Code Generation</a></p>'
        "<p>Last paragraph.</p></div></body></html>"
    )
    assert own_host(tree) == "news.example"
    kept = without_see_also(list(tree.iter("p")), tree)
    assert [p.text_content()[:6] for p in kept] == ["First ", "Source", "Last p"]
    assert [p.text_content() for p in tree.iter("p")] == [
        "First paragraph.",
        "Source: A Survey on Code Generation",
        "Last paragraph.",
    ]


def test_an_absolute_link_stays_when_the_page_names_no_site_of_its_own() -> None:
    tree = lxml.html.fromstring(
        "<html><head><title>t</title></head><body>"
        '<p>Also read: <a href="https://a.example/x">Three words here</a></p>'
        '<p>Also read: <a href="/y">Three more words</a></p></body></html>'
    )
    assert own_host(tree) is None
    kept = without_see_also(list(tree.iter("p")), tree)
    assert [p.text_content() for p in tree.iter("p")] == ["Also read: Three words here"]
    assert len(kept) == 1


def test_a_link_to_no_other_page_of_the_site_stays() -> None:
    """A paragraph whose link goes to a place on the same page, an address to write to,
    or a script names no other article: it is the article's own text."""
    tree = lxml.html.fromstring(
        ARTICLE_HEAD + '<p>Correspondence: <a href="mailto:jane@uni.example">Jane Doe, '
        "University of Examples</a></p>"
        '<p>See the methods: <a href="#methods">how the samples were taken</a>.</p>'
        '<p>Full table: <a href="javascript:void(0)">show all the figures</a></p>'
        '<p>Call us: <a href="tel:+4930123">our desk in Berlin</a></p>'
        '<p>Read more: <a href="/world/3">The third story of the day</a></p>'
        "</div></body></html>"
    )
    kept = without_see_also(list(tree.iter("p")), tree)
    assert [p.text_content()[:9] for p in kept] == [
        "Correspon",
        "See the m",
        "Full tabl",
        "Call us: ",
    ]
    assert len(list(tree.iter("p"))) == 4


_STORY = "".join(
    f"<p>Paragraph {n} of the report holds words enough to be read as the text of this "
    "article, and then some more words about the city council.</p>"
    for n in range(6)
)
NEWS = f"""<html lang="es"><head><title>El concejo aprueba el presupuesto</title>
<link rel="canonical" href="https://www.diario.example/ciudad/presupuesto">
<meta property="og:type" content="article"></head><body><article>
<h1>El concejo aprueba el presupuesto</h1>{_STORY[:400]}
<p><strong>Lea también:</strong> <a href="https://www.diario.example/ciudad/obras">
Las obras del puerto empiezan en marzo</a></p>{_STORY[400:]}</article></body></html>"""


def test_the_main_text_leaves_the_see_also_paragraph_out() -> None:
    pytest.importorskip("trafilatura")
    from benchmarks.quality import source_page
    from webrobot.extract.maintext import main_text

    text = main_text(source_page("https://www.diario.example/ciudad/presupuesto", NEWS)) or ""
    assert "Paragraph 5 of the report" in text
    assert "Las obras del puerto" not in text
