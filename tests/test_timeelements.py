"""The dates a page's <time> elements and date properties state: found once for both
dates, by a walk in C when the page names no date property, the same elements either way."""

from __future__ import annotations

import pytest
from parsel import Selector

from webrobot.extract.timeelements import _TIMES, TimeElements, time_elements

PAGES = {
    "time elements only": (
        '<html><body><article><time datetime="2024-05-01">May 1</time><p>x</p>'
        '<time class="updated" datetime="2024-06-01">June</time></article>'
        '<aside><time datetime="2020-01-01">old</time></aside></body></html>'
    ),
    "date properties among times": (
        '<html><head><meta itemprop="dateModified" content="2024-06-02"></head><body>'
        '<time datetime="2024-05-01">May 1</time><span itemprop="datePublished" '
        'content="2024-04-30">Apr 30</span><span itemprop="name">N</span></body></html>'
    ),
    "nothing dated": '<html><body><p itemprop="name">N</p></body></html>',
}


@pytest.mark.parametrize("html", PAGES.values(), ids=PAGES.keys())
def test_the_elements_are_those_of_the_xpath_in_document_order(html: str) -> None:
    root = Selector(text=html, type="html").root
    assert TimeElements(root)() == list(_TIMES(root))


def test_both_dates_read_one_finding() -> None:
    root = Selector(text=PAGES["date properties among times"], type="html").root
    times = TimeElements(root)
    first = times()
    assert times() is first
    assert time_elements(first, published=True) == ["2024-04-30"]
    assert time_elements(first, published=False) == ["2024-06-02"]


def test_the_first_time_outside_asides_is_the_publication_date() -> None:
    root = Selector(text=PAGES["time elements only"], type="html").root
    found = TimeElements(root)()
    assert time_elements(found, published=True) == ["2024-05-01"]
    assert time_elements(found, published=False) == ["2024-06-01"]


def test_no_tree_has_no_times() -> None:
    assert TimeElements(None)() == []


@pytest.mark.parametrize(
    "line",
    [
        # Docusaurus: "Last updated by liyao on 2022/6/1", in Chinese, the word after the time
        (
            '<span class="theme-last-updated">最后由 <b>liyao</b> 于 <b>'
            '<time datetime="2022-06-01T13:09:27.000Z">2022/6/1</time></b> 更新</span>'
        ),
        '<p class="page-meta">Last updated on <time datetime="2022-06-01">June 1</time></p>',
        '<p>Zuletzt aktualisiert: <time datetime="2022-06-01">1. Juni 2022</time></p>',
        '<div class="last-modified"><time datetime="2022-06-01">1 June 2022</time></div>',
    ],
)
def test_a_time_an_update_line_holds_is_the_modification_date(line: str) -> None:
    html = f"<html><body><article><h1>Quick start</h1><p>Run it.</p><footer>{line}</footer></article></body></html>"
    found = TimeElements(Selector(text=html, type="html").root)()
    assert time_elements(found, published=True) == []
    assert [v[:10] for v in time_elements(found, published=False)] == ["2022-06-01"]


def test_a_posts_time_beside_an_update_stays_its_publication_date() -> None:
    html = (
        '<html><body><article><p>Posted <time datetime="2021-03-04">March 4</time>,'
        ' updated <time datetime="2022-06-01">June 1</time></p></article></body></html>'
    )
    found = TimeElements(Selector(text=html, type="html").root)()
    assert time_elements(found, published=True) == ["2021-03-04"]
    assert time_elements(found, published=False) == ["2022-06-01"]


def test_a_marked_time_of_another_post_is_not_the_posts() -> None:
    """A teaser list in the sidebar marks each post's ``<time pubdate>``, in an
    ``<article>`` of its own: those date other posts, not the page's."""
    html = (
        "<html><body><div id='content'><article><h1>The post</h1>"
        "<p><time datetime='2019-06-28T13:49:45Z'>28 juin 2019</time></p><p>Text</p>"
        "</article></div><div id='aside'><ul><li><article><p>"
        "<time datetime='2019-09-22T07:30:29Z' pubdate>22 septembre</time></p>"
        "</article></li></ul></div></body></html>"
    )
    times = TimeElements(Selector(text=html, type="html").root)
    assert time_elements(times(), published=True, post=times.post()) == ["2019-06-28T13:49:45Z"]
    # Marked inside the post itself, it is the post's date.
    inside = html.replace(
        "28 juin 2019</time>", "28 juin</time><time pubdate datetime='2019-06-27'>x</time>"
    )
    times = TimeElements(Selector(text=inside, type="html").root)
    assert time_elements(times(), published=True, post=times.post())[0] == "2019-06-27"


def test_related_posts_marked_times_are_not_the_posts_date() -> None:
    """WordPress themes list related posts under the post, each an ``<article>`` with its
    ``<time class="published">``: when the post shows no ``<time>`` of its own, those
    still date other posts, so none is the page's."""
    html = (
        "<html><body><section id='content'><article class='post'><h1>Intendanten-Wechsel beim"
        " Sender</h1><p>Text</p></article><ul class='related-posts'><li><article class='post'>"
        "<time class='published updated' datetime='2020-12-03 07:32:49'>3. Dezember</time>"
        "</article></li></ul></section></body></html>"
    )
    times = TimeElements(Selector(text=html, type="html").root)
    assert time_elements(times(), published=True, post=times.post()) == []


def test_the_post_is_the_article_that_holds_the_headline() -> None:
    """Teasers come first, each an ``<article>``; the post is the one with the headline."""
    teaser = "<article><time pubdate datetime='2022-01-21'>x</time></article>"
    html = (
        f"<html><body>{teaser * 3}<article><h1>Was gilt jetzt beim Friseurbesuch</h1>"
        "<time pubdate datetime='2022-01-14'>14.01.2022</time></article></body></html>"
    )
    times = TimeElements(Selector(text=html, type="html").root)
    assert time_elements(times(), published=True, post=times.post()) == ["2022-01-14"]


def test_githubs_relative_time_is_read_as_a_time() -> None:
    """Hugo's github-style theme: "Created <relative-time>", "Modified <relative-time>"."""
    html = (
        '<html><body><h1>PostgreSQL 11</h1><div class="note m-0">Created <relative-time '
        'datetime="Mon, 12 Aug 2024 00:00:00 +0000" class="no-wrap">Mon, 12 Aug 2024</relative-time>'
        '<span class="file-info-divider"></span> Modified <relative-time '
        'datetime="Sat, 17 May 2025 16:10:49 +0500" class="no-wrap">Sat, 17 May 2025'
        "</relative-time></div><p>Text.</p></body></html>"
    )
    found = TimeElements(Selector(text=html, type="html").root)()
    assert time_elements(found, published=True)[0] == "Mon, 12 Aug 2024 00:00:00 +0000"
    assert time_elements(found, published=False) == ["Sat, 17 May 2025 16:10:49 +0500"]
