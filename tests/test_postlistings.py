"""A page that lists posts (a blog's front, tag, category and archive pages) has no
publication date or author of its own (webrobot.extract.postlistings, and
webrobot.extract.metadata on such pages)."""

from __future__ import annotations

import pytest
from lxml.html import fromstring
from parsel import Selector

from webrobot.extract.metadata import metadata
from webrobot.extract.page import SourcePage
from webrobot.extract.postlistings import lists_posts
from webrobot.extract.structured import structured_data

pytest.importorskip("extruct")

#: As Docusaurus 2 writes its blog's pages: a ``Blog`` whose ``blogPost`` items each have
#: a headline linking to the post, its ``datePublished`` and its authors.
DOCUSAURUS_POST = """<article itemprop="blogPost" itemscope itemtype="http://schema.org/BlogPosting">
<header><h2 itemprop="headline"><a itemprop="url" href="/blog/{slug}">{title}</a></h2>
<div><time datetime="{day}T00:00:00.000Z" itemprop="datePublished">{day}</time> · 6 min read</div>
<div itemprop="author" itemscope itemtype="https://schema.org/Person">
<a href="https://github.com/{author}" itemprop="url"><span itemprop="name">{author}</span></a></div>
</header><div itemprop="articleBody"><p>The first lines of {title}, as the list shows them.</p></div>
</article>"""
POSTS = [
    {
        "slug": "greetings",
        "title": "Hello from the proxy",
        "day": "2022-04-25",
        "author": "Maxwell",
    },
    {"slug": "release", "title": "Version 0.1 is out", "day": "2022-03-02", "author": "Jiandong"},
]


def docusaurus(title: str, h1: str, posts: list[dict[str, str]], own: str = "") -> str:
    items = "".join(DOCUSAURUS_POST.format(**p) for p in posts)
    return (
        f"<html><head><title>{title} | Proxy</title>{own}</head><body><div class='main-wrapper'>"
        f"<main itemscope itemtype='http://schema.org/Blog'>{h1}{items}</main></div>"
        "<footer>Copyright © 2022 Proxy</footer></body></html>"
    )


def meta_of(url: str, html: str) -> dict:
    page = SourcePage(url, html, Selector(text=html, type="html").root)
    return metadata(page, structured_data(page))


@pytest.mark.parametrize(
    ("url", "title", "h1", "posts"),
    [
        ("https://proxy.example/blog/", "Blog", "", POSTS),
        ("https://proxy.example/blog/tags/proxy/", "2 posts tagged proxy", "<h1>2 posts tagged proxy</h1>", POSTS),
        ("https://proxy.example/blog/tags/greetings/", "One post tagged greetings", "<h1>One post tagged greetings</h1>", POSTS[:1]),
    ],
)  # fmt: skip
def test_a_blogs_list_of_posts_has_no_date_or_author_of_its_own(
    url: str, title: str, h1: str, posts: list[dict[str, str]]
) -> None:
    result = meta_of(url, docusaurus(title, h1, posts))
    assert result["published"] is None
    assert result["modified"] is None
    assert result["authors"] == []
    assert result["title"] == title


def test_the_post_itself_keeps_its_date_and_authors() -> None:
    """The post's own page is marked up the same way, its headline no link."""
    html = docusaurus(
        "Hello from the proxy", "", POSTS[:1], '<meta property="og:type" content="article">'
    ).replace(
        '<h2 itemprop="headline"><a itemprop="url" href="/blog/greetings">',
        "<h1 itemprop='headline'>",
    )
    html = html.replace("</a></h2>", "</h1>")
    result = meta_of("https://proxy.example/blog/greetings", html)
    assert result["published"] == "2022-04-25T00:00:00+00:00"
    assert result["authors"] == ["Maxwell"]


def test_the_post_without_its_og_type_keeps_them_too() -> None:
    html = docusaurus("Hello from the proxy", "", POSTS[:1]).replace(
        "<h2 itemprop=\"headline\"><a itemprop=\"url\" href=\"/blog/greetings\">", "<h1 itemprop='headline'>"
    ).replace("</a></h2>", "</h1>")  # fmt: skip
    assert meta_of("https://proxy.example/blog/greetings", html)["published"] == (
        "2022-04-25T00:00:00+00:00"
    )


ARTICLE = """<article class="post"><h2 class="entry-title"><a href="{href}">{title}</a></h2>
<div class="entry-meta">Posted on <time datetime="{day}">{day}</time> by <a rel="author" href="/author/lin/">Lin</a></div>
<p>The post's first lines.</p></article>"""


def category(*articles: tuple[str, str, str], aside: str = "") -> str:
    body = "".join(ARTICLE.format(href=h, title=t, day=d) for h, t, d in articles)
    return (
        "<html><head><title>Category: Linux | Notes</title></head><body>"
        f"<h1 class='page-title'>Category: Linux</h1><main>{body}</main>{aside}</body></html>"
    )


def test_a_category_page_of_dated_articles_has_no_date_or_author_of_its_own() -> None:
    html = category(
        ("/2021/03/04/usb/", "Resetting a USB hub", "2021-03-04"),
        ("/2021/02/01/fstab/", "Mounting by label", "2021-02-01"),
    )
    result = meta_of("https://notes.example/category/linux/", html)
    assert (result["published"], result["authors"]) == (None, [])


@pytest.mark.parametrize(
    "html",
    [
        # the post, its title linking to its own address (a permalink), and a teaser
        category(
            ("https://notes.example/2021/03/04/usb/", "Resetting a USB hub", "2021-03-04"),
            ("/2021/02/01/fstab/", "Mounting by label", "2021-02-01"),
        ),
        # a post not in an <article>, with related posts in a sidebar
        "<html><body><h1>Resetting a USB hub</h1><p>Posted on <time>2021-03-04</time></p>"
        "<aside>"
        + ARTICLE.format(href="/a/", title="A", day="2021-01-01")
        + ARTICLE.format(href="/b/", title="B", day="2021-01-02")
        + "</aside></body></html>",
        # a news story not marked up as one, dated under its headline, teasers after it
        "<html><body><main><h1>Resetting a USB hub, explained</h1><p>By Lin, 4 March 2021</p>"
        "<p>The story's text.</p>"
        + ARTICLE.format(href="/a/", title="A", day="2021-01-01")
        + ARTICLE.format(href="/b/", title="B", day="2021-01-02")
        + "</main></body></html>",
        # a post dated just above its headline, teasers in a strip no class names after its text
        "<html><body><div class='post'><div class='date'>March 4, 2021</div>"
        "<h1>Resetting a USB hub, explained</h1><p>The story's text.</p></div>"
        "<section class='more-stories'>"
        + ARTICLE.format(href="/a/", title="A", day="2021-01-01")
        + ARTICLE.format(href="/b/", title="B", day="2021-01-02")
        + "</section></body></html>",
        # a post that says when it was posted after its text, teasers in a strip after it
        "<html><body><div class='post'><h1>Resetting a USB hub, explained</h1>"
        "<p>The story's text. " + "It goes on about the hub and its ports. " * 12 + "</p>"
        "<p class='postmetadata'>This entry was posted on Thursday, March 4th, 2021 and is "
        "filed under Linux.</p></div><div class='more-stories'>"
        + ARTICLE.format(href="/a/", title="A", day="2021-01-01")
        + ARTICLE.format(href="/b/", title="B", day="2021-01-02")
        + "</div></body></html>",
        # a forum thread: each message an <article> whose heading is its poster
        (
            "<html><head><title>Where did it go? | Forum</title></head><body><h1>Where did it go?</h1>"
            "<article class='message'><h4><a href='/members/kim.1/'>kim</a></h4>"
            "<time datetime='2020-03-18'>Mar 18, 2020</time><p>It was here yesterday.</p></article>"
            "</body></html>"
        ),
        # a news page with one teaser marked as an Article (not a blog's post)
        (
            "<html><head><title>Live tonight | News</title></head><body><h1>Live tonight</h1>"
            "<p>Published 2020-03-18</p><div itemscope itemtype='https://schema.org/Article'>"
            "<h3><a href='/special.html'>Our special</a></h3></div></body></html>"
        ),
    ],
)
def test_pages_of_one_post_are_no_listing(html: str) -> None:
    root = fromstring(html)
    titles = [t.text_content() for t in root.iter("title")]
    assert not lists_posts(root, ["https://notes.example/2021/03/04/usb/"], titles)


def test_a_page_listing_posts_declared_an_article_is_read_as_one() -> None:
    html = category(
        ("/2021/03/04/usb/", "Resetting a USB hub", "2021-03-04"),
        ("/2021/02/01/fstab/", "Mounting by label", "2021-02-01"),
    ).replace("</title>", '</title><meta property="og:type" content="article">')
    assert meta_of("https://notes.example/category/linux/", html)["published"] is not None


def test_a_themes_class_around_the_whole_page_does_not_hide_the_posts() -> None:
    """Hexo's NexT wraps every page in ``<div class="container sidebar-position-left">``
    and marks each listed post as a schema.org ``Article``."""
    html = category(
        ("/2019/10/15/golang/go-scheduler/", "Go scheduler", "2019-10-15"),
        ("/2019/07/18/golang/time-json/", "Time and JSON", "2019-07-18"),
    )
    html = html.replace("<body>", "<body><div class='container sidebar-position-left'>")
    html = html.replace(
        '<article class="post">', "<article itemscope itemtype='http://schema.org/Article'>"
    ).replace('<h2 class="entry-title">', '<h2 class="post-title" itemprop="name headline">')
    result = meta_of("https://notes.example/categories/golang/", html)
    assert (result["published"], result["authors"]) == (None, [])


def test_a_page_that_sells_something_is_not_looked_at(monkeypatch: pytest.MonkeyPatch) -> None:
    """A shop's page lists products, not posts; looking would cost its large tree a walk."""
    import webrobot.extract.metadata as module

    asked: list[object] = []
    monkeypatch.setattr(module, "lists_posts", lambda *a: asked.append(a) or True)
    product = '<script type="application/ld+json">{"@type": "Product", "name": "Hub"}</script>'
    html = category(
        ("/p/hub-reviews/1/", "Works well", "2021-03-04"),
        ("/p/hub-reviews/2/", "Broke after a week", "2021-02-01"),
    ).replace("</head>", product + "</head>")
    meta_of("https://shop.example/p/hub/", html)
    assert asked == []
    meta_of("https://notes.example/category/linux/", html.replace(product, ""))
    assert len(asked) == 1


#: Ghost's Casper: each card an <article> whose title stands in a link to the post, its
#: day printed in a span, no <time>.
CASPER_CARD = """<article class="post-card post"><a class="post-card-image-link" href="{href}">
<img src="/img.jpg" alt=""></a><div class="post-card-content"><a class="post-card-content-link"
href="{href}"><header class="post-card-header"><h2 class="post-card-title">{title}</h2></header>
<section class="post-card-excerpt"><p>The first lines of the post.</p></section></a>
<footer class="post-card-meta"><ul class="author-list"><li>Ghost</li></ul>
<span class="post-date">{day}</span></footer></div></article>"""


def test_a_front_page_of_cards_dated_in_their_text_is_a_listing() -> None:
    cards = "".join(
        CASPER_CARD.format(href=h, title=t, day=d)
        for h, t, d in (
            ("/welcome/", "Welcome to Ghost", "Monday January 07 2019"),
            ("/the-editor/", "Writing posts with Ghost", "Sunday January 06 2019"),
        )
    )
    html = (
        "<html><head><title>Example</title></head><body><main id='site-main'>"
        f"<div class='post-feed'>{cards}</div></main></body></html>"
    )
    result = meta_of("https://news.example/", html)
    assert (result["published"], result["authors"]) == (None, [])


#: A Hugo theme's card: the whole card is one link to the post, holding its title, its
#: day and its author.
CARD = """<div class="dream-column"><a class="card" href="/fr/posts/{slug}/">
<figure><img src="/images/{slug}.jpg" alt="{title}"></figure><div class="card-body">
<h2 class="card-title">{title}</h2><p class="date">{day}</p><p>Les premières lignes.</p>
<span itemprop="author" itemscope itemtype="https://schema.org/Person">
<span itemprop="name">Lucie</span></span></div></a></div>"""


def test_a_page_of_cards_that_link_to_posts_has_no_date_or_author_of_its_own() -> None:
    cards = "".join(
        CARD.format(slug=slug, title=title, day=day)
        for slug, title, day in (
            ("biodiversite", "Qu'est-ce que la biodiversité ?", "mardi, avr. 29, 2025"),
            ("partenariat", "Recherche partenariat", "mercredi, avr. 16, 2025"),
        )
    )
    html = (
        "<html lang='fr'><head><title>Page d'Accueil</title></head><body><nav>BiOdyssée</nav>"
        f"<div class='container'><h4>Tous les posts</h4><div class='dream-grid'>{cards}</div>"
        "</div></body></html>"
    )
    result = meta_of("https://asso.example/", html)
    assert result["published"] is None
    assert result["authors"] == []
    # the same cards on a post's page, after its dated headline, leave the post its date
    post = (
        "<html lang='fr'><head><title>Présentation</title></head><body>"
        "<h1>Présentation de l'association</h1><p>mardi, avr. 8, 2025</p><p>Le texte.</p>"
        f"<div class='dream-grid'>{cards}</div></body></html>"
    )
    assert meta_of("https://asso.example/fr/posts/presentation/", post)["published"] == "2025-04-08"


def test_an_article_with_cards_of_other_articles_after_it_is_no_list() -> None:
    # a column, its day printed nowhere near its headline, then cards of the other columns
    cards = "".join(
        CARD.format(slug=slug, title=title, day=day)
        for slug, title, day in (
            ("spiel", "Über das Spiel mit den Pseudonymen", "24. Oktober 2023"),
            ("zeichen", "Über notwendige Zeichen der Anteilnahme", "10. Oktober 2023"),
        )
    )
    body = "".join(f"<p>{'Ein Absatz der Kolumne über das Theater. ' * 8}</p>" for _ in range(5))
    html = (
        "<html lang='de'><head><title>Kolumne: Queer Royal</title></head><body>"
        f"<h1>Kolumne: Queer Royal über Dragqueens</h1>{body}"
        f"<div class='columns'>{cards}</div></body></html>"
    )
    root = fromstring(html)
    url = "https://theater.example/kolumne-queer-royal"
    assert not lists_posts(root, [url], ["Kolumne: Queer Royal"])
    # the same cards after a short introduction are a list
    short = html.replace(body, "<p>Alle Kolumnen.</p>")
    assert lists_posts(fromstring(short), [url], ["Kolumnen"])
