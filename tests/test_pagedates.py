"""Publication and modification dates as a reader finds them: URL dates, the sanity
rules, labelled lines in many languages, and htmldate when the markup is silent."""

from __future__ import annotations

from datetime import date

import pytest
from parsel import Selector

from webrobot.extract.dates import iso_date
from webrobot.extract.pagedates import (
    COSTLY,
    GenericDate,
    first_date,
    headline_date,
    labelled_date,
    page_dates,
    plausible,
    url_date,
)

TODAY = date(2024, 6, 1)


def tree(body: str) -> object:
    return Selector(text=f"<html><body>{body}</body></html>", type="html").root


@pytest.mark.parametrize(
    ("url", "expected"),
    [
        ("https://example.com/2021/03/04/welcome.html", "2021-03-04"),
        ("https://example.com/blog/2021/3/4/welcome", "2021-03-04"),
        ("https://example.com/news/2019-11-20-a-title", "2019-11-20"),
        ("https://example.com/2020_01_31_x", "2020-01-31"),
        ("https://example.com/2021/03/welcome", None),  # month only
        ("https://example.com/2021/02/30/no-such-day", None),
        ("https://example.com/1990/01/01/too-early", None),
        ("https://example.com/2030/01/01/in-the-future", None),
        ("https://example.com/item/120211031234", None),  # digits, no date
        ("https://2021-03-04.example.com/page", None),  # the host is not the path
        ("https://example.com/a?date=2021-03-04", None),  # the query is not the path
    ],
)
def test_url_dates(url: str, expected: str | None) -> None:
    assert url_date(url, TODAY) == expected


def test_plausible_days_are_after_1995_and_not_in_the_future() -> None:
    assert plausible(date(1995, 1, 1), TODAY)
    assert not plausible(date(1994, 12, 31), TODAY)
    assert plausible(date(2024, 6, 2), TODAY)  # a day's slack for time zones
    assert not plausible(date(2024, 6, 3), TODAY)


def test_first_date_skips_placeholders_future_dates_and_junk() -> None:
    values = ["", "soon", "1970-01-01", "2099-12-31", "0000-00-00", "March 4, 2021", "2022-01-01"]
    assert first_date(values, TODAY) == "2021-03-04"
    assert first_date(["1970-01-01", "2099-01-01"], TODAY) is None


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("Posted on March 4, 2021 by Jane", "2021-03-04"),
        ("Published: Tuesday, 17 September 2019", "2019-09-17"),
        ("Veröffentlicht am 14.01.2022", "2022-01-14"),
        ("Erschienen am 3. Mai 2020, 10:00 Uhr", "2020-05-03"),
        ("Publié le 12 mars 2022 à 10h30", "2022-03-12"),
        ("Mis en ligne le 1er février 2023", "2023-02-01"),
        ("Publicado el 5 de abril de 2021", "2021-04-05"),
        ("Pubblicato il 2 febbraio 2020", "2020-02-02"),
        ("Gepubliceerd op 2021-06-03", "2021-06-03"),
        ("Date : 2018/07/01", "2018-07-01"),
        # Czech: Drupal's "Vložil/a" byline, a month named in either case
        ("Vložil/a Anonymous, 6 Březen, 2018 - 14:00", "2018-03-06"),
        ("Zveřejněno 12. října 2021", "2021-10-12"),
    ],
)
def test_labelled_lines_in_many_languages(line: str, expected: str) -> None:
    assert labelled_date(tree(f"<article><p class='meta'>{line}</p></article>"), TODAY) == expected


def test_the_posts_line_wins_and_updates_or_future_dates_do_not_count() -> None:
    post = "<article><p>Posted on May 2, 2020</p><div id='comments'><p>Posted on March 4, 2021</p></div></article>"
    assert labelled_date(tree(post), TODAY) == "2020-05-02"
    assert labelled_date(tree("<p>Updated on May 2, 2020</p>"), TODAY) is None
    assert labelled_date(tree("<p>Last update date: 2 May 2020</p>"), TODAY) is None
    assert labelled_date(tree("<p>Published on June 9, 2031</p>"), TODAY) is None
    assert labelled_date(tree("<p>Published on the web.</p>"), TODAY) is None
    assert labelled_date(tree("<p>Outdated: 2 May 2020</p>"), TODAY) is None


def test_a_label_before_a_date_in_its_own_element() -> None:
    html = "<p>Posted on <a href='/x'><time>July 21, 2019</time></a></p>"
    assert labelled_date(tree(html), TODAY) == "2019-07-21"


def test_markup_date_kept_with_its_time_when_the_url_agrees() -> None:
    published, _ = page_dates(
        "https://example.com/2023/11/08/story",
        tree("<p>x</p>"),
        ["2023-11-08T22:40:00-05:00"],
        [],
        today=TODAY,
    )
    assert published == "2023-11-08T22:40:00-05:00"


def test_url_date_wins_over_a_markup_date_of_another_day() -> None:
    published, _ = page_dates(
        "https://example.com/2023/11/08/story",
        tree("<p>x</p>"),
        ["2023-11-09T03:40:00Z"],
        [],
        today=TODAY,
    )
    assert published == "2023-11-08"


def test_modified_before_published_is_dropped_and_after_is_kept() -> None:
    root = tree("<p>x</p>")
    assert page_dates("https://e.com/a", root, ["2022-09-10"], ["2021-01-01"], today=TODAY) == (
        "2022-09-10",
        None,
    )
    assert page_dates("https://e.com/a", root, ["2022-09-10"], ["2022-10-01"], today=TODAY) == (
        "2022-09-10",
        "2022-10-01",
    )


def test_text_search_only_when_the_markup_is_silent_and_only_when_asked() -> None:
    pytest.importorskip("htmldate")
    root = tree("<h1>Title</h1><div class='info'>Sunday, 17 September 2017</div><p>Text</p>")
    assert page_dates("https://e.com/a", root, [], [], today=TODAY, search="fast") == (
        "2017-09-17",
        None,
    )
    assert page_dates("https://e.com/a", root, [], [], today=TODAY, search="off") == (None, None)
    assert page_dates("https://e.com/a", root, ["2020-01-02"], [], today=TODAY)[0] == "2020-01-02"


def test_text_search_respects_today() -> None:
    pytest.importorskip("htmldate")
    root = tree("<div class='date'>17 September 2017</div>")
    assert page_dates("https://e.com/a", root, [], [], today=date(2010, 1, 1))[0] is None


def test_no_tree_no_text_search() -> None:
    assert page_dates("https://e.com/a", None, [], [], today=TODAY) == (None, None)


def test_the_date_printed_under_the_headline() -> None:
    html = (
        "<p>Archive: 2 January 2019</p><main><h1>A headline of some length</h1>"
        "<div class='meta'>Julia Lauter 31.03.2020</div><p>Text of 12 May 2001.</p></main>"
    )
    assert headline_date(tree(html), TODAY) == "2020-03-31"
    above = "<main><span>1. Februar 2022</span><h1>A headline of some length</h1><p>Text</p></main>"
    assert headline_date(tree(above), TODAY) == "2022-02-01"
    updated = "<main><h1>A headline of some length</h1><p>Updated: 2 May 2020</p></main>"
    assert headline_date(tree(updated), TODAY) is None
    assert headline_date(tree("<main><h1>Short</h1><p>2 May 2020</p></main>"), TODAY) is None
    assert headline_date(tree("<main><p>2 May 2020</p></main>"), TODAY) is None


def test_a_day_printed_only_as_an_update_is_no_publication_date() -> None:
    """htmldate takes the only date it finds; an "Updated ..." stamp is when the page last
    changed (a monitored page's noise), not when it was published."""
    pytest.importorskip("htmldate")
    for line in (
        "Updated 2024-05-02 09:14.",
        "Last updated: 2 May 2024",
        "Aktualisiert am 02.05.2024",
    ):
        root = tree(f"<h1>Walks</h1><p>The coastal path runs for nine miles.</p><p>{line}</p>")
        assert page_dates("https://e.com/a", root, [], [], today=TODAY)[0] is None, line
    # The same day printed once without the label is the publication date.
    root = tree("<h1>Walks</h1><p>2 May 2024. The path.</p><p>Updated 2024-05-02 09:14.</p>")
    assert page_dates("https://e.com/a", root, [], [], today=TODAY)[0] == "2024-05-02"


def test_a_copyright_year_is_no_publication_date() -> None:
    """htmldate's last resort is the copyright notice's year; that is the site's footer
    (changed on every page each January), not the day the post was published."""
    pytest.importorskip("htmldate")
    for notice in ("Copyright 2023 The Review. All rights reserved.", "© 2019–2023 The Review",
                   "(c) 2023 The Review"):  # fmt: skip
        root = tree(f"<h1>Story</h1><p>Plain text, no date at all.</p><p>{notice}</p>")
        assert page_dates("https://e.com/a", root, [], [], today=TODAY)[0] is None, notice
    # A page that states that very day keeps it; another year's notice does not matter.
    for day in ("1 January 2023", "January 1st, 2023", "2023-01-01"):
        root = tree(f"<h1>Story</h1><p>Posted {day}. Text.</p><p>Copyright 2023 The Review</p>")
        assert page_dates("https://e.com/a", root, [], [], today=TODAY)[0] == "2023-01-01", day
    root = tree("<h1>Story</h1><div class='date'>17 September 2017</div><p>© 2023 Review</p>")
    assert page_dates("https://e.com/a", root, [], [], today=TODAY)[0] == "2017-09-17"


def test_a_year_in_a_link_is_no_publication_date() -> None:
    """A documentation page that states no date but links to "stateofjs.com/2016/...":
    htmldate's extensive search makes the 1st of January of that year of it, a day the
    page never states."""
    pytest.importorskip("htmldate")
    for link in (
        "http://stateofjs.com/2016/buildtools/",
        "https://gist.github.com/dr/11dfe2014a6b9",
    ):
        root = tree(
            f"<h1>How to build the app</h1><p>As <a href='{link}'>Webpack is the most used"
            " build tool</a> we show how to configure it.</p>"
        )
        assert page_dates("https://e.com/docs/build/", root, [], [], today=TODAY)[0] is None, link
    # a page that states the 1st of January, in its text or its markup, keeps it
    for stated in ("<p>Posted 1 January 2016.</p>", "<time datetime='2016-01-01'></time>"):
        root = tree(f"<h1>New year notes</h1>{stated}<p>Text of the notes.</p>")
        assert page_dates("https://e.com/n", root, [], [], today=TODAY)[0] == "2016-01-01", stated


def test_a_copyright_notice_after_a_long_post_is_found() -> None:
    pytest.importorskip("htmldate")
    body = "<p>Plain words without any date in them.</p>" * 3000
    root = tree(f"<h1>Story</h1>{body}<footer>Copyright 2023 The Review</footer>")
    assert page_dates("https://e.com/a", root, [], [], today=TODAY)[0] is None


def test_a_street_number_is_no_publication_date() -> None:
    """A Japanese address writes its block and building numbers as "2-19-15" after the
    district's name: htmldate's extensive search reads them as 19 February 2015."""
    pytest.importorskip("htmldate")
    today = date(2026, 12, 1)
    for address in (
        "東京都渋谷区渋谷2-19-15 宮益坂ビルディング",
        "〒150-0002 東京都渋谷区渋谷2-19-15",
        "Block 4-2-19-15, Tower B",
    ):
        root = tree(f"<h1>会社概要のページです</h1><p>住所：{address}</p><p>本文です。</p>")
        assert page_dates("https://e.co.jp/about", root, [], [], today=today)[0] is None, address
    # the same numbers written as a date, on their own, stay a date
    root = tree("<h1>Our spring notes</h1><p>Posted 2-19-15</p><p>Text of the notes.</p>")
    assert page_dates("https://e.com/n", root, [], [], today=today)[0] == "2015-02-19"


def test_a_day_only_in_a_code_sample_is_no_publication_date() -> None:
    """A post that shows a service's JSON answer ("startTime": "2023-10-06T16:00:00Z")
    was not published that day: htmldate reads the text of code blocks too."""
    pytest.importorskip("htmldate")
    today = date(2026, 12, 1)
    sample = (
        "<pre><code>{\n  &#34;startTime&#34;: <span>&#34;2023-10-06T16:00:00.000Z&#34;</span>,"
        "\n  &#34;frequency&#34;: &#34;Day&#34;\n}</code></pre>"
    )
    root = tree(f"<h1>Cost alerts with Bicep</h1><p>The schedule reads:</p>{sample}<p>Done.</p>")
    assert page_dates("https://e.com/posts/alerts/", root, [], [], today=today)[0] is None
    inline = "<p>Set <code>startTime</code> to <code>2023-10-06</code> or later.</p>"
    root = tree(f"<h1>Cost alerts with Bicep</h1>{inline}<p>Done.</p>")
    assert page_dates("https://e.com/posts/alerts/", root, [], [], today=today)[0] is None
    # a day the text states outside the code stays the page's date
    root = tree(
        f"<h1>Cost alerts with Bicep</h1><p>Written 6 October 2023, after the launch.</p>{sample}"
    )
    assert page_dates("https://e.com/posts/alerts/", root, [], [], today=today)[0] == "2023-10-06"


def test_the_day_of_an_update_line_alone_is_no_publication_date() -> None:
    """Docusaurus prints "最后由 liyao 于 2022/6/1 更新" (last updated by liyao on ...), its
    time marked as the page's modification: that day, printed once, is no publication."""
    pytest.importorskip("htmldate")
    today = date(2026, 12, 1)
    line = (
        '<footer><span class="theme-last-updated">最后由 <b>liyao</b> 于 <b>'
        '<time datetime="2022-06-01T13:09:27.000Z">2022/6/1</time></b> 更新</span></footer>'
    )
    root = tree(f"<article><h1>快速开始</h1><p>推荐部署的方法。</p>{line}</article>")
    modified = ["2022-06-01T13:09:27.000Z"]
    assert page_dates("https://e.com/docs/quickstart/", root, [], modified, today=today) == (
        None,
        "2022-06-01T13:09:27+00:00",
    )
    # the day printed twice, once as the post's own, is its publication too
    root = tree(f"<article><h1>快速开始</h1><p>2022/6/1 发布。推荐部署的方法。</p>{line}</article>")
    found = page_dates("https://e.com/docs/quickstart/", root, [], modified, today=today)
    assert found[0] == "2022-06-01"


def test_a_text_date_after_the_markups_modification_is_no_publication_date() -> None:
    """Docusaurus in English prints "Last updated on 7/8/2022" (July 8); htmldate reads
    the day first (7 August): a publication after the page's own modification date is
    none, and the modification date stays."""
    pytest.importorskip("htmldate")
    today = date(2026, 12, 1)
    line = (
        '<footer><span class="theme-last-updated">Last updated on <b>'
        '<time datetime="2022-07-08T08:00:04.000Z">7/8/2022</time></b> by <b>liyao</b>'
        "</span></footer>"
    )
    root = tree(f"<article><h1>Introduction</h1><p>Pisanix is a framework.</p>{line}</article>")
    modified = ["2022-07-08T08:00:04.000Z"]
    assert page_dates("https://e.com/en/docs/intro/", root, [], modified, today=today) == (
        None,
        "2022-07-08T08:00:04+00:00",
    )


def test_an_api_reference_full_of_dated_samples_states_no_publication_date() -> None:
    # every "created" and "date" label is a sample's, inside code, hundreds of them
    samples = "".join(
        f'<p>Returns:</p><pre><code>{{"created": "2023-10-{day:02d}T16:00:00Z",'
        f' "date": "2023-10-{day:02d}"}}</code></pre>'
        for day in range(1, 29)
    )
    root = tree(f"<article><h1>API reference for the orders</h1>{samples * 20}</article>")
    assert labelled_date(root, TODAY) is None


def test_the_update_lines_day_read_month_first_is_no_publication_date() -> None:
    """ "Last updated on 8/2/2022" (August 2, US order) read day first is 8 February:
    earlier than the modification, and the same day with its day and month swapped."""
    pytest.importorskip("htmldate")
    line = (
        '<footer><span class="theme-last-updated">Last updated on <b>'
        '<time datetime="2022-08-02T07:06:14.000Z">8/2/2022</time></b> by <b>liyao</b>'
        "</span></footer>"
    )
    root = tree(f"<article><h1>Quickstart</h1><p>Deploy it as follows.</p>{line}</article>")
    modified = ["2022-08-02T07:06:14.000Z"]
    got = page_dates("https://e.com/en/docs/quickstart/", root, [], modified, today=TODAY)
    assert got == (None, "2022-08-02T07:06:14+00:00")


def test_a_labelled_line_beats_a_generic_date_meta() -> None:
    """``<meta name=date>`` and ``dc.date`` do not say which date they are (a content
    system's last change as often as the publication): the post's "Erschienen am"
    line of another day wins; a specific markup date keeps its place."""
    root = tree(
        "<main><h1>Eine Pressemeldung</h1><p>Text.</p><p>Erschienen am: 13.10.2021</p></main>"
    )
    assert page_dates("https://e.com/a", root, [GenericDate("2021-10-15")], [], today=TODAY) == (
        "2021-10-13",
        None,
    )
    assert page_dates("https://e.com/a", root, ["2021-10-15"], [], today=TODAY)[0] == "2021-10-15"
    plain = tree("<main><h1>Eine Pressemeldung</h1><p>Text.</p></main>")
    assert page_dates("https://e.com/a", plain, [GenericDate("2021-10-15")], [], today=TODAY)[
        0
    ] == ("2021-10-15")


def test_markup_dates_a_day_apart_the_printed_day_decides() -> None:
    """The same moment stated in UTC (the 18th) and in the site's zone (the 19th): the
    day the post prints under its headline is the one a reader sees."""
    root = tree(
        "<article><h1>Was bringen Therapien bei Krebs</h1><p>19. Oktober 2019</p></article>"
    )
    markup = ["2019-10-18T22:04:00Z", GenericDate("Sat, 19 Oct 2019 00:04:00 +0200")]
    assert page_dates("https://e.com/a", root, markup, [], today=TODAY)[0] == (
        "2019-10-19T00:04:00+02:00"
    )
    # Printed the 18th, or nothing printed: the first stands.
    same = tree(
        "<article><h1>Was bringen Therapien bei Krebs</h1><p>18. Oktober 2019</p></article>"
    )
    assert (
        page_dates("https://e.com/a", same, markup, [], today=TODAY)[0]
        == "2019-10-18T22:04:00+00:00"
    )
    bare = tree("<article><h1>Was bringen Therapien bei Krebs</h1><p>Text</p></article>")
    assert (
        page_dates("https://e.com/a", bare, markup, [], today=TODAY)[0]
        == "2019-10-18T22:04:00+00:00"
    )


def test_a_republication_years_later_keeps_the_original_date() -> None:
    """Markup dates years apart are an original and its republication: the page may
    print the later one, the original is the publication date."""
    root = tree("<article><h1>Les clés pour bien manger</h1><p>Le 19 février 2020</p></article>")
    markup = ["2017-04-12T18:33:59+02:00", "2020-02-19"]
    assert page_dates("https://e.com/a", root, markup, [], today=TODAY)[0] == (
        "2017-04-12T18:33:59+02:00"
    )


def test_the_date_is_looked_for_where_the_headline_is() -> None:
    """A page whose first ``<article>`` is a teaser and whose post stands outside any
    ``<article>``: the post's "Written:" line is found where its headline is."""
    html = (
        "<div class='nav'><article><a href='/other'>Another story</a> 2023-11-03</article></div>"
        "<div id='content'><h1>Colder temperatures forecast for Wednesday</h1>\n"
        "<p>Written: 2023-11-07 15:03:30 / Updated: 2023-11-07 15:30:46</p>\n<p>Text.</p></div>"
    )
    root = tree(html)
    assert labelled_date(root, TODAY) == "2023-11-07"
    assert headline_date(root, TODAY) == "2023-11-07"
    # A headline inside the first article keeps that article as the scope.
    inside = "<article><h1>Colder temperatures forecast</h1>\n<p>Posted 2023-11-07</p></article>"
    assert labelled_date(tree("<p>Posted 2023-11-01</p>\n" + inside), TODAY) == "2023-11-07"


def test_the_bodys_dates_are_compared_only_when_the_head_states_none() -> None:
    """Candidates after :data:`COSTLY` (the body's ``<time>`` elements, a walk of the page)
    are not read once the head has given a date, nor compared with it."""
    root = tree(
        "<article><h1>Was bringen Therapien bei Krebs</h1><p>19. Oktober 2019</p></article>"
    )

    def body() -> list[str]:
        raise AssertionError("the body's dates were read")

    def candidates(head: list[str]) -> object:
        yield from head
        yield COSTLY
        yield from body()

    assert page_dates("https://e.com/a", root, candidates(["2019-10-18"]), [], today=TODAY)[0] == (
        "2019-10-18"
    )
    markup = iter([COSTLY, "2019-10-19"])
    assert page_dates("https://e.com/a", root, markup, [], today=TODAY)[0] == "2019-10-19"


#: A WordPress post filed under "/2011/12/": htmldate's search takes the sidebar's
#: newest comment's day (marked as a date); the post's own line prints its day before
#: its label.
FILED_IN_A_MONTH = (
    "<div id='sidebar'><h3>Letzte Kommentare</h3><ul><li>Anna <span class='date'>01.06.2010"
    "</span></li>"
    "</ul></div><div class='post'><h2>Kein Cyberterrorismus, diesmal</h2>"
    "<p>Die Meldung war schneller als die Prüfung: ein Ausfall, kein Angriff.</p>"
    "<p class='postmetadata'>Dieser Beitrag wurde am Samstag, 3. Dezember 2011 "
    "veröffentlicht.</p></div>"
)


def test_a_text_date_outside_the_month_the_url_files_the_post_under_gives_way() -> None:
    pytest.importorskip("htmldate")
    root = tree(FILED_IN_A_MONTH)
    elsewhere = page_dates("https://e.com/news/kein-cyberterrorismus/", root, [], [], today=TODAY)
    assert elsewhere[0] == "2010-06-01"  # what htmldate's search finds first
    filed = page_dates(
        "https://e.com/news/2011/12/kein-cyberterrorismus/", root, [], [], today=TODAY
    )
    assert filed == ("2011-12-03", None)


@pytest.mark.parametrize(
    ("url", "expected"),
    [
        ("https://e.com/news/2011/12/title/", "2011-12"),
        ("https://e.com/2011/12/", "2011-12"),
        ("https://e.com/2011/12/03/title/", None),  # a full date: url_date's
        ("https://e.com/2011/1/title/", None),  # not two parts of the path
        ("https://e.com/items/2011/13/", None),
        ("https://e.com/1990/01/too-early/", None),
        ("https://e.com/a?m=2011/12/", None),
    ],
)
def test_url_months(url: str, expected: str | None) -> None:
    from webrobot.extract.urldates import url_month

    assert url_month(url, TODAY) == expected


@pytest.mark.parametrize(
    ("published", "modified", "kept"),
    [
        ("2019-01-07T22:06:15+00:00", "2019-01-07T22:06:09+00:00", False),  # Ghost's seconds
        ("2019-11-20T08:02:00+00:00", "2019-11-20T08:00:00+00:00", False),
        ("2019-01-07T22:06:09+00:00", "2019-01-07T23:10:00+00:00", True),
        ("2019-01-07T22:06:09+00:00", "2019-01-07", True),  # a day alone: by days
        ("2019-01-07T22:06:09", "2019-01-07T10:00:00+02:00", True),  # no zone: by days
        ("2019-01-08T00:30:00+02:00", "2019-01-07T23:00:00+00:00", False),  # an earlier day
    ],
)
def test_a_modification_before_the_publication_is_dropped(
    published: str, modified: str, kept: bool
) -> None:
    found = page_dates("https://e.com/a", None, [published], [modified], today=TODAY)
    assert found == (iso(published), iso(modified) if kept else None)


def iso(value: str) -> str | None:
    from webrobot.extract.dates import iso_date

    return iso_date(value)


def test_the_date_under_the_headline_when_its_element_follows_a_number() -> None:
    """Elements glued in the text ("…Trump su 222" then "06 Dicembre 2020", a byline's
    "News24<br>13 Jan 2020") still print their own date under the headline."""
    glued = (
        "<article><h1>California certifica voto, Biden oltre quorum</h1>"
        "<h2>Dem può contare su 288 voti, Trump su 222</h2><p>06 Dicembre 2020</p></article>"
    )
    assert headline_date(tree(glued), TODAY) == "2020-12-06"
    broken = (
        "<main><h1>Australian megablaze brought under control</h1>"
        "<p>News24<br>13 Jan 2020, 22:11 GMT+10</p><p>Text.</p></main>"
    )
    assert headline_date(tree(broken), TODAY) == "2020-01-13"


def test_the_headline_is_the_heading_the_title_starts_with_when_there_is_no_h1() -> None:
    """A theme that sets its post's headline in an ``<h2>``: the heading the page's
    ``<title>`` starts with is the headline; a date in the site's header before it (the
    day the page was served) is not the post's."""
    html = (
        "<html><head><title>Australian megablaze brought under control | The Star</title>"
        "</head><body><div class='top'>Tue, 14 Jan 2020</div><h2>Latest</h2>"
        "<div><h2>Australian megablaze brought under control</h2>"
        "<p>News24<br>13 Jan 2020, 22:11 GMT+10</p><p>Text.</p></div></body></html>"
    )
    root = Selector(text=html, type="html").root
    assert headline_date(root, TODAY) == "2020-01-13"
    # No heading the title names: no headline, no date from here.
    other = html.replace("<title>Australian", "<title>Bushfires:")
    assert headline_date(Selector(text=other, type="html").root, TODAY) is None


def test_a_utc_moment_near_midnight_takes_the_local_day_the_post_prints() -> None:
    """A moment stated in UTC late in the evening is the next day where the site is: the
    day printed under the headline decides; a moment stated in the site's own zone, or
    far from midnight, stands."""
    root = tree(
        "<article><h1>California certifica voto, Biden oltre quorum</h1>"
        "<p>06 Dicembre 2020</p></article>"
    )
    assert (
        page_dates("https://e.com/a", root, ["2020-12-05T23:15:0Z"], [], today=TODAY)[0]
        == "2020-12-06"
    )
    early = tree("<article><h1>Penn Station to close overnight</h1><p>May 1, 2020</p></article>")
    assert (
        page_dates("https://e.com/a", early, ["2020-05-02T02:54:29Z"], [], today=TODAY)[0]
        == "2020-05-01"
    )
    for stated in ("2020-12-05T23:15:00+01:00", "2020-12-05T11:15:00Z", "2020-12-05"):
        assert page_dates("https://e.com/a", root, [stated], [], today=TODAY)[0] == iso_date(
            stated
        ), stated
    # A printed day two days away is another date, not the same moment.
    later = tree(
        "<article><h1>California certifica voto, Biden oltre quorum</h1>"
        "<p>07 Dicembre 2020</p></article>"
    )
    assert (
        page_dates("https://e.com/a", later, ["2020-12-05T23:15:00Z"], [], today=TODAY)[0]
        == "2020-12-05T23:15:00+00:00"
    )


def test_a_utc_moment_keeps_its_day_when_the_neighbour_is_only_in_the_posts_prose() -> None:
    """A report stated at 09:00 UTC whose page prints no date line, and whose first
    sentence names the day before (the event it reports): that day is what the post
    says, not the day it was published, and the markup's day stands."""
    root = tree(
        "<article><h1>Storm leaves thousands without power</h1><p>By Jane Roe</p>"
        "<p>The storm that reached the northern coast on 4 December 2020 brought down "
        "power lines across three counties, and crews were still at work on Saturday "
        "morning.</p></article>"
    )
    stated = "2020-12-05T09:00:00+00:00"
    assert page_dates("https://e.com/a", root, [stated], [], today=TODAY)[0] == stated


def test_a_post_that_prints_its_update_as_its_date_is_dated_by_it() -> None:
    """The markup says the post was published on the 29th of November and modified on
    the 12th of January; the page prints only the 12th under its headline, never the
    29th: the day the reader is shown as the post's date is the modification."""
    root = tree(
        "<article><h1>Können Fische Schmerzen spüren?</h1>"
        "<p>Christoph Hein · ca. 8 Min. · 12.01.2022</p><p>Text.</p></article>"
    )
    markup = (["2021-11-29T14:13:37+00:00"], ["2022-01-12T14:27:30+00:00"])
    assert page_dates("https://e.com/a", root, *markup, today=TODAY) == (
        "2022-01-12T14:27:30+00:00",
        "2022-01-12T14:27:30+00:00",
    )
    # The publication's day printed too (a "first published" line): it stands.
    both = tree(
        "<article><h1>Können Fische Schmerzen spüren?</h1><p>12.01.2022</p>"
        "<p>Text.</p><p>Zuerst erschienen: 29.11.2021</p></article>"
    )
    assert page_dates("https://e.com/a", both, *markup, today=TODAY)[0] == markup[0][0]
    # An update's label before the printed day: the publication stands.
    updated = tree(
        "<article><h1>Können Fische Schmerzen spüren?</h1>"
        "<p>Aktualisiert am 12.01.2022</p><p>Text.</p></article>"
    )
    assert page_dates("https://e.com/a", updated, *markup, today=TODAY)[0] == markup[0][0]
    # So before an edit's or a revision's day ("Last edited", "Revised"), beside a
    # publication printed in a form the text's dates are not read in (11/29/2021).
    for label in ("Edited on", "Last edited", "Revised"):
        edited = tree(
            "<article><h1>Können Fische Schmerzen spüren?</h1>"
            f"<p>Posted 11/29/2021 · {label} 12.01.2022</p><p>Text.</p></article>"
        )
        assert page_dates("https://e.com/a", edited, *markup, today=TODAY)[0] == markup[0][0]
    # The URL files the post under its publication's day: it stands.
    filed = "https://e.com/2021/11/29/fische"
    assert page_dates(filed, root, *markup, today=TODAY)[0] == markup[0][0]


def test_the_text_after_a_headline_in_a_deeply_nested_page() -> None:
    """The text after the headline is walked, not recursed: a page nested thousands of
    elements deep (built, as a parser caps depth) still gives its date, comments and
    scripts left out."""
    from lxml import etree

    from webrobot.extract.headlinetext import text_after

    root = tree("<main><h1>A headline of some length</h1><div id='deep'></div></main>")
    node = root.get_element_by_id("deep")
    for _ in range(3000):
        node = etree.SubElement(node, "span")
    node.text = "x"
    node.append(etree.Comment("2 May 2019"))
    node[-1].tail = " by Jane"
    script = etree.SubElement(node, "script")
    script.text = "var d = '3 May 2019';"
    script.tail = " Posted 4 May 2020"
    assert text_after(next(root.iter("h1")), 300) == "x by Jane Posted 4 May 2020"
    script.text = ""
    assert headline_date(root, TODAY) == "2020-05-04"
