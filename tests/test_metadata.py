"""Page metadata: each field from the first source that has it, dates ISO 8601,
languages BCP 47, URLs absolute; never a failure for what a page holds."""

from __future__ import annotations

import json
import sys
from datetime import UTC, date, datetime, timedelta, timezone

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from parsel import Selector

from webrobot.extract.dates import iso_date
from webrobot.extract.metadata import FIELDS, metadata
from webrobot.extract.page import SourcePage

FAST = settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
URL = "https://news.example.com/world/story"


def page(html: str, headers: dict[str, str] | None = None, *, tree: bool = True) -> SourcePage:
    root = Selector(text=html, type="html").root if tree else None
    return SourcePage(url=URL, html=html, root=root, headers=headers or {})


ARTICLE = """<!doctype html>
<html lang="en-gb"><head>
<title>Story title | The Example Times</title>
<link rel="canonical" href="/2024/03/12/story">
<meta name="description" content="Meta description.">
<meta name="author" content="Meta Author">
<meta property="og:title" content="OG title">
<meta property="og:description" content="OG description">
<meta property="og:site_name" content="The Example Times">
<meta property="og:image" content="/img/og.jpg">
<meta property="article:published_time" content="2024-03-12T08:00:00+01:00">
<meta name="twitter:title" content="Twitter title">
<script type="application/ld+json">
{"@context": "https://schema.org", "@graph": [
 {"@type": "WebSite", "@id": "https://news.example.com/#site", "name": "Example Times"},
 {"@type": "Person", "@id": "https://news.example.com/#amy", "name": "Amy Writer"},
 {"@type": "NewsArticle", "headline": "JSON-LD headline", "description": "JSON-LD description",
  "author": [{"@id": "https://news.example.com/#amy"}, {"@type": "Person", "name": "Bo Editor"}],
  "datePublished": "2024-03-12T07:00:00Z", "dateModified": "2024-03-13 10:30",
  "image": {"@type": "ImageObject", "url": "https://cdn.example.com/lead.jpg"}}]}
</script>
</head><body><article><h1>Story</h1><time datetime="2020-01-01">old</time></article></body></html>"""


def test_jsonld_first_then_opengraph_then_the_rest() -> None:
    assert metadata(page(ARTICLE)) == {
        "title": "JSON-LD headline",
        "description": "JSON-LD description",
        "authors": ["Amy Writer", "Bo Editor"],
        "published": "2024-03-12T07:00:00+00:00",
        "modified": "2024-03-13T10:30:00",
        "language": "en-GB",
        "site_name": "Example Times",
        "canonical": "https://news.example.com/2024/03/12/story",
        "image": "https://cdn.example.com/lead.jpg",
    }


def test_without_jsonld_opengraph_twitter_and_meta_tags_answer() -> None:
    html = ARTICLE.split("<script")[0] + "</head><body></body></html>"
    assert metadata(page(html)) == {
        "title": "OG title",
        "description": "OG description",
        "authors": ["Meta Author"],
        "published": "2024-03-12T08:00:00+01:00",
        "modified": None,
        "language": "en-GB",
        "site_name": "The Example Times",
        "canonical": "https://news.example.com/2024/03/12/story",
        "image": "https://news.example.com/img/og.jpg",
    }


def test_the_plain_html_and_the_header_are_the_last_sources() -> None:
    html = """<html><head><title> A  plain page </title>
    <meta name="DC.creator" content="Dee Core"><meta name="DC.date" content="12.03.2024"></head>
    <body><p>By the way</p><time datetime="2024-03-01T09:00:00Z">1 March</time></body></html>"""
    result = metadata(page(html, {"content-language": "pt-br, en"}))
    assert result["title"] == "A plain page"
    assert result["authors"] == ["Dee Core"]
    assert result["published"] == "2024-03-12"
    assert result["language"] == "pt-BR"
    assert result["description"] is None and result["canonical"] is None and result["image"] is None


def test_time_element_and_twitter_when_nothing_else_says() -> None:
    html = """<html><head><meta name="twitter:title" content="Tw"><meta name="twitter:image" content="//cdn.example.com/t.png"></head>
    <body><article><time datetime="2024-03-01T09:00:00-05:00">1 March</time></article></body></html>"""
    result = metadata(page(html))
    assert (result["title"], result["image"], result["published"]) == (
        "Tw",
        "https://cdn.example.com/t.png",
        "2024-03-01T09:00:00-05:00",
    )


def test_structured_data_passed_in_is_used_and_its_microdata_too() -> None:
    structured = {
        "json-ld": [],
        "microdata": [
            {
                "@type": "BlogPosting",
                "@context": "http://schema.org",
                "headline": "Microdata headline",
                "author": {"@type": "Person", "name": "Mia Data"},
                "datePublished": "March 5, 2024",
            }
        ],
        "rdfa": [],
        "opengraph": [],
    }
    result = metadata(page("<html><head><title>t</title></head></html>"), structured)
    assert result["title"] == "Microdata headline"
    assert result["authors"] == ["Mia Data"]
    assert result["published"] == "2024-03-05"


def test_structured_data_passed_in_is_not_read_again(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "extruct", None)
    result = metadata(page(ARTICLE), {"json-ld": [], "microdata": [], "rdfa": [], "opengraph": []})
    assert result["title"] == "OG title"  # the page's JSON-LD was not read: the caller's was empty


def test_metadata_needs_no_optional_package(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "extruct", None)
    monkeypatch.setitem(sys.modules, "price_parser", None)
    assert metadata(page(ARTICLE))["title"] == "JSON-LD headline"


def test_a_listing_of_several_articles_gives_no_article_fields() -> None:
    html = """<html><head><title>Front page</title><meta property="og:title" content="Front">
    <script type="application/ld+json">[{"@type":"NewsArticle","headline":"One","url":"https://news.example.com/one"},
    {"@type":"NewsArticle","headline":"Two","url":"https://news.example.com/two"}]</script></head></html>"""
    assert metadata(page(html))["title"] == "Front"


def test_a_page_without_a_title_is_titled_by_its_headline() -> None:
    """An empty ``<title>``, no Open Graph or schema.org title: the ``<h1>`` a reader sees
    over the post is its title (not a logo's ``<h1>`` linking home)."""
    html = """<html><head><title></title></head><body><h1 class="logo"><a href="/">Days</a></h1>
    <article><h1>Resolving the Time Paradox Implied by Functional Programs</h1><p>Text.</p>
    </article></body></html>"""
    got = metadata(page(html))
    assert got["title"] == "Resolving the Time Paradox Implied by Functional Programs"
    assert (
        metadata(page("<html><head></head><body><p>No headline.</p></body></html>"))["title"]
        is None
    )


LISTED = """<html><head><title>{title}</title>
<script type="application/ld+json">{{"@type": "BlogPosting", "headline": "Clipboard tools on Ubuntu",
"url": "https://blog.example.com/2018/07/16/clipboard-tools/", "datePublished": "2018-07-16",
"author": {{"@type": "Person", "name": "Arthur"}}}}</script></head>
<body><h1>Ditto</h1><article><h2><a href="/2018/07/16/clipboard-tools/">Clipboard tools on
Ubuntu</a></h2><time>07-16</time></article></body></html>"""


def test_a_listing_of_one_article_is_not_that_article() -> None:
    """A tag page that lists a single post declares that post (its headline, its
    address): the page is the listing its own title names, not the post."""
    html = LISTED.format(title="Tag: Ditto | Arthur's Blog")
    got = metadata(
        SourcePage("https://blog.example.com/tags/ditto/", html, Selector(text=html).root)
    )
    assert got["title"] is not None and got["title"].startswith("Tag: Ditto")


@pytest.mark.parametrize(
    ("url", "title"),
    [
        # the post at its own address, whatever its <title>
        ("https://blog.example.com/2018/07/16/clipboard-tools/", "Arthur's Blog"),
        ("http://127.0.0.1:8000/2018/07/16/clipboard-tools/index.html", "Arthur's Blog"),
        # the post at another address (an old one, a mirror) whose title is its headline
        ("https://blog.example.com/?p=123", "Clipboard tools on Ubuntu | Arthur's Blog"),
    ],
)
def test_the_one_article_of_its_own_page_is_the_page(url: str, title: str) -> None:
    html = LISTED.format(title=title)
    got = metadata(SourcePage(url, html, Selector(text=html).root))
    assert got["title"] == "Clipboard tools on Ubuntu" and got["authors"] == ["Arthur"]


@pytest.mark.parametrize(
    ("values", "expected"),
    [
        (["By Jane Doe"], ["Jane Doe"]),
        (["Jane Doe and John Roe"], ["Jane Doe", "John Roe"]),
        (["Jane Doe, John Roe"], ["Jane Doe", "John Roe"]),
        (["https://facebook.com/jane", "Jane Doe"], ["Jane Doe"]),
        (["@jane"], []),
        (["Jane Doe", "jane doe"], ["Jane Doe"]),
        # A place and a country after the name, as an address writes them.
        (["hessenschau.de, Frankfurt, Germany"], ["hessenschau.de"]),
        (["Olympia-Verlag GmbH, Nürnberg, Germany"], ["Olympia-Verlag GmbH"]),
        # "A und B" of one word each is one name ("Kirche und Leben"), not two.
        (["Kirche und Leben, Münster, Germany"], ["Kirche und Leben"]),
        (["Jane Doe und Max"], ["Jane Doe", "Max"]),
    ],
)
def test_author_names(values: list[str], expected: list[str]) -> None:
    metas = "".join(f'<meta name="author" content="{v}">' for v in values)
    assert metadata(page(f"<html><head>{metas}</head></html>"))["authors"] == expected


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("2024-03-12T08:00:00Z", "2024-03-12T08:00:00+00:00"),
        ("2024-03-12T08:00:00+0530", "2024-03-12T08:00:00+05:30"),
        ("2024-03-12T08:00:00.123-05:00", "2024-03-12T08:00:00-05:00"),
        ("2024-03-12 08:00", "2024-03-12T08:00:00"),
        # a content system that drops the seconds' leading zero
        ("2020-12-05T23:15:0Z", "2020-12-05T23:15:00+00:00"),
        ("2024-03-12", "2024-03-12"),
        ("20240312", "2024-03-12"),
        ("Tue, 12 Mar 2024 08:00:00 GMT", "2024-03-12T08:00:00+00:00"),
        ("Tue, 12 Mar 2024 08:00:00 -0400", "2024-03-12T08:00:00-04:00"),
        ("March 12, 2024", "2024-03-12"),
        ("Mar. 12, 2024 at 3:45 pm", "2024-03-12T15:45:00"),
        ("Tuesday, March 12, 2024 10:24 AM EST", "2024-03-12T10:24:00-05:00"),
        ("12 March 2024", "2024-03-12"),
        ("12. März 2024", "2024-03-12"),
        # French and German months as pages shorten them
        ("mardi, avr. 8, 2025", "2025-04-08"),
        ("8 janv. 2025", "2025-01-08"),
        ("8 févr. 2025", "2025-02-08"),
        ("8 juil. 2025", "2025-07-08"),
        ("8 déc. 2025", "2025-12-08"),
        ("3. Mär. 2021", "2021-03-03"),
        ("3. Okt. 2021", "2021-10-03"),
        ("3. Dez. 2021", "2021-12-03"),
        ("12 de marzo de 2024", "2024-03-12"),
        ("2024/03/12", "2024-03-12"),
        ("12.03.2024", "2024-03-12"),
        ("03/25/2024", "2024-03-25"),
        ("25/03/2024", "2024-03-25"),
        ("03/04/2024", None),
        ("1710230400", "2024-03-12T08:00:00+00:00"),
        ("0000-00-00", None),
        ("2024-02-30", None),
        ("yesterday", None),
        ("", None),
    ],
)
def test_dates(value: str, expected: str | None) -> None:
    assert iso_date(value) == expected


# --- properties -----------------------------------------------------------------------------


@FAST
@given(
    st.datetimes(min_value=datetime(1900, 1, 1), max_value=datetime(2199, 12, 31)),
    st.sampled_from(
        [None, UTC, timezone(timedelta(hours=5, minutes=30)), timezone(-timedelta(hours=8))]
    ),
)
def test_iso_dates_round_trip(moment: datetime, zone: timezone | None) -> None:
    moment = moment.replace(microsecond=0, tzinfo=zone)
    assert iso_date(moment.isoformat()) == moment.isoformat()
    assert iso_date(moment.date().isoformat()) == moment.date().isoformat()


@FAST
@given(st.text(max_size=60))
def test_any_date_text_gives_iso_or_none(text: str) -> None:
    value = iso_date(text)
    assert value is None or datetime.fromisoformat(value)


@FAST
@given(st.text(max_size=400))
def test_any_page_gives_every_field(text: str) -> None:
    html = f"<html><head><title>{text}</title><meta name='author' content='{text}'>{text}</head><body>{text}</body></html>"
    for source in (page(html, tree=False), page(text, tree=False)):
        result = metadata(source, None)
        assert list(result) == list(FIELDS)
        json.dumps(result)
        assert isinstance(result["authors"], list)


@FAST
@given(st.text(max_size=300))
def test_any_jsonld_gives_every_field(script: str) -> None:
    html = f'<html><head><script type="application/ld+json">{script}</script></head></html>'
    assert list(metadata(page(html))) == list(FIELDS)


def test_no_date_after_the_day_the_server_served_the_page() -> None:
    html = (
        '<html><head><meta name="date" content="2024-05-02"></head>'
        '<body><time datetime="2024-04-01">1 April</time></body></html>'
    )
    served = page(html, {"date": "Wed, 24 Apr 2024 10:00:00 GMT"})
    assert metadata(served, date_search="off")["published"] == "2024-04-01"
    assert metadata(page(html), date_search="off")["published"] == "2024-05-02"
    assert metadata(page(html, {"date": "garbage"}), date_search="off")["published"] == "2024-05-02"
    assert (
        metadata(page(html), today=date(2024, 4, 20), date_search="off")["published"]
        == "2024-04-01"
    )


def test_title_without_the_site_name_an_h1_logo_or_the_site_name_states() -> None:
    logo = (
        "<html><head><title>Alles neu im Mai | Bibliothek 2.0</title></head><body>"
        "<h1 class='site-title'><a href='/'>Bibliothek 2.0</a></h1>"
        "<h2>Alles neu im Mai</h2></body></html>"
    )
    assert metadata(page(logo), date_search="off")["title"] == "Alles neu im Mai"
    home_link = logo.replace("class='site-title'", "")
    assert metadata(page(home_link), date_search="off")["title"] == "Alles neu im Mai"
    long_site = (
        "<html><head><title>Life Is A Highway - Consett News - Local news for Consett</title>"
        "<meta property='og:site_name' content='Consett News - Local news for Consett'>"
        "</head><body><p>x</p></body></html>"
    )
    assert metadata(page(long_site), date_search="off")["title"] == "Life Is A Highway"


def test_a_theme_that_writes_the_posts_title_as_the_site_name_keeps_it_as_the_title() -> None:
    # A Hugo theme that gives og:site_name the post's title, and a headline whose word
    # links to another site's home page (which makes it no logo of this one).
    html = (
        "<html><head><title>Dart: a fast language - Adaman blog</title>"
        "<meta property='og:title' content='Dart: a fast language - Adaman blog'>"
        "<meta property='og:site_name' content='Dart: a fast language'></head><body>"
        "<h1><span class='author'><a href='/blog/'>Artyom</a></span> / "
        "<a href='/blog/post/dart/'>Dart: a fast language</a></h1><article>"
        "<h1 id='dart'><a href='https://dart.dev/'>Dart</a>: a fast language for the web and "
        "for phones</h1><p>Dart is a language made by Google.</p></article></body></html>"
    )
    assert metadata(page(html), date_search="off")["title"] == "Dart: a fast language"


REVIEW = (
    '<script type="application/ld+json">[{"@type": "Product"}, '
    '{"@type": "NewsArticle", "headline": "Lamp review"}]</script>'
)


@pytest.mark.parametrize(
    ("head", "body_size", "searched"),
    [
        ("", 1_000, [True]),  # an ordinary page: htmldate's extensive search
        ("", 300_000, [False]),  # a large page: its fast search
        ('<meta property="og:type" content="product">', 1_000, []),  # a shop page: none
        ('<script type="application/ld+json">{"@type": "Product", "name": "Lamp"}</script>',
         1_000, []),
        (REVIEW, 1_000, [True]),  # a review of a product
    ],
)  # fmt: skip
def test_the_text_is_searched_for_a_date_as_the_page_deserves(
    monkeypatch: pytest.MonkeyPatch, head: str, body_size: int, searched: list[bool]
) -> None:
    from webrobot.extract import pagedates

    calls: list[bool] = []

    def text_date(url: str, root: object, today: object, *, extensive: bool) -> None:
        calls.append(extensive)

    monkeypatch.setattr(pagedates, "text_date", text_date)
    filler = "<p>" + "x " * (body_size // 2) + "</p>"
    metadata(page(f"<html><head><title>T</title>{head}</head><body>{filler}</body></html>"))
    assert calls == searched


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        # a news byline: the name, then the dateline's place
        ("Por <strong>Redacción RED Noticias</strong> | San Salvador", ["Redacción RED Noticias"]),
        ("By <a href='/u/jane'>Jane Doe</a> | Washington", ["Jane Doe"]),
        ("By Jane Doe | 4 min read", ["Jane Doe"]),
        ("By Jane Doe and John Roe | Berlin", ["Jane Doe", "John Roe"]),
    ],
)
def test_a_bylines_dateline_is_no_author(line: str, expected: list[str]) -> None:
    html = (
        "<html><body><article><h1>Una noticia de hoy</h1>"
        f"<div class='full-meta'><span>{line}</span></div><p>Texto.</p></article></body></html>"
    )
    assert metadata(page(html))["authors"] == expected


def test_authors_the_markup_separates_by_bars_are_each_an_author() -> None:
    metas = '<meta name="author" content="Jane Doe | John Roe">'
    assert metadata(page(f"<html><head>{metas}</head></html>"))["authors"] == [
        "Jane Doe",
        "John Roe",
    ]


def test_an_og_title_swapped_with_og_site_name_gives_way_to_the_pages_title() -> None:
    # a theme that swaps og:title and og:site_name: the <title> shows the post, then the site
    html = (
        "<html lang='fr'><head><title>À la croisée des chemins | La Plume et l'Épée</title>"
        "<meta property='og:site_name' content='À la croisée des chemins'>"
        "<meta property='og:title' content=\"La Plume et l'Épée\"></head><body>"
        "<h2><a href='https://news.example.com/'>La Plume et l'Épée</a></h2>"
        "<h2 class='post-title'>À la croisée des chemins</h2><p>Un poème.</p></body></html>"
    )
    assert metadata(page(html))["title"] == "À la croisée des chemins"
    # an og:title that is the page's own, shorter than <title>, is kept
    html = (
        "<html><head><title>Story title | The Example Times</title>"
        "<meta property='og:title' content='Story title'></head><body></body></html>"
    )
    assert metadata(page(html))["title"] == "Story title"
    # an og:title that is og:site_name, on a page whose <title> says more
    html = (
        "<html><head><title>Rechercher | BiOdyssée</title>"
        "<meta property='og:site_name' content='BiOdyssée'>"
        "<meta property='og:title' content='BiOdyssée'></head><body></body></html>"
    )
    assert metadata(page(html))["title"] == "Rechercher"
    # a <title> that puts the site first and the card's title after it keeps the card's
    html = (
        "<html><head><title>Derek Chang | Dev Env Setup</title>"
        "<meta name='twitter:title' content='Dev Env Setup'>"
        "<meta property='og:title' content='Dev Env Setup'></head><body></body></html>"
    )
    assert metadata(page(html))["title"] == "Dev Env Setup"
    # a home page whose og:title and <title> both name the site keeps it
    html = (
        "<html><head><title>The Example Times | News</title>"
        "<meta property='og:title' content='The Example Times'></head><body></body></html>"
    )
    assert metadata(page(html))["title"] == "The Example Times"
